import Testing
@testable import FitLayout

/// Seeds 001 and 002 as documents in protocol/examples, with the frames
/// docs/swiftui-layout.md section 5 gives for them (fixed advance: 10 px a character, 20 a line).
@Suite struct SeedExampleTests {
    func layout(_ name: String, width: Double?, category: SizeCategory = .large) throws -> LayoutResult {
        try FormatTests.example(name).layout(
            in: ProposedSize(width: width, height: nil), options: LayoutOptions(sizeCategory: category), measurer: measurer)
    }

    @Test func seed002PaymentRowKeepsTheMerchantOnOneLineWhileTheRowFits() throws {
        // E2: spacing 8 given (also beside the spacer); icon 20, merchant 170, amount 50.
        // 280 − 24 − 8 (the spacer's reserve) = 248: icon 20, amount 50, merchant offered 178
        // → one line; the spacer 8 + 8.
        let wide = try layout("payment-row-threshold.json", width: 280)
        #expect(wide.decision("payment")?.axis == .horizontal)
        #expect(wide.frame("icon") == rect(0, 0, 20, 20))
        #expect(wide.frame("merchant") == rect(28, 0, 170, 20))
        #expect(wide.frame("gap") == rect(206, 10, 16, 0))
        #expect(wide.frame("amount") == rect(230, 0, 50, 20))
        #expect(wide.size == LayoutSize(width: 280, height: 20))

        // 250 < the row's ideal 272: the merchant must wrap, offered 148 → "Joe's Coffee/Shop".
        let narrow = try layout("payment-row-threshold.json", width: 250)
        #expect(narrow.frame("icon") == rect(0, 10, 20, 20))
        #expect(narrow.frame("merchant") == rect(28, 0, 120, 40))
        #expect(narrow.frame("gap") == rect(156, 20, 36, 0))
        #expect(narrow.frame("amount") == rect(200, 10, 50, 20))
        #expect(narrow.size == LayoutSize(width: 250, height: 40))
    }

    @Test func seed002PaymentRowStacksLeadingWithoutItsSpacer() throws {
        let column = try layout("payment-row-threshold.json", width: 320, category: .accessibilityMedium)
        #expect(column.decision("payment")?.axis == .vertical)
        #expect(column.node("gap")?.visible == false)
        #expect(column.frame("icon") == rect(0, 0, 20, 20))
        #expect(column.frame("merchant") == rect(0, 28, 170, 20))
        #expect(column.frame("amount") == rect(0, 56, 50, 20))
        #expect(column.size == LayoutSize(width: 170, height: 76))
    }

    @Test func seed001SpacerRowsFillTheProposedWidth() throws {
        // E4: each text sized first (offered 400 − 16), the spacers share the rest.
        let result = try layout("spacer-rows.json", width: 400)
        #expect(result.frame("before1") == rect(0, 10, 155, 0))
        #expect(result.frame("short") == rect(155, 0, 90, 20))
        #expect(result.frame("after1") == rect(245, 10, 155, 0))
        #expect(result.frame("before2") == rect(0, 30, 95, 0))
        #expect(result.frame("long") == rect(95, 20, 210, 20))
        #expect(result.frame("after2") == rect(305, 30, 95, 0))
        #expect(result.size == LayoutSize(width: 400, height: 40))

        // Proposed ∞ the spacers take ∞ and the rows are infinitely wide: placed at 0, not at
        // ∞ − ∞ = NaN.
        let infinite = try FormatTests.example("spacer-rows.json").layout(in: .infinity, measurer: measurer)
        #expect(infinite.frame("row1")?.x == 0 && infinite.frame("row2")?.x == 0)
        #expect(infinite.nodes.allSatisfy { !$0.frame.x.isNaN && !$0.frame.y.isNaN })
    }

    @Test func seed001FittingHugsTheLongestRowAndItsSpacersFillIt() throws {
        // The hidden copy's spacers at their 8 px minimum: 8 + 210 + 8 = 226 wide.
        let result = try layout("fitting-spacer-rows.json", width: 400)
        #expect(result.decision("column")?.length == 226)
        #expect(result.frame("before1") == rect(0, 10, 68, 0))
        #expect(result.frame("short") == rect(68, 0, 90, 20))
        #expect(result.frame("after1") == rect(158, 10, 68, 0))
        #expect(result.frame("before2") == rect(0, 30, 8, 0))
        #expect(result.frame("long") == rect(8, 20, 210, 20))
        #expect(result.frame("after2") == rect(218, 30, 8, 0))
        #expect(result.size == LayoutSize(width: 226, height: 40))
    }
}
