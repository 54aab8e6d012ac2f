#if canImport(Glibc)
import Glibc
#endif

/// The two settings of a toolkit's Pango context that change the sizes it measures
/// (Tests/oracle/PANGO_RULES.md, "Toolkit profiles").
public struct GlyphRendering: Hashable, Sendable {
    /// `pango_context_set_round_glyph_positions`: each glyph advance is rounded to a whole
    /// pixel (PANGO_UNITS_ROUND, halves up) when it is shaped (shape.c,
    /// PANGO_SHAPE_ROUND_POSITIONS). Pango's default is on.
    public var roundsPositions: Bool
    /// Cairo's hint metrics (`cairo_font_options_set_hint_metrics`): a font's ascent and
    /// descent are whole pixels, rounded outwards (pangocairo-font.c). Cairo's default is on.
    public var hintsMetrics: Bool

    public init(roundsPositions: Bool, hintsMetrics: Bool) {
        self.roundsPositions = roundsPositions
        self.hintsMetrics = hintsMetrics
    }

    /// A plain PangoCairo context: Pango's and cairo's defaults.
    public static let pangoDefault = GlyphRendering(roundsPositions: true, hintsMetrics: true)
    /// Nothing rounded: positions and metrics to 1/1024 px.
    public static let unrounded = GlyphRendering(roundsPositions: false, hintsMetrics: false)
}

/// Whose labels a measurement reproduces: a GTK line (GTK 3, or GTK 4.N), each with the
/// Pango context its widgets measure with. The `metrics` option names one: "gtk4" is the GTK 4
/// installed on this machine (``gtk4``), "gtk3" GTK 3, and "gtk-4.8", "gtk-4.16",
/// "gtk-3.24" name a line exactly (for an app that runs on another GTK, e.g. a Flatpak
/// runtime's).
public struct ToolkitProfile: Hashable, Sendable, CustomStringConvertible {
    public enum Toolkit: Int, Hashable, Sendable {
        case gtk3 = 3
        case gtk4 = 4
    }

    public let toolkit: Toolkit
    /// The minor version: GTK 4.8 is 8; GTK 3 is 24 (its last line: 3.24 is all GTK 3 there is
    /// now).
    public let minor: Int
    public var major: Int { toolkit.rawValue }

    /// Whether the cairo the toolkit draws with is 1.17.4 or later, which GTK 4.2–4.14 ask
    /// before they turn glyph-position rounding off (cairo then positions glyphs at subpixels).
    public let subpixelCairo: Bool
    /// The user's GtkSettings that this line reads and that change its rendering; `.unset`
    /// for a line that reads none of them (GTK 3, GTK 4 before 4.6), so that profiles which
    /// draw alike are equal and share cache entries.
    public let settings: GTKFontRenderingSettings

    public init(
        _ toolkit: Toolkit, minor: Int, subpixelCairo: Bool = InstalledToolkits.shared.subpixelCairo,
        settings: GTKFontRenderingSettings = .unset
    ) {
        self.toolkit = toolkit
        self.subpixelCairo = subpixelCairo
        // Odd minors are development releases of the next stable line (GNOME's version
        // scheme: 4.15.x led to 4.16.0), so 4.9 is taken to draw as 4.10 does.
        let minor = toolkit == .gtk4 && minor % 2 == 1 ? minor + 1 : minor
        self.minor = minor
        self.settings = Self.settingsRead(by: toolkit, minor: minor, from: settings)
    }

    /// This line with the user's settings (settings.ini, GSettings) applied.
    public func with(_ settings: GTKFontRenderingSettings) -> ToolkitProfile {
        ToolkitProfile(toolkit, minor: minor, subpixelCairo: subpixelCairo, settings: settings)
    }

    /// The part of `settings` a line reads: `gtk-hint-font-metrics` in 4.6–4.10 (gtksettings.c
    /// "Since: 4.6"). 4.12–4.14 override it to true at a display scale of 1 ("Override the
    /// user setting on non-HiDPI", gtkwidget.c, 4.12.0–4.14.4) and read it only with cairo ≥
    /// 1.17.4. 4.16 reads it only under `gtk-font-rendering` manual, which settings.ini cannot
    /// set (an enum: `_gtk_settings_parse_convert` turns a file's string only into strings)
    /// and which on Wayland comes from GNOME's own `font-rendering` key, not read here.
    private static func settingsRead(by toolkit: Toolkit, minor: Int, from settings: GTKFontRenderingSettings) -> GTKFontRenderingSettings {
        guard toolkit == .gtk4, (6...10).contains(minor) else { return .unset }
        return settings
    }

    /// "gtk-4.8": the name the `metrics` option takes and results report.
    public var name: String { "gtk-\(major).\(minor)" }
    /// The word a client sends: the name, but "gtk3" for GTK 3, which every fitd takes.
    public var optionWord: String { toolkit == .gtk3 ? "gtk3" : name }
    public var description: String {
        let line = toolkit == .gtk4 && (2...14).contains(minor) ? "\(name) with cairo \(subpixelCairo ? "≥" : "<") 1.17.4" : name
        return settings.isUnset ? line : "\(line), \(settings)"
    }

    /// What this line's labels measure with, from each line's own source (gtk/gtkwidget.c
    /// `gtk_widget_update_pango_context`, gtk/gtksettings.c; PANGO_RULES.md, "Toolkit
    /// profiles"), with GTK's default settings at a whole-number display scale:
    ///
    /// | GTK | glyph positions rounded | hint metrics |
    /// |---|---|---|
    /// | 3 | yes (Pango's default) | yes (hard-coded in gtksettings.c) |
    /// | 4.0 | yes (Pango's default) | no |
    /// | 4.2–4.10 | only with cairo < 1.17.4 (4.6–4.10: `gtk-hint-font-metrics`, off) | no |
    /// | 4.12–4.14 | yes (with cairo ≥ 1.17.4: at scale 1, hinted) | with cairo ≥ 1.17.4 |
    /// | 4.16 and later | no (`gtk-font-rendering` automatic) | no |
    ///
    /// With the user's ``settings`` (4.6–4.10): `gtk-hint-font-metrics` decides hint metrics,
    /// and with cairo ≥ 1.17.4 position rounding too.
    ///
    /// GTK 4.8.3 with cairo 1.16 and GTK 3.24.38 were checked against their own labels, 4.8.3
    /// also with `gtk-hint-font-metrics=true` (Tests/oracle/gtk_compare.py); the other lines
    /// are read from their source.
    public var rendering: GlyphRendering {
        let unhinted = GlyphRendering(roundsPositions: true, hintsMetrics: false)
        switch toolkit {
        case .gtk3: return .pangoDefault
        case .gtk4:
            if let hinted = settings.hintFontMetrics {
                return GlyphRendering(roundsPositions: subpixelCairo ? hinted : true, hintsMetrics: hinted)
            }
            switch minor {
            case ..<2: return unhinted
            case 2...10: return subpixelCairo ? .unrounded : unhinted
            case 12...14: return subpixelCairo ? .pangoDefault : unhinted
            default: return .unrounded
            }
        }
    }

    public static let gtk3 = ToolkitProfile(.gtk3, minor: 24, subpixelCairo: false)
    /// The newest GTK 4 line whose setup fitd knows; also the profile for "gtk4" on a machine
    /// without GTK 4.
    public static let newestKnownGTK4 = ToolkitProfile(.gtk4, minor: 18, subpixelCairo: true)

    /// The GTK 4 installed on this machine (``InstalledToolkits``), or ``newestKnownGTK4``;
    /// `FITD_TOOLKIT=gtk-4.N` in the environment names another line instead (a daemon whose
    /// apps run on a Flatpak runtime's GTK; tests that pin one).
    public static var gtk4: ToolkitProfile { defaultGTK4 }

    private static let defaultGTK4: ToolkitProfile = {
        if let named = getenv("FITD_TOOLKIT").map({ String(cString: $0) }), let profile = parseVersion(named) {
            return profile
        }
        return InstalledToolkits.shared.gtk4 ?? newestKnownGTK4
    }()

    /// The option's words: "gtk4", "gtk3", "gtk-4.N", "gtk-3", "gtk-3.24". Exact, as every
    /// option word is; anything else is `invalidArgument` naming `metrics` with the forms it
    /// takes.
    public init(parsing text: String) throws(FitTextError) {
        switch text {
        case "gtk4": self = .gtk4
        case "gtk3", "gtk-3", "gtk-3.24": self = .gtk3
        default:
            guard let parsed = Self.parseVersion(text) else {
                throw .invalidArgument(
                    name: Self.optionName,
                    reason: "\"\(text)\" is not a toolkit; use gtk4 (the GTK 4 installed here, \(Self.gtk4.name)), gtk3, or a GTK 4 line such as gtk-4.8 or gtk-4.16")
            }
            self = parsed
        }
    }

    public static let optionName = "metrics"
    /// Words the option takes, one of each form (for help text and tests).
    public static let exampleWords = ["gtk4", "gtk3", "gtk-3", "gtk-3.24", "gtk-4.0", "gtk-4.8", "gtk-4.16"]

    /// "gtk-4.N" with N a number of at most two digits; nil for anything else.
    private static func parseVersion(_ text: String) -> ToolkitProfile? {
        let prefix = "gtk-4."
        guard text.hasPrefix(prefix) else { return nil }
        let digits = text.utf8.dropFirst(prefix.utf8.count)
        guard (1...2).contains(digits.count), digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let minor = Int(String(decoding: digits, as: UTF8.self))
        else { return nil }
        return ToolkitProfile(.gtk4, minor: minor)
    }

    /// Small and stable: the profile in a hash or a cache key.
    public var ordinal: UInt32 {
        let hint: UInt32 = settings.hintFontMetrics.map { $0 ? 1 : 2 } ?? 0
        return hint << 16 | UInt32(major) << 8 | UInt32(minor & 0xFF)
    }
}

/// The GTK versions installed on this machine, found from the shared libraries' file names
/// without loading them: GTK's meson.build gives libgtk-4.so.1 the version
/// 1.(minor × 100 + micro).micro — libgtk-4.so.1.800.3 is GTK 4.8.3 — and GTK 3's libtool
/// numbering 0.(minor × 100 + micro − interface age).(interface age) keeps minor × 100 in
/// the middle number too (libgtk-3.so.0.2406.32 is 3.24.38).
public struct InstalledToolkits: Sendable {
    /// The GTK 4 a program linking libgtk-4.so.1 would load, or nil when there is none.
    public let gtk4: ToolkitProfile?
    /// The full version found ("4.8.3"), for status output.
    public let gtk4Version: String?
    public let gtk3Version: String?
    /// Whether the installed cairo (libcairo.so.2.MMmmpp) is 1.17.4 or later; false when
    /// none is found.
    public let subpixelCairo: Bool

    /// Read once per process: a GTK upgrade takes effect when fitd restarts (as it does for
    /// every app that links GTK).
    public static let shared = InstalledToolkits(libraryDirectories: defaultLibraryDirectories())

    public init(libraryDirectories: [String]) {
        // cairo's libtool version keeps the whole version in the middle number:
        // libcairo.so.2.11600.0 is 1.16.0, 1.17.4 is 11704.
        let cairo = Self.version(of: "libcairo.so.2.", in: libraryDirectories)
        let subpixel = (cairo?.middle ?? 0) >= 11704
        subpixelCairo = subpixel
        // Both numbers add up to 100 × minor + micro (binary age): 800 + 3 is 4.8.3, 2406 + 32
        // is 3.24.38.
        let four = Self.version(of: "libgtk-4.so.1.", in: libraryDirectories).map { $0.middle + $0.last }
        gtk4 = four.map { ToolkitProfile(.gtk4, minor: $0 / 100, subpixelCairo: subpixel) }
        gtk4Version = four.map { "4.\($0 / 100).\($0 % 100)" }
        gtk3Version = Self.version(of: "libgtk-3.so.0.", in: libraryDirectories).map { "3.\(($0.middle + $0.last) / 100).\(($0.middle + $0.last) % 100)" }
    }

    /// Where the dynamic loader looks (ld.so(8)): LD_LIBRARY_PATH, then the multiarch and
    /// plain library directories Debian, Fedora, Arch and Flatpak runtimes use.
    static func defaultLibraryDirectories() -> [String] {
        var directories: [String] = []
        if let path = getenv("LD_LIBRARY_PATH") {
            directories += String(cString: path).split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        }
        var machine = utsname()
        let arch = uname(&machine) == 0
            ? withUnsafeBytes(of: &machine.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } : "x86_64"
        let triplet = arch == "armv7l" ? "arm-linux-gnueabihf" : "\(arch)-linux-gnu"
        directories += [
            "/usr/lib/\(triplet)", "/lib/\(triplet)", "/usr/lib64", "/lib64", "/usr/lib", "/lib",
            "/usr/local/lib", "/app/lib",
        ]
        return directories
    }

    /// The version in the name of the file the dynamic loader would open for `prefix` less its
    /// final dot ("libgtk-4.so.1."): the first directory holding that soname decides, and its
    /// link target names the file (ldconfig points it at the installed version; an older
    /// versioned file left beside it does not count). A soname that is not a link: the first
    /// versioned file in its directory.
    static func version(of prefix: String, in directories: [String]) -> (middle: Int, last: Int)? {
        let soname = String(prefix.dropLast())
        for directory in directories {
            let path = directory + "/" + soname
            guard access(path, F_OK) == 0 else { continue }
            if let target = linkTarget(path) {
                let name = target.split(separator: "/").last.map(String.init) ?? target
                return versionNumbers(name, prefix: prefix)
            }
            return firstVersionedFile(prefix, in: directory)
        }
        return nil
    }

    /// (MIDDLE, LAST) of "PREFIXMIDDLE.LAST", or nil.
    static func versionNumbers(_ name: String, prefix: String) -> (middle: Int, last: Int)? {
        guard name.hasPrefix(prefix) else { return nil }
        let numbers = name.dropFirst(prefix.count).split(separator: ".", omittingEmptySubsequences: false)
        guard numbers.count == 2, let middle = Int(numbers[0]), let last = Int(numbers[1]),
            (0...99_999).contains(middle), (0...99_999).contains(last)
        else { return nil }
        return (middle, last)
    }

    /// A symbolic link's target (readlink(2), at most PATH_MAX bytes), or nil.
    static func linkTarget(_ path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
        let count = buffer.withUnsafeMutableBytes { bytes -> Int in
            guard let base = bytes.baseAddress else { return -1 }
            return readlink(path, base.assumingMemoryBound(to: CChar.self), bytes.count)
        }
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    static func firstVersionedFile(_ prefix: String, in directory: String) -> (middle: Int, last: Int)? {
        guard let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            // d_name is NUL-terminated within its array (readdir(3)): read no further.
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let found = versionNumbers(name, prefix: prefix) { return found }
        }
        return nil
    }
}
