import FitLayout
import FitLayoutJSON
import FuzzSupport

// Layout documents as JSON (FitLayoutJSON: fitctl layout, programs without D-Bus), then the
// layout engine on what decodes, with FitLayout's FixedAdvanceMeasurer at a proposal the
// input's first byte chooses. Deep, cyclic or huge documents must be errors, not crashes or
// hangs (-timeout). A document that lays out must also survive its own JSON round trip.

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    Seeds.writeIfAsked {
        Seeds.exampleDocuments.map { name in
            (name: name, bytes: [0] + Seeds.file("protocol/examples/\(name).json"))
        }
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func test(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let choice = input.byte()
    let json = input.bytes[min(input.offset, input.bytes.count)...]
    guard let document = try? LayoutDocument(json: json) else { return 0 }
    let proposals: [ProposedSize] = [
        .unspecified, ProposedSize(width: 320, height: nil), .zero, .infinity, ProposedSize(width: 37.5, height: 12),
    ]
    let proposal = proposals[Int(choice) % proposals.count]
    let measurer = choice & 0x80 == 0 ? FixedAdvanceMeasurer() : .cells
    var options = LayoutOptions()
    options.sizeCategory = SizeCategory.allCases[Int(choice >> 3) % SizeCategory.allCases.count]
    guard (try? document.layout(in: proposal, options: options, measurer: measurer)) != nil else { return 0 }
    let text = document.json(pretty: false)
    guard let again = try? LayoutDocument(json: text) else {
        fuzzFailure("a document that lays out writes JSON that does not parse: \(text)")
    }
    guard again == document else { fuzzFailure("JSON round trip changed the document: \(text)") }
    return 0
}

@main enum Main {
    static func main() { runFuzzer(test) }
}
