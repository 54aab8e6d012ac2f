/// The `language` option's tag: checked and put in Pango's canonical form with plain byte
/// rules (no ICU), so the daemon, the engine and the wire codecs agree on it. The engine's
/// language table (FitText's LanguageTable: scripts, fallback languages) builds on it.
package enum LanguageTag {
    /// Longest language a request may name (BCP 47 allows long tags; Pango none in its table
    /// longer than 8).
    package static let maxOptionBytes = 64

    /// Pango's canonical form (pango_language_from_string's canon_map): ASCII letters
    /// lowercased, digits kept, '-', '_' and '@' become '-', and the first other character
    /// ends the tag ("en_US.UTF-8" → "en-us", "C.UTF-8" → "c", "sr_RS@latin" → "sr-rs-latin").
    package static func canonical(_ text: String) -> String {
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): out.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): out.append(byte + 32)
            case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "@"): out.append(UInt8(ascii: "-"))
            default: return String(decoding: out, as: UTF8.self)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A request's `language` option in canonical form; letters, digits, '-' and '_' only
    /// (a BCP 47 tag, or a POSIX locale's language_TERRITORY).
    package static func parseOption(_ text: String) throws(FitTextError) -> String {
        try checkOption(text)
        return canonical(text)
    }

    /// ``parseOption(_:)``'s checks alone, without making the canonical tag (every
    /// measurement validates its request, a cache hit too).
    package static func checkOption(_ text: String) throws(FitTextError) {
        guard !text.isEmpty, text.utf8.count <= maxOptionBytes else {
            throw .invalidArgument(name: "language", reason: "must be a BCP 47 language tag of 1 to \(maxOptionBytes) bytes, like \"bn-IN\" or \"c\"")
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                continue
            default:
                throw .invalidArgument(name: "language", reason: "\"\(text)\" is not a BCP 47 language tag (letters, digits and '-' only), like \"bn-IN\" or \"c\"")
            }
        }
    }
}
