import FitJSON
import FuzzSupport

// fitctl's batch request lines (FitJSON's JSONReader): any bytes, at a small depth
// limit so that limits are reached too. Checks: no crash or hang; whatever parses is written
// by JSONWriter into text that parses back to the same value (numbers compared as Doubles:
// the writer normalizes a non-integer spelling, 2.50 → 2.5), and writing that again gives
// the same text (the writer's form is a fixed point).

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    Seeds.writeIfAsked {
        let lines = Seeds.file("protocol/examples/requests.jsonl").split(separator: 0x0A).map(Array.init)
        let extra: [String] = [
            #"{"id":{"a":[1,2.50,"z",null,true,false,-0,1e-7,12345678901234567890]},"text":"\u00e9\ud83d\udc4d\n"}"#,
            #"{"text":"a","text":"b"}"#, "[[[[[[[[1]]]]]]]]", #""\ud83d""#, "{\"text\":\"x\",}",
        ]
        return (lines + extra.map { Array($0.utf8) }).enumerated().map { (name: "json-\($0.offset)", bytes: $0.element) }
    }
    return 0
}

/// Equal as JSON values: numbers by value, objects member by member in order.
func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.number(let x, _), .number(let y, _)): return x == y
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(same)
    case (.object(let x), .object(let y)):
        return x.members.count == y.members.count
            && zip(x.members, y.members).allSatisfy { $0.name == $1.name && same($0.value, $1.value) }
    default: return a == b
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func test(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput(data, size).bytes
    let limits = JSONReader.Limits(maxDepth: 16, maxBytes: 1 << 16)
    guard let value = try? JSONReader.parse(bytes, limits: limits) else { return 0 }
    var writer = JSONWriter()
    writer.value(value)
    let text = writer.bytes
    let again: JSONValue
    do {
        again = try JSONReader.parse(text, limits: JSONReader.Limits(maxDepth: 16, maxBytes: 1 << 20))
    } catch {
        fuzzFailure("written text does not parse (\(error)): \(writer.string.debugDescription)")
    }
    guard same(value, again) else { fuzzFailure("round trip changed the value: \(writer.string.debugDescription)") }
    var second = JSONWriter()
    second.value(again)
    guard second.bytes == text else { fuzzFailure("writing twice differs: \(writer.string.debugDescription) / \(second.string.debugDescription)") }
    return 0
}

@main enum Main {
    static func main() { runFuzzer(test) }
}
