import Testing

@testable import FitLayout

/// Enumerated layout properties take their words exactly, as option words are: "Tail" is not
/// "tail", in the JSON format and on the wire alike (both go through LayoutProperties.set).
@Suite struct PropertyWordTests {
    static let table: [(property: String, words: [String])] = [
        ("textStyle", TextStyle.allCases.map(\.rawValue)),
        ("truncation", TruncationMode.allCases.map(\.rawValue)),
        ("alignment", LayoutAlignment.names.map(\.0)),
        ("axis", LayoutAxis.allCases.map(\.rawValue)),
        ("axes", FitAxes.allCases.map(\.rawValue)),
        ("category", ContentSizeCategory.allCases.map(\.rawValue)),
    ]

    static func set(_ property: String, _ word: String) throws(LayoutError) {
        guard let kind = LayoutNodeKind.allCases.first(where: { LayoutProperties.allowed(for: $0).contains(property) }) else {
            throw .unknownProperty(node: NodeLocation(index: 0, id: "n"), property: property, kind: "none")
        }
        var properties = LayoutProperties()
        try properties.set(property, .string(word), node: NodeLocation(index: 0, id: "n"), kind: kind)
    }

    @Test(arguments: table.map(\.property))
    func exactWordsOnly(property: String) throws {
        let words = try #require(Self.table.first { $0.property == property }).words
        #expect(!words.isEmpty)
        for word in words {
            #expect(throws: Never.self, "\(property) \"\(word)\"") { try Self.set(property, word) }
            for variant in [word.uppercased(), word.prefix(1).uppercased() + word.dropFirst(), "\(word) "] where variant != word {
                #expect(throws: LayoutError.self, "\(property) \"\(variant)\" was accepted") { try Self.set(property, variant) }
            }
        }
    }
}
