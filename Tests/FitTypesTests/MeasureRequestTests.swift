import Testing

@testable import FitTypes

/// Requests are result-cache keys: equal only when every field is, the texts byte for byte.
@Suite struct MeasureRequestTests {
    @Test func textsAndFontsCompareByTheirBytes() {
        // Equal Strings (canonically equivalent) that may shape apart are different requests.
        #expect(MeasureRequest(text: "caf\u{E9}") != MeasureRequest(text: "cafe\u{301}"))
        #expect(MeasureRequest(text: "x", font: "Caf\u{E9} 10") != MeasureRequest(text: "x", font: "Cafe\u{301} 10"))
        #expect(MeasureRequest(text: "") == MeasureRequest(text: ""))
        #expect(MeasureRequest(text: "", font: "") != MeasureRequest(text: "", font: " "))
        let long = String(repeating: "Screen time this week ", count: 40)
        #expect(MeasureRequest(text: long) == MeasureRequest(text: String(long.reversed().reversed())))
        #expect(MeasureRequest(text: long + "a") != MeasureRequest(text: long + "b"))
        #expect(MeasureRequest(text: "ab") != MeasureRequest(text: "abc"))
        #expect(MeasureRequest.sameBytes("👩🏽‍💻", "👩🏽‍💻") && !MeasureRequest.sameBytes("👩🏽‍💻", "👩🏽"))
    }
}
