import Testing
@testable import FitBus

/// DBusWriter and DBusReader on messages in memory: what they write is what the general
/// decoder reads, and every misuse is a thrown error, never one of libdbus's aborts.
struct StreamingCodingTests {
    static let signature = "ybiuxtdsa(sd)a{sv}(ias)v"

    static func message() throws -> DBusMessage {
        try DBusMessage.methodCall(destination: nil, path: "/org/fitbus/Test", interface: nil, member: "M")
    }

    /// Writes one value of every shape the signature above names.
    static func writeEveryShape(_ w: inout DBusWriter) throws(DBusError) {
        try w.append(UInt8(7))
        try w.append(true)
        try w.append(Int32(-3))
        try w.append(UInt32(4))
        try w.append(Int64.min)
        try w.append(UInt64.max)
        try w.append(2.5)
        try w.append("grüße")
        try w.array { (rows) throws(DBusError) in
            for (name, value) in [("a", 1.0), ("b", -0.5)] {
                try rows.structure { (row) throws(DBusError) in
                    try row.append(name)
                    try row.append(value)
                }
            }
        }
        try w.array { (dict) throws(DBusError) in
            try dict.dictionaryEntry { (pair) throws(DBusError) in
                try pair.append("k")
                try pair.append(DBusValue.variant(.uint32(9)))
            }
        }
        try w.structure { (s) throws(DBusError) in
            try s.append(Int32(1))
            try s.array { (_) throws(DBusError) in }  // an empty array keeps its type
        }
        try w.append(DBusValue.variant(.array(elementSignature: "s", [.string("x")])))
    }

    static let expected: [DBusValue] = [
        .byte(7), .boolean(true), .int32(-3), .uint32(4), .int64(.min), .uint64(.max), .double(2.5), .string("grüße"),
        .array(elementSignature: "(sd)", [.structure([.string("a"), .double(1)]), .structure([.string("b"), .double(-0.5)])]),
        .dictionary(keySignature: "s", valueSignature: "v", [(key: .string("k"), value: .variant(.uint32(9)))]),
        .structure([.int32(1), .array(elementSignature: "s", [])]),
        .variant(.array(elementSignature: "s", [.string("x")])),
    ]

    /// A method call around a body the writer wrote (libdbus validates it as it takes it).
    static func message(signature: String, _ write: (inout DBusWriter) throws(DBusError) -> Void) throws(DBusError) -> DBusMessage {
        let body = try DBusWriter.body(signature: signature, write)
        return try DBusMessage.methodCall(
            destination: "org.fitbus.Test", path: "/org/fitbus/Test", interface: "org.fitbus.Test", member: "M",
            signature: signature, body: body)
    }

    @Test func writerWritesWhatLibdbusAndTheGeneralDecoderRead() throws {
        let message = try Self.message(signature: Self.signature) { (w) throws(DBusError) in try Self.writeEveryShape(&w) }
        #expect(message.signature == Self.signature)
        #expect(message.member == "M" && message.path == "/org/fitbus/Test" && message.destination == "org.fitbus.Test")
        #expect(try message.arguments() == Self.expected)
        // And the reader reads it back through the general path too.
        let again = try DBusReader.readBody(of: message) { (r) throws(DBusError) -> [DBusValue] in
            var values: [DBusValue] = []
            while !r.isAtEnd { values.append(try r.value()) }
            return values
        }
        #expect(again == Self.expected)
    }

    @Test func readerReadsWhatTheGeneralEncoderWrote() throws {
        let message = try Self.message()
        try message.append(Self.expected)
        let read = try DBusReader.readBody(of: message) { (r) throws(DBusError) -> [DBusValue] in
            var values: [DBusValue] = [.byte(try r.byte()), .boolean(try r.bool()), .int32(try r.int32()), .uint32(try r.uint32())]
            values += [.int64(try r.int64()), .uint64(try r.uint64()), .double(try r.double()), .string(try r.string())]
            var rows: [DBusValue] = []
            let count = try r.array { (row) throws(DBusError) in
                rows.append(try row.structure { (f) throws(DBusError) in .structure([.string(try f.string()), .double(try f.double())]) })
            }
            #expect(count == 2)
            values.append(.array(elementSignature: "(sd)", rows))
            values.append(try r.value())  // the dictionary, through the general path
            values.append(try r.value())
            values.append(.variant(try r.variant()))
            let atEnd = r.isAtEnd
            #expect(atEnd)
            return values
        }
        #expect(read == Self.expected)
    }

    @Test func writerRefusesValuesTheSignatureDoesNotHave() throws {
        func attempt(_ signature: String, _ body: (inout DBusWriter) throws(DBusError) -> Void) -> DBusError? {
            do throws(DBusError) {
                _ = try Self.message(signature: signature, body)
                return nil
            } catch {
                return error
            }
        }
        // The wrong basic type, where libdbus itself would abort the process.
        #expect(attempt("u") { (w) throws(DBusError) in try w.append("text") }?.name == .failed)
        // An array element of the wrong type.
        #expect(attempt("as") { (w) throws(DBusError) in try w.array { (a) throws(DBusError) in try a.append(Int32(1)) } }?.name == .failed)
        // A structure closed before all its fields, an array element left half written.
        #expect(attempt("(ss)") { (w) throws(DBusError) in try w.structure { (s) throws(DBusError) in try s.append("a") } }?.name == .failed)
        #expect(attempt("a{sv}") { (w) throws(DBusError) in
            try w.array { (a) throws(DBusError) in try a.dictionaryEntry { (e) throws(DBusError) in try e.append("k") } }
        }?.name == .failed)
        // A body that stops early, and one that goes on past its signature.
        #expect(attempt("ss") { (w) throws(DBusError) in try w.append("a") }?.name == .failed)
        #expect(attempt("s") { (w) throws(DBusError) in try w.append("a"); try w.append("b") }?.name == .failed)
        // A string holding NUL, and a general value of another type.
        #expect(attempt("s") { (w) throws(DBusError) in try w.append("a\u{0}b") }?.name == .invalidArgs)
        #expect(attempt("v") { (w) throws(DBusError) in try w.append(DBusValue.string("not a variant")) }?.name == .failed)
        // The writer is still usable for a correct body after all that.
        #expect(attempt(Self.signature) { (w) throws(DBusError) in try Self.writeEveryShape(&w) } == nil)
    }

    @Test func readerRefusesABodyOfAnotherShape() throws {
        let message = try Self.message()
        try message.append([.string("a"), .array(elementSignature: "s", [.string("x"), .string("y")])])
        let wrongType = #expect(throws: DBusError.self) {
            try DBusReader.readBody(of: message) { (r) throws(DBusError) in _ = try r.uint32() }
        }
        #expect(wrongType?.name == .invalidArgs)
        let pastTheEnd = #expect(throws: DBusError.self) {
            try DBusReader.readBody(of: message) { (r) throws(DBusError) in
                _ = try r.string()
                try r.array { (e) throws(DBusError) in _ = try e.string() }
                _ = try r.string()
            }
        }
        #expect(pastTheEnd?.message.contains("end") == true)
        // An element closure that reads nothing would loop forever; it is an error instead.
        let idle = #expect(throws: DBusError.self) {
            try DBusReader.readBody(of: message) { (r) throws(DBusError) in
                _ = try r.string()
                try r.array { (_) throws(DBusError) in }
            }
        }
        #expect(idle?.name == .failed)
    }
}
