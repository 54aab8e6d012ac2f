import Testing

@testable import FitText

/// The line breaker on synthetic widths (SyntheticText: letters 10, space 5, "-" 6, hyphen 4),
/// against Pango's rules in Tests/oracle/PANGO_RULES.md §4–6.
@Suite struct LineBreakerTests {
    @Test func wordWrapBreaksAtTheLastOpportunityThatFits() {
        let t = SyntheticText("aaa bbb ccc")
        let lines = t.lines(maxWidth: 70)
        #expect(t.texts(lines) == ["aaa bbb ", "ccc"])
        #expect(lines.map(\.range) == [0..<8, 8..<11])
        #expect(lines.map(\.wrapped) == [true, false])
        // The hanging space is not part of the wrapped line's width.
        #expect(t.breaker.width(of: lines[0]) == 65)
        #expect(t.breaker.width(of: lines[1]) == 30)
    }

    @Test func noMaxWidthIsOneLine() {
        let t = SyntheticText("aaa bbb ccc")
        let lines = t.lines(maxWidth: nil)
        #expect(lines == [LineBreaker.Line(range: 0..<11, wrapped: false, hyphenated: false)])
        #expect(t.breaker.width(of: lines[0]) == 100)
    }

    @Test func emptyParagraphIsOneEmptyLine() {
        let t = SyntheticText("")
        #expect(t.lines(maxWidth: 10) == [LineBreaker.Line(range: 0..<0, wrapped: false, hyphenated: false)])
    }

    @Test func trailingWhiteSpaceHangsPastTheGoal() {
        // "aaa " is 35 wide, but the space hangs: the line fits in exactly 30.
        let t = SyntheticText("aaa bbb")
        let lines = t.lines(maxWidth: 30)
        #expect(t.texts(lines) == ["aaa ", "bbb"])
        #expect(t.breaker.width(of: lines[0]) == 30)
    }

    @Test func onlyTheLastOfSeveralSpacesIsZeroed() {
        // PANGO_RULES.md §4: "Hello   world" keeps all but one trailing space in the width.
        let t = SyntheticText("aa  bb")
        let lines = t.lines(maxWidth: 25)
        #expect(t.texts(lines) == ["aa  ", "bb"])
        #expect(t.breaker.width(of: lines[0]) == 25)
    }

    @Test func theLastLineOfAParagraphCountsItsTrailingSpace() {
        let t = SyntheticText("aa ")
        let lines = t.lines(maxWidth: 100)
        #expect(lines.count == 1)
        #expect(t.breaker.width(of: lines[0]) == 25)
    }

    @Test func fitIsWidthLessThanOrEqualToTheGoalInPangoUnits() {
        let t = SyntheticText("aaa bbb")
        #expect(t.lines(maxWidth: 65).count == 1)
        #expect(t.lines(maxWidth: 64.999).count == 2)
        // 64.9998 px rounds to 66560 Pango units = 65 px: it fits, as in Pango (§5).
        #expect(t.lines(maxWidth: 64.9998).count == 1)
        // Half a unit rounds up, as pango_units_from_double does (floor(x + 0.5)).
        #expect(LineBreaker.pangoUnits(76535.5 / 1024) * 1024 == 76536)
        #expect(LineBreaker.pangoUnits(74.741211) * 1024 == 76535)
    }

    @Test func aWordLongerThanTheLineOverflowsOnItsOwnLine() {
        let t = SyntheticText("ab abcdefghij cd")
        let lines = t.lines(maxWidth: 50)
        #expect(t.texts(lines) == ["ab ", "abcdefghij ", "cd"])
        #expect(t.breaker.width(of: lines[1]) == 100)
        #expect(lines.allSatisfy { !$0.hyphenated })
    }

    @Test func zeroWidthPutsOneWordOnEachLine() {
        let t = SyntheticText("ab cd ef")
        #expect(t.texts(t.lines(maxWidth: 0)) == ["ab ", "cd ", "ef"])
    }

    @Test func charWrapBreaksInsideWordsAndDrawsAHyphen() {
        let t = SyntheticText("abcdefgh")
        let lines = t.lines(maxWidth: 45, wrap: .char)
        // "abcd" 40 + hyphen 4 = 44 fits; "abcde" + hyphen = 54 does not.
        #expect(t.texts(lines) == ["abcd‐", "efgh"])
        #expect(t.breaker.width(of: lines[0]) == 44)
        #expect(t.breaker.width(of: lines[1]) == 40)
    }

    @Test func charWrapCountsTheHyphenInTheFit() {
        // "abcd" alone is 40 ≤ 42, but with its hyphen 44 > 42: the break goes one earlier.
        let t = SyntheticText("abcdefgh")
        #expect(t.texts(t.lines(maxWidth: 42, wrap: .char)) == ["abc‐", "def‐", "gh"])
    }

    @Test func charWrapAtZeroWidthPutsOneClusterOnEachLine() {
        let t = SyntheticText("abc")
        let lines = t.lines(maxWidth: 0, wrap: .char)
        #expect(lines.map(\.range) == [0..<1, 1..<2, 2..<3])
    }

    @Test func charWrapPrefersAWordBoundaryThatFitsLater() {
        // CHAR may break anywhere; the last break that fits wins, here after the space.
        let t = SyntheticText("ab cdefgh")
        #expect(t.texts(t.lines(maxWidth: 40, wrap: .char)) == ["ab c‐", "def‐", "gh"])
    }

    @Test func breakingAfterAnExistingHyphenAddsNoHyphen() {
        let t = SyntheticText("aaa-bbbbbb")
        let lines = t.lines(maxWidth: 45, wrap: .wordChar)
        // "aaa-" = 36 ends at the hyphen's break; "bbbbbb" (60) does not fit an empty line and
        // is broken by characters with a drawn hyphen.
        #expect(t.texts(lines) == ["aaa-", "bbbb‐", "bb"])
        #expect(t.breaker.width(of: lines[0]) == 36)
        #expect(t.breaker.width(of: lines[1]) == 44)
    }

    @Test func wordCharBreaksInsideOnlyTheWordThatDoesNotFitAnEmptyLine() {
        let t = SyntheticText("ab abcdefgh cd")
        let lines = t.lines(maxWidth: 45, wrap: .wordChar)
        // "abcdefgh" would fit nowhere: it is re-broken by characters; "ab" and "cd" are not.
        #expect(t.texts(lines) == ["ab ", "abcd‐", "efgh ", "cd"])
        #expect(lines.map(\.hyphenated) == [false, true, false, false])
        // WORD keeps the same long word whole.
        #expect(t.texts(t.lines(maxWidth: 45, wrap: .word)) == ["ab ", "abcdefgh ", "cd"])
    }

    @Test func wordCharRetriesWithCharBreaksBetweenTwoSpaces() {
        // Class 11, PANGO_RULES.md §12 (Pango: "abcdefg  hi", Hack 10, 60 px → "abcdefg "/" hi"):
        // no word break fits, so process_item retries with char breaks, and the break between
        // the two spaces fits once its final space is not counted.
        let t = SyntheticText("abcdefg  hi")
        let lines = t.lines(maxWidth: 72, wrap: .wordChar)
        #expect(t.texts(lines) == ["abcdefg ", " hi"])
        #expect(t.breaker.width(of: lines[0]) == 70)
    }

    @Test func charWrapWithNothingThatFitsLeavesTheSpaceToTheNextLine() {
        // process_item at width 0: "b " is no narrower than "b", so the space starts the next
        // line, where it fits (Pango: "Settings and" → …, "s", " ", "a", …).
        let t = SyntheticText("ab cd")
        #expect(t.texts(t.lines(maxWidth: 0, wrap: .char)) == ["a‐", "b", " ", "c‐", "d"])
    }

    @Test func aTabAfterABreakThatFitsNothingStaysOnTheLine() {
        // "ab\tcd" at width 0, char wrap: a tab is an item Pango always takes whole, so
        // "b\t" is one line (Pango, "tab\tseparated", Roboto 10: …, "b\t", "s", …).
        let breaker = LineBreaker(
            widths: [10, 10, 10, 10, 10], canBreakBefore: [false, true, true, true, true],
            isWhiteSpace: [false, false, true, false, false], hyphenBefore: [], hyphenWidth: 4,
            isTab: [false, false, true, false, false])
        let lines = breaker.lines(maxWidth: 0, wrap: .char, limit: .max)
        #expect(lines.map(\.range) == [0..<1, 1..<3, 3..<4, 4..<5])
    }

    @Test func wordWrapNeverHyphenates() {
        let t = SyntheticText("abcdefgh")
        let lines = t.lines(maxWidth: 45, wrap: .word)
        #expect(t.texts(lines) == ["abcdefgh"])
        #expect(t.breaker.breakInsertsHyphen(before: 4, wrap: .word) == false)
        #expect(t.breaker.breakInsertsHyphen(before: 4, wrap: .char) == true)
    }

    @Test func theLineLimitsLastLineTakesTheRestUnwrapped() {
        let t = SyntheticText("aaa bbb ccc ddd")
        let lines = t.lines(maxWidth: 35, limit: 2)
        #expect(t.texts(lines) == ["aaa ", "bbb ccc ddd"])
        #expect(lines[1] == LineBreaker.Line(range: 4..<15, wrapped: false, hyphenated: false))
        #expect(t.breaker.width(of: lines[1]) == 100)
        // A limit of one is the whole paragraph on one line (what ellipsizing then shortens).
        #expect(t.lines(maxWidth: 35, limit: 1).map(\.range) == [0..<15])
        // A limit larger than needed changes nothing.
        #expect(t.texts(t.lines(maxWidth: 35, limit: 10)) == ["aaa ", "bbb ", "ccc ", "ddd"])
    }

    @Test func linesCoverTheParagraphWithoutGapsOrOverlaps() {
        let t = SyntheticText("The quick brown-fox jumps over the W lazy dog again and again")
        for wrap in WrapMode.allCases {
            for width in stride(from: 0.0, through: 200, by: 7) {
                let lines = t.lines(maxWidth: width, wrap: wrap)
                #expect(lines.first?.range.lowerBound == 0)
                #expect(lines.last?.range.upperBound == t.clusters.count)
                for (a, b) in zip(lines, lines.dropFirst()) {
                    #expect(a.range.upperBound == b.range.lowerBound)
                    #expect(!a.range.isEmpty)
                }
            }
        }
    }
}

/// Where a line ends does not depend on how far the breaker reads past it: stopping once
/// the line (white space included) is past the goal gives the lines reading on would.
@Suite struct LineEndSearchTests {
    @Test func aLongRunOfSpacesBreaksEveryFewSpaces() {
        // "a" (5) then 100,000 spaces (3): the first line holds "a" and two spaces, each
        // later one four spaces (three of them counted, 9 ≤ 10; the fourth hangs).
        let count = 100_001
        let breaker = LineBreaker(
            widths: [5] + Array(repeating: 3, count: count - 1), canBreakBefore: [],
            isWhiteSpace: [false] + Array(repeating: true, count: count - 1), hyphenBefore: [], hyphenWidth: 1)
        let lines = breaker.lines(maxWidth: 10, wrap: .char, limit: .max)
        #expect(lines.first?.range == 0..<3)
        #expect(lines.dropFirst().dropLast().allSatisfy { $0.range.count == 4 })
        #expect(lines.count == 1 + (count - 3 + 3) / 4)
        #expect(lines.last?.range.upperBound == count)
    }

    /// Negative widths (negative letter spacing) let a line shrink as it grows, so the search
    /// reads on past a width over the goal, as before: a later break can still fit.
    @Test func shrinkingWidthsStillFindTheLastBreakThatFits() {
        // "a" 5 px, a space 8 px (13 px in all, over the goal of 10), then clusters of -4 px:
        // the line is back under the goal at once, and the whole paragraph ends at 1 px.
        let breaker = LineBreaker(
            widths: [5, 8, -4, -4, -4], canBreakBefore: [], isWhiteSpace: [false, true, false, false, false],
            hyphenBefore: [], hyphenWidth: 0)
        #expect(!breaker.widthsGrow)
        #expect(breaker.lines(maxWidth: 10, wrap: .char, limit: .max).map(\.range) == [0..<5])
    }
}

extension LineEndSearchTests {
    /// With shrinking widths the search gives up `shrinkingLookahead` clusters past the last
    /// break that fits (or the line's start): a break further on is not found, where Pango
    /// would find it, and a line costs at most that much more than its own length.
    @Test func shrinkingWidthsAreSearchedABoundedWayPastTheLastFit() {
        // 5 px, then clusters of 1 px with no break before them, then a -1000 px cluster that
        // brings the line far under the goal, and a break before the last cluster.
        func breaker(ones: Int) -> LineBreaker {
            LineBreaker(
                widths: [5] + Array(repeating: 1, count: ones) + [-1_000, 1],
                canBreakBefore: Array(repeating: false, count: ones + 2) + [true], isWhiteSpace: [], hyphenBefore: [],
                hyphenWidth: 0)
        }
        // Within reach: the whole paragraph fits on the line (it ends at -728 px).
        let near = breaker(ones: 10)
        #expect(near.lineEnd(from: 0, goal: 300, wrap: .word) == near.count)
        // Out of reach: no break that fits is found, and the word overflows to the next break.
        let far = breaker(ones: LineBreaker.shrinkingLookahead + 10)
        #expect(far.lineEnd(from: 0, goal: 300, wrap: .word) == far.count - 1)
    }
}
