import FitBus
import FitLayout
import FitProtocol
import FitScale
import Testing

@testable import FitService

/// GetTextStyles and Layout speak one vocabulary: every style name GetTextStyles answers with
/// is a `textStyle` a layout document accepts, and every category name GetTextStyles takes is
/// one a document's `category` and Layout's `size_category` option take, meaning the same.
@Suite struct VocabularyAgreementTests {
    @Test func getTextStylesNamesAreWhatALayoutDocumentAccepts() async throws {
        let fixture = try ScaleFixture()
        await fixture.start()
        for category in SizeCategory.allCases {
            let rows = fixture.service.textStyleRows(category: category)
            #expect(rows.map(\.style) == TextStyle.allCases.map(\.name))
            for row in rows {
                let node = try LayoutNode(
                    id: "label", parent: nil, kind: "text",
                    properties: ["text": .string("Hello"), "textStyle": .string(row.style)], index: 0)
                #expect(node.properties.textStyle?.name == row.style)
            }
        }
    }

    @Test func getTextStylesCategoriesAreWhatALayoutAccepts() async throws {
        let fixture = try ScaleFixture()
        await fixture.start()
        let names = SizeCategory.allCases.map(\.name) + SizeCategory.aliases.map(\.name) + ["XXLARGE", "AX2"]
        for name in names {
            let asked = try fixture.service.textStyleCategory(name)
            let node = try LayoutNode(id: "switch", parent: nil, kind: "threshold", properties: ["category": .string(name)], index: 0)
            #expect(node.properties.category == asked, "\(name)")
            let options = try LayoutCodec.options(
                OptionDictionary(["size_category": .string(name)]).dbusValue, defaultCategory: .xSmall)
            #expect(options.sizeCategory == asked, "\(name)")
        }
    }
}
