import FitBus
import FuzzSupport

// DBusReader, the one decoder of message bodies, and DBusSignature.
// The first byte chooses:
// - odd: the rest is a signature text for DBusSignature; a valid one must split into complete
//   types that join back to it.
// - even: a byte n, then n values (FuzzInput's tagged form; any signature they make), then a
//   script of typed reads. The values go into a message twice, by libdbus's iterator API and
//   by DBusWriter; libdbus must accept DBusWriter's body, both must decode back to the values
//   (arguments()), and the script then reads the body with typed reads that may not match the
//   signature: every mismatch must be a thrown DBusError, never a crash or a read out of bounds.

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    Seeds.writeIfAsked {
        var seeds: [(name: String, bytes: [UInt8])] = []
        for (index, signature) in ["ssa{sv}", "a(ssa{sv})", "a(ssia{sv})(bdbd)a{sv}", "(dddubbasa(dddduusb)t)", "a{sv}", "aaa(i)", "((((y))))v"].enumerated() {
            seeds.append((name: "signature-\(index)", bytes: [1] + Array(signature.utf8)))
        }
        let options = DBusValue.dictionary(keySignature: "s", valueSignature: "v", [
            (.string("max_width"), .variant(.double(100))), (.string("lines"), .variant(.boolean(true))),
        ])
        let bodies: [(String, [DBusValue], [ReadOp])] = [
            ("measure", [.string("text"), .string("Sans 12"), options], [.string, .string, .array, .structure, .string, .variant, .end, .end]),
            ("measure-mismatch", [.string("text"), .string("Sans 12"), options], [.int32, .string, .value]),
            ("batch", [.array(elementSignature: "(ssa{sv})", [.structure([.string("a"), .string(""), options])])],
             [.array, .structure, .string, .string, .value, .end, .end]),
            ("scalars", [.byte(7), .boolean(true), .int32(-1), .uint32(2), .int64(-3), .uint64(4), .double(0.5)],
             [.byte, .bool, .int32, .uint32, .int64, .uint64, .double]),
            ("variants", [.variant(.structure([.int16(1), .array(elementSignature: "d", [.double(1), .double(2)])]))], [.variant, .value]),
        ]
        for (name, values, script) in bodies {
            var encoder = FuzzEncoder()
            encoder.byte(0)
            encoder.byte(UInt8(values.count))
            for value in values { encoder.value(value) }
            encoder.raw(script.map(\.rawValue))
            seeds.append((name: name, bytes: encoder.bytes))
        }
        return seeds
    }
    return 0
}

enum ReadOp: UInt8, CaseIterable {
    case bool, byte, int32, uint32, int64, uint64, double, string, variant, value, structure, array, end, atEnd
}

/// Runs the script's reads until it ends, or `end` closes the container being read.
func run(_ script: inout FuzzInput, _ reader: inout DBusReader) throws(DBusError) {
    while !script.isAtEnd {
        let op = ReadOp(rawValue: script.byte() % UInt8(ReadOp.allCases.count)) ?? .value
        switch op {
        case .bool: _ = try reader.bool()
        case .byte: _ = try reader.byte()
        case .int32: _ = try reader.int32()
        case .uint32: _ = try reader.uint32()
        case .int64: _ = try reader.int64()
        case .uint64: _ = try reader.uint64()
        case .double: _ = try reader.double()
        case .string: _ = try reader.string()
        case .variant: _ = try reader.variant()
        case .value: _ = try reader.value()
        case .atEnd: _ = reader.isAtEnd
        case .end: return
        case .structure:
            try reader.structure { (fields) throws(DBusError) in try run(&script, &fields) }
        case .array:
            // Every element runs the script on from where it is: once it is used up, an
            // element is read whole with value(), so the loop always moves on.
            try reader.array { (element) throws(DBusError) in
                if script.isAtEnd { _ = try element.value() } else { try run(&script, &element) }
            }
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func test(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    if input.byte() & 1 == 1 {
        let text = input.rest()
        guard let signature = try? DBusSignature(text) else { return 0 }
        guard signature.completeTypes.joined() == text else {
            fuzzFailure("\(text.debugDescription) splits into \(signature.completeTypes)")
        }
        return 0
    }
    let count = Int(input.byte() % 8)
    var values: [DBusValue] = []
    for _ in 0..<count { values.append(input.value()) }
    guard let message = try? Wire.call("Read", values) else { return 0 }  // invalid values are refused
    guard let decoded = try? message.arguments(), decoded == values else {
        fuzzFailure("values appended by libdbus's iterators do not decode back: \(values)")
    }
    let signature = DBusValue.signature(of: values)
    guard let body = try? Wire.writerBody(values) else { fuzzFailure("DBusWriter cannot write values libdbus wrote: \(values)") }
    let written: DBusMessage
    do throws(DBusError) {
        written = try Wire.call("Read", signature: signature, body: body)
    } catch {
        fuzzFailure("libdbus refuses DBusWriter's body of \(signature): \(error)")
    }
    guard let again = try? written.arguments(), again == values else {
        fuzzFailure("DBusWriter's body of \(signature) decodes to other values")
    }
    let script = input
    for target in [message, written] {
        var copy = script
        _ = try? Wire.read(target) { (reader) throws(DBusError) in try run(&copy, &reader) }
    }
    return 0
}

@main enum Main {
    static func main() { runFuzzer(test) }
}
