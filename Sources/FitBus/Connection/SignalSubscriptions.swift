import Synchronization

/// The signal streams of one connection. Locked because the loop thread delivers while
/// client tasks subscribe and cancel.
final class SignalSubscriptions: Sendable {
    private struct Entry {
        var match: SignalMatch
        var continuation: AsyncStream<DBusSignal>.Continuation
    }

    private let entries = Mutex<(next: UInt64, byID: [UInt64: Entry])>((0, [:]))

    func add(_ match: SignalMatch, _ continuation: AsyncStream<DBusSignal>.Continuation) -> UInt64 {
        entries.withLock { state in
            state.next += 1
            state.byID[state.next] = Entry(match: match, continuation: continuation)
            return state.next
        }
    }

    func remove(_ id: UInt64) {
        _ = entries.withLock { $0.byID.removeValue(forKey: id) }
    }

    /// Streams buffer without bound by default; each is created with a bounded policy
    /// (see BusConnection.signals), so a subscriber that stops reading cannot make the
    /// daemon grow.
    func deliver(_ signal: DBusSignal) {
        let targets = entries.withLock { state in
            state.byID.values.filter { $0.match.matches(signal) }.map(\.continuation)
        }
        for continuation in targets { continuation.yield(signal) }
    }

    func finishAll() {
        let all = entries.withLock { state in
            defer { state.byID.removeAll() }
            return state.byID.values.map(\.continuation)
        }
        for continuation in all { continuation.finish() }
    }
}
