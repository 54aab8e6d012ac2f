import Testing

@testable import FitTypes

/// The `language` option is checked and canonicalised without ICU or the engine, so that the
/// daemon's decoders and FitDBusClient agree with the engine on what a tag is.
@Suite struct LanguageTagTests {
    @Test func aLanguageOptionBecomesPangosCanonicalTag() throws {
        #expect(try MeasureRequest.canonicalLanguage("bn_IN") == "bn-in")
        #expect(try MeasureRequest.canonicalLanguage("zh-Hant-TW") == "zh-hant-tw")
        #expect(try MeasureRequest.canonicalLanguage("C") == "c")
    }

    @Test func aLanguageOptionThatIsNoTagIsRefusedNamingTheOption() {
        for bad in ["", "en US", "en.UTF-8", "dé", String(repeating: "a", count: LanguageTag.maxOptionBytes + 1)] {
            #expect(throws: FitTextError.self) { try MeasureRequest.canonicalLanguage(bad) }
            do {
                _ = try MeasureRequest.canonicalLanguage(bad)
            } catch {
                guard case .invalidArgument(let name, _) = error else { Issue.record("\(error)"); continue }
                #expect(name == "language")
            }
        }
    }

    @Test func aRequestWithABadLanguageFailsValidation() {
        var request = MeasureRequest(text: "x")
        request.language = "en US"
        #expect(throws: FitTextError.self) { try request.validate() }
        request.language = "en-US"
        #expect(throws: Never.self) { try request.validate() }
    }

    @Test func optionWordsAreExactAndTheErrorListsThem() throws {
        #expect(try WrapMode(parsing: "word-char") == .wordChar)
        #expect(throws: FitTextError.invalidArgument(name: "wrap", reason: "\"WORD\" is not a wrap mode; use word, char or word-char")) {
            try WrapMode(parsing: "WORD")
        }
    }
}
