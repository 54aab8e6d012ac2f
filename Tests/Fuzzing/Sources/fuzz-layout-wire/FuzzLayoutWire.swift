import FitBus
import FitLayout
import FitLayoutJSON
import FitProtocol
import FuzzSupport

// Layout's arguments as the daemon decodes them (FitService's LayoutService): three values
// (FuzzInput's tagged form: nodes a(ssia{sv}), proposal (bdbd), options a{sv}) through a real
// message, then LayoutCodec.proposal / options / document, the cache key, and the layout
// engine with FitLayout's FixedAdvanceMeasurer (cells when the options ask for cells).
// Deep, cyclic or huge documents must be errors, not crashes or hangs (-timeout). The reply
// must decode as FitClient decodes it (LayoutCodec.result), to the same result.

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    Seeds.writeIfAsked {
        var seeds: [(name: String, bytes: [UInt8])] = []
        let proposals: [ProposedSize] = [ProposedSize(width: 320, height: nil), .unspecified, ProposedSize(width: 40, height: 10)]
        let options: [LayoutOptions] = [
            LayoutOptions(), LayoutOptions(sizeCategory: .accessibilityLarge, unit: .cells, defaultSpacing: 1),
            LayoutOptions(sizeCategory: .small, uiFont: "Cantarell 11"),
        ]
        for (index, name) in Seeds.exampleDocuments.enumerated() {
            guard let document = try? LayoutDocument(json: Seeds.file("protocol/examples/\(name).json")),
                let nodes = try? LayoutCodec.encode(document)
            else { fatalError("example \(name) does not encode") }
            var encoder = FuzzEncoder()
            encoder.value(nodes)
            encoder.value(LayoutCodec.encode(proposals[index % proposals.count]))
            encoder.value(LayoutCodec.options(of: options[index % options.count], sendSizeCategory: true))
            seeds.append((name: name, bytes: encoder.bytes))
        }
        return seeds
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func test(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let values = [input.value(), input.value(), input.value()]
    guard let message = try? Wire.call("Layout", values), let arguments = try? message.arguments(), arguments.count == 3 else {
        return 0
    }
    guard let proposal = try? LayoutCodec.proposal(arguments[1]),
        let options = try? LayoutCodec.options(arguments[2], defaultCategory: .large),
        let document = try? LayoutCodec.document(arguments[0])
    else { return 0 }
    _ = LayoutCacheKey(document: document, proposal: proposal, options: options).hashValue
    let measurer = options.unit == .cells ? FixedAdvanceMeasurer.cells : FixedAdvanceMeasurer()
    guard let result = try? document.layout(in: proposal, options: options, measurer: measurer) else { return 0 }
    let reply = LayoutCodec.encode(result, generation: 7)
    guard let replyMessage = try? Wire.call("Reply", reply), let received = try? replyMessage.arguments() else {
        fuzzFailure("the reply to a document that lays out cannot be sent: \(reply)")
    }
    guard let (decoded, generation) = try? LayoutCodec.result(received, proposal: proposal) else {
        fuzzFailure("FitClient cannot decode the reply: \(received)")
    }
    guard generation == 7, decoded == result else {
        fuzzFailure("the reply decodes to another result: \(result) → \(decoded)")
    }
    return 0
}

@main enum Main {
    static func main() { runFuzzer(test) }
}
