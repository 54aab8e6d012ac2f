import Testing
@testable import FitBus

@Suite struct SignatureTests {
    @Test func splitsCompleteTypes() throws {
        let signature = try DBusSignature("sa{sv}(ii)aai")
        #expect(signature.completeTypes == ["s", "a{sv}", "(ii)", "aai"])
        #expect(try DBusSignature("v").isSingleCompleteType)
        #expect(DBusSignature.empty.completeTypes.isEmpty)
    }

    @Test func enforcesTheSpecificationsLimits() throws {
        // Specification, "Valid Signatures": 32 arrays, 32 structures, 255 bytes.
        _ = try DBusSignature(String(repeating: "a", count: 32) + "i")
        #expect(throws: DBusError.self) { try DBusSignature(String(repeating: "a", count: 33) + "i") }
        _ = try DBusSignature(String(repeating: "(", count: 32) + "i" + String(repeating: ")", count: 32))
        #expect(throws: DBusError.self) {
            try DBusSignature(String(repeating: "(", count: 33) + "i" + String(repeating: ")", count: 33))
        }
        _ = try DBusSignature(String(repeating: "i", count: 255))
        #expect(throws: DBusError.self) { try DBusSignature(String(repeating: "i", count: 256)) }
    }

    @Test(arguments: ["a", "(", "()", "{ss}", "a{vs}", "a{s}", "a{sss}", "z", "(i", "i)", "a{(i)s}"])
    func rejectsMalformed(_ text: String) {
        #expect(throws: DBusError.self) { try DBusSignature(text) }
    }
}

@Suite struct MarshallingTests {
    static let everyType: [DBusValue] = [
        .byte(255), .boolean(true), .boolean(false), .int16(-32768), .uint16(65535),
        .int32(-7), .uint32(.max), .int64(.min), .uint64(.max), .double(-0.5), .double(.infinity),
        .string(""), .string("héllo ✓ 🎉"), .objectPath("/org/fitbus/x"), .signature("a{sv}"),
        .array(elementSignature: "s", []),
        .array(elementSignature: "ai", [.array(elementSignature: "i", [.int32(1), .int32(2)]),
                                         .array(elementSignature: "i", [])]),
        .dictionary(keySignature: "s", valueSignature: "v", [
            (.string("a"), .variant(.int32(1))),
            (.string("b"), .variant(.array(elementSignature: "(sd)", [.structure([.string("x"), .double(2)])]))),
        ]),
        .dictionary(keySignature: "u", valueSignature: "as", []),
        .structure([.int32(1), .structure([.string("nested"), .variant(.variant(.boolean(true)))])]),
        .variant(.dictionary(keySignature: "o", valueSignature: "g", [(.objectPath("/"), .signature(""))])),
    ]

    static func deepArray(_ depth: Int) -> DBusValue {
        var value = DBusValue.int32(7)
        for _ in 0..<depth { value = .array(elementSignature: value.signature, [value]) }
        return value
    }

    static func deepStruct(_ depth: Int) -> DBusValue {
        var value = DBusValue.int32(7)
        for _ in 0..<depth { value = .structure([value]) }
        return value
    }

    @Test func roundTripsEveryTypeThroughAMessage() throws {
        let message = try DBusMessage.methodCall(destination: nil, path: "/a", interface: "a.b", member: "C")
        let values = Self.everyType + [Self.deepArray(32), Self.deepStruct(32)]
        try message.append(values)
        #expect(message.signature == DBusValue.signature(of: values))
        #expect(try message.arguments() == values)
    }

    @Test func refusesInvalidValuesBeforeLibdbusSeesThem() throws {
        let bad: [DBusValue] = [
            .array(elementSignature: "s", [.int32(1)]),
            .string("nul\u{0}inside"),
            .objectPath("not/a/path"),
            .signature("a{"),
            .structure([]),
            .dictionary(keySignature: "v", valueSignature: "s", []),
            Self.deepArray(33),
            Self.deepStruct(33),
        ]
        for value in bad {
            let message = try DBusMessage.methodCall(destination: nil, path: "/a", interface: "a.b", member: "C")
            #expect(throws: DBusError.self, "\(value.signature)") { try message.append([value]) }
        }
        // Variants nest outside the signature, so the total-depth limit (64) applies.
        var variants = DBusValue.int32(1)
        for _ in 0..<65 { variants = .variant(variants) }
        #expect(throws: DBusError.self) { try variants.validate() }
    }

    /// Found by Tests/Fuzzing (fuzz-layout-wire): a variant's signature was not checked
    /// against the 255-byte limit, so libdbus aborted the process in append.
    @Test func refusesAVariantWhoseContentHasASignatureOver255Bytes() throws {
        // "(" + n × "i" + ")": 255 bytes at n = 253.
        let fits = DBusValue.variant(.structure(Array(repeating: .int32(1), count: 253)))
        let message = try DBusMessage.methodCall(destination: nil, path: "/a", interface: "a.b", member: "C")
        try message.append([fits])
        #expect(try message.arguments() == [fits])
        let tooLong = DBusValue.variant(.structure(Array(repeating: .int32(1), count: 254)))
        let refused = try DBusMessage.methodCall(destination: nil, path: "/a", interface: "a.b", member: "C")
        #expect(throws: DBusError.self) { try refused.append([.array(elementSignature: "v", [tooLong])]) }
    }

    /// Found by Tests/Fuzzing (fuzz-dbus-reader): values each valid whose signatures add up
    /// to more than 255 bytes went to libdbus, which then took minutes per append.
    @Test func refusesABodyWhoseSignatureIsOver255Bytes() throws {
        let message = try DBusMessage.methodCall(destination: nil, path: "/a", interface: "a.b", member: "C")
        let fits = Array(repeating: DBusValue.byte(1), count: 255)
        try message.append(fits)
        #expect(try message.arguments() == fits)
        let refused = try DBusMessage.methodCall(destination: nil, path: "/a", interface: "a.b", member: "C")
        let error = #expect(throws: DBusError.self) { try refused.append(Array(repeating: .byte(1), count: 256)) }
        #expect(error?.name == .invalidArgs)
    }

    @Test func refusesInvalidNames() {
        #expect(throws: DBusError.self) {
            try DBusMessage.methodCall(destination: "bad..name", path: "/a", interface: "a.b", member: "C")
        }
        #expect(throws: DBusError.self) { try DBusMessage.signal(path: "/a/", interface: "a.b", member: "C") }
        #expect(throws: DBusError.self) { try DBusMethod("no-dashes") { _, _ in [] } }
    }

    @Test func convertsSwiftTypes() throws {
        let options: [String: DBusValue] = ["width": .double(10), "wrap": .boolean(true)]
        #expect(options.dbusValue.signature == "a{sv}")
        #expect(try [String: DBusValue](dbusValue: options.dbusValue) == options)
        let list: [[Int32]] = [[1, 2], []]
        #expect(try [[Int32]](dbusValue: list.dbusValue) == list)
        #expect(try DBusValue.uint32(3).decode(as: UInt32.self) == 3)
        #expect(throws: DBusError.self) { try DBusValue.uint32(3).decode(as: String.self) }
        #expect([UInt8]().dbusValue == .array(elementSignature: "y", []))
    }
}
