/// A closed set of Dynamic Type names that fitd writes one way and reads one way: the size
/// categories (``SizeCategory``) and the text styles (``TextStyle``). Each case has one
/// ``name``, the one every output carries (SwiftUI's case name); every input — font strings,
/// layout documents, Layout's options, GetTextStyles, fitctl's options — reads it with
/// ``init(name:)``, which also takes the type's aliases.
public protocol DynamicTypeName: CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The name fitd writes.
    var name: String { get }
    /// The names the parser reads: the canonical ones and the aliases.
    static var vocabulary: DynamicTypeVocabulary<Self> { get }
    /// What one case is called in an error ("size category").
    static var kind: String { get }
}

extension DynamicTypeName {
    /// Parses a name: a canonical one or an alias, ASCII case and the separators `-`, `_` and
    /// space ignored ("xxlarge", "AX3", "title1", "Large Title").
    public init?(name: some StringProtocol) {
        self.init(utf8: name.utf8)
    }

    /// The same from a name's UTF-8 bytes. It runs on every font string a client sends (is it a
    /// text style?), so it compares bytes and does not allocate.
    @inlinable public init?(utf8 name: some Collection<UInt8>) {
        // Folded where the caller is (inlined, so for its own collection type); looked up in
        // one hash table, not name by name.
        guard let match = Self.vocabulary.value(spelledBy: name) else { return nil }
        self = match
    }

    /// The names read besides the canonical ones, with the case each stands for.
    public static var aliases: [(name: String, value: Self)] { vocabulary.aliases }

    /// The canonical names in `allCases` order, comma-separated: what an error lists.
    public static var nameList: String { allCases.map(\.name).joined(separator: ", ") }

    public var description: String { name }

    /// In JSON (LayoutOptions' `sizeCategory`) a case is its name, read by the one parser.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let parsed = Self(name: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(text)\" is not a \(Self.kind); use one of \(Self.nameList)")
        }
        self = parsed
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}

/// A name as the parser compares it: ASCII lowercased, the separators `-`, `_` and space
/// dropped, as an FNV-1a hash of those bytes and their count (the longest name,
/// "accessibilityExtraExtraExtraLarge", folds to 33 bytes). Folding allocates nothing, and one
/// hash lookup finds the candidate name, whose bytes are then compared (``matches(_:)``): FNV is
/// no defence against a crafted collision, the comparison is.
public struct DynamicTypeFoldedName: Hashable, Sendable {
    @usableFromInline var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    @usableFromInline var count = 0

    /// Longer than any name folds to: not a name.
    @usableFromInline static let capacity = 48

    /// Nil when the name folds to more bytes than any name has.
    @inlinable public init?(_ bytes: some Sequence<UInt8>) {
        for byte in bytes where !Self.isSeparator(byte) {
            guard count < Self.capacity else { return nil }
            hash = (hash ^ UInt64(Self.lowercased(byte))) &* 0x0000_0100_0000_01b3
            count += 1
        }
    }

    /// Whether `bytes`, folded, are exactly `folded` (a folded name's bytes).
    @inlinable static func matches(_ bytes: some Sequence<UInt8>, _ folded: [UInt8]) -> Bool {
        var index = 0
        for byte in bytes where !isSeparator(byte) {
            guard index < folded.count, folded[index] == lowercased(byte) else { return false }
            index += 1
        }
        return index == folded.count
    }

    @inlinable static func isSeparator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: " ")
    }

    @inlinable static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}

/// The names a ``DynamicTypeName`` type is read by, folded once, by their folded key.
public struct DynamicTypeVocabulary<Value: Sendable>: Sendable {
    /// The names read besides the canonical ones.
    public let aliases: [(name: String, value: Value)]
    @usableFromInline let byFoldedName: [DynamicTypeFoldedName: (folded: [UInt8], value: Value)]

    /// `canonical` first, then `aliases`; of two names that fold alike, the first wins.
    public init(canonical: [(name: String, value: Value)], aliases: [(name: String, value: Value)]) {
        self.aliases = aliases
        var table: [DynamicTypeFoldedName: (folded: [UInt8], value: Value)] = [:]
        for (name, value) in canonical + aliases {
            guard let key = DynamicTypeFoldedName(name.utf8), table[key] == nil else { continue }
            let folded = name.utf8.filter { !DynamicTypeFoldedName.isSeparator($0) }.map(DynamicTypeFoldedName.lowercased)
            table[key] = (folded, value)
        }
        byFoldedName = table
    }

    /// The value whose name `bytes` spell, folded.
    @inlinable public func value(spelledBy bytes: some Collection<UInt8>) -> Value? {
        guard let key = DynamicTypeFoldedName(bytes), let entry = byFoldedName[key],
            DynamicTypeFoldedName.matches(bytes, entry.folded)
        else { return nil }
        return entry.value
    }
}
