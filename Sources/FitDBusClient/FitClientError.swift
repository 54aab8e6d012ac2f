import FitBus
import FitTypes

/// What can go wrong for a client, whether it talks to the daemon or measures in-process.
public enum FitClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// fitd answered with an error (name is org.fitd.Fit1.Error.* or a standard D-Bus error).
    case rejected(name: String, message: String)
    /// The engine refused the request (embedded mode): the same errors fitd would send.
    case invalidRequest(FitTextError)
    /// Neither the daemon nor (in daemon-only mode) a fallback could be used.
    case unavailable(String)
    /// The daemon's reply did not have the contract's shape (a different version?).
    case protocolMismatch(String)

    public var description: String {
        switch self {
        case .rejected(let name, let message): return "\(message) (\(name))"
        case .invalidRequest(let error): return error.description
        case .unavailable(let reason): return "fitd is not available: \(reason)"
        case .protocolMismatch(let detail): return "unexpected reply from fitd: \(detail)"
        }
    }

    package init(_ error: DBusError) {
        self = .rejected(name: error.name.rawValue, message: error.message)
    }

    /// An in-process engine's error as the daemon would send it: a refusal of the request,
    /// or (the caller's own task cancelled, FitTextError.cancelled) the Cancelled a batch
    /// gives, which says nothing about the request.
    package init(_ error: FitTextError) {
        self = error == .cancelled
            ? .rejected(name: DBusError.Name.cancelled.rawValue, message: error.description) : .invalidRequest(error)
    }

    /// Errors after which an idempotent call is worth repeating once: the daemon went away
    /// (restart, crash, kill -9) and the bus will activate a new one.
    var meansDaemonGone: Bool {
        guard case .rejected(let name, _) = self else { return false }
        return [
            DBusError.Name.noReply, .serviceUnknown, .nameHasNoOwner, .disconnected,
        ].map(\.rawValue).contains(name) || name == "org.freedesktop.DBus.Error.Spawn.ChildSignaled"
            || name == "org.freedesktop.DBus.Error.Spawn.ChildExited"
    }
}
