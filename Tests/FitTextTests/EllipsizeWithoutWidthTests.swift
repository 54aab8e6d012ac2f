import Testing

@testable import FitText

/// `ellipsize` without `max_width` is accepted and changes nothing, as in Pango (ellipsizing
/// needs a width: pango-layout.c, should_ellipsize_current_line checks width >= 0); with
/// `max_lines` the lines beyond are dropped as without `ellipsize` (protocol/README.md).
@Suite struct EllipsizeWithoutWidthTests {
    static let texts = ["Hello big world", "Hello big world\nsecond paragraph\nthird", ""]

    @Test(arguments: texts)
    func ellipsizeWithoutMaxWidthChangesNothing(text: String) throws {
        for mode in EllipsizeMode.allCases where mode != .none {
            for maxLines in [nil, 1, 2] as [Int?] {
                let plain = try TestEngine.measure(text, maxLines: maxLines, lines: true)
                let ellipsized = try TestEngine.measure(text, maxLines: maxLines, ellipsize: mode, lines: true)
                #expect(ellipsized == plain, "\(mode), max_lines \(String(describing: maxLines))")
                #expect(!ellipsized.ellipsized)
                let cells = try TestEngine.cells(text, maxLines: maxLines, ellipsize: mode)
                #expect(cells == (try TestEngine.cells(text, maxLines: maxLines)))
            }
        }
        // With a width the same request does ellipsize: the comparison above is not vacuous.
        if !text.isEmpty {
            #expect(try TestEngine.measure(text, maxWidth: 20, ellipsize: .end).ellipsized)
        }
    }
}
