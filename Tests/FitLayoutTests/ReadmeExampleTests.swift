import FitLayoutJSON
import Testing

@testable import FitLayout

/// The worked examples of protocol/README.md "Layout documents, kind by kind", as written
/// there (nested form), with the frames it states. The seeds' examples are in ExampleTests.
@Suite struct ReadmeExampleTests {
    func run(_ json: String, width: Double? = nil) throws -> LayoutResult {
        try LayoutDocument(json: #"{"root": "# + json + "}").layout(in: ProposedSize(width: width, height: nil), measurer: measurer)
    }

    @Test func inheritedLineLimit() throws {
        let result = try run(
            #"{"kind": "vstack", "spacing": 0, "lineLimit": 1, "children": [{"kind": "text", "text": "aaaa bbbb"}, {"kind": "text", "text": "cccc dddd", "lineLimit": 2}]}"#,
            width: 50)
        #expect(result.frame("#1") == rect(0, 0, 50, 20) && result.node("#1")?.text?.truncated == true)
        #expect(result.frame("#2") == rect(5, 20, 40, 40))
    }

    @Test func text() throws {
        let plain = #"{"id": "t", "kind": "text", "text": "one two three four five"}"#
        #expect(try run(plain).frame("t") == rect(0, 0, 230, 20))
        #expect(try run(plain, width: 100).frame("t") == rect(0, 0, 100, 60))
        let limited = try run(#"{"id": "t", "kind": "text", "text": "one two three four five", "lineLimit": 2}"#, width: 100)
        #expect(limited.frame("t") == rect(0, 0, 100, 40) && limited.truncated)
    }

    @Test func spacer() throws {
        let result = try run(
            #"{"kind": "hstack", "spacing": 0, "children": [{"id": "a", "kind": "text", "text": "ab"}, {"id": "gap", "kind": "spacer"}, {"id": "b", "kind": "text", "text": "cd"}]}"#,
            width: 200)
        #expect(result.frame("a") == rect(0, 0, 20, 20))
        #expect(result.frame("gap") == rect(20, 10, 160, 0))
        #expect(result.frame("b") == rect(180, 0, 20, 20))
    }

    @Test func stacks() throws {
        let children = #"[{"id": "icon", "kind": "image", "width": 20, "height": 20}, {"id": "label", "kind": "text", "text": "Screen time"}]"#
        let row = try run(#"{"kind": "hstack", "children": "# + children + "}")
        #expect(row.frame("label") == rect(28, 0, 110, 20) && row.size == LayoutSize(width: 138, height: 20))
        let column = try run(#"{"kind": "vstack", "spacing": 4, "children": "# + children + "}")
        #expect(column.frame("icon") == rect(45, 0, 20, 20) && column.frame("label") == rect(0, 24, 110, 20))
    }

    @Test func zstackOverlayBackground() throws {
        let z = try run(
            #"{"kind": "zstack", "alignment": "bottomTrailing", "children": [{"kind": "image", "width": 40, "height": 40}, {"id": "badge", "kind": "text", "text": "ab"}]}"#)
        #expect(z.frame("badge") == rect(20, 20, 20, 20) && z.size == LayoutSize(width: 40, height: 40))
        let over = try run(
            #"{"kind": "overlay", "children": [{"kind": "image", "width": 40, "height": 40}, {"id": "caption", "kind": "text", "text": "abcdefgh"}]}"#)
        #expect(over.frame("caption") == rect(0, 0, 40, 40))
        let back = try run(
            #"{"kind": "background", "children": [{"kind": "padding", "length": 4, "children": [{"id": "t", "kind": "text", "text": "Hello"}]}, {"id": "shape", "kind": "spacer", "minLength": 0}]}"#)
        #expect(back.frame("t") == rect(4, 4, 50, 20) && back.frame("shape") == rect(0, 0, 58, 28))
    }

    @Test func frameBoundsPaddingFixedSize() throws {
        let framed = try run(#"{"kind": "frame", "minWidth": 100, "children": [{"id": "t", "kind": "text", "text": "abc"}]}"#, width: 300)
        #expect(framed.size == LayoutSize(width: 100, height: 20) && framed.frame("t") == rect(35, 0, 30, 20))
        let wide = try run(
            #"{"kind": "frame", "maxWidth": "infinity", "alignment": "leading", "children": [{"id": "t", "kind": "text", "text": "abc"}]}"#, width: 300)
        #expect(wide.size == LayoutSize(width: 300, height: 20) && wide.frame("t") == rect(0, 0, 30, 20))
        let padded = try run(#"{"kind": "padding", "length": 4, "children": [{"id": "t", "kind": "text", "text": "abc"}]}"#)
        #expect(padded.size == LayoutSize(width: 38, height: 28) && padded.frame("t") == rect(4, 4, 30, 20))
        let fixed = try run(
            #"{"kind": "frame", "width": 100, "children": [{"kind": "fixedSize", "children": [{"id": "t", "kind": "text", "text": "one two three four five"}]}]}"#)
        #expect(fixed.size == LayoutSize(width: 100, height: 20) && fixed.frame("t") == rect(-65, 0, 230, 20))
    }

    @Test func firstFitAndTemplate() throws {
        let card = try run(
            #"{"id": "card", "kind": "firstFit", "axes": "horizontal", "children": [{"id": "row", "kind": "hstack", "children": [{"kind": "image", "width": 20, "height": 20}, {"kind": "text", "text": "Screen time this week"}]}, {"id": "column", "kind": "vstack", "spacing": 4, "children": [{"id": "icon", "kind": "image", "width": 20, "height": 20}, {"id": "label", "kind": "text", "text": "Screen time this week"}]}]}"#,
            width: 220)
        #expect(card.decision("card")?.candidateID == "column")
        #expect(card.frame("icon") == rect(95, 0, 20, 20) && card.frame("label") == rect(0, 24, 210, 20))
        let slot = try run(#"{"kind": "template", "templates": ["190"], "children": [{"id": "v", "kind": "text", "text": "7"}]}"#)
        #expect(slot.size == LayoutSize(width: 30, height: 20) && slot.frame("v") == rect(10, 0, 10, 20))
    }

    static let tabBar =
        #"{"id": "bar", "kind": "uniformFit", "axis": "horizontal", "children": [{"kind": "choice", "children": [{"id": "home", "kind": "hstack", "children": [{"kind": "image", "width": 20, "height": 20}, {"kind": "text", "text": "Home"}]}, {"id": "homeIcon", "kind": "image", "width": 20, "height": 20}]}, {"kind": "choice", "children": [{"id": "search", "kind": "hstack", "children": [{"kind": "image", "width": 20, "height": 20}, {"kind": "text", "text": "Search"}]}, {"id": "searchIcon", "kind": "image", "width": 20, "height": 20}]}]}"#

    @Test func choiceAndScroll() throws {
        let wide = try run(Self.tabBar, width: 200)
        #expect(wide.decision("bar")?.candidate == 0)
        #expect(wide.frame("home") == rect(0, 0, 68, 20) && wide.frame("search") == rect(76, 0, 88, 20))
        let narrow = try run(Self.tabBar, width: 150)
        #expect(narrow.frame("homeIcon") == rect(0, 0, 20, 20) && narrow.frame("searchIcon") == rect(28, 0, 20, 20))
        #expect(narrow.size == LayoutSize(width: 48, height: 20))
        let scrolled = try run(#"{"id": "scroll", "kind": "scroll", "axis": "horizontal", "children": ["# + Self.tabBar + "]}", width: 150)
        #expect(scrolled.decision("bar")?.candidate == 0)
        #expect(scrolled.frame("bar") == rect(0, 0, 164, 20) && scrolled.frame("scroll") == rect(0, 0, 150, 20))
    }

    @Test func gridAndFlow() throws {
        let grid = try run(
            #"{"kind": "grid", "children": [{"kind": "gridRow", "children": [{"id": "name", "kind": "text", "text": "Name"}, {"id": "qty", "kind": "text", "text": "Qty"}]}, {"kind": "gridRow", "children": [{"id": "apples", "kind": "text", "text": "Apples"}, {"id": "n", "kind": "text", "text": "12"}]}]}"#)
        #expect(grid.frame("name") == rect(10, 0, 40, 20) && grid.frame("n") == rect(73, 28, 20, 20))
        #expect(grid.size == LayoutSize(width: 98, height: 48))
        let flow = try run(
            #"{"kind": "flow", "children": [{"id": "a", "kind": "text", "text": "swift"}, {"id": "b", "kind": "text", "text": "layout"}, {"id": "c", "kind": "text", "text": "pango"}, {"id": "d", "kind": "text", "text": "gtk"}]}"#,
            width: 130)
        #expect(flow.frame("b") == rect(58, 0, 60, 20) && flow.frame("d") == rect(58, 28, 30, 20))
        #expect(flow.size == LayoutSize(width: 118, height: 48))
    }
}
