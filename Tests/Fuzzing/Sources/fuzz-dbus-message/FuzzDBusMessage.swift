import FitBus
import FuzzSupport

// Whole D-Bus messages as a socket delivers them: libdbus demarshals and validates them
// (dbus_message_demarshal, as the connection's loader does), then FitBus decodes what libdbus
// accepted: the header getters, the message's signature (DBusSignature), the bounded decode
// of the immediate path (arguments(atMost:)) and the whole decode (arguments()), which must
// agree, and survive re-encoding (append) unchanged.

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    Seeds.writeIfAsked {
        let options = DBusValue.dictionary(keySignature: "s", valueSignature: "v", [
            (.string("max_width"), .variant(.double(240))), (.string("wrap"), .variant(.string("word-char"))),
            (.string("max_lines"), .variant(.int32(2))), (.string("ellipsize"), .variant(.string("end"))),
            (.string("features"), .variant(.array(elementSignature: "s", [.string("tnum,-liga")]))),
            (.string("lines"), .variant(.boolean(true))),
        ])
        let empty = DBusValue.dictionary(keySignature: "s", valueSignature: "v", [])
        let calls: [(String, String, [DBusValue])] = [
            ("measure", "Measure", [.string("Hello, world"), .string("Sans 12"), empty]),
            ("measure-options", "Measure", [.string("Grüße\nzweite Zeile"), .string("Noto Sans Bold 11"), options]),
            ("batch", "MeasureBatch", [.array(elementSignature: "(ssa{sv})", [
                .structure([.string("one"), .string(""), empty]), .structure([.string("two two"), .string("Mono 10"), options]),
            ])]),
            ("layout", "Layout", [
                .array(elementSignature: "(ssia{sv})", [
                    .structure([.string("root"), .string("vstack"), .int32(-1), .dictionary(keySignature: "s", valueSignature: "v", [(.string("spacing"), .variant(.double(4)))])]),
                    .structure([.string("t"), .string("text"), .int32(0), .dictionary(keySignature: "s", valueSignature: "v", [(.string("text"), .variant(.string("Pay now")))])]),
                ]),
                .structure([.boolean(true), .double(320), .boolean(false), .double(0)]), empty,
            ]),
            ("get-all", "GetAll", [.string("org.fitd.Fit1")]),
            ("nested", "Ping", [.variant(.variant(.structure([.byte(1), .int16(-2), .uint16(3), .int64(-4), .uint64(5),
                                                                  .objectPath("/a/b"), .signature("a{sv}")])))]),
        ]
        var seeds: [(name: String, bytes: [UInt8])] = []
        for (name, member, values) in calls {
            guard let message = try? Wire.call(member, values) else { fatalError("seed \(name) does not build") }
            seeds.append((name: name, bytes: Wire.marshal(message)))
        }
        return seeds
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func test(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let message = Wire.demarshal(UnsafeRawBufferPointer(start: data, count: size)) else { return 0 }
    _ = (message.kind, message.path, message.interface, message.member, message.sender, message.destination)
    _ = (message.errorName, message.serial, message.replySerial, message.noReplyExpected)
    let signature = message.signature
    guard (try? DBusSignature(signature)) != nil else {
        fuzzFailure("libdbus accepted a message of signature \(signature.debugDescription), DBusSignature refuses it")
    }
    let bounded = try? Wire.arguments(message, atMost: 4096)
    guard let values = try? message.arguments() else {
        if bounded != nil { fuzzFailure("arguments(atMost:) decodes a body arguments() refuses") }
        return 0
    }
    if let bounded, bounded != values { fuzzFailure("arguments(atMost:) and arguments() disagree") }
    guard DBusValue.signature(of: values) == signature else {
        fuzzFailure("decoded values of signature \(DBusValue.signature(of: values)) from a body of \(signature)")
    }
    // What was decoded encodes again, to the same values.
    guard let copy = try? Wire.call("Echo", values), let back = try? copy.arguments(), back == values else {
        fuzzFailure("the decoded arguments do not survive append + arguments()")
    }
    return 0
}

@main enum Main {
    static func main() { runFuzzer(test) }
}
