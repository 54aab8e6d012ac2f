import CFitShims
import CHarfBuzz
#if canImport(Glibc)
import Glibc
#endif

/// Languages and scripts, for choosing fallback fonts per script the way Pango does: an item's
/// language is the context language when that language is written in the item's script, else
/// a sample language for the script, else "xx" (which no font claims, so it leaves the sort
/// alone) (pango/itemize.c compute_derived_language; pango-language.c sample languages).
enum LanguageTable {
    /// "en_US.UTF-8" → "en-us"; the C and POSIX locales → "en-us".
    static func normalize(_ locale: String) -> String {
        var tag = Substring(locale)
        if let dot = tag.firstIndex(of: ".") { tag = tag[..<dot] }
        if let at = tag.firstIndex(of: "@") { tag = tag[..<at] }
        let normalized = String(tag.map { $0 == "_" ? "-" : $0 }).lowercased()
        if normalized.isEmpty || normalized == "c" || normalized == "posix" { return "en-us" }
        return normalized.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }

    static func fromEnvironment() -> String {
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let value = getenv(name), value.pointee != 0 { return String(cString: value) }
        }
        return "C"
    }

    static func derivedLanguage(context: String, script: Int32) -> String {
        LanguageContext.derive(tag: context, scripts: scripts(ofLanguage: context), script: script)
    }

    static func scripts(ofLanguage tag: String) -> Set<Int32>? {
        let primary = tag.split(separator: "-").first.map(String.init) ?? tag
        return scriptsOfLanguage[primary]
    }

    static func sample(for script: Int32) -> String { sampleLanguage[script] ?? "xx" }

    private static let latin: Set<Int32> = [Int32(FIT_SCRIPT_LATIN)]
    private static let scriptsOfLanguage: [String: Set<Int32>] = {
        var table: [String: Set<Int32>] = [:]
        for code in ["en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "nb", "nn", "no", "fi", "pl", "cs",
                     "sk", "sl", "hr", "hu", "ro", "tr", "vi", "id", "ms", "ca", "eu", "gl", "et", "lv", "lt", "is", "ga", "cy"] {
            table[code] = latin
        }
        for code in ["ru", "uk", "be", "bg", "mk", "sr", "kk", "ky", "mn"] { table[code] = [Int32(FIT_SCRIPT_CYRILLIC)] }
        for code in ["ar", "fa", "ur", "ps"] { table[code] = [Int32(FIT_SCRIPT_ARABIC)] }
        table["el"] = [Int32(FIT_SCRIPT_GREEK)]
        for code in ["he", "yi"] { table[code] = [Int32(FIT_SCRIPT_HEBREW)] }
        for code in ["hi", "mr", "ne", "sa"] { table[code] = [Int32(FIT_SCRIPT_DEVANAGARI)] }
        table["th"] = [Int32(FIT_SCRIPT_THAI)]
        table["ja"] = [Int32(FIT_SCRIPT_HAN), Int32(FIT_SCRIPT_HIRAGANA), Int32(FIT_SCRIPT_KATAKANA)]
        table["zh"] = [Int32(FIT_SCRIPT_HAN)]
        table["ko"] = [Int32(FIT_SCRIPT_HANGUL), Int32(FIT_SCRIPT_HAN)]
        return table
    }()

    // pango-language.c, sample_languages (Han has none: it is written in several languages).
    private static let sampleLanguage: [Int32: String] = [
        Int32(FIT_SCRIPT_ARABIC): "ar", Int32(FIT_SCRIPT_ARMENIAN): "hy", Int32(FIT_SCRIPT_BENGALI): "bn",
        Int32(FIT_SCRIPT_CYRILLIC): "ru", Int32(FIT_SCRIPT_DEVANAGARI): "hi", Int32(FIT_SCRIPT_ETHIOPIC): "am",
        Int32(FIT_SCRIPT_GEORGIAN): "ka", Int32(FIT_SCRIPT_GREEK): "el", Int32(FIT_SCRIPT_GUJARATI): "gu",
        Int32(FIT_SCRIPT_GURMUKHI): "pa", Int32(FIT_SCRIPT_HANGUL): "ko", Int32(FIT_SCRIPT_HEBREW): "he",
        Int32(FIT_SCRIPT_HIRAGANA): "ja", Int32(FIT_SCRIPT_KANNADA): "kn", Int32(FIT_SCRIPT_KATAKANA): "ja",
        Int32(FIT_SCRIPT_KHMER): "km", Int32(FIT_SCRIPT_LAO): "lo", Int32(FIT_SCRIPT_LATIN): "en",
        Int32(FIT_SCRIPT_MALAYALAM): "ml", Int32(FIT_SCRIPT_MONGOLIAN): "mn", Int32(FIT_SCRIPT_MYANMAR): "my",
        Int32(FIT_SCRIPT_ORIYA): "or", Int32(FIT_SCRIPT_SINHALA): "si", Int32(FIT_SCRIPT_SYRIAC): "syr",
        Int32(FIT_SCRIPT_TAMIL): "ta", Int32(FIT_SCRIPT_TELUGU): "te", Int32(FIT_SCRIPT_THAANA): "dv",
        Int32(FIT_SCRIPT_THAI): "th", Int32(FIT_SCRIPT_TIBETAN): "bo",
    ]

    /// Scripts written without hyphens at line breaks (Pango's break.c inserts none there).
    static func breaksWithoutHyphens(_ script: Int32) -> Bool {
        switch script {
        case Int32(FIT_SCRIPT_HAN), Int32(FIT_SCRIPT_HIRAGANA), Int32(FIT_SCRIPT_KATAKANA), Int32(FIT_SCRIPT_HANGUL),
            Int32(FIT_SCRIPT_THAI), Int32(FIT_SCRIPT_LAO), Int32(FIT_SCRIPT_KHMER), Int32(FIT_SCRIPT_MYANMAR),
            Int32(FIT_SCRIPT_TIBETAN):
            return true
        default:
            return false
        }
    }
}

/// The context language with what it says about scripts worked out once, since the derived
/// language is asked for every run of every measurement.
struct LanguageContext: Sendable, Hashable {
    let tag: String
    /// The scripts the language is written in; nil when unknown (then, as in Pango, it is
    /// assumed to include every script).
    private let scripts: Set<Int32>?
    /// The derived language of every ICU script code below `tableSize`, as a tag and as
    /// HarfBuzz's interned language (its address): asked for once per run, so looked up, not
    /// worked out.
    private let derived: [String]
    private let hbLanguages: [UInt]
    private static let tableSize: Int32 = 256

    init(_ tag: String) {
        self.tag = tag
        let scripts = LanguageTable.scripts(ofLanguage: tag)
        self.scripts = scripts
        let derived = (0..<LanguageContext.tableSize).map { LanguageContext.derive(tag: tag, scripts: scripts, script: $0) }
        self.derived = derived
        self.hbLanguages = derived.map { UInt(bitPattern: hb_language_from_string($0, -1)) }
    }

    func derivedLanguage(script: Int32) -> String {
        if script >= 0 && script < LanguageContext.tableSize { return derived[Int(script)] }
        return LanguageContext.derive(tag: tag, scripts: scripts, script: script)
    }

    /// ``derivedLanguage(script:)`` as HarfBuzz's `hb_language_t`, by address.
    func hbLanguage(script: Int32) -> UInt {
        if script >= 0 && script < LanguageContext.tableSize { return hbLanguages[Int(script)] }
        return UInt(bitPattern: hb_language_from_string(derivedLanguage(script: script), -1))
    }

    static func derive(tag: String, scripts: Set<Int32>?, script: Int32) -> String {
        if script <= Int32(FIT_SCRIPT_INHERITED) || script == Int32(FIT_SCRIPT_UNKNOWN) { return tag }
        guard let scripts, !scripts.contains(script) else { return tag }
        return LanguageTable.sample(for: script)
    }
}
