/// gettext's `.po` text format as msgfmt reads it (gettext manual, "The Format of PO Files"):
/// entries of `msgctxt`, `msgid`, `msgid_plural`, `msgstr` or `msgstr[N]`, each a run of
/// C string literals on one or more lines; `#` comments; the `#, fuzzy` flag; `#~` obsolete
/// entries. Fuzzy and obsolete entries are skipped as msgfmt skips them (without
/// --use-fuzzy), all but the header, whose Plural-Forms msgfmt reads fuzzy or not; untranslated
/// entries (empty msgstr) are left out, as gettext then shows the msgid.
public enum POFile {
    public static func parse(_ bytes: [UInt8], language: String, file: String) throws(TranslationError) -> TranslationCatalog {
        guard bytes.count <= TranslationLimits.maxFileBytes else {
            throw TranslationError(.unreadable, file: file, "larger than \(TranslationLimits.maxFileBytes >> 20) MiB")
        }
        var reader = Reader(file: file)
        var lineNumber = 0
        var start = 0
        // Lines without Foundation, so CR LF files read too.
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            lineNumber += 1
            var line = bytes[start..<end]
            if line.last == 0x0D { line = line.dropLast() }
            try reader.take(line, number: lineNumber)
            start = end + 1
        }
        try reader.finishEntry()
        var catalog = TranslationCatalog(language: language, source: file, entries: reader.entries)
        if let header = reader.header {
            if let charset = Self.headerField("charset", in: header.text, separator: "="),
                !["utf-8", "utf8", "ascii", "us-ascii", "charset"].contains(charset.lowercased())
            {
                throw TranslationError(.unsupportedCharset, file: file, line: header.line, "charset \(charset) is not UTF-8; convert with msgconv --to-code=UTF-8")
            }
            if let rule = Self.headerField("Plural-Forms", in: header.text, separator: ":") {
                do throws(PluralFormsError) {
                    catalog.pluralForms = try PluralForms(header: rule)
                } catch {
                    throw TranslationError(.pluralForms, file: file, line: header.line, "Plural-Forms: \(error.message)")
                }
            }
        }
        // Every plural entry must have the forms the header promises (msgfmt --check-format's
        // "nplurals = N but plural form N-1 missing").
        for plural in reader.plurals where plural.forms < catalog.pluralForms.count {
            throw TranslationError(
                .missingPluralForm, file: file, line: plural.line,
                "msgid \"\(plural.msgid)\" has \(plural.forms) plural form\(plural.forms == 1 ? "" : "s") but Plural-Forms says nplurals=\(catalog.pluralForms.count)")
        }
        return catalog
    }

    /// A header line's value ("Plural-Forms: …" or "charset=…" inside Content-Type).
    static func headerField(_ name: String, in header: String, separator: Character) -> String? {
        for line in header.split(separator: "\n") {
            if separator == ":" {
                guard line.hasPrefix(name + ":") else { continue }
                return line.dropFirst(name.count + 1).trimmed
            }
            guard let range = line.range(of: name + "=") else { continue }
            return String(line[range.upperBound...].prefix { $0 != ";" && $0 != " " })
        }
        return nil
    }

    private enum Field: Equatable {
        case context, msgid, plural, form(Int)
    }

    private struct Reader {
        let file: String
        var entries: [String: [String]] = [:]
        var header: (text: String, line: Int)?
        var plurals: [(msgid: String, forms: Int, line: Int)] = []

        // The entry being read.
        var context: String?
        var msgid: String?
        var plural: String?
        var forms: [Int: String] = [:]
        var field: Field?
        var fuzzy = false
        var entryLine = 0
        var pendingFuzzy = false

        init(file: String) { self.file = file }

        mutating func take(_ line: ArraySlice<UInt8>, number: Int) throws(TranslationError) {
            let text = line.drop { $0 == 0x20 || $0 == 0x09 }
            guard let first = text.first else { return }
            if first == UInt8(ascii: "#") {
                // A comment ends the entry before it; "#~" obsolete entries are not read at
                // all; "#, fuzzy" flags the next entry.
                if msgid != nil { try finishEntry() }
                if text.starts(with: Array("#,".utf8)) {
                    let flags = String(decoding: text.dropFirst(2), as: UTF8.self).split(separator: ",").map { $0.trimmed }
                    if flags.contains("fuzzy") { pendingFuzzy = true }
                }
                return
            }
            if first == UInt8(ascii: "\"") {
                guard let field else { throw error(number, "a string without msgid, msgstr or msgctxt before it") }
                let value = try literal(text, line: number)
                append(value, to: field)
                return
            }
            let keyword = text.prefix { $0 != 0x20 && $0 != 0x09 && $0 != UInt8(ascii: "\"") }
            let rest = text.dropFirst(keyword.count).drop { $0 == 0x20 || $0 == 0x09 }
            let name = String(decoding: keyword, as: UTF8.self)
            guard rest.first == UInt8(ascii: "\"") else { throw error(number, "\(name) is not followed by a string") }
            let value = try literal(rest, line: number)
            switch name {
            case "msgctxt":
                if msgid != nil { try finishEntry() }
                guard context == nil else { throw error(number, "a second msgctxt in one entry") }
                startEntry(number)
                context = value
                field = .context
            case "msgid":
                if msgid != nil { try finishEntry() }
                if context == nil { startEntry(number) }
                msgid = value
                field = .msgid
            case "msgid_plural":
                guard msgid != nil, plural == nil, forms.isEmpty else { throw error(number, "msgid_plural without a msgid before it") }
                plural = value
                field = .plural
            case "msgstr":
                guard msgid != nil else { throw error(number, "msgstr without a msgid before it") }
                guard plural == nil else { throw error(number, "a plural entry takes msgstr[0], msgstr[1]…, not msgstr") }
                guard forms.isEmpty else { throw error(number, "a second msgstr in one entry") }
                forms[0] = value
                field = .form(0)
            default:
                guard name.hasPrefix("msgstr["), name.hasSuffix("]"), let index = Int(name.dropFirst(7).dropLast()) else {
                    throw error(number, "unknown keyword \"\(name)\"")
                }
                guard msgid != nil else { throw error(number, "\(name) without a msgid before it") }
                guard plural != nil else { throw error(number, "\(name) in an entry without msgid_plural") }
                guard index == forms.count, index < TranslationLimits.maxPluralForms else {
                    throw error(number, "\(name) out of order: expected msgstr[\(forms.count)]")
                }
                forms[index] = value
                field = .form(index)
            }
        }

        private mutating func startEntry(_ line: Int) {
            entryLine = line
            fuzzy = pendingFuzzy
            pendingFuzzy = false
        }

        private mutating func append(_ value: String, to field: Field) {
            switch field {
            case .context: context? += value
            case .msgid: msgid? += value
            case .plural: plural? += value
            case .form(let index): forms[index]? += value
            }
        }

        mutating func finishEntry() throws(TranslationError) {
            defer {
                context = nil
                msgid = nil
                plural = nil
                forms = [:]
                field = nil
                fuzzy = false
            }
            guard let msgid else {
                if context != nil { throw error(entryLine, "msgctxt without a msgid") }
                return
            }
            guard !forms.isEmpty else { throw error(entryLine, "msgid \"\(msgid)\" has no msgstr") }
            let values = (0..<forms.count).map { forms[$0] ?? "" }
            if msgid.isEmpty, context == nil {
                header = (values[0], entryLine)
                return
            }
            if fuzzy || values.allSatisfy(\.isEmpty) { return }
            if plural != nil { plurals.append((msgid, values.count, entryLine)) }
            entries[TranslationCatalog.key(msgid, context: context)] = values
        }

        private func error(_ line: Int, _ message: String) -> TranslationError {
            TranslationError(.syntax, file: file, line: line, message)
        }

        /// A C string literal, quotes included, and nothing but spaces after it. The escapes
        /// are C's (gettext's po-lex.c control_sequence): \n \t \b \r \f \v \a \\ \" \? \',
        /// octal \ooo and hex \xhh.
        private func literal(_ text: ArraySlice<UInt8>, line: Int) throws(TranslationError) -> String {
            var out: [UInt8] = []
            var index = text.startIndex + 1
            while true {
                guard index < text.endIndex else { throw error(line, "a string without its closing quote") }
                let byte = text[index]
                index += 1
                if byte == UInt8(ascii: "\"") { break }
                guard byte == UInt8(ascii: "\\") else {
                    out.append(byte)
                    continue
                }
                guard index < text.endIndex else { throw error(line, "a string ends in a lone backslash") }
                let escape = text[index]
                index += 1
                switch escape {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "v"): out.append(0x0B)
                case UInt8(ascii: "a"): out.append(0x07)
                case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "?"), UInt8(ascii: "'"): out.append(escape)
                case UInt8(ascii: "0")...UInt8(ascii: "7"):
                    var value = Int(escape - UInt8(ascii: "0"))
                    var digits = 1
                    while digits < 3, index < text.endIndex, text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "7") {
                        value = value * 8 + Int(text[index] - UInt8(ascii: "0"))
                        index += 1
                        digits += 1
                    }
                    guard value <= 0xFF else { throw error(line, "octal escape above \\377") }
                    out.append(UInt8(value))
                case UInt8(ascii: "x"):
                    var value = 0
                    var digits = 0
                    while index < text.endIndex, let digit = Self.hexValue(text[index]), digits < 2 {
                        value = value * 16 + digit
                        index += 1
                        digits += 1
                    }
                    guard digits > 0 else { throw error(line, "\\x without hex digits") }
                    out.append(UInt8(value))
                default:
                    throw error(line, "unknown escape \\\(Character(Unicode.Scalar(escape)))")
                }
            }
            let trailing = text[index...].drop { $0 == 0x20 || $0 == 0x09 }
            guard trailing.isEmpty || trailing.first == UInt8(ascii: "#") else {
                throw error(line, "text after the string's closing quote")
            }
            guard let string = String(validating: out, as: UTF8.self) else { throw error(line, "the string is not valid UTF-8") }
            return string
        }

        private static func hexValue(_ byte: UInt8) -> Int? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
            default: return nil
            }
        }
    }
}
