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
