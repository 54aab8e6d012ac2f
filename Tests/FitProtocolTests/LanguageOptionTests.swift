@testable import FitBus
import FitLayout
import FitTypes
import Testing

@testable import FitProtocol

/// The `language` option of Measure, MeasureBatch and Layout (protocol/README.md): made
/// canonical as Pango does, refused with InvalidArgument naming it, sent by clients, and part
/// of the layout cache key.
@Suite struct LanguageOptionTests {
    private func measureRequest(_ value: DBusValue) throws(DBusError) -> MeasureRequest {
        try MeasureCodec.request(text: "x", font: "", options: OptionDictionary(["language": value]), textScale: 1)
    }

    @Test func measureTakesTheLanguageInPangosCanonicalForm() throws {
        #expect(try measureRequest(.string("bn_IN")).language == "bn-in")
        #expect(try measureRequest(.string("C")).language == "c")
        #expect(try MeasureCodec.request(text: "x", font: "", options: OptionDictionary([:]), textScale: 1).language == nil)
        var request = MeasureRequest(text: "x")
        request.language = "zh-cn"
        let sent = MeasureCodec.optionDictionary(of: request, sendTextScale: false)
        #expect(try MeasureCodec.request(text: "x", font: "", options: sent, textScale: 1) == request)
    }

    @Test func aBadLanguageIsInvalidArgumentNamingIt() {
        for bad: DBusValue in [.string(""), .string("en US"), .string("bn.IN"), .string(String(repeating: "a", count: 65)), .uint32(1)] {
            do {
                _ = try measureRequest(bad)
                Issue.record("\(bad) was accepted")
            } catch {
                #expect(error.name == FitErrorName.invalidArgument, "\(bad)")
                #expect(error.message.contains("language"), "\(error.message)")
            }
        }
    }

    @Test func layoutTakesTheLanguageAndKeysItsCacheByIt() throws {
        var options = LayoutOptions(uiFont: "Cantarell 11")
        options.language = "ko"
        let value = LayoutCodec.options(of: options, sendSizeCategory: true)
        #expect(try LayoutCodec.options(value, defaultCategory: .small) == options)
        let parsed = try LayoutCodec.options(OptionDictionary(["language": .string("zh_CN")]).dbusValue, defaultCategory: .large)
        #expect(parsed.language == "zh-cn")
        do {
            _ = try LayoutCodec.options(OptionDictionary(["language": .string("zh CN")]).dbusValue, defaultCategory: .large)
            Issue.record("\"zh CN\" was accepted")
        } catch {
            #expect(error.name == FitErrorName.invalidArgument)
        }
        let document = try LayoutDocument(json: Array(#"{"nodes": [{"id": "t", "kind": "text", "text": "設定"}]}"#.utf8))
        let proposal = ProposedSize(width: 100, height: nil)
        var japanese = LayoutOptions()
        japanese.language = "ja"
        let keys = [LayoutOptions(), japanese, options].map { LayoutCacheKey(document: document, proposal: proposal, options: $0) }
        #expect(Set(keys.map(\.digest)).count == 3)
        #expect(keys[0] != keys[1])
    }
}
