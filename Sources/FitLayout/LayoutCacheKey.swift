/// What a layout cache is keyed by: the document, the proposal and the options. Equality
/// compares them in full; hashing uses ``digest``, a 64-bit FNV-1a hash of a canonical
/// encoding that, unlike Swift's seeded `Hasher`, is the same in every process and run, so the
/// daemon can log it, share it with clients or persist it. The daemon owns the cache (and
/// drops it when its generation changes); this is only the key.
public struct LayoutCacheKey: Hashable, Sendable {
    public let document: LayoutDocument
    public let proposal: ProposedSize
    public let options: LayoutOptions
    public let digest: UInt64

    public init(document: LayoutDocument, proposal: ProposedSize, options: LayoutOptions) {
        self.document = document
        self.proposal = proposal
        self.options = options
        var hasher = StableHasher()
        document.stableHash(into: &hasher)
        hasher.combine(proposal.width)
        hasher.combine(proposal.height)
        hasher.combine(options.sizeCategory.name)
        hasher.combine(options.unit.rawValue)
        hasher.combine(options.defaultSpacing)
        // Only when set, so that digests of documents without a UI font stay what they were.
        if let font = options.uiFont { hasher.combine(font) }
        // Likewise only when set; tagged so that no UI font can hash like a language.
        if let language = options.language { hasher.combine("language"); hasher.combine(language) }
        if let metrics = options.metrics { hasher.combine("metrics=" + metrics) }
        if options.markup { hasher.combine("markup") }
        if options.widgetSizes { hasher.combine("widget_sizes") }
        if options.labelSizes { hasher.combine("label_sizes") }
        if let scale = options.textScale { hasher.combine("text_scale"); hasher.combine(scale) }
        if let range = options.breakpoints {
            hasher.combine("breakpoints")
            hasher.combine(range.from)
            hasher.combine(range.to)
            hasher.combine(range.step)
        }
        digest = hasher.value
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(digest) }
}

extension LayoutDocument {
    /// A hash of the document alone, stable across processes (see ``LayoutCacheKey``).
    public var stableDigest: UInt64 {
        var hasher = StableHasher()
        stableHash(into: &hasher)
        return hasher.value
    }

    func stableHash(into hasher: inout StableHasher) {
        hasher.combine(nodes.count)
        for node in nodes {
            hasher.combine(node.id)
            switch node.parent {
            case nil: hasher.combine(0)
            case .index(let index): hasher.combine(1); hasher.combine(index)
            case .id(let id): hasher.combine(2); hasher.combine(id)
            }
            hasher.combine(node.kind.rawValue)
            let values = node.properties.values
            hasher.combine(values.count)
            for (name, value) in values {
                hasher.combine(name)
                switch value {
                case .string(let text): hasher.combine(0); hasher.combine(text)
                case .number(let number): hasher.combine(1); hasher.combine(number)
                case .bool(let flag): hasher.combine(2); hasher.combine(flag ? 1 : 0)
                case .strings(let list):
                    hasher.combine(3)
                    hasher.combine(list.count)
                    for text in list { hasher.combine(text) }
                }
            }
        }
    }
}

/// FNV-1a, 64 bit (Fowler, Noll, Vo; the offset basis and prime of the reference
/// implementation). Strings carry their length, so ("ab","c") and ("a","bc") differ.
struct StableHasher {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func combine(bytes: some Sequence<UInt8>) {
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
    }

    mutating func combine(_ integer: Int) {
        withUnsafeBytes(of: UInt64(truncatingIfNeeded: integer).littleEndian) { combine(bytes: $0) }
    }

    mutating func combine(_ number: Double?) {
        guard let number else { return combine(-1) }
        // +0 and -0 are the same length.
        withUnsafeBytes(of: (number == 0 ? 0 : number).bitPattern.littleEndian) { combine(bytes: $0) }
    }

    mutating func combine(_ text: String) {
        combine(text.utf8.count)
        combine(bytes: text.utf8)
    }
}
