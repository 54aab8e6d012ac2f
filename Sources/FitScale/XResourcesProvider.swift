import CFitXResources
import FitThreads
#if canImport(Glibc)
import Glibc
#endif

/// X11's `Xft.dpi`: the resource Xft, GTK 3 on X11, Qt and most non-GNOME desktops
/// (xrdb in ~/.Xresources, xsettingsd, LXQt, Xfce) set for text; 96 dpi is scale 1.0.
///
/// Read from the RESOURCE_MANAGER property of the root window, the string `xrdb -query`
/// prints (not by running xrdb: a process per read), through libxcb (fit_xresources.h), and
/// parsed by ``xftDPI(resources:)``. The connection is made for each read and closed at once.
/// The value is read at start and on every re-read: any watched change, `fitctl scale`
/// reset/set, and, in an X11 session, a change of RESOURCE_MANAGER itself, which
/// ``XSettingsProvider``'s watch (``XDisplayWatch``) reports on its one connection to the
/// display. A read never takes longer than ``timeoutMilliseconds``: an X server that
/// accepts and never answers must not stall fitd, and counts as no X11 session.
public struct XResourcesProvider: DesktopSettingsProvider {
    public let display: String?
    /// How long a read waits for the X server. A local server answers in about a millisecond;
    /// this leaves room for a loaded machine and a remote display.
    public let timeoutMilliseconds: Int32

    /// - Parameter display: an X display name (`$DISPLAY`); nil: no X11, nothing is read.
    public init(display: String?, timeoutMilliseconds: Int32 = 500) {
        self.display = display
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    public var source: TextScaleSource { .xresources }

    /// ``read()`` on a thread of its own: a read may wait up to ``timeoutMilliseconds`` for
    /// the server, and a thread of Swift's cooperative pool (two on this machine) must not.
    public func currentSettings() async throws(FitScaleError) -> DesktopSettings? {
        guard display != nil else { return nil }
        return try await Self.readOnOwnThread(named: "fitd-xft-dpi") { () throws(FitScaleError) in try read() }
    }

    /// `read` on a detached thread of its own, for a read that may wait on a server: a thread of
    /// Swift's cooperative pool (two on this machine) must not. Without a thread to be had, read
    /// here (still bounded by the read's own deadline).
    static func readOnOwnThread(
        named name: String, _ read: @escaping @Sendable () throws(FitScaleError) -> DesktopSettings?
    ) async throws(FitScaleError) -> DesktopSettings? {
        let outcome: Result<DesktopSettings?, FitScaleError> = await withCheckedContinuation { continuation in
            do throws(PosixThreadError) {
                // Dropped at once: the thread is detached and ends after its one read.
                _ = try PosixThread(name: name) {
                    continuation.resume(returning: Result { () throws(FitScaleError) in try read() })
                }
            } catch {
                continuation.resume(returning: Result { () throws(FitScaleError) in try read() })
            }
        }
        return try outcome.get()
    }

    /// nil without a display, when there is no X server there (it is gone, or refuses us),
    /// or without Xft.dpi. Throws ``FitScaleError/desktopNotAnswering(source:reason:)`` when
    /// a server is there but does not answer in time (or an earlier read still waits for it):
    /// the caller keeps the last good value rather than drop to another source's for a
    /// moment of a loaded server. A value that is not a usable scale is passed over
    /// (``DesktopSettings/passedOver``).
    public func read() throws(FitScaleError) -> DesktopSettings? {
        guard let display else { return nil }
        let resources: String
        switch fetchResources(display: display) {
        case .resources(let text?): resources = text
        case .resources(nil), .noDisplay, .failed: return nil
        case .timedOut:
            throw .desktopNotAnswering(source: .xresources, reason: "the X server at \(display) did not answer within \(timeoutMilliseconds) ms")
        case .busy:
            throw .desktopNotAnswering(source: .xresources, reason: "an earlier read still waits for the X server at \(display)")
        }
        guard let dpi = Self.xftDPI(resources: resources) else { return nil }
        return Self.settings(dpi: dpi)
    }

    /// The settings an Xft.dpi gives: its scale (over 96), or, out of range, none and why.
    static func settings(dpi: Double) -> DesktopSettings {
        var settings = DesktopSettings()
        switch TextScale.desktop(dpi / 96, source: .xresources, setting: "Xft.dpi \(dpi.formatted) (over 96)") {
        case .success(let scale): settings.textScale = scale
        case .failure(let problem): settings.passedOver.append(problem)
        }
        return settings
    }

    /// What one read of the server's resource string came to.
    enum ResourceRead: Equatable {
        /// The property's text; nil when the property is not set.
        case resources(String?)
        case noDisplay, timedOut
        /// An earlier read still waits for a server that does not answer.
        case busy
        case failed
    }

    func fetchResources(display: String) -> ResourceRead {
        var copy: UnsafeMutablePointer<CChar>?
        let status = display.withCString { fit_x_resource_manager($0, timeoutMilliseconds, &copy) }
        defer { free(copy) }
        switch status {
        case FIT_X_OK: return .resources(copy.map { String(cString: $0) })
        case FIT_X_NO_DISPLAY: return .noDisplay
        case FIT_X_TIMED_OUT: return .timedOut
        case FIT_X_BUSY: return .busy
        default: return .failed
        }
    }

    /// The `Xft.dpi` value of a resource string (`name:\tvalue` lines, as xrdb stores and
    /// prints them). As XGetDefault(display, "Xft", "dpi") would match: `Xft.dpi` first, then
    /// `Xft*dpi`, then `*dpi`. nil when absent, not a positive finite number, or ≤ 0.
    public static func xftDPI(resources: String) -> Double? {
        var found: [String: Double] = [:]
        for line in resources.split(whereSeparator: { $0 == "\n" }) {
            guard !line.hasPrefix("!"), let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: " \t")
            let value = line[line.index(after: colon)...].trimmingCharacters(in: " \t")
            guard ["Xft.dpi", "Xft*dpi", "*dpi"].contains(name), found[name] == nil else { continue }
            if let number = Double(value), number.isFinite, number > 0 { found[name] = number }
        }
        return found["Xft.dpi"] ?? found["Xft*dpi"] ?? found["*dpi"]
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var slice = self[...]
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}
