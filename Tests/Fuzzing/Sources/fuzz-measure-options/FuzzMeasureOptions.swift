import FitBus
import FitProtocol
import FitText
import FuzzSupport

// Measure's and MeasureBatch's arguments as the daemon decodes them (FitService): through a
// real message (libdbus validates, DBusReader decodes), then OptionDictionary and
// MeasureCodec.request / MeasureCodec.readBatch. The first byte chooses:
// - even: Measure: text, font (FuzzInput strings), options (any FuzzInput value).
// - odd: MeasureBatch: the batch (any FuzzInput value), read with a limit of 8 entries.
// A request that decodes and validates must come back equal from the options a client
// sends for it (MeasureCodec.options(of:), FitClient's encoder).

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    Seeds.writeIfAsked {
        func options(_ pairs: [(String, DBusValue)]) -> DBusValue {
            .dictionary(keySignature: "s", valueSignature: "v", pairs.map { (key: .string($0.0), value: .variant($0.1)) })
        }
        let all = options([
            ("max_width", .double(240)), ("wrap", .string("word-char")), ("max_lines", .uint32(2)),
            ("ellipsize", .string("end")), ("features", .array(elementSignature: "s", [.string("tnum,-liga"), .string("ss01=2")])),
            ("letter_spacing", .double(0.5)), ("unit", .string("cells")), ("lines", .boolean(true)), ("text_scale", .double(1.25)),
        ])
        let cases: [(String, String, String, DBusValue)] = [
            ("plain", "Hello, world", "Sans 12", options([])),
            ("all-options", "Grüße aus Köln\nzweite Zeile", "Noto Sans Bold 11", all),
            ("integer-width", "wrap me please", "", options([("max_width", .int32(50)), ("max_lines", .int64(1))])),
            ("wrong-type", "x", "Mono", options([("max_width", .string("wide"))])),
            ("unknown-key", "x", "Mono", options([("colour", .string("red"))])),
            ("not-a-dictionary", "x", "Mono", .array(elementSignature: "s", [.string("max_width")])),
        ]
        var seeds: [(name: String, bytes: [UInt8])] = []
        for (name, text, font, value) in cases {
            var encoder = FuzzEncoder()
            encoder.byte(0)
            encoder.string(text)
            encoder.string(font)
            encoder.value(value)
            seeds.append((name: "measure-\(name)", bytes: encoder.bytes))
        }
        var batch = FuzzEncoder()
        batch.byte(1)
        batch.value(.array(elementSignature: "(ssa{sv})", [
            .structure([.string("one"), .string(""), options([])]), .structure([.string("two"), .string("Sans 9"), all]),
            .structure([.string("three"), .string("Serif"), options([("wrap", .string("none")), ("wrap", .string("char"))])]),
        ]))
        seeds.append((name: "batch", bytes: batch.bytes))
        return seeds
    }
    return 0
}

func checkRoundTrip(_ request: MeasureRequest) {
    guard (try? request.validate()) != nil else { return }
    let sent = MeasureCodec.options(of: request, sendTextScale: true)
    guard let back = try? MeasureCodec.request(text: request.text, font: request.font, options: sent, textScale: 1) else {
        fuzzFailure("the options a client sends for a valid request are refused: \(sent)")
    }
    // A client sends max_lines as u (FitClient clamps it): past 2^32 lines any limit is
    // none, since a text has at most TextLimits.maxTextBytes characters.
    var expected = request
    expected.maxLines = request.maxLines.map { Int(UInt32(clamping: $0)) }
    guard back == expected else { fuzzFailure("a valid request does not survive its options: \(request) → \(back)") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func test(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    if input.byte() & 1 == 0 {
        let text = input.string(), font = input.string(), options = input.value()
        guard let message = try? Wire.call("Measure", [.string(text), .string(font), options]),
            let arguments = try? message.arguments(), arguments.count == 3
        else { return 0 }
        guard let request = try? MeasureCodec.request(text: text, font: font, options: arguments[2], textScale: 1) else { return 0 }
        checkRoundTrip(request)
    } else {
        let batch = input.value()
        guard let message = try? Wire.call("MeasureBatch", [batch]) else { return 0 }
        guard let entries = try? Wire.read(message, { (reader) throws(DBusError) in try MeasureCodec.readBatch(&reader, limit: 8) }) else {
            return 0
        }
        for entry in entries {
            guard case .success(let options) = entry.options,
                let request = try? MeasureCodec.request(text: entry.text, font: entry.font, options: options, textScale: 1)
            else { continue }
            checkRoundTrip(request)
        }
    }
    return 0
}

@main enum Main {
    static func main() { runFuzzer(test) }
}
