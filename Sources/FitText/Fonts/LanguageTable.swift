import CFitShims
import CHarfBuzz
#if canImport(Glibc)
import Glibc
#endif

/// Languages and scripts, for choosing fallback fonts per script the way Pango 1.50.12 does
/// (PANGO_RULES.md §10): an item's language is the context language when that language
/// includes the item's script, else the first of the preferred languages (PANGO_LANGUAGE or
/// LANGUAGE) that does, else the script's sample language, else "xx" (which no font claims,
/// so it leaves the sort alone) (pango/itemize.c compute_derived_language;
/// pango/pango-language.c pango_language_includes_script, pango_script_get_sample_language).
enum LanguageTable {
    /// Pango's canonical form of a tag (``LanguageTag/canonical(_:)``, in FitTypes so that
    /// the wire codecs check the `language` option without this module's C).
    static func canonical(_ text: String) -> String { LanguageTag.canonical(text) }

    /// An environment variable, nil when unset (as getenv).
    typealias Environment = (String) -> String?

    static func processEnvironment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    /// Pango's default language on Linux: pango_language_get_default canonicalizes
    /// setlocale(LC_CTYPE, NULL) (pango-language.c _pango_get_lc_ctype), which in a GTK
    /// program, after setlocale(LC_ALL, ""), is glibc's choice: the first non-empty of LC_ALL,
    /// LC_CTYPE, LANG, or "C" — and "C" again when that locale is not installed (setlocale
    /// fails). So C, C.UTF-8, POSIX and locales not installed give "c", which Pango's table
    /// does not know: it includes every script.
    static func defaultLanguage(
        environment: Environment = processEnvironment, localeExists: (String) -> Bool = LanguageTable.localeExists
    ) -> String {
        var name = "C"
        for variable in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let value = environment(variable), !value.isEmpty {
                name = value
                break
            }
        }
        if !localeExists(name) { name = "C" }
        return canonical(name)
    }

    /// Whether glibc can set LC_CTYPE to `name` (what setlocale(LC_CTYPE, "") needs).
    static func localeExists(_ name: String) -> Bool {
        guard let locale = newlocale(LC_CTYPE_MASK, name, nil) else { return false }
        freelocale(locale)
        return true
    }

    /// Pango's preferred languages (pango-language.c parse_default_languages): PANGO_LANGUAGE,
    /// or else LANGUAGE, split at any of ";:, \t", empty entries and "C" skipped, canonical.
    static func preferredLanguages(environment: Environment = processEnvironment) -> [String] {
        guard let list = environment("PANGO_LANGUAGE") ?? environment("LANGUAGE") else { return [] }
        return list.split(omittingEmptySubsequences: true) { ";:, \t".contains($0) }
            .filter { $0 != "C" }
            .map { canonical(String($0)) }
    }

    /// The ICU scripts Pango lists for a canonical language (pango_language_get_scripts), nil
    /// when it lists none — then Pango takes the language to include every script.
    static func scripts(ofLanguage tag: String) -> [Int32]? {
        Tables.shared.scripts(of: tag)
    }

    /// pango_language_includes_script.
    static func includesScript(_ tag: String, _ script: Int32) -> Bool {
        guard isRealScript(script), let scripts = scripts(ofLanguage: tag) else { return true }
        return scripts.contains(script)
    }

    /// pango-script.c REAL_SCRIPT: not Common, Inherited or Unknown.
    static func isRealScript(_ script: Int32) -> Bool {
        script > Int32(FIT_SCRIPT_INHERITED) && script != Int32(FIT_SCRIPT_UNKNOWN)
    }

    /// pango_script_get_sample_language: nil for a script past Pango's table (even when a
    /// preferred language includes it), else the first preferred language that includes the
    /// script, else the table's sample.
    static func sampleLanguage(for script: Int32, preferred: [String]) -> String? {
        let tables = Tables.shared
        guard let sample = tables.sample[script] else { return nil }
        if let first = preferred.first(where: { includesScript($0, script) }) { return first }
        return sample.isEmpty ? nil : sample
    }

    /// pango/itemize.c compute_derived_language.
    static func derivedLanguage(context: String, script: Int32, preferred: [String]) -> String {
        if includesScript(context, script) { return context }
        return sampleLanguage(for: script, preferred: preferred) ?? "xx"
    }

    /// pango-language.c find_best_lang_match, for each of Pango's language tables: among the
    /// entries with the tag's first component (`table`, keyed by it, in Pango's order), the
    /// last one the tag matches (pango_language_matches: equal, or the entry followed by '-').
    static func bestMatch<Entry>(_ tag: String, in table: [String: [Entry]], tag entryTag: (Entry) -> String) -> Entry? {
        table[firstComponent(tag)]?.last { tag == entryTag($0) || tag.hasPrefix(entryTag($0) + "-") }
    }

    /// "pa" of "pa-pk": the key of a table for ``bestMatch(_:in:tag:)``.
    static func firstComponent(_ tag: String) -> String {
        tag.split(separator: "-", omittingEmptySubsequences: false).first.map(String.init) ?? tag
    }

    /// The generated tables (PangoLanguageTable.swift) read once, with scripts as ICU codes.
    final class Tables: Sendable {
        static let shared = Tables()

        /// Per first component ("pa" for "pa-pk"), the table's entries in Pango's order.
        let entries: [String: [(tag: String, scripts: [Int32])]]
        /// Every script of Pango's sample table (the scripts it knows), to its sample or "".
        let sample: [Int32: String]
        /// The table's languages, in order (for tests that compare them with Pango).
        let languages: [String]

        private init() {
            var codes: [String: Int32] = [:]
            // ICU's script codes are below 256 (USCRIPT_CODE_LIMIT is about 200).
            for code in Int32(0)..<256 {
                if let name = fit_script_short_name(code), codes[String(cString: name)] == nil {
                    codes[String(cString: name)] = code
                }
            }
            var entries: [String: [(tag: String, scripts: [Int32])]] = [:]
            var languages: [String] = []
            for line in PangoLanguageTable.scriptsForLanguage.split(separator: "\n") {
                let fields = line.split(separator: " ").map(String.init)
                guard let tag = fields.first else { continue }
                let scripts = fields.dropFirst().compactMap { codes[$0] }
                entries[LanguageTable.firstComponent(tag), default: []].append((tag, scripts))
                languages.append(tag)
            }
            var sample: [Int32: String] = [:]
            for line in PangoLanguageTable.sampleLanguages.split(separator: "\n") {
                let fields = line.split(separator: " ").map(String.init)
                guard let name = fields.first, let code = codes[name] else { continue }
                sample[code] = fields.count > 1 ? fields[1] : ""
            }
            self.entries = entries
            self.sample = sample
            self.languages = languages
        }

        /// The best matching entry (``LanguageTable/bestMatch(_:in:tag:)``); an entry without
        /// scripts counts as none.
        func scripts(of tag: String) -> [Int32]? {
            guard let entry = LanguageTable.bestMatch(tag, in: entries, tag: \.tag), !entry.scripts.isEmpty else { return nil }
            return entry.scripts
        }
    }
}

/// The context language with what it says about scripts worked out once, since the derived
/// language is asked for every run of every measurement.
struct LanguageContext: Sendable, Hashable {
    let tag: String
    /// The derived language of every ICU script code below `tableSize`, as a tag and as
    /// HarfBuzz's interned language (its address): asked for once per run, so looked up, not
    /// worked out.
    private let derived: [String]
    private let hbLanguages: [UInt]
    private let preferred: [String]
    private static let tableSize: Int32 = 256

    init(_ tag: String, preferred: [String] = []) {
        self.tag = tag
        self.preferred = preferred
        let derived = (0..<LanguageContext.tableSize).map {
            LanguageTable.derivedLanguage(context: tag, script: $0, preferred: preferred)
        }
        self.derived = derived
        self.hbLanguages = derived.map { UInt(bitPattern: hb_language_from_string($0, -1)) }
    }

    func derivedLanguage(script: Int32) -> String {
        if script >= 0 && script < LanguageContext.tableSize { return derived[Int(script)] }
        return LanguageTable.derivedLanguage(context: tag, script: script, preferred: preferred)
    }

    /// ``derivedLanguage(script:)`` as HarfBuzz's `hb_language_t`, by address.
    func hbLanguage(script: Int32) -> UInt {
        if script >= 0 && script < LanguageContext.tableSize { return hbLanguages[Int(script)] }
        return UInt(bitPattern: hb_language_from_string(derivedLanguage(script: script), -1))
    }
}
