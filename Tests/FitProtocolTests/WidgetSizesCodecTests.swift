@testable import FitBus
import FitLayout
import FitTypes
import Testing

@testable import FitProtocol

/// The `widget_sizes` Layout option and a text frame's `widget` extra: a GtkLabel's size
/// request per shown text, through the wire and back.
@Suite struct WidgetSizesCodecTests {
    @Test func theOptionRoundTripsAndKeysTheCache() throws {
        var options = LayoutOptions()
        options.widgetSizes = true
        let value = LayoutCodec.options(of: options, sendSizeCategory: true)
        #expect(try LayoutCodec.options(value, defaultCategory: .small) == options)
        #expect(try LayoutCodec.options(LayoutCodec.options(of: LayoutOptions(), sendSizeCategory: true), defaultCategory: .large).widgetSizes == false)
        let document = try LayoutDocument(json: Array(#"{"nodes": [{"id": "t", "kind": "text", "text": "x"}]}"#.utf8))
        let proposal = ProposedSize(width: 100, height: nil)
        #expect(LayoutCacheKey(document: document, proposal: proposal, options: options).digest
            != LayoutCacheKey(document: document, proposal: proposal, options: LayoutOptions()).digest)
        // A value that is not a boolean is refused naming the option.
        #expect(throws: DBusError.self) {
            try LayoutCodec.options(OptionDictionary(["widget_sizes": .string("yes")]).dbusValue, defaultCategory: .large)
        }
    }

    @Test func theLabelSizesOptionRoundTripsAndKeysTheCache() throws {
        var options = LayoutOptions()
        options.labelSizes = true
        let value = LayoutCodec.options(of: options, sendSizeCategory: true)
        #expect(try LayoutCodec.options(value, defaultCategory: .large) == options)
        let document = try LayoutDocument(json: Array(#"{"nodes": [{"id": "t", "kind": "text", "text": "x"}]}"#.utf8))
        let proposal = ProposedSize(width: 100, height: nil)
        #expect(LayoutCacheKey(document: document, proposal: proposal, options: options).digest
            != LayoutCacheKey(document: document, proposal: proposal, options: LayoutOptions()).digest)
        #expect(throws: DBusError.self) {
            try LayoutCodec.options(OptionDictionary(["label_sizes": .int32(1)]).dbusValue, defaultCategory: .large)
        }
    }

    @Test func theTextScaleOptionRoundTripsWithinTheScaleRange() throws {
        var options = LayoutOptions()
        options.textScale = 1.5
        #expect(try LayoutCodec.options(LayoutCodec.options(of: options, sendSizeCategory: true), defaultCategory: .large) == options)
        for bad in [0.1, 5, Double.nan] {
            #expect(throws: DBusError.self) {
                try LayoutCodec.options(OptionDictionary(["text_scale": .double(bad)]).dbusValue, defaultCategory: .large)
            }
        }
    }

    @Test func aTextFramesWidgetTravelsInItsExtrasAndBack() throws {
        let document = try LayoutDocument(json: Array(#"{"nodes": [{"id": "t", "kind": "text", "text": "Save changes"}]}"#.utf8))
        var result = try PreparedLayout(document).layout(in: ProposedSize(width: 300, height: nil), measurer: FixedAdvanceMeasurer())
        let size = LabelSize(minimumWidth: 13, naturalWidth: 83, minimumHeight: 19, naturalHeight: 19, baseline: 15)
        result.nodes[0].labelSize = size
        let proposal = ProposedSize(width: 300, height: nil)
        let values = LayoutCodec.encode(result, generation: 7)
        let (decoded, generation) = try LayoutCodec.result(values, proposal: proposal)
        #expect(generation == 7)
        #expect(decoded.nodes[0].labelSize == size)
        let reply = try DBusMessage.methodCall(destination: nil, path: "/org/fitd/Fit1", interface: nil, member: "Reply")
        try reply.append(values)
        let (read, _) = try DBusReader.readBody(of: reply) { (r) throws(DBusError) in try LayoutCodec.readResult(&r, proposal: proposal) }
        #expect(read.nodes[0].labelSize == size)
        #expect(read == decoded)
    }
}
