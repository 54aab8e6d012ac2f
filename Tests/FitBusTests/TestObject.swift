import Synchronization
@testable import FitBus

/// The object the bus tests export.
enum TestObject {
    static let busName = "org.fitbus.Test"
    static let path = "/org/fitbus/Test"
    static let interface = "org.fitbus.Test"

    final class State: Sendable {
        let name = Mutex("initial")
        /// How often Counted's handler ran, and the reply store in front of it.
        let countedRuns = Mutex(0)
        let level = Mutex<UInt32>(0)
        /// The server's connection, for setters that emit signals themselves.
        let connection = Mutex<BusConnection?>(nil)
        let replies = TestReplyCache()
        /// How often PreparedStream's handler ran, and its own reply store.
        let streamRuns = Mutex(0)
        let streamReplies = TestReplyCache()
    }

    static func make(state: State) throws(DBusError) -> ExportedObject {
        let methods = [
            try DBusMethod("Echo", in: "s", out: "s", inNames: ["text"], outNames: ["echoed"], doc: "Returns its argument") {
                args, _ in args
            },
            try DBusMethod("Add", in: "ii", out: "i") { args, _ throws(DBusError) in
                let a: Int32 = try args[0].decode(), b: Int32 = try args[1].decode()
                return [.int32(a &+ b)]
            },
            try DBusMethod("Reflect", in: "v", out: "v") { args, _ in args },
            // A string of that many bytes: a reply as long as the caller asks.
            try DBusMethod("Repeat", in: "u", out: "s") { args, _ throws(DBusError) in
                let bytes: UInt32 = try args[0].decode()
                return [.string(String(repeating: "x", count: Int(bytes)))]
            },
            try DBusMethod("Sleep", in: "u", out: "s") { args, _ throws(DBusError) in
                let ms: UInt32 = try args[0].decode()
                try? await Task.sleep(for: .milliseconds(Int(ms)))
                return [.string("slept")]
            },
            try DBusMethod("Fail", in: "", out: "") { _, _ throws(DBusError) in
                throw DBusError("org.fitbus.Test.Error.Custom", "custom failure")
            },
            try DBusMethod("BadReply", in: "", out: "s") { _, _ in [.int32(1)] },
            // Answers with how often it ran; kept replies answer repeats without running it.
            try DBusMethod("Counted", in: "s", out: "su", replyCache: state.replies) { args, _ in
                let runs = state.countedRuns.withLock { count in
                    count += 1
                    return count
                }
                return [args[0], .uint32(UInt32(runs))]
            },
            // A fast path that answers "now" and hands every other call on with its work (the
            // word upper-cased); the handler says what it was handed, so nothing is redone.
            try DBusMethod(
                "Prepared", in: "s", out: "ss",
                immediate: { args, _ in
                    guard case .string(let word) = args.first else { return .handOver(nil) }
                    return word == "now" ? .reply([.string(word), .string("immediate")]) : .handOver(word.uppercased())
                }
            ) { args, context in
                [args[0], .string((context.handedOver as? String).map { "handed over \($0)" } ?? "nothing handed over")]
            },
            // A streaming method with a fast path and kept replies, as fitd's Measure: "now" is
            // answered on the loop thread with a written body; anything else is handed to the
            // handler with its work (upper-cased) and its reply kept, so a repeat runs nothing.
            try DBusMethod(
                "PreparedStream", in: "s", out: "su",
                immediate: { args, _ in
                    guard case .string(let word) = args.first else { return .handOver(nil) }
                    guard word == "now" else { return .handOver(word.uppercased()) }
                    do throws(DBusError) {
                        return .body(try DBusReplyBody(signature: "su") { (writer) throws(DBusError) in
                            try writer.append("immediate")
                            try writer.append(UInt32(0))
                        })
                    } catch {
                        return .handOver(nil)
                    }
                },
                replyCache: state.streamReplies,
                streaming: { _, context throws(DBusError) in
                    let runs = state.streamRuns.withLock { count in
                        count += 1
                        return count
                    }
                    let handed = (context.handedOver as? String) ?? "nothing handed over"
                    return try DBusReplyBody(signature: "su") { (writer) throws(DBusError) in
                        try writer.append(handed)
                        try writer.append(UInt32(runs))
                    }
                }),
            // Streaming: each string with its UTF-8 length, read and written value by value.
            try DBusMethod("Lengths", in: "as", out: "a(su)", streaming: { arguments, _ throws(DBusError) in
                let texts = try arguments.read { (reader) throws(DBusError) -> [String] in
                    var texts: [String] = []
                    try reader.array { (item) throws(DBusError) in texts.append(try item.string()) }
                    return texts
                }
                return try DBusReplyBody(signature: "a(su)") { (writer) throws(DBusError) in
                    try writer.array { (rows) throws(DBusError) in
                        for text in texts {
                            try rows.structure { (row) throws(DBusError) in
                                try row.append(text)
                                try row.append(UInt32(text.utf8.count))
                            }
                        }
                    }
                }
            }),
            // Streaming, but the body written is not the declared out-signature.
            try DBusMethod("BadStream", in: "", out: "u", streaming: { _, _ throws(DBusError) in
                try DBusReplyBody(signature: "s") { (writer) throws(DBusError) in try writer.append("not u") }
            }),
            try DBusMethod("Tick", in: "s", out: "") { args, context throws(DBusError) in
                try context.connection.emitSignal(path: path, interface: interface, member: "Ticked", arguments: args)
                return []
            },
        ]
        let properties = [
            try DBusProperty("Name", signature: "s", doc: "A writable name",
                get: { .string(state.name.withLock { $0 }) },
                set: { value throws(DBusError) in
                    let text: String = try value.decode()
                    state.name.withLock { $0 = text }
                }),
            try DBusProperty("Count", signature: "u", get: { .uint32(42) }),
            // Its setter announces the change itself, together with Count (as fitd's TextScale
            // announces the category and Dpi that change with it).
            try DBusProperty("Level", signature: "u", setterAnnounces: true,
                get: { .uint32(state.level.withLock { $0 }) },
                set: { value throws(DBusError) in
                    let level: UInt32 = try value.decode()
                    state.level.withLock { $0 = level }
                    try state.connection.withLock { $0 }?.emitPropertiesChanged(
                        path: path, interface: interface, changed: ["Level": value, "Count": .uint32(42)])
                }),
        ]
        let signals = [try DBusSignalDescription("Ticked", signature: "s", argumentNames: ["text"])]
        return try ExportedObject(path: path, interfaces: [
            try DBusInterface(interface, methods: methods, properties: properties, signals: signals, doc: "Test object")
        ])
    }
}

/// A reply store for the tests: unbounded, with an epoch the test moves.
final class TestReplyCache: DBusReplyCache {
    private let state = Mutex<(epoch: UInt64, replies: [DBusRequestKey: (UInt64, DBusCachedReply)])>((1, [:]))
    var epoch: UInt64 { state.withLock { $0.epoch } }
    func advance() { state.withLock { $0.epoch += 1 } }
    func reply(for key: DBusRequestKey, epoch: UInt64) -> DBusCachedReply? {
        state.withLock { state in state.replies[key].flatMap { $0.0 == epoch ? $0.1 : nil } }
    }
    func keep(_ reply: DBusCachedReply, for key: DBusRequestKey, epoch: UInt64) {
        state.withLock { $0.replies[key] = (epoch, reply) }
    }
    /// The sizes the kept replies report for a store's budget.
    var keptSizes: [Int] { state.withLock { $0.replies.values.map(\.1.size) } }
}
