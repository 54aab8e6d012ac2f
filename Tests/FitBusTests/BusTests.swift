import Foundation
import Testing
@testable import FitBus

/// Against a real dbus-daemon. Serialized: the latency assertions need the 2 cores.
@Suite(.serialized) struct BusTests {
    @Test func roundTripsEveryTypeOverTheBus() async throws {
        try await withBus { (_, _, client) async throws in
            for value in MarshallingTests.everyType + [MarshallingTests.deepArray(32)] {
                let reply = try await client.test("Reflect", [.variant(value)])
                #expect(reply == [.variant(value)], "\(value.signature)")
            }
        }
    }

    @Test func callsMethodsAndReturnsNamedErrors() async throws {
        try await withBus { (_, server, client) async throws in
            #expect(try await client.test("Add", [.int32(2), .int32(3)]) == [.int32(5)])
            #expect(try await client.test("Echo", [.string("hi")]) == [.string("hi")])
            #expect(server.uniqueName?.hasPrefix(":") == true)

            let custom = await #expect(throws: DBusError.self) { try await client.test("Fail") }
            #expect(custom?.name.rawValue == "org.fitbus.Test.Error.Custom")
            #expect(custom?.message == "custom failure")

            let wrong = await #expect(throws: DBusError.self) { try await client.test("Add", [.string("2")]) }
            #expect(wrong?.name == .invalidArgs)
            #expect(wrong?.message == "expected signature ii, got s")

            let missing = await #expect(throws: DBusError.self) { try await client.test("Add", [.int32(2)]) }
            #expect(missing?.name == .invalidArgs)

            let method = await #expect(throws: DBusError.self) { try await client.test("Nope") }
            #expect(method?.name == .unknownMethod)
            let interface = await #expect(throws: DBusError.self) { try await client.test("Echo", interface: "org.fitbus.Other") }
            #expect(interface?.name == .unknownInterface)
            let object = await #expect(throws: DBusError.self) { try await client.test("Echo", [.string("x")], path: "/nowhere") }
            #expect(object?.name == .unknownObject)
            // A handler replying with the wrong types is refused, not sent.
            let bad = await #expect(throws: DBusError.self) { try await client.test("BadReply") }
            #expect(bad?.name == .failed)
            // The server is still serving.
            #expect(try await client.test("Add", [.int32(1), .int32(1)]) == [.int32(2)])
        }
    }

    @Test func streamingMethodsAnswerBothKindsOfCallers() async throws {
        try await withBus { (_, _, client) async throws in
            let texts = ["a", "grüße", "", String(repeating: "x", count: 300)]
            let rows: [DBusValue] = texts.map { .structure([.string($0), .uint32(UInt32($0.utf8.count))]) }
            // A caller with DBusValues...
            #expect(try await client.test("Lengths", [.array(elementSignature: "s", texts.map(DBusValue.string))])
                == [.array(elementSignature: "(su)", rows)])
            // ...and one that writes and reads value by value.
            let read = try await client.call(
                destination: TestObject.busName, path: TestObject.path, interface: TestObject.interface, member: "Lengths",
                signature: "as",
                write: { (w) throws(DBusError) in try w.array { (a) throws(DBusError) in for t in texts { try a.append(t) } } },
                read: { (r) throws(DBusError) -> [UInt32] in
                    var lengths: [UInt32] = []
                    try r.array { (row) throws(DBusError) in
                        try row.structure { (f) throws(DBusError) in _ = try f.string(); lengths.append(try f.uint32()) }
                    }
                    return lengths
                })
            #expect(read == texts.map { UInt32($0.utf8.count) })
            // The declared in-signature is checked before a streaming handler runs, and a body
            // other than the declared out-signature is refused, not sent.
            let wrong = await #expect(throws: DBusError.self) { try await client.test("Lengths", [.string("x")]) }
            #expect(wrong?.name == .invalidArgs)
            let bad = await #expect(throws: DBusError.self) { try await client.test("BadStream") }
            #expect(bad?.name == .failed)
            #expect(try await client.test("Add", [.int32(1), .int32(1)]) == [.int32(2)])
        }
    }

    @Test func keptRepliesAnswerExactRepeatsUntilTheEpochMoves() async throws {
        try await withTestObject { (_, state, _, client) async throws in
            #expect(try await client.test("Counted", [.string("a")]) == [.string("a"), .uint32(1)])
            // The same arguments: the kept reply, the handler does not run.
            #expect(try await client.test("Counted", [.string("a")]) == [.string("a"), .uint32(1)])
            #expect(try await client.test("Counted", [.string("b")]) == [.string("b"), .uint32(2)])
            #expect(try await client.test("Counted", [.string("a")]) == [.string("a"), .uint32(1)])
            // A new epoch makes every kept reply stale.
            state.replies.advance()
            #expect(try await client.test("Counted", [.string("a")]) == [.string("a"), .uint32(3)])
            // A call larger than the loop thread may copy is never kept.
            let big = String(repeating: "x", count: MethodDispatcher.immediateBudget + 1)
            #expect(try await client.test("Counted", [.string(big)]) == [.string(big), .uint32(4)])
            #expect(try await client.test("Counted", [.string(big)]) == [.string(big), .uint32(5)])
            #expect(state.countedRuns.withLock { $0 } == 5)
        }
    }

    /// A fast path that does not answer hands the call on with its decoded arguments and its
    /// work, which the handler reads from its context instead of working it out again; a call
    /// too large for the loop thread reaches the handler with nothing handed over.
    @Test func aFastPathHandsItsWorkToTheHandler() async throws {
        try await withTestObject { (_, _, _, client) async throws in
            #expect(try await client.test("Prepared", [.string("now")]) == [.string("now"), .string("immediate")])
            #expect(try await client.test("Prepared", [.string("later")]) == [.string("later"), .string("handed over LATER")])
            let big = String(repeating: "x", count: MethodDispatcher.immediateBudget + 1)
            #expect(try await client.test("Prepared", [.string(big)]) == [.string(big), .string("nothing handed over")])
        }
    }

    /// Measure's shape: a streaming method whose fast path answers with a written body, whose
    /// handler gets the fast path's work, and whose replies, either way, are kept and sized.
    @Test func aStreamingMethodsFastPathAnswersWithABodyAndItsRepliesAreKept() async throws {
        try await withTestObject { (_, state, _, client) async throws in
            #expect(try await client.test("PreparedStream", [.string("now")]) == [.string("immediate"), .uint32(0)])
            #expect(try await client.test("PreparedStream", [.string("later")]) == [.string("LATER"), .uint32(1)])
            // Both kept: neither the fast path's answer nor the handler's is worked out again.
            #expect(try await client.test("PreparedStream", [.string("later")]) == [.string("LATER"), .uint32(1)])
            #expect(try await client.test("PreparedStream", [.string("now")]) == [.string("immediate"), .uint32(0)])
            #expect(state.streamRuns.withLock { $0 } == 1)
            let sizes = state.streamReplies.keptSizes
            #expect(sizes.count == 2 && sizes.allSatisfy { $0 > 40 && $0 < 200 }, "\(sizes)")
        }
    }

    @Test func servesPropertiesAndEmitsPropertiesChanged() async throws {
        try await withBus { (_, _, client) async throws in
            let props = "org.freedesktop.DBus.Properties", iface = TestObject.interface
            #expect(try await client.test("Get", [.string(iface), .string("Count")], interface: props) == [.variant(.uint32(42))])
            let all = try await client.test("GetAll", [.string(iface)], interface: props)
            let dict = try all.first?.decode(as: [String: DBusValue].self)
            #expect(dict == ["Name": .string("initial"), "Count": .uint32(42), "Level": .uint32(0)])

            let changes = try await client.signals(matching: SignalMatch(path: TestObject.path, interface: props, member: "PropertiesChanged"))
            _ = try await client.test("Set", [.string(iface), .string("Name"), .variant(.string("renamed"))], interface: props)
            #expect(try await client.test("Get", [.string(iface), .string("Name")], interface: props) == [.variant(.string("renamed"))])
            var iterator = changes.makeAsyncIterator()
            let signal = await iterator.next()
            #expect(signal?.arguments == [
                .string(iface),
                .dictionary(keySignature: "s", valueSignature: "v", [(.string("Name"), .variant(.string("renamed")))]),
                .array(elementSignature: "s", []),
            ])

            // A setter that announces its own change: one PropertiesChanged (its own), not a
            // second partial one from Set. The next signal is the next Set's.
            _ = try await client.test("Set", [.string(iface), .string("Level"), .variant(.uint32(3))], interface: props)
            _ = try await client.test("Set", [.string(iface), .string("Name"), .variant(.string("again"))], interface: props)
            let announced = await iterator.next()
            #expect(announced?.arguments == [
                .string(iface),
                .dictionary(keySignature: "s", valueSignature: "v", [(.string("Count"), .variant(.uint32(42))), (.string("Level"), .variant(.uint32(3)))]),
                .array(elementSignature: "s", []),
            ])
            let following = await iterator.next()
            #expect(following?.arguments[1] == .dictionary(keySignature: "s", valueSignature: "v", [(.string("Name"), .variant(.string("again")))]))

            let readOnly = await #expect(throws: DBusError.self) {
                try await client.test("Set", [.string(iface), .string("Count"), .variant(.uint32(1))], interface: props)
            }
            #expect(readOnly?.name == .propertyReadOnly)
            let wrongType = await #expect(throws: DBusError.self) {
                try await client.test("Set", [.string(iface), .string("Name"), .variant(.int32(1))], interface: props)
            }
            #expect(wrongType?.name == .invalidArgs)
            #expect(wrongType?.message == "expected signature s, got i")
            let unknown = await #expect(throws: DBusError.self) {
                try await client.test("Get", [.string(iface), .string("Missing")], interface: props)
            }
            #expect(unknown?.name == .unknownProperty)
            let badArgs = await #expect(throws: DBusError.self) { try await client.test("Get", [.string(iface)], interface: props) }
            #expect(badArgs?.name == .invalidArgs)
        }
    }

    @Test func introspectsAndAnswersPeer() async throws {
        try await withBus { (_, _, client) async throws in
            let reply = try await client.test("Introspect", interface: "org.freedesktop.DBus.Introspectable")
            guard case .string(let xml)? = reply.first else { Issue.record("no xml"); return }
            #expect(xml.contains(#"<interface name="org.fitbus.Test">"#))
            #expect(xml.contains(#"<arg name="text" type="s" direction="in"/>"#))
            #expect(xml.contains(#"<property name="Name" type="s" access="readwrite">"#))
            #expect(xml.contains(#"<annotation name="org.gtk.GDBus.DocString" value="Returns its argument"/>"#))
            #expect(xml.contains(#"<signal name="Ticked">"#))
            #expect(xml.contains(#"<interface name="org.freedesktop.DBus.Properties">"#))
            let root = try await client.test("Introspect", interface: "org.freedesktop.DBus.Introspectable", path: "/org")
            guard case .string(let rootXML)? = root.first else { Issue.record("no xml at /org"); return }
            #expect(rootXML.contains(#"<node name="fitbus"/>"#))
            #expect(!rootXML.contains("<interface"))
            #expect(try await client.test("Ping", interface: "org.freedesktop.DBus.Peer") == [])
        }
    }

    @Test func timesOutAndKeepsServing() async throws {
        try await withBus { (_, _, client) async throws in
            let start = ContinuousClock.now
            let error = await #expect(throws: DBusError.self) {
                try await client.test("Sleep", [.uint32(3000)], timeout: .milliseconds(300))
            }
            #expect(error?.isTimeout == true)
            #expect(ContinuousClock.now - start < .seconds(2))
            #expect(try await client.test("Add", [.int32(4), .int32(4)]) == [.int32(8)])
        }
    }

    @Test func cancelsACall() async throws {
        try await withBus { (_, _, client) async throws in
            let task = Task { try await client.test("Sleep", [.uint32(5000)]) }
            try await Task.sleep(for: .milliseconds(100))
            task.cancel()
            let result = await task.result
            #expect(throws: DBusError(.cancelled, "the call was cancelled")) { _ = try result.get() }
        }
    }

    @Test func slowHandlerDoesNotDelayOthers() async throws {
        try await withBus { (_, _, client) async throws in
            let slow = Task { try await client.test("Sleep", [.uint32(2000)]) }
            try await Task.sleep(for: .milliseconds(50))
            let start = ContinuousClock.now
            try await withThrowingTaskGroup(of: [DBusValue].self) { group in
                for index in 0..<50 {
                    group.addTask { try await client.test("Add", [.int32(Int32(index)), .int32(1)]) }
                }
                var count = 0
                for try await reply in group {
                    #expect(reply.count == 1)
                    count += 1
                }
                #expect(count == 50)
            }
            let elapsed = ContinuousClock.now - start
            #expect(elapsed < .milliseconds(1000), "50 fast calls took \(elapsed)")
            #expect(try await slow.value == [.string("slept")])
        }
    }

    @Test func deliversSignals() async throws {
        try await withBus { (_, _, client) async throws in
            let stream = try await client.signals(matching: SignalMatch(interface: TestObject.interface, member: "Ticked"))
            _ = try await client.test("Tick", [.string("one")])
            var iterator = stream.makeAsyncIterator()
            let signal = await iterator.next()
            #expect(signal?.arguments == [.string("one")])
            #expect(signal?.path == TestObject.path)
        }
    }

    @Test func requestsNamesWithQueueSemantics() async throws {
        try await withBus { (_, server, client) async throws in
            #expect(try await server.requestName(TestObject.busName) == .alreadyOwner)
            #expect(try await client.requestName(TestObject.busName, flags: [.doNotQueue]) == .exists)
            #expect(try await client.requestName(TestObject.busName, flags: []) == .inQueue)
            #expect(try await server.requestName("org.fitbus.Replaceable", flags: [.allowReplacement]) == .primaryOwner)
            #expect(try await client.requestName("org.fitbus.Replaceable", flags: [.replaceExisting]) == .primaryOwner)
        }
    }

    /// The private bus allows 32 MiB per message; a 100 MB one must cost only its sender's
    /// connection, while the server keeps serving others.
    @Test func oversizedMessageIsRefusedAndServerSurvives() async throws {
        try await withBus { (bus, _, client) async throws in
            let huge = DBusValue.string(String(repeating: "x", count: 100_000_000))
            let error = await #expect(throws: DBusError.self) { try await client.test("Echo", [huge]) }
            #expect(error != nil)
            let other = try await BusConnection.connect(address: bus.address)
            defer { other.close() }
            #expect(try await other.test("Add", [.int32(1), .int32(2)]) == [.int32(3)])
        }
    }

    @Test func closedConnectionFailsCalls() async throws {
        try await withBus { (_, _, client) async throws in
            client.close()
            let error = await #expect(throws: DBusError.self) { try await client.test("Echo", [.string("x")]) }
            #expect(error?.name == .disconnected)
        }
    }
}
