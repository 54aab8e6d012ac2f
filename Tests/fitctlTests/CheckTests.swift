import FitLayout
import FitTranslations
import Testing

@testable import fitctl

@Suite struct TranslatableDocumentTests {
    let document = """
        {"version": 1, "root": {"id": "row", "kind": "hstack", "children": [
          {"id": "open", "kind": "text", "msgid": "_Open", "useUnderline": true, "text": "Open"},
          {"id": "close", "kind": "text", "msgctxt": "menu", "msgid": "Close"},
          {"id": "files", "kind": "text", "msgid": "%d file", "msgid_plural": "%d files", "n": 3},
          {"id": "plain", "kind": "text", "text": "No message"}]}}
        """

    func catalog() -> TranslationCatalog {
        TranslationCatalog(
            language: "ar", source: "test",
            entries: ["_Open": ["_فتح"], "menu\u{4}Close": ["أغلق"], "%d file": ["%d ملف", "%d ملفات"]],
            pluralForms: .germanic)
    }

    @Test func theMessageKeysAreTakenOutAndTheSourceTextsKept() throws {
        let translatable = try TranslatableDocument(bytes: Array(document.utf8), name: "t.json")
        let texts = translatable.source.nodes.map(\.properties.text)
        #expect(texts == [nil, "Open", "Close", "%d files", "No message"])
        #expect(translatable.messages.count == 3)
        #expect(translatable.messages[2]?.reference == MessageReference(msgid: "Close", context: "menu"))
    }

    @Test func eachLanguagesTextsAreItsTranslationsWithMnemonicsAsShownAndRightToLeftMirrored() throws {
        let translatable = try TranslatableDocument(bytes: Array(document.utf8), name: "t.json")
        var missing: [MessageReference] = []
        var misformatted: [TranslatableDocument.Misformatted] = []
        let arabic = translatable.translated(catalog(), missing: &missing, misformatted: &misformatted)
        #expect(arabic.nodes.map(\.properties.text) == [nil, "فتح", "أغلق", "%d ملفات", "No message"])
        #expect(arabic.nodes[0].properties.layoutDirection == .rightToLeft)
        #expect(missing.isEmpty)
    }

    @Test func aMessageTheCatalogLacksIsReportedOnceAndShownInTheSourceLanguage() throws {
        let twice = """
            {"version": 1, "nodes": [{"id": "a", "kind": "vstack"},
              {"id": "b", "parent": "a", "kind": "text", "msgid": "Nowhere"},
              {"id": "c", "parent": "a", "kind": "text", "msgid": "Nowhere"}]}
            """
        let translatable = try TranslatableDocument(bytes: Array(twice.utf8), name: "t.json")
        var missing: [MessageReference] = []
        var misformatted: [TranslatableDocument.Misformatted] = []
        let german = translatable.translated(TranslationCatalog(language: "de", source: "test"), missing: &missing, misformatted: &misformatted)
        #expect(missing == [MessageReference(msgid: "Nowhere")])
        #expect(german.nodes.map(\.properties.text) == [nil, "Nowhere", "Nowhere"])
    }

    @Test func argumentsFillTheSourceAndEachTranslationsConversionsInTheirOwnOrder() throws {
        let withArguments = """
            {"version": 1, "nodes": [{"id": "a", "kind": "vstack"},
              {"id": "files", "parent": "a", "kind": "text", "msgid": "%d file in %s", "msgid_plural": "%d files in %s", "n": 12, "args": ["12", "Music"]},
              {"id": "size", "parent": "a", "kind": "text", "msgid": "%s of %s", "args": ["3 GB"]}]}
            """
        // The source's "%s of %s" needs a second argument: refused, naming the node.
        #expect(throws: CommandFailure.self) { try TranslatableDocument(bytes: Array(withArguments.utf8), name: "t.json") }

        let good = withArguments.replacingOccurrences(of: #"["3 GB"]"#, with: #"["3 GB", "4 GB"]"#)
        let document = try TranslatableDocument(bytes: Array(good.utf8), name: "t.json")
        #expect(document.source.nodes.map(\.properties.text) == [nil, "12 files in Music", "3 GB of 4 GB"])
        let german = TranslationCatalog(
            language: "de", source: "test",
            entries: ["%d file in %s": ["%d Datei in %s", "%2$s: %1$d Dateien"], "%s of %s": ["%s von %s von %s"]],
            pluralForms: .germanic)
        var missing: [MessageReference] = []
        var misformatted: [TranslatableDocument.Misformatted] = []
        let translated = document.translated(german, missing: &missing, misformatted: &misformatted)
        #expect(translated.nodes[1].properties.text == "Music: 12 Dateien")
        // A translation with a conversion more than the arguments: measured as written, reported.
        #expect(translated.nodes[2].properties.text == "%s von %s von %s")
        #expect(misformatted.map(\.node) == ["size"])
        #expect(misformatted.first?.detail.contains("argument 3") == true)
    }

    @Test func badMessageKeysAreRefusedByNode() {
        for bad in [
            #"{"version": 1, "nodes": [{"id": "t", "kind": "text", "msgid": 3}]}"#,
            #"{"version": 1, "nodes": [{"id": "t", "kind": "text", "msgctxt": "x"}]}"#,
            #"{"version": 1, "nodes": [{"id": "t", "kind": "text", "msgid": "a", "msgid_plural": "b"}]}"#,
            #"{"version": 1, "nodes": [{"id": "t", "kind": "text", "msgid": "a", "n": -1}]}"#,
            #"{"version": 1, "nodes": [{"id": "t", "kind": "text", "msgid": "a", "args": "x"}]}"#,
            #"{"version": 1, "nodes": [{"id": "t", "kind": "text", "msgid": "a", "args": [1]}]}"#,
        ] {
            #expect(throws: CommandFailure.self, "\(bad)") { try TranslatableDocument(bytes: Array(bad.utf8), name: "t.json") }
        }
    }
}

@Suite struct CandidateWidthTests {
    @Test func aCandidateNeedsTheStartOfTheLastRunWhereItOrABetterOneIsShown() {
        let intervals = [
            DecisionInterval(from: 0, to: 120, candidate: 2, exactFrom: 0),
            DecisionInterval(from: 121, to: 183, candidate: 1, exactFrom: 120.5),
            DecisionInterval(from: 184, to: 600, candidate: 0, exactFrom: 183.5234375),
        ]
        let widths = CheckBreakpoints.smallestWidths(intervals, candidates: 3)
        #expect(widths[0] == .some(183.5234375))
        #expect(widths[1] == .some(120.5))
        #expect(widths[2] == .some(0))
    }

    @Test func aCandidateNeverShownAtTheRangesEndNeedsMoreThanTheRange() {
        let intervals = [
            DecisionInterval(from: 0, to: 300, candidate: 0, exactFrom: 0),
            DecisionInterval(from: 301, to: 600, candidate: 1, exactFrom: 300.25),
        ]
        let widths = CheckBreakpoints.smallestWidths(intervals, candidates: 2)
        #expect(widths[0] == .some(nil))
        #expect(widths[1] == .some(0))
    }

    @Test func theLanguageThatNeedsMostWinsAndNeverReachedWinsOverAnyWidth() {
        var needed: [String: CandidateWidth] = [:]
        func found(_ flip: Double?) -> LayoutBreakpoints {
            let intervals = flip.map { [DecisionInterval(from: 0, to: $0.rounded(.down), candidate: 1, exactFrom: 0),
                                        DecisionInterval(from: $0.rounded(.up), to: 600, candidate: 0, exactFrom: $0)] }
                ?? [DecisionInterval(from: 0, to: 600, candidate: 1, exactFrom: 0)]
            return LayoutBreakpoints(range: BreakpointRange(from: 0, to: 600), minContentWidth: 0, maxContentWidth: 0, decisions: ["d": intervals])
        }
        let candidates = ["d": ["row", "column"]]
        CheckBreakpoints.merge(found(200.5), language: "de", category: .large, candidates: candidates, into: &needed)
        CheckBreakpoints.merge(found(310.25), language: "fi", category: .large, candidates: candidates, into: &needed)
        CheckBreakpoints.merge(found(250), language: "ja", category: .large, candidates: candidates, into: &needed)
        let row = needed.values.first { $0.candidate == 0 }
        #expect(row?.width == 310.25 && row?.language == "fi")
        CheckBreakpoints.merge(found(nil), language: "ml", category: .large, candidates: candidates, into: &needed)
        #expect(needed.values.first { $0.candidate == 0 }?.language == "ml")
        #expect(needed.values.first { $0.candidate == 0 }?.width == nil)
    }

    @Test func theLibadwaitaConditionFallsBackAtEveryWholePixelBelowTheNeed() {
        // 183.52 px: GTK allocates whole px, so 183 px and below fall back and 184 shows it.
        let atOne = CheckBreakpoints.fallbackCondition(below: 183.5234375, textScale: 1)
        #expect(atOne.px == "max-width: 183px")
        #expect(atOne.sp == "max-width: 183.5sp")
        // At 1.25 (libadwaita's Large Text), 183.5 / 1.25 sp = 146.8 sp: 183.5 px back, between 183 and 184.
        let large = CheckBreakpoints.fallbackCondition(below: 183.5234375, textScale: 1.25)
        #expect(large.sp == "max-width: 146.8sp")
        // A whole-px need: 184 px falls back below 184.
        #expect(CheckBreakpoints.fallbackCondition(below: 184, textScale: 1).px == "max-width: 183px")
    }
}
