import FitBus
import FitScale
import Synchronization

/// Writes of the explicit text scale (`Set TextScale`, `ResetTextScale`), coalesced: any
/// client may send them, and each applied write is a new generation, a PropertiesChanged and
/// GenerationChanged to every client, a re-measure in every client and a rewrite (with two
/// fsyncs) of fitd.conf. Unthrottled, one client's loop made a thousand of each a second.
///
/// The first write after a quiet ``window`` applies at once. Writes that come while one is
/// being applied or within ``window`` of the last applied one wait, and when the window ends
/// the last of them is applied, once, for all of them: at most one generation and one
/// fitd.conf write per window, whatever the rate of Sets. A slider dragged across its range
/// still ends at the value it was let go at, at most one window late.
///
/// Every write is answered when a value at least as new as its own has been applied, with that
/// application's outcome (org.freedesktop.DBus.Properties.Set replies once the property is set,
/// D-Bus specification, "org.freedesktop.DBus.Properties"): after a successful reply, a Get
/// sees the value or a later one, and a write that could not be saved (a full disk) is an error
/// to every Set it stood for, while the old value stays. A client's calls wait in its own queue
/// meanwhile (CallScheduling), so others are not held up.
final class ExplicitScaleWrites: Sendable {
    /// What a write does: the explicit scale set (nil: reset), saved and announced; nil on
    /// success, else the error every write it stands for answers.
    typealias Apply = @Sendable (TextScale?) async -> DBusError?

    /// A quarter of a second: four generations a second at most, below what a person sees as
    /// a stutter in a slider and well above a re-measure of every client's labels.
    static let defaultWindow: Duration = .milliseconds(250)

    let window: Duration

    private struct Waiting {
        var value: TextScale?
        var waiters: [CheckedContinuation<DBusError?, Never>]
    }

    private struct State {
        /// The newest value not applied yet, with everyone waiting for it.
        var pending: Waiting?
        /// Whether a task applies the pending writes (one at a time, in order).
        var draining = false
        /// When the last application started.
        var lastApply: ContinuousClock.Instant?
        /// Writes queued, applications, and waits for a window to end so far (for tests and
        /// statistics).
        var submitted = 0
        var applied = 0
        var waits = 0
    }

    private let state = Mutex(State())

    init(window: Duration = ExplicitScaleWrites.defaultWindow) {
        self.window = window
    }

    /// Writes queued so far.
    var submittedCount: Int { state.withLock { $0.submitted } }
    /// Applications so far.
    var appliedCount: Int { state.withLock { $0.applied } }
    /// Times an application waited for the window to end.
    var waitCount: Int { state.withLock { $0.waits } }

    /// Queues `value` (nil: reset) and returns when it, or a later value, has been applied.
    /// The value is queued before this function first suspends: writes made one after the other
    /// by one task are applied in that order, the last one last.
    func submit(_ value: TextScale?, apply: @escaping Apply) async throws(DBusError) {
        let error = await withCheckedContinuation { (continuation: CheckedContinuation<DBusError?, Never>) in
            let startDraining = state.withLock { state -> Bool in
                var waiting = state.pending ?? Waiting(value: value, waiters: [])
                waiting.value = value
                waiting.waiters.append(continuation)
                state.pending = waiting
                state.submitted += 1
                if state.draining { return false }
                state.draining = true
                return true
            }
            if startDraining { Task { await self.drain(apply) } }
        }
        if let error { throw error }
    }

    /// Applies the pending value until none is left, at most once per ``window``.
    private func drain(_ apply: Apply) async {
        while true {
            // Nothing pending: the task ends (the next write starts another). Otherwise, when
            // the window of the last application still runs, wait for its end.
            enum Next { case done, now, at(ContinuousClock.Instant) }
            let next = state.withLock { state -> Next in
                guard state.pending != nil else {
                    state.draining = false
                    return .done
                }
                guard let last = state.lastApply, last + window > .now else { return .now }
                state.waits += 1
                return .at(last + window)
            }
            switch next {
            case .done:
                return
            case .at(let due):
                // Not cancellable: the task is the service's own and ends when nothing waits.
                try? await Task.sleep(until: due, clock: .continuous)
            case .now:
                break
            }
            // Writes that came during the wait are in the batch: the last value wins.
            let batch = state.withLock { state -> Waiting? in
                guard let batch = state.pending else { return nil }
                state.pending = nil
                state.lastApply = .now
                state.applied += 1
                return batch
            }
            guard let batch else { continue }
            let error = await apply(batch.value)
            for waiter in batch.waiters { waiter.resume(returning: error) }
        }
    }
}
