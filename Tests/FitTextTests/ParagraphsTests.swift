import Testing

@testable import FitText

@Suite struct ParagraphsTests {
    /// The lazy ranges are the split ones: every kind of break, doubled, leading, trailing.
    @Test func rangesMatchSplit() {
        let texts = ["", "a", "\n", "a\nb", "a\r\nb", "a\r\rb", "\r\n", "a\n", "\na", "x\u{85}y\u{2028}z\u{2029}", "a\r", "a\r\n\r\nb"]
        for text in texts {
            let units = Array(text.utf16)
            #expect(Array(Paragraphs.ranges(units)) == Paragraphs.split(units), "\(text.debugDescription)")
        }
    }
}
