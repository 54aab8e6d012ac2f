@testable import FitBus
import FitLayout
import FitTypes
import Testing

@testable import FitProtocol

/// Option words are exact, as option keys are (protocol/README.md): "WORD" is not
/// "word". Each enumerated option of Measure and Layout accepts its words as documented and
/// refuses every other spelling with InvalidArgument.
@Suite struct OptionWordTests {
    static func measureOptions(_ key: String, _ word: String) -> OptionDictionary {
        OptionDictionary([key: .string(word), "max_width": .double(100)])
    }

    static func measureError(_ key: String, _ word: String) -> DBusError? {
        do {
            _ = try MeasureCodec.request(text: "x", font: "", options: measureOptions(key, word), textScale: 1)
            return nil
        } catch {
            return error
        }
    }

    static let measureWords: [(key: String, words: [String])] = [
        ("wrap", WrapMode.allCases.map(\.rawValue)),
        ("ellipsize", EllipsizeMode.allCases.map(\.rawValue)),
        ("unit", MeasureUnit.allCases.map(\.rawValue)),
        ("metrics", ToolkitProfile.exampleWords),
        ("escapes", EscapeMode.allCases.map(\.rawValue)),
        ("ambiguous", AmbiguousWidth.allCases.map(\.rawValue)),
        ("terminal", TerminalProfile.allCases.map(\.rawValue)),
    ]

    @Test(arguments: measureWords.map(\.key))
    func measureOptionWordsAreExact(key: String) throws {
        let words = try #require(Self.measureWords.first { $0.key == key }).words
        for word in words {
            #expect(Self.measureError(key, word) == nil, "\(key) \"\(word)\"")
            for variant in [word.uppercased(), word.prefix(1).uppercased() + word.dropFirst(), " \(word)", "\(word) ", word.replacingOccurrences(of: "-", with: "_")]
            where variant != word {
                #expect(Self.measureError(key, variant)?.name == FitErrorName.invalidArgument, "\(key) \"\(variant)\" was accepted")
            }
        }
        #expect(Self.measureError(key, "")?.name == FitErrorName.invalidArgument)
    }

    @Test func cellOptionsTravelOnMeasureAndNameThemselvesWhenWrong() throws {
        let options = OptionDictionary([
            "unit": .string("cells"), "escapes": .string("ansi"), "ambiguous": .string("wide"), "terminal": .string("wcwidth"),
        ])
        let request = try MeasureCodec.request(text: "x", font: "", options: options, textScale: 1)
        #expect(request.escapes == .ansi && request.ambiguous == .wide && request.terminal == .wcwidth)
        let sent = MeasureCodec.optionDictionary(of: request, sendTextScale: false)
        #expect(try MeasureCodec.request(text: "x", font: "", options: sent, textScale: 1) == request)
        // The defaults are left out, so requests without the options keep their bytes.
        let plain = MeasureCodec.optionDictionary(of: MeasureRequest(text: "x", unit: .cells), sendTextScale: false)
        #expect(plain.entries.keys.sorted() == ["unit"])
        for key in ["escapes", "ambiguous", "terminal"] {
            let error = Self.measureError(key, "bogus")
            #expect(error?.name == FitErrorName.invalidArgument)
            #expect(error?.message.contains(key) == true, "\(key): \(error?.message ?? "")")
        }
    }

    @Test func theRequestCarriesTheExactWord() throws {
        let request = try MeasureCodec.request(text: "x", font: "", options: Self.measureOptions("wrap", "word-char"), textScale: 1)
        #expect(request.wrap == .wordChar)
        #expect(Self.measureError("wrap", "WORD")?.message.contains("use word, char or word-char") == true)
    }

    @Test func metricsTravelOnMeasureAndLayoutAndKeyTheLayoutCache() throws {
        let request = try MeasureCodec.request(text: "x", font: "", options: Self.measureOptions("metrics", "gtk3"), textScale: 1)
        #expect(request.metrics == .gtk3)
        let sent = MeasureCodec.optionDictionary(of: request, sendTextScale: false)
        #expect(try MeasureCodec.request(text: "x", font: "", options: sent, textScale: 1).metrics == .gtk3)
        #expect(Self.measureError("metrics", "gtk2")?.message.contains("metrics") == true)

        let gtk3 = try LayoutCodec.options(OptionDictionary(["metrics": .string("gtk3")]).dbusValue, defaultCategory: .large)
        #expect(gtk3.metrics == "gtk3")
        #expect(try LayoutCodec.options(LayoutCodec.options(of: gtk3, sendSizeCategory: false), defaultCategory: .large) == gtk3)
        // "gtk4", the default, keys the cache like no option at all.
        let gtk4 = try LayoutCodec.options(OptionDictionary(["metrics": .string("gtk4")]).dbusValue, defaultCategory: .large)
        #expect(gtk4 == LayoutOptions(sizeCategory: .large))
        let document = LayoutDocument(nodes: [])
        let proposal = ProposedSize(width: nil, height: nil)
        #expect(
            LayoutCacheKey(document: document, proposal: proposal, options: gtk3).digest
                != LayoutCacheKey(document: document, proposal: proposal, options: gtk4).digest)
    }

    static func layoutError(_ key: String, _ word: String) -> DBusError? {
        do {
            _ = try LayoutCodec.options(
                OptionDictionary([key: .string(word)]).dbusValue, defaultCategory: .large)
            return nil
        } catch {
            return error
        }
    }

    @Test func layoutOptionWordsAreExact() {
        let table: [(String, [String])] = [
            ("unit", LayoutOptions.Unit.allCases.map(\.rawValue)),
            ("metrics", ToolkitProfile.exampleWords),
        ]
        for (key, words) in table {
            for word in words {
                #expect(Self.layoutError(key, word) == nil, "\(key) \"\(word)\"")
                for variant in [word.uppercased(), word.lowercased(), " \(word)"] where variant != word {
                    #expect(Self.layoutError(key, variant)?.name == FitErrorName.invalidArgument, "\(key) \"\(variant)\" was accepted")
                }
            }
        }
    }

    /// size_category is read as every category name is (FitTypes' SizeCategory(name:)), not
    /// exactly: any case, ax1…ax5; an unknown name is still InvalidArgument.
    @Test func sizeCategoryIsReadAsEveryCategoryNameIs() throws {
        for category in SizeCategory.allCases {
            for word in [category.name, category.name.uppercased(), category.name.lowercased()] {
                let options = try LayoutCodec.options(OptionDictionary(["size_category": .string(word)]).dbusValue, defaultCategory: .large)
                #expect(options.sizeCategory == category, "\(word)")
            }
        }
        let ax2 = try LayoutCodec.options(OptionDictionary(["size_category": .string("ax2")]).dbusValue, defaultCategory: .large)
        #expect(ax2.sizeCategory == .accessibilityLarge)
        #expect(Self.layoutError("size_category", "huge")?.name == FitErrorName.invalidArgument)
    }
}
