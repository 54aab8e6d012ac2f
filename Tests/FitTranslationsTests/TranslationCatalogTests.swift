import Foundation
import Testing

@testable import FitTranslations

let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path

func po(_ text: String, file: String = "test.po") throws(TranslationError) -> TranslationCatalog {
    try POFile.parse(Array(text.utf8), language: "xx", file: file)
}

@Suite struct POFileTests {
    @Test func readsContextsPluralsAndEscapesAndSkipsFuzzyAndObsoleteEntries() throws {
        let set = try TranslationSet.load([fixtures + "/po"])
        #expect(set.catalogs.map(\.language) == ["de", "pl"])
        let german = set.catalogs[0]
        #expect(german.translate(MessageReference(msgid: "_Open")) == "_Öffnen")
        #expect(german.translate(MessageReference(msgid: "Close", context: "menu")) == "Schließen")
        #expect(german.translate(MessageReference(msgid: "Close")) == "Zumachen")
        #expect(german.translate(MessageReference(msgid: "Cancel")) == nil, "fuzzy entries are not used, as msgfmt leaves them out")
        #expect(german.translate(MessageReference(msgid: "Untranslated")) == nil)
        #expect(german.translate(MessageReference(msgid: "Old")) == nil)
        #expect(german.translate(MessageReference(msgid: "Line\tone")) == "Zeile\tein\n\"zwei\" \\ AB")
        #expect(german.translate(MessageReference(msgid: "%d file", plural: "%d files", count: 1)) == "%d Datei")
        #expect(german.translate(MessageReference(msgid: "%d file", plural: "%d files", count: 5)) == "%d Dateien")
    }

    @Test func polishPluralFormsFollowTheHeadersExpression() throws {
        let polish = try #require(try TranslationSet.load([fixtures + "/po"], languages: ["pl"]).catalogs.first)
        let message = { (n: UInt64) in MessageReference(msgid: "%d file", plural: "%d files", count: n) }
        #expect(polish.translate(message(1)) == "%d plik")
        #expect(polish.translate(message(3)) == "%d pliki")
        #expect(polish.translate(message(5)) == "%d plików")
        #expect(polish.translate(message(22)) == "%d pliki")
        #expect(polish.translate(message(12)) == "%d plików")
    }

    @Test func syntaxErrorsNameTheFileAndLine() {
        let text = "msgid \"a\"\nmsgstr \"b\"\n\nmsgid \"c\nmsgstr \"d\"\n"
        #expect(throws: TranslationError(.syntax, file: "bad.po", line: 4, "a string without its closing quote")) {
            try po(text, file: "bad.po")
        }
        #expect(throws: TranslationError(.syntax, file: "t.po", line: 2, "unknown keyword \"msgstri\"")) {
            try po("msgid \"a\"\nmsgstri \"b\"\n", file: "t.po")
        }
    }

    @Test func aPluralEntryWithoutEveryFormIsAnErrorAtItsLine() {
        let text = """
            msgid ""
            msgstr "Plural-Forms: nplurals=3; plural=n==1 ? 0 : n==2 ? 1 : 2;\\n"

            msgid "one"
            msgid_plural "many"
            msgstr[0] "eins"
            msgstr[1] "zwei"
            """
        #expect(throws: TranslationError(.missingPluralForm, file: "p.po", line: 4, "msgid \"one\" has 2 plural forms but Plural-Forms says nplurals=3")) {
            try po(text, file: "p.po")
        }
    }

    @Test func aCharsetOtherThanUTF8IsRefused() {
        let text = "msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=ISO-8859-1\\n\"\n"
        #expect(throws: TranslationError.self) { try po(text) }
    }
}

@Suite struct PluralFormsTests {
    @Test func arabicSixForms() throws {
        let arabic = try PluralForms(
            header: "nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5;")
        #expect([0, 1, 2, 3, 10, 11, 99, 100, 102, 111].map { arabic.form(for: $0) } == [0, 1, 2, 3, 3, 4, 4, 5, 5, 4])
    }

    @Test func precedenceIsCs() throws {
        let rule = try PluralForms(header: "nplurals=9; plural=1 + 2 * 3 - n % 4 == 6 || !n;")
        // (1 + 6 - n%4 == 6) || !n: n = 1 → 6 == 6 → 1; n = 2 → 5 == 6 false, !2 = 0 → 0; n = 0 → !0 → 1.
        #expect(rule.form(for: 1) == 1)
        #expect(rule.form(for: 2) == 0)
        #expect(rule.form(for: 0) == 1)
    }

    @Test func divisionByZeroAndOutOfRangeResultsTakeTheFirstForm() throws {
        #expect(try PluralForms(header: "nplurals=2; plural=n / 0;").form(for: 5) == 0)
        #expect(try PluralForms(header: "nplurals=2; plural=n;").form(for: 7) == 0)
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let deep = "nplurals=2; plural=" + String(repeating: "(", count: 100_000) + "n" + String(repeating: ")", count: 100_000) + ";"
        #expect(throws: PluralFormsError.self) { try PluralForms(header: deep) }
        let nots = "nplurals=2; plural=" + String(repeating: "!", count: 100_000) + "n;"
        #expect(throws: PluralFormsError.self) { try PluralForms(header: nots) }
    }

    @Test func malformedRulesAreRefused() {
        for rule in ["nplurals=2;", "plural=n;", "nplurals=0; plural=0;", "nplurals=2; plural=n ? 1;", "nplurals=2; plural=(n;",
            "nplurals=2; plural=n x 2;", "nplurals=2; plural=99999999999999999999999;"]
        {
            #expect(throws: PluralFormsError.self, "\(rule)") { try PluralForms(header: rule) }
        }
    }
}

/// A GNU .mo file written as msgfmt writes one, in either byte order.
func moFile(_ entries: [(String, String)], bigEndian: Bool) -> [UInt8] {
    let sorted = entries.sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }
    var out: [UInt8] = []
    func word(_ value: Int) {
        let v = UInt32(value)
        let bytes = [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
        out += bigEndian ? bytes.reversed() : bytes
    }
    let count = sorted.count
    let originals = 28
    let translations = originals + count * 8
    let stringsAt = translations + count * 8
    var strings: [UInt8] = []
    var tables: [(Int, Int)] = []
    for text in sorted.map(\.0) + sorted.map(\.1) {
        tables.append((text.utf8.count, stringsAt + strings.count))
        strings += Array(text.utf8) + [0]
    }
    for value in [0x9504_12de, 0, count, originals, translations, 0, 0] { word(value) }
    for (length, offset) in tables {
        word(length)
        word(offset)
    }
    return out + strings
}

@Suite struct MOFileTests {
    let entries = [
        ("", "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=2; plural=n != 1;\n"),
        ("Open", "Öffnen"),
        ("menu\u{4}Close", "Schließen"),
        ("%d file\0%d files", "%d Datei\0%d Dateien"),
    ]

    @Test(arguments: [false, true]) func readsBothByteOrders(bigEndian: Bool) throws {
        let catalog = try MOFile.parse(moFile(entries, bigEndian: bigEndian), language: "de", file: "de.mo")
        #expect(catalog.translate(MessageReference(msgid: "Open")) == "Öffnen")
        #expect(catalog.translate(MessageReference(msgid: "Close", context: "menu")) == "Schließen")
        #expect(catalog.translate(MessageReference(msgid: "Close")) == nil)
        #expect(catalog.translate(MessageReference(msgid: "%d file", plural: "%d files", count: 2)) == "%d Dateien")
    }

    @Test func everyTruncationAndEveryCorruptedHeaderWordFailsCleanly() {
        let good = moFile(entries, bigEndian: false)
        for length in stride(from: 0, to: good.count, by: 3) {
            _ = try? MOFile.parse(Array(good.prefix(length)), language: "de", file: "cut.mo")
        }
        for offset in stride(from: 4, to: 28 + entries.count * 16, by: 1) {
            for value: UInt8 in [0xFF, 0x7F, 0x00] {
                var bad = good
                bad[offset] = value
                _ = try? MOFile.parse(bad, language: "de", file: "bad.mo")
            }
        }
        var pastTheEnd = good
        pastTheEnd[28 + 8 + 4] = 0xF0  // the first original's offset, far past the end
        #expect(throws: TranslationError.self) { try MOFile.parse(pastTheEnd, language: "de", file: "bad.mo") }
        #expect(throws: TranslationError.self) { try MOFile.parse(Array("not a catalog at all, no magic".utf8), language: "de", file: "x.mo") }
    }

    // msgfmt's own output for the fixture po; skipped where gettext's msgfmt is not installed.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/msgfmt"), "msgfmt (gettext) is not installed"))
    func matchesMsgfmtOutput() throws {
        let msgfmt = "/usr/bin/msgfmt"
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("fit-translations-\(getpid()).mo").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: msgfmt)
        process.arguments = ["-o", out, fixtures + "/po/de.po"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let fromMO = try TranslationSet.load([out]).catalogs[0]
        let fromPO = try TranslationSet.load([fixtures + "/po/de.po"]).catalogs[0]
        #expect(fromMO.entries == fromPO.entries)
    }
}

@Suite struct TranslationSetTests {
    // GTK 4's own catalogs as installed by libgtk-4-common; skipped where they are not.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/locale/de/LC_MESSAGES/gtk40.mo"), "GTK 4's catalogs are not installed"))
    func installedGtk40CatalogsAreFoundAndTranslateGtksOwnMessages() throws {
        let set = try TranslationSet.load(["gtk40"])
        #expect(set.catalogs.count >= 100)
        let german = try #require(set.catalogs.first { $0.language == "de" })
        #expect(german.translate(MessageReference(msgid: "_Cancel")) == "_Abbrechen")
        #expect(german.count > 1000)
        let arabic = try #require(set.catalogs.first { $0.language == "ar" })
        #expect(arabic.pluralForms.count == 6)
        #expect(arabic.isRightToLeft)
        #expect(!german.isRightToLeft)
        // GTK's own word for it (the "default:LTR" msgid) agrees with the language list
        // wherever both speak.
        for catalog in set.catalogs where catalog.entries["default:LTR"] != nil {
            let primary = catalog.bcp47.split(separator: "-").first.map(String.init) ?? ""
            if TranslationCatalog.rightToLeftLanguages.contains(primary) { #expect(catalog.isRightToLeft, "\(catalog.language)") }
        }
        #expect(set.catalogs.filter(\.isRightToLeft).map(\.language).contains("he"))
        #expect(set.catalogs.first { $0.language == "sr@latin" }?.bcp47 == "sr-latn")
    }

    @Test func anUnknownLanguageIsAnErrorThatListsTheKnownOnes() {
        #expect(throws: TranslationError.self) { try TranslationSet.load([fixtures + "/po"], languages: ["fr"]) }
        do {
            _ = try TranslationSet.load([fixtures + "/po"], languages: ["fr"])
        } catch {
            #expect(error.kind == .unknownLanguage)
            #expect(error.message.contains("de pl"))
        }
    }

    @Test func aMissingDomainOrFileSaysSo() {
        #expect(throws: TranslationError.self) { try TranslationSet.load(["no-such-domain-fitd"]) }
        #expect(throws: TranslationError.self) { try TranslationSet.load(["./no/such/dir"]) }
    }

    @Test func flatJSONFilesReadNestedKeysDotted() throws {
        let catalog = try #require(try TranslationSet.load([fixtures + "/de.json"]).catalogs.first)
        #expect(catalog.language == "de")
        #expect(catalog.translate(MessageReference(msgid: "open")) == "Öffnen")
        #expect(catalog.translate(MessageReference(msgid: "menu.close")) == "Schließen")
    }

    @Test func jsonSyntaxErrorsNameTheLine() {
        do {
            _ = try JSONCatalog.parse(Array("{\n\"a\": \"b\",\n\"c\" 1}".utf8), language: "de", file: "de.json")
            Issue.record("a JSON syntax error was accepted")
        } catch {
            #expect(error.file == "de.json")
            #expect(error.line == 3)
        }
    }

    @Test func localeNamesBecomePangoLanguageTags() {
        #expect(TranslationCatalog.bcp47("pt_BR") == "pt-br")
        #expect(TranslationCatalog.bcp47("sr@latin") == "sr-latn")
        #expect(TranslationCatalog.bcp47("uz@cyrillic") == "uz-cyrl")
        #expect(TranslationCatalog.bcp47("en@quot") == "en")
        #expect(TranslationCatalog.bcp47("de_DE.UTF-8") == "de-de")
    }
}

@Suite struct MnemonicTests {
    @Test func underscoresAreShownAsGtkShowsThem() {
        #expect(Mnemonic.stripped("_Open") == "Open")
        #expect(Mnemonic.stripped("Save _As…") == "Save As…")
        #expect(Mnemonic.stripped("a__b") == "a_b")
        #expect(Mnemonic.stripped("開く(_O)") == "開く(O)")
        #expect(Mnemonic.stripped("trailing_") == "trailing_")
        #expect(Mnemonic.stripped("plain") == "plain")
    }
}
