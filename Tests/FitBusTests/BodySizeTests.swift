import CDBus
import Testing
@testable import FitBus

/// DBusMessage.bodySize decides which calls are heavy (CallScheduling) and which may be
/// decoded on the loop thread (MethodDispatcher.immediateBudget), so it must see arrays.
@Suite struct BodySizeTests {
    static func message(_ arguments: [DBusValue]) throws -> DBusMessage {
        let message = try DBusMessage.methodCall(destination: "org.example.A", path: "/a", interface: "org.example.A", member: "M")
        try message.append(arguments)
        return message
    }

    @Test func anArrayCountsItsBytes() throws {
        // 100 strings "item N": each a 4-byte length, 6–7 bytes and a NUL, aligned to 4.
        let message = try Self.message([.array(elementSignature: "s", (0..<100).map { .string("item \($0)") })])
        let size = try #require(message.bodySize(atMost: .max))
        #expect(size >= 1_200 && size <= 1_300)
    }

    @Test func aDictionaryInsideAStructCounts() throws {
        let options = DBusValue.dictionary(keySignature: "s", valueSignature: "v",
            (0..<50).map { (key: .string("key\($0)"), value: .variant(.string(String(repeating: "v", count: 100)))) })
        let size = try #require(try Self.message([.string("text"), .structure([options])]).bodySize(atMost: .max))
        #expect(size > 50 * 100)
    }

    @Test func theWalkStopsPastTheLimit() throws {
        let message = try Self.message([.array(elementSignature: "s", (0..<100).map { .string("item \($0)") })])
        #expect(message.bodySize(atMost: 1_000) == nil)
        #expect(try Self.message([.array(elementSignature: "s", [])]).bodySize(atMost: 1_000) == 8)
    }
}

/// A reply fitd builds knows its length (DBusValue+WireLength) instead of marshalling a copy
/// to learn it: the walk must give exactly what libdbus marshals, alignment and all.
@Suite struct KnownReplySizeTests {
    /// libdbus's own lengths of a message: header (fields padded to 8) and body.
    static func lengths(_ message: DBusMessage) throws -> (header: Int, body: Int) {
        let body = try DBusReader.withBody(of: message) { body, _ in body.count }
        var bytes: UnsafeMutablePointer<CChar>? = nil
        var whole: Int32 = 0
        guard dbus_message_marshal(message.raw, &bytes, &whole) != 0 else { throw FitBus.DBusError.noMemory("marshalling") }
        dbus_free(bytes)
        return (Int(whole) - body, body)
    }

    static let samples: [[DBusValue]] = [
        [],
        [.byte(1), .double(2), .byte(3), .int16(-4), .uint64(5), .boolean(true)],
        [.string(""), .objectPath("/a/b"), .signature("a{sv}"), .uint16(7)],
        [.byte(9), .array(elementSignature: "(dd)", [])],
        [.byte(9), .array(elementSignature: "d", [.double(1), .double(2)])],
        [.dictionary(keySignature: "s", valueSignature: "v", [
            (key: .string("a"), value: .variant(.uint32(1))),
            (key: .string("bb"), value: .variant(.structure([.byte(1), .double(2)]))),
            (key: .string("c"), value: .variant(.array(elementSignature: "s", [.string("x"), .string("yz")]))),
        ])],
        [.structure([.double(1), .uint32(2), .boolean(false), .array(elementSignature: "(dddduusb)", [
            .structure([.double(1), .double(2), .double(3), .double(4), .uint32(5), .uint32(6), .string("line"), .boolean(true)]),
            .structure([.double(1), .double(2), .double(3), .double(4), .uint32(5), .uint32(6), .string("ü"), .boolean(false)]),
        ]), .uint64(7)])],
        [.variant(.variant(.int64(-1))), .byte(0), .array(elementSignature: "a{sv}", [.dictionary(keySignature: "s", valueSignature: "v", [])])],
    ]

    @Test func aBuiltReplyKnowsTheBodyLengthLibdbusMarshals() throws {
        for values in Self.samples {
            let reply = try DBusMessage.reply(to: 7, destination: ":1.42")
            try reply.append(values)
            let known = try #require(reply.knownBodyBytes, "\(values)")
            #expect(known == (try Self.lengths(reply)).body, "\(DBusValue.signature(of: values))")
        }
    }

    @Test func theHeaderIsSizedAsLibdbusMarshalsIt() throws {
        for (destination, error) in [(":1.42", nil), (nil, FitBus.DBusError(.failed, "no")), ("org.example.Long.Name", nil)] as [(String?, FitBus.DBusError?)] {
            for values in Self.samples where error == nil || values.isEmpty {
                let reply = try DBusMessage.reply(to: 7, destination: destination, error: error)
                try reply.append(values)
                #expect(reply.headerBytes == (try Self.lengths(reply)).header, "\(String(describing: destination)) \(values)")
            }
        }
    }

    @Test func aReplyWrittenByTheWriterKnowsItsBody() throws {
        let body = try DBusReplyBody(signature: "(dd)as") { (writer) throws(FitBus.DBusError) in
            try writer.structure { (fields) throws(FitBus.DBusError) in
                try fields.append(1.0)
                try fields.append(2.0)
            }
            try writer.array { (items) throws(FitBus.DBusError) in try items.append("x") }
        }
        let reply = try body.reply(to: 3, destination: ":1.9")
        #expect(reply.knownBodyBytes == (try Self.lengths(reply)).body)
        #expect(reply.headerBytes == (try Self.lengths(reply)).header)
    }

    @Test func aMessageFromElsewhereIsStillWalked() throws {
        let message = try BodySizeTests.message([.array(elementSignature: "s", [.string("a")])])
        #expect(message.knownBodyBytes == nil)
        #expect(message.bodySize(atMost: .max) != nil)
    }
}
