import FitBus
import FitScale
import Logging
import Synchronization

/// GNOME's text settings through the XDG desktop portal: org.freedesktop.portal.Settings on
/// org.freedesktop.portal.Desktop at /org/freedesktop/portal/desktop (xdg-desktop-portal's
/// data/org.freedesktop.portal.Settings.xml), keys `text-scaling-factor` (d), `font-name` (s)
/// and `monospace-font-name` (s) of the `org.gnome.desktop.interface` namespace.
///
/// - ReadOne(ss) → v (interface version 2) is tried first; a portal that does not know it
///   (UnknownMethod) is asked with the deprecated Read(ss) → v, whose value is a variant
///   inside the variant, from then on.
/// - No portal on the bus (ServiceUnknown / NameHasNoOwner): nil, "no desktop setting",
///   logged once at debug level, not on every re-read.
/// - A key the portal does not have (org.freedesktop.portal.Error.NotFound): nil for that key.
/// - ``changes()``: SettingChanged(ssv) for those keys, and the portal's name appearing on or
///   leaving the bus (NameOwnerChanged), so a portal started after fitd counts.
public final class PortalSettingsProvider: DesktopSettingsProvider {
    public static let busName = "org.freedesktop.portal.Desktop"
    public static let objectPath = "/org/freedesktop/portal/desktop"
    public static let interface = "org.freedesktop.portal.Settings"
    public static let namespace = "org.gnome.desktop.interface"
    public static let keys = ["text-scaling-factor", "font-name", "monospace-font-name"]
    static let notFound: DBusError.Name = "org.freedesktop.portal.Error.NotFound"

    private let connection: BusConnection
    private let timeout: Duration
    private let logger: Logger
    private struct Memory {
        var useDeprecatedRead = false
        var reportedAbsent = false
        var lastProblems: [FitScaleError] = []
    }
    private let memory = Mutex(Memory())

    /// - Parameter timeout: per call; a portal that hangs must not hold a re-read for long
    ///   (the daemon reads before it takes its bus name).
    public init(connection: BusConnection, timeout: Duration = .seconds(3), logger: Logger) {
        self.connection = connection
        self.timeout = timeout
        self.logger = logger
    }

    public var source: TextScaleSource { .gnome }

    public func currentSettings() async throws(FitScaleError) -> DesktopSettings? {
        var values: [String: DBusValue] = [:]
        for key in Self.keys {
            switch try await read(key) {
            case .absent: return nil
            case .notFound: continue
            case .value(let value): values[key] = value
            }
        }
        guard !values.isEmpty else { return nil }
        var problems: [FitScaleError] = []
        func typed<T>(_ key: String, _ extract: (DBusValue) -> T?) -> T? {
            guard let value = values[key] else { return nil }
            if let result = extract(value) { return result }
            problems.append(.desktopSettings(source: .gnome, reason: "\(key) is \(value.signature), expected \(key == "text-scaling-factor" ? "d" : "s")"))
            return nil
        }
        let factor = typed("text-scaling-factor") { if case .double(let d) = $0 { d } else { nil } }
        let fontName = typed("font-name") { if case .string(let s) = $0 { s } else { nil } }
        let monospace = typed("monospace-font-name") { if case .string(let s) = $0 { s } else { nil } }
        let (settings, more) = DesktopSettings.gnomeInterface(textScalingFactor: factor, fontName: fontName, monospaceFontName: monospace)
        problems += more
        // Log a bad value when it appears, not on every re-read.
        let fresh = memory.withLock { memory -> Bool in
            defer { memory.lastProblems = problems }
            return memory.lastProblems != problems
        }
        if fresh { for problem in problems { logger.warning("desktop settings: \(problem); ignoring it") } }
        return settings
    }

    private enum ReadResult {
        case absent
        case notFound
        case value(DBusValue)
    }

    private func read(_ key: String) async throws(FitScaleError) -> ReadResult {
        let deprecated = memory.withLock { $0.useDeprecatedRead }
        do throws(DBusError) {
            let reply = try await connection.call(
                destination: Self.busName, path: Self.objectPath, interface: Self.interface,
                member: deprecated ? "Read" : "ReadOne", arguments: [.string(Self.namespace), .string(key)], timeout: timeout)
            memory.withLock { $0.reportedAbsent = false }
            // ReadOne: v; Read: v holding a v. `unwrapped` takes off every variant layer.
            guard let value = reply.first else { throw DBusError(.invalidArgs, "the reply is empty") }
            return .value(value.unwrapped)
        } catch {
            switch error.name {
            case .unknownMethod where !deprecated:
                memory.withLock { $0.useDeprecatedRead = true }
                logger.debug("desktop settings: the portal has no ReadOne; using Read")
                return try await read(key)
            case .serviceUnknown, .nameHasNoOwner:
                let first = memory.withLock { memory -> Bool in
                    defer { memory.reportedAbsent = true }
                    return !memory.reportedAbsent
                }
                if first { logger.debug("desktop settings: \(Self.busName) is not on the bus; no GNOME settings") }
                return .absent
            case Self.notFound:
                return .notFound
            default:
                throw .desktopSettings(source: .gnome, reason: "\(Self.interface).\(deprecated ? "Read" : "ReadOne")(\(Self.namespace), \(key)): \(error)")
            }
        }
    }

    public func changes() -> AsyncStream<Void> {
        let connection = self.connection
        let logger = self.logger
        return AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let task = Task {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        do {
                            let settings = try await connection.signals(matching: SignalMatch(
                                path: Self.objectPath, interface: Self.interface, member: "SettingChanged"))
                            for await signal in settings {
                                guard signal.arguments.count == 3, case .string(let namespace) = signal.arguments[0],
                                    case .string(let key) = signal.arguments[1],
                                    namespace == Self.namespace, Self.keys.contains(key)
                                else { continue }
                                continuation.yield()
                            }
                        } catch {
                            logger.warning("desktop settings: cannot subscribe to SettingChanged: \(error)")
                        }
                    }
                    group.addTask {
                        do {
                            let owners = try await connection.signals(matching: SignalMatch(
                                sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                member: "NameOwnerChanged"))
                            for await signal in owners {
                                if case .string(let name)? = signal.arguments.first, name == Self.busName { continuation.yield() }
                            }
                        } catch {
                            logger.warning("desktop settings: cannot follow \(Self.busName) on the bus: \(error)")
                        }
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Whether the portal runs or can be activated on `connection`'s bus.
    public static func isAvailable(on connection: BusConnection) async -> Bool {
        let bus = (name: "org.freedesktop.DBus", path: "/org/freedesktop/DBus")
        if case .boolean(true)? = try? await connection.call(
            destination: bus.name, path: bus.path, interface: bus.name, member: "NameHasOwner", arguments: [.string(busName)]
        ).first {
            return true
        }
        guard case .array(_, let names)? = try? await connection.call(
            destination: bus.name, path: bus.path, interface: bus.name, member: "ListActivatableNames"
        ).first else { return false }
        return names.contains(.string(busName))
    }
}
