/// GNU `.mo` catalogs as gettext reads them (gettext manual, "The Format of GNU MO Files";
/// gettext-runtime/intl/loadmsgcat.c, `_nl_load_domain`): a header of 32-bit words in the
/// writer's byte order (the magic 0x950412de says which), two tables of (length, offset)
/// pairs — original strings and translations — and the strings, NUL-terminated. A context is
/// joined to its msgid with U+0004, a plural msgid to its msgid_plural with NUL, and the forms
/// of a translation with NUL. Every offset and length is checked against the file before it is
/// read: the file is untrusted.
public enum MOFile {
    static let magic: UInt32 = 0x9504_12de

    public static func parse(_ bytes: [UInt8], language: String, file: String) throws(TranslationError) -> TranslationCatalog {
        func corrupt(_ message: String) -> TranslationError { TranslationError(.corruptCatalog, file: file, message) }
        guard bytes.count <= TranslationLimits.maxFileBytes else {
            throw TranslationError(.unreadable, file: file, "larger than \(TranslationLimits.maxFileBytes >> 20) MiB")
        }
        guard bytes.count >= 28 else { throw corrupt("too short for a .mo header (\(bytes.count) bytes)") }
        let little = word(bytes, 0, bigEndian: false)
        let bigEndian: Bool
        if little == magic {
            bigEndian = false
        } else if word(bytes, 0, bigEndian: true) == magic {
            bigEndian = true
        } else {
            throw corrupt("not a .mo catalog (no magic 0x950412de)")
        }
        func read(_ offset: Int) -> Int { Int(word(bytes, offset, bigEndian: bigEndian)) }
        // loadmsgcat.c accepts major revisions 0 and 1 (1 adds system-dependent strings, which
        // it reads beside the static tables read here).
        let revision = read(4)
        guard revision >> 16 <= 1 else { throw corrupt("unknown .mo revision \(revision >> 16).\(revision & 0xFFFF)") }
        let count = read(8)
        let originals = read(12)
        let translations = read(16)
        guard count <= bytes.count / 8,
            originals <= bytes.count, bytes.count - originals >= count * 8,
            translations <= bytes.count, bytes.count - translations >= count * 8
        else { throw corrupt("its string tables (\(count) strings at \(originals) and \(translations)) run past the end of the file") }

        func string(table: Int, index: Int) throws(TranslationError) -> [UInt8] {
            let length = read(table + index * 8)
            let offset = read(table + index * 8 + 4)
            // The string and its terminating NUL must lie inside the file.
            guard offset <= bytes.count, length < bytes.count - offset else {
                throw corrupt("string \(index) (\(length) bytes at \(offset)) runs past the end of the file")
            }
            return Array(bytes[offset..<(offset + length)])
        }

        var catalog = TranslationCatalog(language: language, source: file)
        var header: String?
        for index in 0..<count {
            let original = try string(table: originals, index: index)
            let translation = try string(table: translations, index: index)
            guard let key = String(validating: original.split(separator: 0, omittingEmptySubsequences: false).first ?? [], as: UTF8.self),
                let value = String(validating: translation, as: UTF8.self)
            else { throw corrupt("string \(index) is not valid UTF-8") }
            if key.isEmpty {
                header = value
                continue
            }
            let forms = value.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
            guard forms.count <= TranslationLimits.maxPluralForms else { throw corrupt("string \(index) has more than \(TranslationLimits.maxPluralForms) plural forms") }
            catalog.entries[key] = forms
        }
        if let header, let rule = POFile.headerField("Plural-Forms", in: header, separator: ":") {
            do throws(PluralFormsError) {
                catalog.pluralForms = try PluralForms(header: rule)
            } catch {
                throw TranslationError(.pluralForms, file: file, "Plural-Forms: \(error.message)")
            }
        }
        return catalog
    }

    /// The 32-bit word at `offset` (the caller checked offset + 4 ≤ count).
    static func word(_ bytes: [UInt8], _ offset: Int, bigEndian: Bool) -> UInt32 {
        guard offset >= 0, offset <= bytes.count - 4 else { return 0 }
        let b = (UInt32(bytes[offset]), UInt32(bytes[offset + 1]), UInt32(bytes[offset + 2]), UInt32(bytes[offset + 3]))
        return bigEndian ? b.0 << 24 | b.1 << 16 | b.2 << 8 | b.3 : b.3 << 24 | b.2 << 16 | b.1 << 8 | b.0
    }
}
