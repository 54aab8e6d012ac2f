import Testing
@testable import FitLayout

/// Breakpoints (protocol/README.md): per decision, the widths over which each outcome holds.
@Suite struct BreakpointTests {
    func card() -> [LayoutNode] {
        [
            node("card", nil, .firstFit, .init(axes: .horizontal)),
            node("row", "card", .hstack, .init(spacing: 8)),
            image("rowIcon", "row"),
            text("rowLabel", "row", "Screen time this week"),
            node("column", "card", .vstack, .init(spacing: 4)),
            image("columnIcon", "column"),
            text("columnLabel", "column", "Screen time this week"),
        ]
    }

    func breakpoints(_ nodes: [LayoutNode], _ range: BreakpointRange, height: Double? = nil) throws -> LayoutBreakpoints {
        let options = LayoutOptions(breakpoints: range)
        let result = try LayoutDocument(nodes: nodes).layout(in: ProposedSize(width: 300, height: height), options: options, measurer: measurer)
        return try #require(result.breakpoints)
    }

    @Test func firstFitChangesWhereTheRowsIdealWidthFits() throws {
        // The row is 20 + 8 + 210 = 238 wide: the column below, the row from 238 on.
        let found = try breakpoints(card(), BreakpointRange(from: 100, to: 400))
        #expect(found.decisions["card"] == [
            DecisionInterval(from: 100, to: 237, candidate: 1, exactFrom: 100),
            DecisionInterval(from: 238, to: 400, candidate: 0, exactFrom: 238),
        ])
        // Proposed 0 the column's label is 0 wide, the icon 20; ideal, the row, 238.
        #expect(found.minContentWidth == 20)
        #expect(found.maxContentWidth == 238)
    }

    @Test func aStepOtherThanOneAndARangeWithoutAChange() throws {
        let coarse = try breakpoints(card(), BreakpointRange(from: 100, to: 400, step: 5))
        // 235 is the last grid width below 238, 240 the first above.
        #expect(coarse.decisions["card"] == [
            DecisionInterval(from: 100, to: 235, candidate: 1, exactFrom: 100),
            DecisionInterval(from: 240, to: 400, candidate: 0, exactFrom: 238),
        ])
        let wide = try breakpoints(card(), BreakpointRange(from: 300, to: 300))
        #expect(wide.decisions["card"] == [DecisionInterval(from: 300, to: 300, candidate: 0, exactFrom: 300)])
    }

    @Test func theExactFlipIsTheFirstPangoUnitAtWhichTheCandidateFits() throws {
        // Spacing 8.3: the row is 238.3 wide. On the whole-px grid the row is shown from 239;
        // exactly, from the first 1/1024 px at or above 238.3: 244,020 / 1024.
        var nodes = card()
        nodes[1] = node("row", "card", .hstack, .init(spacing: 8.3))
        let found = try breakpoints(nodes, BreakpointRange(from: 100, to: 400))
        let intervals = try #require(found.decisions["card"])
        #expect(intervals.map(\.from) == [100, 239])
        #expect(intervals.last?.exactFrom == 244_020.0 / 1024)
        // Just below it the column is still chosen, at it the row: the flip is where it says.
        let below = try LayoutDocument(nodes: nodes).layout(in: ProposedSize(width: 244_019.0 / 1024, height: nil), options: .init(), measurer: measurer)
        let at = try LayoutDocument(nodes: nodes).layout(in: ProposedSize(width: 244_020.0 / 1024, height: nil), options: .init(), measurer: measurer)
        #expect(below.decision("card")?.candidate == 1)
        #expect(at.decision("card")?.candidate == 0)
    }

    @Test func cellsHaveNoExactFlips() throws {
        let options = LayoutOptions(unit: .cells, breakpoints: BreakpointRange(from: 0, to: 60))
        let result = try LayoutDocument(nodes: card()).layout(in: ProposedSize(width: 30, height: nil), options: options, measurer: measurer)
        let intervals = try #require(result.breakpoints?.decisions["card"])
        #expect(intervals.allSatisfy { $0.exactFrom == nil })
    }

    @Test func seed000ListAndAThresholdInOneDocument() throws {
        let nodes = [
            node("screen", nil, .vstack, .init(spacing: 0)),
            node("payment", "screen", .threshold, .init(spacing: 8, category: .accessibilityMedium)),
            text("merchant", "payment", "Joe's"),
            node("list", "screen", .uniformFit, .init(spacing: 8, axis: .vertical)),
            node("rent", "list", .choice),
            node("rentRow", "rent", .hstack, .init(spacing: 8)),
            image("rentRowIcon", "rentRow"),
            text("rentRowLabel", "rentRow", "Groceries and household"),
            text("rentColumnLabel", "rent", "Groceries"),
        ]
        // Row: 20 + 8 + 230 = 258.
        let found = try breakpoints(nodes, BreakpointRange(from: 0, to: 1000))
        #expect(found.decisions["list"] == [
            DecisionInterval(from: 0, to: 257, candidate: 1, exactFrom: 0),
            DecisionInterval(from: 258, to: 1000, candidate: 0, exactFrom: 258),
        ])
        #expect(found.decisions["payment"] == [DecisionInterval(from: 0, to: 1000, axis: .horizontal, exactFrom: 0)])
    }

    @Test func badRangesAreRefusedByName() {
        for range in [
            BreakpointRange(from: 10, to: 5), BreakpointRange(from: -1, to: 5), BreakpointRange(from: 0, to: .infinity),
            BreakpointRange(from: 0, to: 10, step: 0), BreakpointRange(from: 0, to: 10, step: .nan),
            BreakpointRange(from: 0, to: 2_000_000, step: 1),
        ] {
            #expect(throws: LayoutError.self) { _ = try breakpoints(card(), range) }
            do {
                _ = try breakpoints(card(), range)
            } catch let error as LayoutError {
                guard case .invalidBreakpoints = error else {
                    Issue.record("expected invalidBreakpoints, got \(error)")
                    continue
                }
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }
}

@Suite struct BreakpointBoundTests {
    @Test func aDocumentThatFlipsAtManyWidthsStopsAtTheBudgetAndKeepsTheMainResult() throws {
        // 40 firstFits whose first candidate is k0 px wide: 40 changes, ~20 layouts each, more
        // than the budget. The call still answers: the main layout whole, the intervals up to
        // the last width searched, and `truncated`.
        var nodes = [node("root", nil, .vstack)]
        for index in 0..<40 {
            nodes += [
                node("pick\(index)", "root", .firstFit),
                image("wide\(index)", "pick\(index)", Double(100 + index * 7)),
                image("narrow\(index)", "pick\(index)", 1),
            ]
        }
        let options = LayoutOptions(breakpoints: BreakpointRange(from: 0, to: 1000, step: 0.01))
        let stopped = try LayoutDocument(nodes: nodes).layout(in: ProposedSize(width: 300, height: nil), options: options, measurer: measurer)
        let plain = try LayoutDocument(nodes: nodes).layout(in: ProposedSize(width: 300, height: nil), measurer: measurer)
        #expect(stopped.nodes == plain.nodes)
        #expect(stopped.decisions == plain.decisions)
        let partial = try #require(stopped.breakpoints)
        #expect(partial.truncated)
        let pick0 = try #require(partial.decisions["pick0"])
        #expect(pick0.first?.from == 0)
        let lastKnown = try #require(pick0.last?.to)
        #expect(lastKnown < 1000)
        // Every decision's intervals end at the same last width searched.
        #expect(partial.decisions.values.allSatisfy { $0.last?.to == lastKnown })
    }

    @Test func theBreakpointBudgetIsWorkNotLayouts() throws {
        // 16 firstFits flipping at 16 widths (~200 layouts) and fillers, 2,000 nodes: the
        // budget is 256,000 node layouts, so 128 layouts, not 256.
        var nodes = [node("root", nil, .vstack)]
        for index in 0..<16 {
            nodes += [node("pick\(index)", "root", .firstFit), image("wide\(index)", "pick\(index)", Double(100 + index * 50)),
                      image("narrow\(index)", "pick\(index)", 1)]
        }
        let small = nodes
        for index in 0..<(2000 - small.count) { nodes.append(image("filler\(index)", "root", 1)) }
        let options = LayoutOptions(breakpoints: BreakpointRange(from: 0, to: 1000, step: 0.01))
        let result = try LayoutDocument(nodes: nodes).layout(in: ProposedSize(width: 300, height: nil), options: options, measurer: measurer)
        #expect(result.breakpoints?.truncated == true)
        // The same flips without the fillers fit the budget (256 layouts), all found.
        let found = try LayoutDocument(nodes: small).layout(in: ProposedSize(width: 300, height: nil), options: options, measurer: measurer)
        #expect(found.breakpoints?.truncated == false)
    }

    @Test func aFewFlipsAreFoundExactly() throws {
        let options = LayoutOptions(breakpoints: BreakpointRange(from: 0, to: 1000, step: 0.01))
        var nodes = [node("root", nil, .vstack)]
        for index in 0..<40 {
            nodes += [
                node("pick\(index)", "root", .firstFit),
                image("wide\(index)", "pick\(index)", Double(100 + index * 7)),
                image("narrow\(index)", "pick\(index)", 1),
            ]
        }
        // Five of them fit the budget, and every change is found.
        let few = Array(nodes.prefix(1 + 5 * 3))
        let result = try LayoutDocument(nodes: few).layout(in: ProposedSize(width: 300, height: nil), options: options, measurer: measurer)
        // 128 = 100 + 4 × 7 is the first grid width where the wide image fits (the grid
        // widths are from + k × step in doubles: 12799 × 0.01 is 127.99000000000001).
        let pick4 = try #require(result.breakpoints?.decisions["pick4"])
        #expect(pick4.map(\.candidate) == [1, 0])
        #expect(pick4.first.map { abs($0.to - 127.99) < 1e-9 } == true)
        #expect(pick4.last?.from == 128 && pick4.last?.to == 1000)
    }

    @Test func manyDecisionsAreReportedUpToTheIntervalCapInDocumentOrderAndFlagged() throws {
        // 1,100 firstFits, one interval each over a one-width range: 1,024 reported, whole.
        var nodes = [node("root", nil, .vstack)]
        for index in 0..<1100 {
            nodes += [node("pick\(index)", "root", .firstFit), image("wide\(index)", "pick\(index)", 50), image("narrow\(index)", "pick\(index)", 1)]
        }
        let options = LayoutOptions(breakpoints: BreakpointRange(from: 300, to: 300))
        let result = try LayoutDocument(nodes: nodes).layout(in: ProposedSize(width: 300, height: nil), options: options, measurer: measurer)
        let found = try #require(result.breakpoints)
        #expect(found.truncated)
        #expect(found.decisions.count == LayoutLimits.maxBreakpointIntervals)
        #expect(found.decisions["pick1023"] != nil && found.decisions["pick1024"] == nil)
        let few = try LayoutDocument(nodes: Array(nodes.prefix(1 + 10 * 3))).layout(
            in: ProposedSize(width: 300, height: nil), options: options, measurer: measurer)
        #expect(few.breakpoints?.truncated == false && few.breakpoints?.decisions.count == 10)
    }

    @Test func aChoicePointWithTooManyCandidatesInsideAListIsRefused() {
        var nodes = [node("list", nil, .uniformFit), node("c", "list", .choice)]
        for index in 0...LayoutLimits.maxChoicePositions { nodes.append(text("t\(index)", "c", "x")) }
        guard case .invalidChildren(let at, _)? = refusal(nodes) else {
            Issue.record("expected invalidChildren")
            return
        }
        #expect(at.id == "c")
        nodes.removeLast()
        #expect(refusal(nodes) == nil)
    }
}

@Suite struct BreakpointVisibilityTests {
    @Test func aThresholdShownOnlyInOneCandidateIsMinusOneWhereHidden() throws {
        // The card's row (238 wide) holds a threshold; below 238 the column is shown and the
        // threshold is not: -1 there, then horizontal.
        let nodes = [
            node("card", nil, .firstFit, .init(axes: .horizontal)),
            node("row", "card", .threshold, .init(spacing: 8, category: .accessibilityMedium)),
            image("rowIcon", "row"),
            text("rowLabel", "row", "Screen time this week"),
            text("columnLabel", "card", "Screen time"),
        ]
        let result = try LayoutDocument(nodes: nodes).layout(
            in: ProposedSize(width: 300, height: nil), options: LayoutOptions(breakpoints: BreakpointRange(from: 100, to: 400)),
            measurer: measurer)
        #expect(result.breakpoints?.decisions["row"] == [
            DecisionInterval(from: 100, to: 237, candidate: -1, exactFrom: 100),
            DecisionInterval(from: 238, to: 400, axis: .horizontal, exactFrom: 238),
        ])
    }
}
