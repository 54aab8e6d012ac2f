/// One language's translations of one domain: what `dgettext`/`dpgettext`/`dngettext` would
/// return, read from a `.po`, a `.mo` or a flat JSON file.
public struct TranslationCatalog: Sendable {
    /// The catalog's language as gettext names it ("pt_BR", "sr@latin"); ``bcp47`` for Pango.
    public var language: String
    /// Where it was read from, for messages.
    public var source: String
    /// Keyed as gettext keys a `.mo`: the context, U+0004, then the msgid
    /// (gettext.h's `pgettext_aux`: `msgctxt "\004" msgid`); the value is every form.
    var entries: [String: [String]]
    public var pluralForms: PluralForms

    public init(language: String, source: String, entries: [String: [String]] = [:], pluralForms: PluralForms = .germanic) {
        self.language = language
        self.source = source
        self.entries = entries
        self.pluralForms = pluralForms
    }

    public var count: Int { entries.count }

    /// The key gettext looks a message up by.
    static func key(_ msgid: String, context: String?) -> String {
        guard let context else { return msgid }
        return context + "\u{4}" + msgid
    }

    /// The translation of `message`, nil when the catalog does not have it (gettext would then
    /// show the source text: the caller reports it and measures the source).
    public func translate(_ message: MessageReference) -> String? {
        guard let forms = entries[Self.key(message.msgid, context: message.context)], !forms.isEmpty else { return nil }
        let index = message.count.map { pluralForms.form(for: $0) } ?? 0
        let text = index < forms.count ? forms[index] : forms[0]
        return text.isEmpty ? nil : text
    }

    /// The language as a BCP 47 tag for Pango's `language` (lower case, '-'): glibc's locale
    /// modifiers that name a script become ISO 15924 subtags ("sr@latin" → "sr-latn"), as
    /// CLDR's POSIX-to-BCP 47 mapping does; other modifiers ("en@quot") are dropped.
    public var bcp47: String { Self.bcp47(language) }

    public static func bcp47(_ locale: String) -> String {
        var base = Substring(locale)
        var modifier: Substring?
        if let at = locale.firstIndex(of: "@") {
            base = locale[..<at]
            modifier = locale[locale.index(after: at)...]
        }
        if let dot = base.firstIndex(of: ".") { base = base[..<dot] }
        var parts = base.split(separator: "_").map { $0.lowercased() }
        let scripts = ["latin": "latn", "latn": "latn", "cyrillic": "cyrl", "iqtelif": "latn", "shaw": "shaw", "valencia": "valencia"]
        if let modifier, let script = scripts[modifier.lowercased()] {
            parts.insert(script, at: min(1, parts.count))
        }
        return parts.joined(separator: "-")
    }

    /// Whether text in the language runs right to left. A catalog of GTK's own (gtk40, gtk30)
    /// says it as GTK reads it: gtk_get_locale_direction (gtkmain.c) translates the msgid
    /// "default:LTR", and right-to-left translations give "default:RTL". Other catalogs: the
    /// languages whose default script is Arabic, Hebrew, Syriac or Thaana (CLDR likelySubtags).
    public var isRightToLeft: Bool {
        if let direction = entries["default:LTR"]?.first, !direction.isEmpty { return direction == "default:RTL" }
        let primary = bcp47.split(separator: "-").first.map(String.init) ?? ""
        return Self.rightToLeftLanguages.contains(primary)
    }

    static let rightToLeftLanguages: Set<String> = [
        "ar", "he", "fa", "ur", "yi", "ps", "ug", "ckb", "dv", "sd", "syr", "arc", "ks", "iw", "azb", "mzn", "glk", "lrc",
    ]
}

/// A text's message: what a document's text node names with `msgid` (and `msgctxt`,
/// `msgid_plural` with the count `n`).
public struct MessageReference: Hashable, Sendable {
    public var msgid: String
    public var context: String?
    public var plural: String?
    /// The count a plural message is shown for; nil for a singular message.
    public var count: UInt64?

    public init(msgid: String, context: String? = nil, plural: String? = nil, count: UInt64? = nil) {
        self.msgid = msgid
        self.context = context
        self.plural = plural
        self.count = count
    }

    /// The text in the source language, as gettext shows it when untranslated: the msgid, or
    /// msgid_plural when n ≠ 1 (ngettext's fallback).
    public var sourceText: String {
        if let plural, let count, count != 1 { return plural }
        return msgid
    }

    /// "msgctxt|msgid" as translators see it in their tools; for messages and reports.
    public var description: String {
        context.map { "\($0)|\(msgid)" } ?? msgid
    }
}
