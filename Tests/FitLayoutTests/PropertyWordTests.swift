import Testing

@testable import FitLayout

/// Enumerated layout properties take their words exactly, as option words are: "Tail" is not
/// "tail", in the JSON format and on the wire alike (both go through LayoutProperties.set).
/// Text styles and size categories are the exception: every input reads them with FitTypes'
/// one parser (any case, separators, aliases such as title1 and ax2).
@Suite struct PropertyWordTests {
    static let table: [(property: String, words: [String])] = [
        ("truncation", TruncationMode.allCases.map(\.rawValue)),
        ("alignment", LayoutAlignment.names.map(\.0)),
        ("axis", LayoutAxis.allCases.map(\.rawValue)),
        ("axes", FitAxes.allCases.map(\.rawValue)),
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

    @Test func stylesAndCategoriesAreReadAsFitTypesReadsThem() throws {
        try Self.readsEveryName(of: TextStyle.self, property: "textStyle", kind: .text) { $0.textStyle }
        try Self.readsEveryName(of: SizeCategory.self, property: "category", kind: .threshold) { $0.category }
        #expect(throws: LayoutError.self) { try Self.set("textStyle", "title4") }
        #expect(throws: LayoutError.self) { try Self.set("category", "huge") }
    }

    /// Every canonical name in other cases and with a space, and every alias, sets `property`
    /// to the case it names.
    static func readsEveryName<Name: DynamicTypeName>(
        of _: Name.Type, property: String, kind: LayoutNodeKind, read: (LayoutProperties) -> Name?
    ) throws {
        let words = Name.allCases.flatMap { [($0.name, $0), ($0.name.uppercased(), $0), (" \($0.name)", $0)] }
            + Name.aliases.map { ($0.name, $0.value) }
        for (word, value) in words {
            var properties = LayoutProperties()
            try properties.set(property, .string(word), node: NodeLocation(index: 0, id: "n"), kind: kind)
            #expect(read(properties) == value, "\(property) \"\(word)\"")
        }
    }
}
