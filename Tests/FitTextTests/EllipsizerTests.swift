import Testing

@testable import FitText

/// The ellipsizer on synthetic widths, after Pango's ellipsize.c (PANGO_RULES.md §7): the gap
/// starts at the cluster under the line's start, middle or end and grows one cluster at a
/// time on the side that keeps it most centred, until the rest plus the ellipsis fits.
@Suite struct EllipsizerTests {
    private func cut(
        _ text: String, _ mode: EllipsizeMode, goal: Double, ellipsis: Double = 10
    ) -> (kept: String, line: EllipsizedLine)? {
        let t = SyntheticText(text)
        guard let line = Ellipsizer.ellipsize(0..<t.clusters.count, widths: t.widths, mode: mode, goal: goal, ellipsisWidth: ellipsis)
        else { return nil }
        return (t.text(line.head) + "…" + t.text(line.tail), line)
    }

    @Test func endKeepsTheStart() throws {
        // 10 clusters of 10; 4 of them and the ellipsis make 50 ≤ 55, 5 would make 60.
        let r = try #require(cut("abcdefghij", .end, goal: 55))
        #expect(r.kept == "abcd…")
        #expect(r.line == EllipsizedLine(head: 0..<4, tail: 10..<10, gapStart: 4))
    }

    @Test func startKeepsTheEnd() throws {
        let r = try #require(cut("abcdefghij", .start, goal: 55))
        #expect(r.kept == "…ghij")
        #expect(r.line == EllipsizedLine(head: 0..<0, tail: 6..<10, gapStart: 0))
    }

    @Test func middleGrowsTheGapOnTheSideThatKeepsItCentred() throws {
        // Centre 50: the gap starts at "f" (50–60), then takes e (left, closer), g (a tie goes
        // right), d, h, c: 60 removed, 40 kept + 10 ellipsis = 50 ≤ 55.
        let r = try #require(cut("abcdefghij", .middle, goal: 55))
        #expect(r.kept == "ab…ij")
        #expect(r.line == EllipsizedLine(head: 0..<2, tail: 8..<10, gapStart: 2))
    }

    @Test func middleWithUnevenWidthsStartsAtTheClusterUnderTheCentre() throws {
        // a b c W d e f: 10 10 10 30 10 10 10 = 90, centre 45 lies in "W" (30–60).
        let r = try #require(cut("abcWdef", .middle, goal: 45))
        // Gap W (30–60); c → 20 or d → 70 are both 25 from the centre, a tie goes right: W d;
        // then c (25 vs 35): c W d, 50 removed, 40 + 10 > 45; then b or e are both 35 away →
        // right: c W d e, 60 removed, 30 + 10 = 40 ≤ 45.
        #expect(r.kept == "ab…f")
        #expect(r.line.head == 0..<2)
        #expect(r.line.tail == 6..<7)
    }

    @Test func endCutsInsideWordsOneClusterAtATime() throws {
        let r = try #require(cut("aa bb cc", .end, goal: 50))
        // "aa bb" = 45 + 10 > 50, "aa b" = 35 + 10 = 45 ≤ 50: the cut falls inside "bb".
        #expect(r.kept == "aa b…")
    }

    @Test func aLineThatFitsIsNotEllipsized() {
        #expect(cut("abcde", .end, goal: 50) == nil)
        #expect(cut("abcde", .middle, goal: 50.0) == nil)
        #expect(cut("", .end, goal: 0) == nil)
    }

    @Test func modeNoneNeverEllipsizes() {
        #expect(cut("abcdefghij", .none, goal: 5) == nil)
    }

    @Test(arguments: [EllipsizeMode.start, .middle, .end])
    func anEllipsisWiderThanTheGoalRemovesEverything(_ mode: EllipsizeMode) throws {
        // The caller then reports the width of the ellipsis alone (PANGO_RULES.md §7:
        // "Hello" @3 px → 13.333, the ellipsis only).
        let r = try #require(cut("abc", mode, goal: 5, ellipsis: 13))
        #expect(r.kept == "…")
        #expect(r.line.head.isEmpty)
        #expect(r.line.tail.isEmpty)
    }

    @Test func theResultFitsWheneverTheEllipsisAloneFits() {
        let t = SyntheticText("The quick brown-fox jumps W over the lazy dog")
        let total = t.widths.reduce(0, +)
        for mode in [EllipsizeMode.start, .middle, .end] {
            for goal in stride(from: 10.0, to: total, by: 3) {
                guard let line = Ellipsizer.ellipsize(0..<t.clusters.count, widths: t.widths, mode: mode, goal: goal, ellipsisWidth: 10)
                else {
                    Issue.record("\(mode) at \(goal) did not ellipsize a line of \(total)")
                    continue
                }
                let kept = t.widths[line.head].reduce(0, +) + t.widths[line.tail].reduce(0, +)
                #expect(kept + 10 <= goal, "\(mode) at \(goal)")
                // One more cluster back would not fit: the gap is as small as it can be.
                #expect(line.head.upperBound <= line.tail.lowerBound)
            }
        }
    }

    // MARK: spans (ellipsize.c starts_at_ / ends_at_ellipsization_boundary)

    @Test func theGapWidensToWholeSpansAndSkipsZeroWidthUnits() throws {
        // Units a b c d e of 10, 0, 10, 10, 10 (Pango units): a zero-width unit never ends a
        // step of remove_one_span, so the step after a takes b and c together.
        let gap = try #require(
            Ellipsizer.gap(
                widths: [10, 0, 10, 10, 10], mode: .start, goal: 35, startsSpan: { _ in true }, endsSpan: { _ in true },
                ellipsisWidth: { (_: Int) -> Int64 in 10 }))
        // Centre 0: the gap is a; 40 − 10 + 10 > 35, so one step more: b (0 wide) and c.
        #expect(gap.first == 0)
        #expect(gap.last == 2)
        #expect(gap.kept == 20)
    }

    @Test func theInitialGapEndsWhereASpanEnds() throws {
        // A span that ends only after unit 2 (endsSpan false for 0 and 1): the first gap of an
        // ellipsis at the start is units 0–2, even when unit 0 alone would have been enough.
        let gap = try #require(
            Ellipsizer.gap(
                widths: [10, 10, 10, 10], mode: .start, goal: 35, startsSpan: { _ in true }, endsSpan: { $0 >= 2 },
                ellipsisWidth: { (_: Int) -> Int64 in 5 }))
        #expect(gap.first == 0)
        #expect(gap.last == 2)
        #expect(gap.kept == 10)
    }

    @Test func theMiddleIsHalfTheWidthInWholeUnits() throws {
        // 3 units of 1: centre 3 / 2 = 1 (C integer division), inside the second unit.
        let gap = try #require(
            Ellipsizer.gap(
                widths: [1, 1, 1], mode: .middle, goal: 2, startsSpan: { _ in true }, endsSpan: { _ in true },
                ellipsisWidth: { (_: Int) -> Int64 in 0 }))
        #expect(gap.first == 1)
        #expect(gap.last == 1)
    }
}
