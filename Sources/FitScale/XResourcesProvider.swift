import CX11
#if canImport(Glibc)
import Glibc
#endif

/// X11's `Xft.dpi`: the resource Xft, GTK 3 on X11, Qt and most non-GNOME desktops
/// (xrdb in ~/.Xresources, xsettingsd, LXQt, Xfce) set for text; 96 dpi is scale 1.0.
///
/// Read through libX11 from the RESOURCE_MANAGER property of the root window, the string
/// `xrdb -query` prints (not by running xrdb: a process per read), and parsed by
/// ``xftDPI(resources:)``. The display is opened for each read and closed at once; there is no
/// live notification (a property-change listener would need a connection kept open): the
/// value is read at start and on every re-read (any watched change, `fitctl scale` reset/set).
public struct XResourcesProvider: DesktopSettingsProvider {
    public let display: String?

    /// - Parameter display: an X display name (`$DISPLAY`); nil: no X11, nothing is read.
    public init(display: String?) {
        self.display = display
    }

    public var source: TextScaleSource { .xresources }

    public func currentSettings() async throws(FitScaleError) -> DesktopSettings? {
        try read()
    }

    /// nil without a display, when it cannot be opened (an X server that is gone is no X11
    /// session) or without Xft.dpi; throws when the value is not a usable scale.
    public func read() throws(FitScaleError) -> DesktopSettings? {
        guard let display else { return nil }
        var opened: Int32 = 0
        let copy = display.withCString { fit_x_resource_manager($0, &opened) }
        guard opened != 0, let copy else { return nil }
        defer { free(copy) }
        guard let dpi = Self.xftDPI(resources: String(cString: copy)) else { return nil }
        do throws(FitScaleError) {
            return DesktopSettings(textScale: try TextScale(dpi / 96).factor)
        } catch {
            throw .desktopSettings(source: .xresources, reason: "Xft.dpi \(dpi): \(error)")
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
