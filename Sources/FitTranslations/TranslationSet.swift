import Foundation

/// The languages a document is checked in: one catalog each, from a gettext domain installed
/// on the system, a `po/` directory, or files.
public struct TranslationSet: Sendable {
    public var catalogs: [TranslationCatalog]

    public init(catalogs: [TranslationCatalog]) { self.catalogs = catalogs }

    /// Where gettext looks for a domain's catalogs when the program does not call
    /// bindtextdomain: glibc's LOCALEDIR (gettext manual, "Locating Message Catalog Files":
    /// dir_name/locale/LC_category/domain_name.mo).
    public static let systemLocaleDirectories = ["/usr/share/locale"]

    /// Reads `source`: a directory (a `po/` with LINGUAS, or any directory of .po, .mo or .json
    /// files), a file, or else a gettext domain looked up under `localeDirectories`.
    /// `languages` keeps those (gettext names or BCP 47), each of which must be there.
    public static func load(
        _ sources: [String], languages: [String]? = nil, localeDirectories: [String] = systemLocaleDirectories
    ) throws(TranslationError) -> TranslationSet {
        var files: [(language: String, path: String)] = []
        for source in sources {
            files += try catalogFiles(source, localeDirectories: localeDirectories)
        }
        if let languages {
            let have = Set(files.map(\.language)).union(files.map { TranslationCatalog.bcp47($0.language) })
            for language in languages where !have.contains(language) && !have.contains(TranslationCatalog.bcp47(language)) {
                throw TranslationError(
                    .unknownLanguage, file: sources.joined(separator: ", "),
                    "no translation into \"\(language)\"; it has \(files.map(\.language).sorted().joined(separator: " "))")
            }
            let wanted = Set(languages.map(TranslationCatalog.bcp47))
            files = files.filter { languages.contains($0.language) || wanted.contains(TranslationCatalog.bcp47($0.language)) }
        }
        guard files.count <= TranslationLimits.maxLanguages else {
            throw TranslationError(.unreadable, file: sources.joined(separator: ", "), "more than \(TranslationLimits.maxLanguages) catalogs")
        }
        var catalogs: [TranslationCatalog] = []
        for file in files { catalogs.append(try catalog(at: file.path, language: file.language)) }
        return TranslationSet(catalogs: catalogs.sorted { $0.language < $1.language })
    }

    /// The catalogs `source` names, without reading them: a directory (a `po/` with LINGUAS,
    /// or its .po, .mo and .json files), a file, or a gettext domain's installed catalogs.
    static func catalogFiles(_ source: String, localeDirectories: [String]) throws(TranslationError) -> [(language: String, path: String)] {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { return [(languageOfFile(source), source)] }
            let linguas = source + "/LINGUAS"
            if FileManager.default.fileExists(atPath: linguas) {
                return try Self.linguas(try read(linguas), file: linguas).map { ($0, source + "/" + $0 + ".po") }
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: source)) ?? []
            return names.sorted().filter { name in [".po", ".mo", ".json"].contains { name.hasSuffix($0) } }
                .map { (languageOfFile($0), source + "/" + $0) }
        }
        // A domain name: a word, not a path.
        guard !source.contains("/"), !source.isEmpty else {
            throw TranslationError(.unreadable, file: source, "no such file or directory")
        }
        var found: [(language: String, path: String)] = []
        for directory in localeDirectories {
            let locales = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
            for locale in locales where !found.contains(where: { $0.language == locale }) {
                let path = "\(directory)/\(locale)/LC_MESSAGES/\(source).mo"
                if FileManager.default.fileExists(atPath: path) { found.append((locale, path)) }
            }
        }
        guard !found.isEmpty else {
            throw TranslationError(
                .unreadable, file: source,
                "no file or directory of that name, and no gettext domain: no \(localeDirectories.joined(separator: ", "))/*/LC_MESSAGES/\(source).mo")
        }
        return found
    }

    /// LINGUAS: language names separated by white space, `#` comments (gettext manual, "The
    /// LINGUAS File").
    static func linguas(_ bytes: [UInt8], file: String) throws(TranslationError) -> [String] {
        var languages: [String] = []
        let text = String(decoding: bytes, as: UTF8.self)
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = line.prefix { $0 != "#" }
            for word in content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }) {
                guard word.allSatisfy({ $0.isLetter || $0.isNumber || "_@.-".contains($0) }), word.first?.isLetter == true else {
                    throw TranslationError(.syntax, file: file, line: number + 1, "\"\(word)\" is not a language name")
                }
                languages.append(String(word))
            }
        }
        return languages
    }

    /// The language of a catalog file: its name without the extension ("po/de.po", "de.json"),
    /// or, for an i18next-style "locales/de/translation.json", its directory's name.
    static func languageOfFile(_ path: String) -> String {
        let parts = path.split(separator: "/")
        let name = parts.last.map(String.init) ?? path
        let stem = name.split(separator: ".").first.map(String.init) ?? name
        if parts.count >= 3, parts[parts.count - 2] == "LC_MESSAGES" { return String(parts[parts.count - 3]) }
        if ["translation", "messages", "strings", "common"].contains(stem), parts.count >= 2 { return String(parts[parts.count - 2]) }
        return stem
    }

    static func catalog(at path: String, language: String) throws(TranslationError) -> TranslationCatalog {
        let bytes = try read(path)
        if path.hasSuffix(".mo") || path.hasSuffix(".gmo") { return try MOFile.parse(bytes, language: language, file: path) }
        if path.hasSuffix(".json") { return try JSONCatalog.parse(bytes, language: language, file: path) }
        if path.hasSuffix(".po") { return try POFile.parse(bytes, language: language, file: path) }
        throw TranslationError(.unreadable, file: path, "not a .po, .mo or .json file")
    }

    /// The file's bytes, refusing anything larger than ``TranslationLimits/maxFileBytes``
    /// before reading it.
    static func read(_ path: String) throws(TranslationError) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw TranslationError(.unreadable, file: path, "cannot be opened")
        }
        defer { try? handle.close() }
        do {
            guard let data = try handle.read(upToCount: TranslationLimits.maxFileBytes + 1) else { return [] }
            guard data.count <= TranslationLimits.maxFileBytes else {
                throw TranslationError(.unreadable, file: path, "larger than \(TranslationLimits.maxFileBytes >> 20) MiB")
            }
            return [UInt8](data)
        } catch let error as TranslationError {
            throw error
        } catch {
            throw TranslationError(.unreadable, file: path, "cannot be read: \(error.localizedDescription)")
        }
    }
}
