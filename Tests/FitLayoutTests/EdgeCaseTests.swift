import Testing
@testable import FitLayout

@Suite struct EdgeCaseTests {
    @Test func emptyStacksAreZeroSizedAtAnyProposal() throws {
        for kind in [LayoutNodeKind.hstack, .vstack, .zstack, .fitting, .uniformFit] {
            for proposal in [ProposedSize.unspecified, .zero, .infinity, ProposedSize(width: 100, height: 50)] {
                let result = try LayoutDocument(nodes: [node("empty", nil, kind)]).layout(in: proposal, measurer: measurer)
                #expect(result.size == .zero)
            }
        }
    }

    /// Found by Tests/Fuzzing (fuzz-layout-wire): a finite proposal of more characters than
    /// Int holds trapped in FixedAdvanceMeasurer instead of measuring unwrapped.
    @Test func hugeFiniteProposalMeasuresTextUnwrapped() throws {
        for width in [1e300, Double.greatestFiniteMagnitude, 9.3e19] {
            let result = try layout([text("t", nil, "two words")], width: width)
            #expect(result.frame("t") == rect(0, 0, 90, 20))
        }
    }

    func card() -> [LayoutNode] {
        [
            node("card", nil, .firstFit, .init(axes: .horizontal)),
            node("row", "card", .hstack, .init(spacing: 8)),
            image("rowIcon", "row"), text("rowLabel", "row", "Screen time"),
            node("column", "card", .vstack, .init(spacing: 4)),
            image("columnIcon", "column"), text("columnLabel", "column", "Screen time"),
        ]
    }

    @Test func zeroProposalChoosesTheLastCandidateAtItsMinimum() throws {
        // Nothing has an ideal width ≤ 0 → the column; its label at width 0 shows nothing.
        // Column: the icon keeps 20×20; 20 + 4 + 20 = 44 tall.
        let result = try layout(card(), width: 0, height: 0)
        #expect(result.decision("card")?.candidateID == "column")
        #expect(result.size == LayoutSize(width: 20, height: 44))
        #expect(result.frame("columnLabel") == rect(10, 24, 0, 20))
        #expect(result.node("columnLabel")?.text?.truncated == true)
        #expect(result.truncated)
    }

    @Test func infiniteProposalFitsTheFirstCandidateAndSpacersTakeInfinity() throws {
        let result = try layout(card(), width: .infinity, height: .infinity)
        #expect(result.decision("card")?.candidateID == "row")
        #expect(result.size == LayoutSize(width: 138, height: 20))
        let spread = try layout([node("row", nil, .hstack), text("a", "row", "a"), node("gap", "row", .spacer)], width: .infinity)
        #expect(spread.size.width == .infinity)
        #expect(spread.frame("a") == rect(0, 0, 10, 20))
    }

    @Test func nothingFitsTakesTheLast() throws {
        // Row 138 and column 110 both exceed 50.
        let result = try layout(card(), width: 50)
        #expect(result.decision("card")?.candidate == 1)
        // The column laid out at 50 (5 characters a line): "Screen" is cut, so the lines are
        // "Scree" / "n" / "time" → 50 wide, 3 × 20 tall, below the icon and 4 of spacing.
        #expect(result.frame("columnLabel") == rect(0, 24, 50, 60))
    }

    @Test func candidatesOfEqualSizeTakeTheFirstWhenItFitsAndTheLastWhenNone() throws {
        let nodes = [
            node("choice", nil, .firstFit),
            node("a", "choice", .frame, .init(width: 100, height: 10)), node("a0", "a", .spacer),
            node("b", "choice", .frame, .init(width: 100, height: 10)), node("b0", "b", .spacer),
        ]
        #expect(try layout(nodes, width: 100, height: 10).decision("choice")?.candidateID == "a")
        #expect(try layout(nodes, width: 99, height: 10).decision("choice")?.candidateID == "b")
        #expect(try layout(nodes, width: 100, height: 9).decision("choice")?.candidateID == "b")
        // Axes: horizontal ignores the height.
        var horizontal = nodes
        horizontal[0].properties.axes = .horizontal
        #expect(try layout(horizontal, width: 100, height: 9).decision("choice")?.candidateID == "a")
    }

    @Test func framesAndPaddingFollowSwiftUI() throws {
        let nodes = [
            node("outer", nil, .frame, .init(minWidth: 100, maxWidth: 200, alignment: .leading)),
            node("pad", "outer", .padding, .init(length: 5)),
            text("label", "pad", "abc"),
        ]
        // Child 30 + 10 = 40; proposal 300 → clamp to [100, 200] = 200; label at leading.
        #expect(try layout(nodes, width: 300).frame("outer") == rect(0, 0, 200, 30))
        #expect(try layout(nodes, width: 300).frame("label") == rect(5, 5, 30, 20))
        // Proposal 150 inside the range → 150; ideal (nil) → max(100, 40) = 100.
        #expect(try layout(nodes, width: 150).size.width == 150)
        #expect(try layout(nodes, width: nil).size.width == 100)
        // fixedSize: the text ignores the narrow proposal.
        let fixed = [node("fix", nil, .fixedSize, .init(vertical: false)), text("long", "fix", "a long label")]
        #expect(try layout(fixed, width: 50).size == LayoutSize(width: 120, height: 20))
    }

    @Test func truncationKeepsTheLineLimit() throws {
        let result = try layout([text("t", nil, "Joe's Coffee Shop", lineLimit: 1)], width: 110)
        #expect(result.size == LayoutSize(width: 110, height: 20))
        #expect(result.node("t")?.text == TextOutcome(scale: 1, lineCount: 1, truncated: true))
    }

    @Test func ownMinimumScaleFactorShrinksOneText() throws {
        var label = text("t", nil, "1/1000s", lineLimit: 1)
        label.properties.minimumScaleFactor = 0.5
        // 70 in 56 → 0.8 (7 × 8 = 56).
        let result = try layout([label], width: 56)
        #expect(result.node("t")?.text?.scale == 0.8)
        #expect(result.size == LayoutSize(width: 56, height: 16))
    }

    @Test func aChainAtTheDepthLimitLaysOut() throws {
        var nodes = [node("n0", nil, .vstack)]
        for depth in 1...LayoutLimits.maxDepth { nodes.append(node("n\(depth)", "n\(depth - 1)", .vstack)) }
        nodes[LayoutLimits.maxDepth] = text("n\(LayoutLimits.maxDepth)", "n\(LayoutLimits.maxDepth - 1)", "deep")
        let result = try layout(nodes, width: 100)
        #expect(result.size == LayoutSize(width: 40, height: 20))
    }

    @Test func tenThousandSiblingsLayOut() throws {
        var nodes = [node("list", nil, .vstack, .init(spacing: 0))]
        for index in 1..<LayoutLimits.maxNodes { nodes.append(text("t\(index)", 0, "x")) }
        let result = try layout(nodes, width: 100)
        #expect(result.size == LayoutSize(width: 10, height: Double(LayoutLimits.maxNodes - 1) * 20))
    }

    @Test func aTextBelowAnInfiniteSpacerReportsNoBaselineRatherThanNaN() throws {
        // Proposed height ∞: the spacer takes ∞ and the inner stack sits at y = ∞, where
        // y − y is NaN. No node may report a baseline that is not a finite number.
        let nodes = [
            node("outer", nil, .vstack), node("gap", "outer", .spacer),
            node("inner", "outer", .vstack), text("t", "inner", "Hello"),
        ]
        let result = try layout(nodes, width: 100, height: .infinity)
        for laid in result.nodes {
            for value in [laid.firstBaseline, laid.lastBaseline].compactMap({ $0 }) {
                #expect(value.isFinite, "\(laid.id) reports a baseline \(value)")
            }
        }
        #expect(result.node("outer")?.firstBaseline == nil)
    }

    @Test func aRightToLeftGridWithAnInfiniteCellPlacesItAtANumber() throws {
        // Proposed width ∞, a frame(maxWidth: ∞) cell: the mirrored x was ∞ − 0 − ∞ = NaN.
        let nodes = [
            node("grid", nil, .grid, .init(layoutDirection: .rightToLeft)), node("row", "grid", .gridRow),
            node("wide", "row", .frame, .init(maxWidth: .infinity)), text("t", "wide", "a"), text("b", "row", "b"),
        ]
        let result = try layout(nodes, width: .infinity)
        for laid in result.nodes {
            let frame = laid.frame
            #expect(![frame.x, frame.y, frame.width, frame.height].contains { $0.isNaN }, "\(laid.id) at \(frame)")
        }
    }

    /// Random documents of every placing container, with right-to-left and baseline
    /// alignments, under infinite proposals: no frame field is NaN, no baseline is not finite.
    @Test func randomDocumentsUnderInfiniteProposalsNeverReportNaN() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let alignments: [LayoutAlignment] = [
            .center, .leading, .trailing, .top, .bottom, .topLeading,
            LayoutAlignment(horizontal: .trailing, vertical: .firstTextBaseline),
            LayoutAlignment(horizontal: .leading, vertical: .lastTextBaseline),
        ]
        let containers: [LayoutNodeKind] = [.hstack, .vstack, .zstack, .flow, .grid, .frame, .padding, .overlay, .background]
        func build(_ parent: String?, _ depth: Int, into nodes: inout [LayoutNode]) {
            let id = "n\(nodes.count)"
            let leaf = depth >= 4 || next(3) == 0
            if leaf {
                switch next(3) {
                case 0: nodes.append(text(id, parent.map { .id($0) }, ["a", "bb cc", "ddd eee fff"][next(3)]))
                case 1: nodes.append(node(id, parent.map { .id($0) }, .spacer))
                default: nodes.append(image(id, parent.map { .id($0) }, 10))
                }
                return
            }
            let kind = containers[next(containers.count)]
            var properties = LayoutProperties()
            if kind != .frame, kind != .padding { properties.alignment = alignments[next(alignments.count)] }
            if next(2) == 0 { properties.layoutDirection = .rightToLeft }
            if kind == .frame {
                if next(2) == 0 { properties.maxWidth = .infinity } else { properties.maxHeight = .infinity }
                properties.alignment = alignments[next(alignments.count)]
            }
            nodes.append(node(id, parent.map { .id($0) }, kind, properties))
            let count = kind == .frame || kind == .padding ? 1 : kind == .overlay || kind == .background ? 2 : 1 + next(3)
            for _ in 0..<count {
                if kind == .grid, next(4) != 0 {
                    let row = "n\(nodes.count)"
                    nodes.append(node(row, .id(id), .gridRow))
                    for _ in 0..<(1 + next(3)) { build(row, depth + 2, into: &nodes) }
                } else {
                    build(id, depth + 1, into: &nodes)
                }
            }
        }
        let proposals: [ProposedSize] = [
            .infinity, ProposedSize(width: .infinity, height: nil), ProposedSize(width: nil, height: .infinity),
            ProposedSize(width: .infinity, height: 100), ProposedSize(width: 100, height: .infinity),
        ]
        for _ in 0..<300 {
            var nodes: [LayoutNode] = []
            build(nil, 0, into: &nodes)
            let prepared = try PreparedLayout(LayoutDocument(nodes: nodes))
            for proposal in proposals {
                let result = try prepared.layout(in: proposal, measurer: measurer)
                for laid in result.nodes {
                    let frame = laid.frame
                    let baselines = [laid.firstBaseline, laid.lastBaseline].compactMap { $0 }
                    if [frame.x, frame.y, frame.width, frame.height].contains(where: \.isNaN) || baselines.contains(where: { !$0.isFinite }) {
                        Issue.record("\(laid.id) at \(frame), baselines \(baselines), proposal \(proposal), document \(nodes.map { "\($0.id):\($0.kind)" })")
                        return
                    }
                }
            }
        }
    }
}
