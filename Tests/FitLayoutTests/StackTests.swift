import Testing
@testable import FitLayout

/// Stacks against docs/swiftui-layout.md section 1's worked examples, with the
/// fixed-advance measurer (10 px a character, 20 px a line, baseline 16 px down).
@Suite struct StackTests {
    /// E1: `HStack { Text("Joe's Coffee Shop"); Spacer(); Text("$2.34") }`, no spacing given.
    func paymentRow(gapPriority: Double? = nil) -> [LayoutNode] {
        [
            node("row", nil, .hstack),
            text("merchant", "row", "Joe's Coffee Shop"),
            node("gap", "row", .spacer, .init(layoutPriority: gapPriority)),
            text("amount", "row", "$2.34"),
        ]
    }

    @Test func aSpacerTakesOnlyWhatTheTextsLeave() throws {
        // Text–spacer distance 0; the spacer's 8 px reserved: 300 − 8 = 292. amount (flex 50)
        // offered 146 → 50; merchant 242 → 170; the spacer gets 72 + 8 = 80.
        let wide = try layout(paymentRow(), width: 300)
        #expect(wide.frame("merchant") == rect(0, 0, 170, 20))
        #expect(wide.frame("gap") == rect(170, 10, 80, 0))
        #expect(wide.frame("amount") == rect(250, 0, 50, 20))
        #expect(wide.size == LayoutSize(width: 300, height: 20))
        #expect(wide.node("merchant")?.text?.lineCount == 1)

        // 230: 222 → amount 50, merchant 170, spacer 2 + 8.
        let near = try layout(paymentRow(), width: 230)
        #expect(near.frame("gap") == rect(170, 10, 10, 0))
        #expect(near.frame("amount") == rect(180, 0, 50, 20))

        // Exactly the ideal 228: the spacer at its minimum, nothing wraps.
        let exact = try layout(paymentRow(), width: 228)
        #expect(exact.frame("merchant") == rect(0, 0, 170, 20))
        #expect(exact.frame("gap") == rect(170, 10, 8, 0))
        #expect(exact.frame("amount") == rect(178, 0, 50, 20))

        // 150 really is too narrow: 142 → amount 71 → 50; merchant 92 → 9 characters a line,
        // "Joe's / Coffee / Shop" 60×60; the spacer gets what the wrapping freed: 32 + 8.
        let narrow = try layout(paymentRow(), width: 150)
        #expect(narrow.frame("merchant") == rect(0, 0, 60, 60))
        #expect(narrow.frame("gap") == rect(60, 30, 40, 0))
        #expect(narrow.frame("amount") == rect(100, 20, 50, 20))
        #expect(narrow.size == LayoutSize(width: 150, height: 60))

        // Ideal: every child at its ideal, the spacer at its minimum.
        let ideal = try layout(paymentRow(), width: nil)
        #expect(ideal.frame("amount") == rect(178, 0, 50, 20))
        #expect(ideal.size == LayoutSize(width: 228, height: 20))
    }

    @Test func aSpacersLayoutPriorityIsIgnored() throws {
        // SwiftUI's spacer answers −∞ whatever is set (docs 1.2): the same frames as above.
        let wide = try layout(paymentRow(gapPriority: 5), width: 300)
        #expect(wide.frame("merchant") == rect(0, 0, 170, 20))
        #expect(wide.frame("gap") == rect(170, 10, 80, 0))
    }

    @Test func aFirstFitRowAcceptedAtItsIdealIsDrawnAtItsIdeal() throws {
        // The fit test and the drawing agree: what firstFit accepted is what it draws.
        let nodes = [node("card", nil, .firstFit)] + paymentRow().map { node in
            var node = node
            if node.parent == nil { node.parent = "card" }
            return node
        } + [node("column", "card", .vstack), text("merchant2", "column", "Joe's Coffee Shop")]
        // Row ideal 228 ≤ 240 → the row; 232 − 50 − 170 = 12 left → spacer 20.
        let result = try layout(nodes, width: 240)
        #expect(result.decision("card")?.candidateID == "row")
        #expect(result.frame("merchant") == rect(0, 0, 170, 20))
        #expect(result.frame("gap") == rect(170, 10, 20, 0))
        #expect(result.frame("amount") == rect(190, 0, 50, 20))
    }

    /// E3: two texts, the second with layoutPriority 1 (given on it or on a padding around it).
    func prioritized(_ priority: Double?, wrapped: Bool = false) -> [LayoutNode] {
        var nodes = [node("row", nil, .hstack), text("a", "row", "aaaa bbbb cccc")]
        if wrapped {
            nodes += [
                node("pad", "row", .padding, .init(length: 0)),
                node("b", "pad", .text, .init(text: "dddd eeee ffff", layoutPriority: priority)),
            ]
        } else {
            nodes.append(node("b", "row", .text, .init(text: "dddd eeee ffff", layoutPriority: priority)))
        }
        return nodes
    }

    @Test func theHigherPriorityIsSizedFirstWithTheOthersMinimumsReserved() throws {
        // b first: 200 − 8 − min(a) 0 = 192 → 140×20; a then 52 → "aaaa/bbbb/cccc" 40×60.
        for wrapped in [false, true] {
            let result = try layout(prioritized(1, wrapped: wrapped), width: 200)
            #expect(result.frame("a") == rect(0, 0, 40, 60))
            #expect(result.frame("b") == rect(48, 20, 140, 20))
            #expect(result.size == LayoutSize(width: 188, height: 60))
        }
        // Without it: equal flexibility, document order: a 96 → 90×40; b 102 → 90×40.
        let plain = try layout(prioritized(nil), width: 200)
        #expect(plain.frame("a") == rect(0, 0, 90, 40))
        #expect(plain.frame("b") == rect(98, 0, 90, 40))
        // A negative priority yields like a spacer's: b sized last.
        let low = try layout(prioritized(-1), width: 200)
        #expect(low.frame("a") == rect(0, 20, 140, 20))
        #expect(low.frame("b") == rect(148, 0, 40, 60))
    }

    @Test func ofTwoInfinitelyFlexibleChildrenTheLargerMinimumGoesFirst() throws {
        // Both frames stretch without end; b's minimum is 60. b first: 100/2 = 50 → clamped to
        // 60; a gets the 40 left. In document order a would take 50 and the row overflow.
        let nodes = [
            node("row", nil, .hstack, .init(spacing: 0)),
            node("a", "row", .frame, .init(maxWidth: .infinity)), text("ta", "a", "a"),
            node("b", "row", .frame, .init(minWidth: 60, maxWidth: .infinity)), text("tb", "b", "b"),
        ]
        let result = try layout(nodes, width: 100)
        #expect(result.frame("a") == rect(0, 0, 40, 20))
        #expect(result.frame("b") == rect(40, 0, 60, 20))
    }

    @Test func defaultSpacingIsPerPair() throws {
        // Horizontal text–text 8; vertical text over text the font's line gap (0 here);
        // framed texts are spaced as views (8); next to a spacer 0; a given spacing everywhere.
        let row = try layout([node("s", nil, .hstack), text("a", "s", "ab"), text("b", "s", "cd")], width: nil)
        #expect(row.frame("b") == rect(28, 0, 20, 20))
        let column = try layout([node("s", nil, .vstack), text("a", "s", "ab"), text("b", "s", "cd")], width: nil)
        #expect(column.frame("b") == rect(0, 20, 20, 20))
        let framed = try layout(
            [
                node("s", nil, .vstack), node("f", "s", .frame, .init(width: 20)), text("a", "f", "ab"),
                text("b", "s", "cd"), image("i", "s"), text("c", "s", "ef"),
            ], width: nil)
        #expect(framed.frame("b") == rect(0, 28, 20, 20))
        #expect(framed.frame("i") == rect(0, 56, 20, 20))
        #expect(framed.frame("c") == rect(0, 84, 20, 20))
        let spaced = try layout(
            [node("s", nil, .hstack, .init(spacing: 4)), text("a", "s", "ab"), node("g", "s", .spacer), text("b", "s", "cd")],
            width: nil)
        #expect(spaced.frame("g") == rect(24, 10, 8, 0))
        #expect(spaced.frame("b") == rect(36, 0, 20, 20))
    }

    /// E5: a big text (title = twice the size: 20 px a character, 40 px a line, baseline 32).
    let big = FixedAdvanceMeasurer(advance: 10, lineHeight: 20, styleFactors: [.title: 2])

    @Test func firstTextBaselinesLineUp() throws {
        let nodes = [
            node("s", nil, .hstack, .init(alignment: LayoutAlignment(name: "firstTextBaseline"))),
            text("big", "s", "Big", style: .title), text("small", "s", "small"),
        ]
        // Ranges [−32, 8] and [−16, 4]: small 16 down, so both baselines at 32.
        let result = try layout(nodes, width: nil, using: big)
        #expect(result.frame("big") == rect(0, 0, 60, 40))
        #expect(result.frame("small") == rect(68, 16, 50, 20))
        #expect(result.size == LayoutSize(width: 118, height: 40))
        #expect(result.node("big")?.firstBaseline == 32 && result.node("small")?.firstBaseline == 16)
        #expect(result.node("s")?.firstBaseline == 32 && result.node("s")?.lastBaseline == 32)
    }

    @Test func lastTextBaselinesCanMakeTheStackTallerThanItsTallestChild() throws {
        // W 88: "ab cd" (flex 50) first, offered 40 → "ab/cd" 20×40, last baseline 36; Big 60
        // → 60×40, last baseline 32. Ranges [−32, 8] and [−36, 4] → union [−36, 8] = 44.
        let nodes = [
            node("s", nil, .hstack, .init(alignment: LayoutAlignment(name: "lastTextBaseline"))),
            text("big", "s", "Big", style: .title), text("two", "s", "ab cd"),
        ]
        let result = try layout(nodes, width: 88, using: big)
        #expect(result.frame("big") == rect(0, 4, 60, 40))
        #expect(result.frame("two") == rect(68, 0, 20, 40))
        #expect(result.size == LayoutSize(width: 88, height: 44))
        #expect(result.node("two")?.firstBaseline == 16 && result.node("two")?.lastBaseline == 36)
        // The stack's first baseline is the topmost (two's, 16), its last the bottom-most (36).
        #expect(result.node("s")?.firstBaseline == 16 && result.node("s")?.lastBaseline == 36)
    }

    @Test func zstacksAndOverlaysAlignBaselinesToo() throws {
        let first = LayoutAlignment(name: "firstTextBaseline")
        // zstack: the union rule as in an hstack ([−32, 8] ∪ [−16, 4] = 40 tall), centred across.
        let zstack = try layout(
            [node("z", nil, .zstack, .init(alignment: first)), text("big", "z", "Big", style: .title), text("small", "z", "small")],
            width: nil, using: big)
        #expect(zstack.frame("big") == rect(0, 0, 60, 40))
        #expect(zstack.frame("small") == rect(5, 16, 50, 20))
        #expect(zstack.size == LayoutSize(width: 60, height: 40))
        // overlay: the layer (proposed the base's 60×40) puts its baseline on the base's (32).
        let overlay = try layout(
            [node("o", nil, .overlay, .init(alignment: first)), text("big", "o", "Big", style: .title), text("small", "o", "small")],
            width: nil, using: big)
        #expect(overlay.frame("small") == rect(5, 16, 50, 20))
        // frame: its own guide is implicit (its bottom), so the baseline sits on the bottom edge.
        let framed = try layout(
            [node("f", nil, .frame, .init(width: 100, height: 100, alignment: first)), text("small", "f", "small")], width: nil)
        #expect(framed.frame("small") == rect(25, 84, 50, 20))
    }

    @Test func aViewWithoutTextAlignsItsBottomOnTheBaseline() throws {
        let nodes = [
            node("s", nil, .hstack, .init(alignment: LayoutAlignment(name: "firstTextBaseline"))),
            image("i", "s"), text("t", "s", "small"),
        ]
        // Image guide 20 (its bottom), text 16: [−20, 0] ∪ [−16, 4] = [−20, 4].
        let result = try layout(nodes, width: nil)
        #expect(result.frame("i") == rect(0, 0, 20, 20))
        #expect(result.frame("t") == rect(28, 4, 50, 20))
        #expect(result.size == LayoutSize(width: 78, height: 24))
        #expect(result.node("i")?.firstBaseline == nil)
        #expect(result.node("s")?.firstBaseline == 20)
    }

    @Test func baselinesAreReportedThroughContainers() throws {
        // A padded two-line text in a vstack under an image: first baseline 8 + 16 below the
        // padding's top, last 8 + 36; the vstack adds the image (20) and the spacing (8).
        let nodes = [
            node("s", nil, .vstack), image("i", "s"), node("p", "s", .padding, .init(length: 8)),
            text("t", "p", "ab cd"),
        ]
        let result = try layout(nodes, width: 36)
        #expect(result.frame("t") == rect(8, 36, 20, 40))
        #expect(result.node("p")?.firstBaseline == 24 && result.node("p")?.lastBaseline == 44)
        #expect(result.node("s")?.firstBaseline == 52 && result.node("s")?.lastBaseline == 72)
    }

    @Test func rightToLeftPlacesTheFirstChildAtTheRight() throws {
        // E6: an hstack right to left; the direction is inherited from the root.
        let nodes = [
            node("root", nil, .vstack, .init(alignment: .leading, layoutDirection: .rightToLeft)),
            node("s", "root", .hstack), text("ab", "s", "ab"), text("cde", "s", "cde"),
            text("wide", "root", "abcdefgh"),
        ]
        let result = try layout(nodes, width: nil)
        // The vstack is 80 wide; leading is the right edge: the hstack (58) at 22.
        #expect(result.frame("s") == rect(22, 0, 58, 20))
        #expect(result.frame("ab") == rect(60, 0, 20, 20))
        #expect(result.frame("cde") == rect(22, 0, 30, 20))
        // An hstack is spaced as a view (8) from the text under it.
        #expect(result.frame("wide") == rect(0, 28, 80, 20))

        // The nearest setting wins: a left-to-right row inside a right-to-left one.
        let nested = try layout(
            [
                node("outer", nil, .hstack, .init(layoutDirection: .rightToLeft)), text("a", "outer", "ab"),
                node("inner", "outer", .hstack, .init(layoutDirection: .leftToRight)), text("b", "inner", "cd"),
                text("c", "inner", "ef"),
            ], width: nil)
        // outer: "ab" (20) at the right of 20 + 8 + 48 = 76; inner (48) at 0, its own order kept.
        #expect(nested.frame("a") == rect(56, 0, 20, 20))
        #expect(nested.frame("b") == rect(0, 0, 20, 20) && nested.frame("c") == rect(28, 0, 20, 20))

        // Padding's leading inset is on the right; a frame's leading alignment too.
        let padded = try layout(
            [
                node("f", nil, .frame, .init(width: 100, alignment: .leading, layoutDirection: .rightToLeft)),
                node("p", "f", .padding, .init(length: 0, leading: 10)), text("t", "p", "ab"),
            ], width: nil)
        #expect(padded.frame("p") == rect(70, 0, 30, 20))
        #expect(padded.frame("t") == rect(70, 0, 20, 20))
    }

    @Test func aVStackProposesItsOwnWidthWhenPlacing() throws {
        // E7: rows `frame(maxWidth: .infinity)` in a vstack sized ideally (fixedSize): 90 and
        // 210 ideal, the stack 210; placed with 210, both rows are 210 wide.
        let nodes = [
            node("fixed", nil, .fixedSize, .init(horizontal: true, vertical: false)),
            node("column", "fixed", .vstack),
            node("row1", "column", .frame, .init(maxWidth: .infinity)), text("short", "row1", "Some Text"),
            node("row2", "column", .frame, .init(maxWidth: .infinity)), text("long", "row2", "Some Much Longer Text"),
        ]
        let result = try layout(nodes, width: 400)
        #expect(result.frame("row1") == rect(0, 0, 210, 20))
        #expect(result.frame("short") == rect(60, 0, 90, 20))
        #expect(result.frame("row2") == rect(0, 28, 210, 20))
        #expect(result.frame("long") == rect(0, 28, 210, 20))
        #expect(result.size == LayoutSize(width: 210, height: 48))
    }

    @Test func aFrameProposesItsFinalSizeWhenPlacing() throws {
        // F1 and the case it changes: a frame(minWidth: 100) at nil is 100 wide and places its
        // child at 100, so a stack with a spacer inside fills it (it was placed at nil: 38).
        let stack = try layout(
            [
                node("f", nil, .frame, .init(minWidth: 100)), node("s", "f", .hstack), text("t", "s", "abc"),
                node("g", "s", .spacer),
            ], width: nil)
        #expect(stack.frame("f") == rect(0, 0, 100, 20))
        #expect(stack.frame("s") == rect(0, 0, 100, 20))
        #expect(stack.frame("g") == rect(30, 10, 70, 0))

        let minimum = try layout([node("f", nil, .frame, .init(minWidth: 100)), text("t", "f", "abc")], width: 300)
        #expect(minimum.frame("f") == rect(0, 0, 100, 20) && minimum.frame("t") == rect(35, 0, 30, 20))
        let leading = try layout(
            [node("f", nil, .frame, .init(maxWidth: .infinity, alignment: .leading)), text("t", "f", "abc")], width: 300)
        #expect(leading.frame("f") == rect(0, 0, 300, 20) && leading.frame("t") == rect(0, 0, 30, 20))
        let ideal = try layout(
            [node("f", nil, .frame, .init(idealWidth: 80, maxWidth: 200)), text("t", "f", "abc")], width: nil)
        #expect(ideal.frame("f") == rect(0, 0, 80, 20) && ideal.frame("t") == rect(25, 0, 30, 20))
    }

    @Test func layoutPriorityMustBeFinite() throws {
        let refused = refusal([node("s", nil, .hstack), node("t", "s", .text, .init(text: "x", layoutPriority: .infinity))])
        guard case .invalidProperty(_, "layoutPriority", _)? = refused else {
            Issue.record("expected invalidProperty layoutPriority, got \(String(describing: refused))")
            return
        }
        // Any node takes the two new properties, and the JSON form reads them.
        #expect(refusal(json: #"{"nodes":[{"id":"s","kind":"zstack","layoutPriority":2,"layoutDirection":"rightToLeft"}]}"#) == nil)
        #expect(refusal(json: #"{"nodes":[{"id":"s","kind":"zstack","layoutDirection":"upward"}]}"#) != nil)
    }
}
