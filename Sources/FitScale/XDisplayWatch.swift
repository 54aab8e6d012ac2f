import CFitXResources
import FitThreads
import Logging

/// A live watch of the X display's settings (fit_xwatch.h): the XSETTINGS manager's
/// `_XSETTINGS_SETTINGS`, a manager starting or exiting, and the root window's
/// RESOURCE_MANAGER (`xrdb -merge`), followed as GDK's X11 backend follows them
/// (gdk/x11/xsettings-client.c). It only says "read again": ``XSettingsProvider`` and
/// ``XResourcesProvider`` stay the readers, each with a fresh connection.
///
/// One connection on one thread of its own, started by ``changes(display:timeoutMilliseconds:logger:)``
/// and never on the caller's: `xcb_connect` to a server that accepts and never answers blocks
/// that thread, not fitd's start-up. Ending the stream stops the thread at its next wait
/// (a stop pipe polled with the connection).
///
/// When the server goes away (or stops answering) the watch reports a change, so the readers
/// find the display gone and the next sources decide, warns once, and connects again with
/// ``XWatchPolicy``'s backoff: a per-user daemon outlives X sessions (a display manager
/// starts the next session's server on the same display number, and the user manager keeps
/// fitd), and the readers already read `$DISPLAY` anew on every read, so following the server
/// that is there now agrees with what they read.
enum XDisplayWatch {
    /// Reports (coalesced: at most one waits) each time the display's settings may have
    /// changed, and once each time the watch (re)connects, so that what changed while it was
    /// not watching (between fitd's first read and the watch, or while the server was away)
    /// is read too. The daemon debounces the reports (``ChangeWatcher/notify(_:)``).
    static func changes(display: String, timeoutMilliseconds: Int32, logger: Logger?) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        guard let watch = WatchHandle() else {
            logger?.warning("X display \(display): cannot watch its settings (no memory or descriptors for a pipe); restart fitd after changing them")
            continuation.finish()
            return stream
        }
        continuation.onTermination = { _ in watch.stop() }
        do throws(PosixThreadError) {
            // Detached: the thread holds `watch` until it returns, after a stop at the latest.
            _ = try PosixThread(name: "fitd-x-watch") {
                watch.run(display: display, timeoutMilliseconds: timeoutMilliseconds, logger: logger) { continuation.yield() }
                continuation.finish()
            }
        } catch {
            logger?.warning("X display \(display): cannot watch its settings (\(error)); restart fitd after changing them")
            continuation.finish()
        }
        return stream
    }
}

/// The C watch, owned by whoever holds the last reference (the thread, or the stream's
/// termination handler). Used from the watch's one thread only, except ``stop()``, which
/// fit_xwatch.h allows from any thread: what makes the `@unchecked Sendable` safe.
private final class WatchHandle: @unchecked Sendable {
    private let watch: OpaquePointer

    init?() {
        guard let watch = fit_x_watch_new() else { return nil }
        self.watch = watch
    }

    deinit { fit_x_watch_free(watch) }

    func stop() { fit_x_watch_stop(watch) }

    /// Connects, follows, reconnects, until stopped.
    func run(display: String, timeoutMilliseconds: Int32, logger: Logger?, report: () -> Void) {
        var policy = XWatchPolicy(display: display)
        while true {
            var outcome: XWatchPolicy.Outcome
            let connected = display.withCString { fit_x_watch_connect(watch, $0, timeoutMilliseconds) }
            switch connected {
            case FIT_X_WATCH_READY:
                apply(policy.handle(.connected), logger: logger, report: report)
                outcome = follow(logger: logger, policy: &policy, report: report)
            case FIT_X_WATCH_STOPPED: return
            default: outcome = .unreachable(Self.describe(connected, timeoutMilliseconds))
            }
            if case .stopped = outcome { return }
            let action = policy.handle(outcome)
            apply(action, logger: logger, report: report)
            if fit_x_watch_sleep(watch, action.retryAfterMilliseconds) == FIT_X_WATCH_STOPPED { return }
        }
    }

    /// The connected part: each change is a report, until the connection ends.
    private func follow(logger: Logger?, policy: inout XWatchPolicy, report: () -> Void) -> XWatchPolicy.Outcome {
        defer { fit_x_watch_disconnect(watch) }
        while true {
            var what: UInt32 = 0
            let status = fit_x_watch_next(watch, &what)
            switch status {
            case FIT_X_WATCH_CHANGED:
                logger?.debug("X display: \(XWatchPolicy.describe(changed: what)) changed")
                apply(policy.handle(.changed), logger: logger, report: report)
            case FIT_X_WATCH_STOPPED: return .stopped
            default: return .lost(Self.describe(status, nil))
            }
        }
    }

    private func apply(_ action: XWatchPolicy.Action, logger: Logger?, report: () -> Void) {
        if let warning = action.warning { logger?.warning("\(warning)") }
        if let info = action.info { logger?.info("\(info)") }
        if action.report { report() }
    }

    private static func describe(_ status: fit_x_watch_status, _ timeoutMilliseconds: Int32?) -> String {
        switch status {
        case FIT_X_WATCH_LOST: "the connection to the X server broke"
        case FIT_X_WATCH_NO_DISPLAY: "the X server cannot be reached"
        case FIT_X_WATCH_TIMED_OUT: "the X server did not answer" + (timeoutMilliseconds.map { " within \($0) ms" } ?? " in time")
        default: "no memory for the watch"
        }
    }
}

/// What the watch does after each outcome (pure, so its rules are tested alone): report a
/// change, say something in the log, and how long to wait before connecting again.
struct XWatchPolicy: Sendable {
    enum Outcome: Equatable, Sendable {
        /// Connected and watching.
        case connected
        /// Something changed on the server.
        case changed
        /// A watch that was running lost its connection (why).
        case lost(String)
        /// A connection could not be made (why).
        case unreachable(String)
        /// fit_x_watch_stop: the watch ends.
        case stopped
    }

    struct Action: Equatable, Sendable {
        var report = false
        var warning: String?
        var info: String?
        /// Before the next connection attempt (for `lost`, `unreachable`).
        var retryAfterMilliseconds: Int32 = 0
    }

    /// The first wait before connecting again, doubled after each failure up to the ceiling:
    /// a server that is gone for good costs a failed connect(2) a minute.
    static let firstRetryMilliseconds: Int32 = 1000
    static let maximumRetryMilliseconds: Int32 = 60_000

    let display: String
    private(set) var nextRetryMilliseconds = XWatchPolicy.firstRetryMilliseconds
    /// A warning was given and nothing good has happened since: no second one.
    private(set) var warned = false

    init(display: String) {
        self.display = display
    }

    mutating func handle(_ outcome: Outcome) -> Action {
        var action = Action()
        switch outcome {
        case .connected:
            action.report = true
            if warned { action.info = "X display \(display): watching its settings again" }
            warned = false
            nextRetryMilliseconds = Self.firstRetryMilliseconds
        case .changed:
            action.report = true
        case .lost(let why):
            // Its settings went with it: the readers find no server now and the next sources
            // decide, as GTK's own clients of that server are gone.
            action.report = true
            action.warning = warn("\(why); its settings no longer count, and fitd tries to connect again")
            action.retryAfterMilliseconds = backOff()
        case .unreachable(let why):
            action.warning = warn("\(why); fitd follows its settings once it can connect (it tries again, at least once a minute)")
            action.retryAfterMilliseconds = backOff()
        case .stopped:
            break
        }
        return action
    }

    private mutating func warn(_ text: String) -> String? {
        guard !warned else { return nil }
        warned = true
        return "X display \(display): \(text)"
    }

    private mutating func backOff() -> Int32 {
        let wait = nextRetryMilliseconds
        nextRetryMilliseconds = min(nextRetryMilliseconds * 2, Self.maximumRetryMilliseconds)
        return wait
    }

    /// The FIT_X_CHANGED_* bits of a report, for the log.
    static func describe(changed what: UInt32) -> String {
        var parts: [String] = []
        if what & UInt32(FIT_X_CHANGED_RESOURCES) != 0 { parts.append("RESOURCE_MANAGER") }
        if what & UInt32(FIT_X_CHANGED_SETTINGS) != 0 { parts.append("XSETTINGS") }
        return parts.isEmpty ? "nothing known" : parts.joined(separator: " and ")
    }
}
