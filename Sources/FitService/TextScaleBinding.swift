import FitBus
import FitScale
import Synchronization

/// What the service knows about the text scale beyond the factor it measures with: the
/// snapshot its properties report, the state that `TextScale` Set and `ResetTextScale` write
/// through, and the connection changes are announced on. The daemon attaches the state and
/// the connection before it takes the bus name; without them (tests of the measuring
/// handlers) the properties describe the factor alone and Set is not supported.
final class TextScaleBinding: Sendable {
    struct Values: Sendable {
        var snapshot: TextScaleSnapshot?
        var state: TextScaleState?
        var connection: BusConnection?
    }

    let values = Mutex(Values())
    /// `Set TextScale` and `ResetTextScale`, coalesced (ExplicitScaleWrites says why).
    let writes = ExplicitScaleWrites()

    init() {}

    var snapshot: TextScaleSnapshot? { values.withLock { $0.snapshot } }
    var state: TextScaleState? { values.withLock { $0.state } }
    var connection: BusConnection? { values.withLock { $0.connection } }
}
