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
    public init?(utf8 name: some Collection<UInt8>) {
        guard let match = Self.vocabulary.lookup(name) else { return nil }
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

/// The names a ``DynamicTypeName`` type is read by, folded once (lowercased, separators
/// dropped) so that a lookup compares bytes and allocates nothing.
public struct DynamicTypeVocabulary<Value: Sendable>: Sendable {
    /// The names read besides the canonical ones.
    public let aliases: [(name: String, value: Value)]
    private let folded: [(folded: String, value: Value)]

    /// `canonical` first, then `aliases`; the first name that matches wins.
    public init(canonical: [(name: String, value: Value)], aliases: [(name: String, value: Value)]) {
        self.aliases = aliases
        folded = (canonical + aliases).map { (Self.fold($0.name), $0.value) }
    }

    /// The value whose name `bytes` spell, folded.
    func lookup(_ bytes: some Collection<UInt8>) -> Value? {
        for entry in folded where Self.matches(bytes, entry.folded) { return entry.value }
        return nil
    }

    /// True when `bytes`, folded, spell `folded` (a name already lowercased, without separators).
    static func matches(_ bytes: some Sequence<UInt8>, _ folded: String) -> Bool {
        var expected = folded.utf8.makeIterator()
        for byte in bytes where !isSeparator(byte) {
            guard let want = expected.next(), lowercased(byte) == want else { return false }
        }
        return expected.next() == nil
    }

    /// `name` as ``matches(_:_:)`` compares it: lowercased, separators dropped.
    static func fold(_ name: String) -> String {
        String(decoding: name.utf8.lazy.filter { !isSeparator($0) }.map(lowercased), as: UTF8.self)
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: " ")
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
