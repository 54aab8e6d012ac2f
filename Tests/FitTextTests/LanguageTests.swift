import CFitShims
import Foundation
import Testing

@testable import FitText

/// The context language as Pango 1.50.12 has it (PANGO_RULES.md §10): the default from the
/// locale, "c" under C, the full language→script table, LANGUAGE's preferred languages, and
/// the per-request option. Widths are Pango's (Tests/oracle/pango_measure.py --language L,
/// pinned fonts).
@Suite struct LanguageTests {
    private func measure(_ text: String, font: String, language: String) throws -> TextMetrics {
        var request = MeasureRequest(text: text, font: font)
        request.language = language
        return try TestEngine.engine().measure(request)
    }

    /// PANGO_RULES.md §10, class 2: bn-in is written in Bengali only, so Latin in a bn-in
    /// context gets "en" and DejaVu Sans; a table without "bn" would take it to include Latin,
    /// putting Noto Sans Bengali (which has Latin) first: 92.23 px.
    @Test func latinInABengaliContextIsMeasuredInTheLatinFont() throws {
        let metrics = try measure("Settings 12:45", font: "Sans 10", language: "bn-IN")
        #expect(abs(metrics.width - 97.34) < 0.01, "Pango 97.34, got \(metrics.width)")
        #expect(metrics.fontsUsed == ["DejaVu Sans"])
    }

    /// Pango lists ko as Hangul only: Han in a ko context has no sample language ("xx"), so it
    /// is not shaped or sorted as Korean (a table saying Hangul and Han gives 112.53 px).
    @Test func hanInAKoreanContextIsNotKorean() throws {
        let metrics = try measure("설정 設定 骨 한국어", font: "Sans 10", language: "ko")
        #expect(abs(metrics.width - 111.04) < 0.01, "Pango 111.04, got \(metrics.width)")
        #expect(LanguageTable.derivedLanguage(context: "ko", script: Int32(FIT_SCRIPT_HAN), preferred: []) == "xx")
    }

    @Test func languagesAreCanonicalAsPangoMakesThem() {
        #expect(LanguageTable.canonical("en_US.UTF-8") == "en-us")
        #expect(LanguageTable.canonical("C.UTF-8") == "c")
        #expect(LanguageTable.canonical("C") == "c")
        #expect(LanguageTable.canonical("POSIX") == "posix")
        #expect(LanguageTable.canonical("sr_RS@latin") == "sr-rs-latin")
        #expect(LanguageTable.canonical("zh-Hant-TW") == "zh-hant-tw")
        #expect(LanguageTable.canonical("dé") == "d")
    }

    /// glibc's order for LC_CTYPE (LC_ALL, LC_CTYPE, LANG; empty is unset), and "C" for a
    /// locale that is not installed, as setlocale leaves it (pango_language_get_default).
    @Test func theDefaultFollowsTheLocaleAsGlibcChoosesIt() {
        func language(_ variables: [String: String], installed: Set<String> = ["de_DE.UTF-8", "bn_IN", "fr_FR"]) -> String {
            LanguageTable.defaultLanguage(environment: { variables[$0] }, localeExists: { installed.contains($0) || $0 == "C" })
        }
        #expect(language([:]) == "c")
        #expect(language(["LANG": "bn_IN"]) == "bn-in")
        #expect(language(["LANG": "bn_IN", "LC_CTYPE": "fr_FR"]) == "fr-fr")
        #expect(language(["LANG": "bn_IN", "LC_CTYPE": "fr_FR", "LC_ALL": "de_DE.UTF-8"]) == "de-de")
        #expect(language(["LANG": "bn_IN", "LC_ALL": ""]) == "bn-in")
        #expect(language(["LANG": "ta_IN"]) == "c", "not installed: setlocale fails, the locale stays C")
        #expect(language(["LANG": "C"]) == "c")
        #expect(language(["LANG": "C.UTF-8"], installed: ["C.UTF-8"]) == "c")
        // The real check: C is always there, a made-up locale never.
        #expect(LanguageTable.localeExists("C"))
        #expect(!LanguageTable.localeExists("xx_NOWHERE.UTF-8"))
    }

    @Test func preferredLanguagesComeFromPangoLanguageOrLanguage() {
        func preferred(_ variables: [String: String]) -> [String] {
            LanguageTable.preferredLanguages(environment: { variables[$0] })
        }
        #expect(preferred([:]) == [])
        #expect(preferred(["LANGUAGE": "zh_CN:de"]) == ["zh-cn", "de"])
        #expect(preferred(["LANGUAGE": "C:ja,, ko;x"]) == ["ja", "ko", "x"])
        #expect(preferred(["LANGUAGE": "zh_CN", "PANGO_LANGUAGE": "ja"]) == ["ja"])
    }

    @Test func derivedLanguagesFollowComputeDerivedLanguage() {
        let hebrew = Int32(FIT_SCRIPT_HEBREW), han = Int32(FIT_SCRIPT_HAN), latin = Int32(FIT_SCRIPT_LATIN)
        // "c" is in no table, so it includes every script (PANGO_RULES.md §10, class 1).
        #expect(LanguageTable.derivedLanguage(context: "c", script: hebrew, preferred: []) == "c")
        #expect(LanguageTable.derivedLanguage(context: "en-us", script: hebrew, preferred: []) == "he")
        #expect(LanguageTable.derivedLanguage(context: "en-us", script: latin, preferred: []) == "en-us")
        #expect(LanguageTable.derivedLanguage(context: "en-us", script: han, preferred: []) == "xx")
        #expect(LanguageTable.derivedLanguage(context: "en-us", script: han, preferred: ["de", "zh-cn"]) == "zh-cn")
        #expect(LanguageTable.derivedLanguage(context: "ja", script: han, preferred: ["zh-cn"]) == "ja")
        // An unknown preferred language includes every script — of Pango's sample table only.
        #expect(LanguageTable.derivedLanguage(context: "en-us", script: hebrew, preferred: ["posix"]) == "posix")
        let batak = Int32(63)  // USCRIPT_BATAK, past the end of Pango's sample_languages
        #expect(LanguageTable.derivedLanguage(context: "en-us", script: batak, preferred: ["posix"]) == "xx")
    }

    @Test func theTableMatchesAsFindBestLangMatchDoes() {
        func names(_ tag: String) -> [String]? {
            LanguageTable.scripts(ofLanguage: tag)?.map { String(cString: fit_script_short_name($0)) }
        }
        #expect(LanguageTable.Tables.shared.languages.count == 246)
        #expect(names("ja") == ["Hani", "Kana", "Hira"])
        #expect(names("ko") == ["Hang"])
        #expect(names("zh") == nil)
        #expect(names("zh-cn") == ["Hani"])
        #expect(names("zh-cn-x") == ["Hani"])
        #expect(names("pa") == ["Guru"])
        #expect(names("pa-pk") == ["Arab"])
        #expect(names("az") == nil)
        #expect(names("az-ir") == ["Arab"])
        #expect(names("und-zsye") == nil)
        #expect(names("bn-in") == ["Beng"])
        #expect(names("c") == nil)
    }

    /// Every language of the table, and some it lacks, against Pango itself through
    /// python3-gi: pango_language_get_scripts, and pango_script_get_sample_language for every
    /// script GLib knows.
    @Test func theTableAgreesWithPangoForEveryLanguage() throws {
        let extra = ["c", "zh", "az", "en-us", "pa-pk-x", "sr-rs-latin", "und-zsye", "xx", "ko-kr"]
        let languages = LanguageTable.Tables.shared.languages + extra
        let script = """
            import json, sys
            import gi
            gi.require_version("Pango", "1.0")
            from gi.repository import GLib, Pango
            def iso(s): return GLib.unicode_script_to_iso15924(GLib.UnicodeScript(int(s))).to_bytes(4, "big").decode()
            langs = json.load(sys.stdin)
            out = {"scripts": {}, "samples": {}}
            for l in langs:
                s = Pango.Language.from_string(l).get_scripts()
                out["scripts"][l] = [iso(x) for x in s] if s else None
            for v in range(0, 200):
                try: u = Pango.Script(v)
                except ValueError: break
                lang = Pango.script_get_sample_language(u)
                out["samples"][iso(v)] = lang.to_string() if lang else None
            print(json.dumps(out))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script]
        var environment = ProcessInfo.processInfo.environment
        environment["LANGUAGE"] = nil
        environment["PANGO_LANGUAGE"] = nil
        process.environment = environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(try JSONEncoder().encode(languages))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let decoded = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let pangoScripts = try #require(decoded["scripts"] as? [String: Any])
        for language in languages {
            let pango = pangoScripts[language] as? [String]
            let ours = LanguageTable.scripts(ofLanguage: language)?.map { String(cString: fit_script_short_name($0)) }
            #expect(ours == pango, "\(language)")
        }
        // Samples, by ISO 15924 code: the ICU script of that code in fitd.
        let samples = try #require(decoded["samples"] as? [String: Any])
        #expect(samples.count > 100)
        var codes: [String: Int32] = [:]
        for code in Int32(0)..<256 {
            if let name = fit_script_short_name(code), codes[String(cString: name)] == nil { codes[String(cString: name)] = code }
        }
        for (name, sample) in samples {
            guard let code = codes[name] else { continue }  // a script ICU does not know
            #expect(LanguageTable.sampleLanguage(for: code, preferred: []) == sample as? String, "\(name)")
        }
    }

    @Test func aBadLanguageIsAnInvalidArgumentNamingLanguage() throws {
        for bad in ["", "en US", "en.UTF-8", "bn/IN", String(repeating: "a", count: 65), "dé"] {
            var request = MeasureRequest(text: "x")
            request.language = bad
            #expect(throws: FitTextError.self) { try request.validate() }
            do {
                _ = try MeasureRequest.canonicalLanguage(bad)
                Issue.record("\"\(bad)\" was accepted")
            } catch {
                guard case .invalidArgument(let name, _) = error else { Issue.record("\(error)"); continue }
                #expect(name == "language")
            }
        }
        #expect(try MeasureRequest.canonicalLanguage("bn_IN") == "bn-in")
        #expect(try MeasureRequest.canonicalLanguage("C") == "c")
    }

    /// The language is part of every cache key: two callers measuring the same text in
    /// different languages at once each get their own answer, whichever came first.
    @Test func twoLanguagesAtOnceGetTheirOwnAnswers() async throws {
        let engine = try TestEngine.fresh()
        var ja = MeasureRequest(text: "骨直", font: "Sans 10")
        ja.language = "ja"
        var zh = ja
        zh.language = "zh-cn"
        #expect(ja != zh)
        let results = try await withThrowingTaskGroup(of: (Bool, [String]).self) { group in
            for i in 0..<40 {
                let request = i % 2 == 0 ? ja : zh
                group.addTask { (i % 2 == 0, try engine.measure(request).fontsUsed) }
            }
            return try await group.reduce(into: [(Bool, [String])]()) { $0.append($1) }
        }
        for (isJapanese, fonts) in results {
            #expect(fonts == [isJapanese ? "Noto Sans CJK JP" : "Noto Sans CJK SC"])
        }
    }
}
