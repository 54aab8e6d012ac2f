import FitJSON

/// Flat JSON key → string files, as web and Electron apps keep their translations
/// (`de.json`: {"Open": "Öffnen"}); nested objects are read as dotted keys ({"menu":
/// {"open": …}} is "menu.open"), as i18next and vue-i18n address them. A text names its key
/// with `msgid`; contexts and plural forms are gettext's and have no place here.
public enum JSONCatalog {
    public static func parse(_ bytes: [UInt8], language: String, file: String) throws(TranslationError) -> TranslationCatalog {
        let value: JSONValue
        do throws(JSONReader.Failure) {
            value = try JSONReader.parse(bytes, limits: .init(maxDepth: 32, maxBytes: TranslationLimits.maxFileBytes))
        } catch {
            throw TranslationError(.syntax, file: file, line: line(of: error.offset, in: bytes), error.reason)
        }
        guard case .object(let root) = value else {
            throw TranslationError(.syntax, file: file, line: 1, "a translation file is a JSON object of key → string, not \(value.kindDescription)")
        }
        var catalog = TranslationCatalog(language: language, source: file)
        var pending: [(prefix: String, object: JSONObject)] = [("", root)]
        // Iterative, so that the nesting (bounded by the reader's depth limit anyway) never recurses.
        while let (prefix, object) = pending.popLast() {
            for member in object.members {
                let key = prefix.isEmpty ? member.name : prefix + "." + member.name
                switch member.value {
                case .string(let text): if !text.isEmpty { catalog.entries[key] = [text] }
                case .object(let inner): pending.append((key, inner))
                default:
                    throw TranslationError(.syntax, file: file, "\"\(key)\" is \(member.value.kindDescription), not a string")
                }
            }
        }
        return catalog
    }

    static func line(of offset: Int, in bytes: [UInt8]) -> Int {
        1 + bytes.prefix(max(0, min(offset, bytes.count))).lazy.filter { $0 == 0x0A }.count
    }
}
