import CFitXResources
import Testing

@testable import FitScale

/// fit_x_watch_classify on events laid out as the X11 protocol lays them out (32 bytes, the
/// CARD32 fields in host byte order, as libxcb hands them over), and XWatchPolicy's rules.
@Suite struct XDisplayWatchTests {
    // Made-up but distinct ids, as a server would hand them out.
    static let ids = fit_x_watch_ids(
        resource_root: 0x1e3, settings_root: 0x1e3, manager: 0x40_0001, resource_manager_atom: 23,
        settings_atom: 301, selection_atom: 300, manager_atom: 302)
    static let activeWindowAtom: UInt32 = 350  // _NET_ACTIVE_WINDOW: window managers change it all the time

    /// A 32-byte event: `code` at byte 0, `detail` at 1, CARD32s from byte 4 on.
    static func event(_ code: UInt8, detail: UInt8 = 0, _ words: [UInt32]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 32)
        bytes[0] = code
        bytes[1] = detail
        for (index, word) in words.enumerated() {
            withUnsafeBytes(of: word) { raw in
                for (offset, byte) in raw.enumerated() { bytes[4 + index * 4 + offset] = byte }
            }
        }
        return bytes
    }

    static func classify(_ bytes: [UInt8], ids: fit_x_watch_ids = XDisplayWatchTests.ids) -> UInt32 {
        var ids = ids
        return bytes.withUnsafeBufferPointer { fit_x_watch_classify($0.baseAddress, $0.count, &ids) }
    }

    static let resources = UInt32(FIT_X_CHANGED_RESOURCES)
    static let settingsAndManager = UInt32(FIT_X_CHANGED_SETTINGS) | UInt32(FIT_X_CHANGED_MANAGER)

    // PropertyNotify (28): window, atom, time, state.
    @Test func xrdbChangingResourceManagerOnTheRoot() {
        #expect(Self.classify(Self.event(28, [0x1e3, 23, 1000, 0])) == Self.resources)
        // Deleted (xrdb -remove: state PropertyDelete) counts too.
        #expect(Self.classify(Self.event(28, [0x1e3, 23, 1000, 1])) == Self.resources)
    }

    @Test func otherRootPropertiesAreIgnored() {
        #expect(Self.classify(Self.event(28, [0x1e3, Self.activeWindowAtom, 1000, 0])) == 0)
        // RESOURCE_MANAGER on another window is not the database.
        #expect(Self.classify(Self.event(28, [0x999, 23, 1000, 0])) == 0)
    }

    @Test func managerReplacingItsSettings() {
        #expect(Self.classify(Self.event(28, [0x40_0001, 301, 1000, 0])) == UInt32(FIT_X_CHANGED_SETTINGS))
        // Another property of the manager's window (WM_NAME) is not read.
        #expect(Self.classify(Self.event(28, [0x40_0001, 39, 1000, 0])) == 0)
        // The same property on a window that is no longer the manager.
        #expect(Self.classify(Self.event(28, [0x40_0002, 301, 1000, 0])) == 0)
    }

    @Test func withoutAManagerNoWindowIsTheManager() {
        var ids = Self.ids
        ids.manager = 0
        #expect(Self.classify(Self.event(28, [0, 301, 1000, 0]), ids: ids) == 0)
        #expect(Self.classify(Self.event(17, [0, 0]), ids: ids) == 0)
        #expect(Self.classify(Self.event(0, detail: 3, [0]), ids: ids) == 0)
    }

    // DestroyNotify (17): event, window.
    @Test func managerExiting() {
        #expect(Self.classify(Self.event(17, [0x40_0001, 0x40_0001])) == Self.settingsAndManager)
        #expect(Self.classify(Self.event(17, [0x1e3, 0x50_0000])) == 0)
    }

    // ClientMessage (33): format, window, type, data.l = timestamp, selection, owner.
    @Test func newManagerAnnouncingItselfOnTheRoot() {
        // Sent with SendEvent: the top bit of the code is set.
        #expect(Self.classify(Self.event(33 | 0x80, detail: 32, [0x1e3, 302, 1000, 300, 0x60_0001])) == Self.settingsAndManager)
        #expect(Self.classify(Self.event(33, detail: 32, [0x1e3, 302, 1000, 300, 0x60_0001])) == Self.settingsAndManager)
    }

    @Test func otherManagerSelectionsAndMalformedMessagesAreIgnored() {
        // A clipboard manager or another screen's XSETTINGS selection.
        #expect(Self.classify(Self.event(33 | 0x80, detail: 32, [0x1e3, 302, 1000, 400, 0x60_0001])) == 0)
        // Not format 32: data.l[1] means nothing.
        #expect(Self.classify(Self.event(33 | 0x80, detail: 8, [0x1e3, 302, 1000, 300, 0x60_0001])) == 0)
        // Another message type with the selection's atom where MANAGER has it.
        #expect(Self.classify(Self.event(33 | 0x80, detail: 32, [0x1e3, 999, 1000, 300, 0x60_0001])) == 0)
    }

    // An error (code 0): error_code at 1, the resource at 4.
    @Test func managerGoneBeforeItWasWatched() {
        #expect(Self.classify(Self.event(0, detail: 3, [0x40_0001])) == Self.settingsAndManager)
        // BadWindow for another window, or another error for the manager's.
        #expect(Self.classify(Self.event(0, detail: 3, [0x40_0002])) == 0)
        #expect(Self.classify(Self.event(0, detail: 8, [0x40_0001])) == 0)
    }

    @Test func shortOrMissingInputIsNothing() {
        let full = Self.event(28, [0x1e3, 23, 1000, 0])
        #expect(Self.classify(Array(full.prefix(31))) == 0)
        var ids = Self.ids
        #expect(fit_x_watch_classify(nil, 32, &ids) == 0)
        full.withUnsafeBufferPointer { #expect(fit_x_watch_classify($0.baseAddress, 32, nil) == 0) }
    }

    // MARK: the stop pipe

    @Test func aStopEndsASleepAtOnceAndKeepsTheWatchFromConnecting() throws {
        let watch = try #require(fit_x_watch_new())
        defer { fit_x_watch_free(watch) }
        #expect(fit_x_watch_sleep(watch, 1) == FIT_X_WATCH_TIMED_OUT)
        fit_x_watch_stop(watch)
        let start = ContinuousClock.now
        #expect(fit_x_watch_sleep(watch, 60_000) == FIT_X_WATCH_STOPPED)
        #expect(ContinuousClock.now - start < .seconds(5))
        // A stop is for good: no connection is made after it, whatever the display.
        #expect(fit_x_watch_connect(watch, ":0", 500) == FIT_X_WATCH_STOPPED)
        var what: UInt32 = 7
        #expect(fit_x_watch_next(watch, &what) == FIT_X_WATCH_FAILED)
        #expect(what == 0)
    }

    @Test func aDisplayThatCannotBeOpenedIsNoDisplay() throws {
        let watch = try #require(fit_x_watch_new())
        defer { fit_x_watch_free(watch) }
        // A display name libxcb cannot parse, and a socket path that does not exist.
        #expect(fit_x_watch_connect(watch, "not a display", 500) == FIT_X_WATCH_NO_DISPLAY)
        #expect(fit_x_watch_connect(watch, "unix:/nonexistent/fitd-test-X0", 500) == FIT_X_WATCH_NO_DISPLAY)
    }

    // MARK: XWatchPolicy

    @Test func connectingAndChangesReport() {
        var policy = XWatchPolicy(display: ":5")
        #expect(policy.handle(.connected) == .init(report: true))
        #expect(policy.handle(.changed) == .init(report: true))
        #expect(policy.handle(.stopped) == .init())
    }

    @Test func aLostServerReportsWarnsOnceAndBacksOff() {
        var policy = XWatchPolicy(display: ":5")
        _ = policy.handle(.connected)
        let lost = policy.handle(.lost("the connection to the X server broke"))
        #expect(lost.report)
        #expect(lost.warning?.hasPrefix("X display :5: the connection to the X server broke") == true)
        #expect(lost.retryAfterMilliseconds == 1000)
        var waits: [Int32] = []
        for _ in 0..<8 {
            let again = policy.handle(.unreachable("the X server cannot be reached"))
            #expect(again.warning == nil)
            #expect(!again.report)
            waits.append(again.retryAfterMilliseconds)
        }
        #expect(waits == [2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000])
        // Back: one line says so, and the backoff starts over.
        let back = policy.handle(.connected)
        #expect(back.report)
        #expect(back.info == "X display :5: watching its settings again")
        #expect(policy.handle(.lost("x")).retryAfterMilliseconds == 1000)
    }

    @Test func anUnreachableDisplayAtStartWarnsOnceWithoutAReport() {
        var policy = XWatchPolicy(display: ":9")
        let first = policy.handle(.unreachable("the X server cannot be reached"))
        #expect(!first.report)
        #expect(first.warning != nil)
        #expect(policy.handle(.unreachable("the X server cannot be reached")).warning == nil)
        // A first connection after that says it is watching now.
        #expect(policy.handle(.connected).info != nil)
    }

    @Test func describingWhatChanged() {
        #expect(XWatchPolicy.describe(changed: UInt32(FIT_X_CHANGED_RESOURCES)) == "RESOURCE_MANAGER")
        #expect(XWatchPolicy.describe(changed: UInt32(FIT_X_CHANGED_RESOURCES) | UInt32(FIT_X_CHANGED_SETTINGS)) == "RESOURCE_MANAGER and XSETTINGS")
    }
}
