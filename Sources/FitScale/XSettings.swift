// The XSETTINGS manager's settings (the _XSETTINGS_SETTINGS property that fit_xresources.h's
// fit_x_settings_property reads), parsed in pure Swift: no Foundation, standard library only.
//
// Format: freedesktop.org XSETTINGS specification 0.5, "_XSETTINGS_SETTINGS Format"
// (https://specifications.freedesktop.org/xsettings-spec/0.5/ar01s04.html). What the
// settings mean: GTK's gdk/x11/gdksettings.c (which XSETTINGS names GTK maps to which
// GtkSettings property), gdk/x11/xsettings-client.c (how GDK reads them) and
// gtk/gtksettings.c (the properties' ranges and what GTK does with them).

/// One setting's value: the three types of xsettings-spec 0.5.
public enum XSettingValue: Hashable, Sendable {
    /// `XSettingsTypeInteger` (0): an INT32.
    case integer(Int32)
    /// `XSettingsTypeString` (1): STRING8 bytes, here as far as the first NUL (as GDK's
    /// `fetch_string` copies them with g_strndup) and valid UTF-8.
    case string(String)
    /// `XSettingsTypeColor` (2): four CARD16 in the order red, green, blue, alpha (alpha is
    /// 65535 when the setting has no use for it), as the spec has them and GDK reads them.
    /// xsettingsd (1.0.2) writes red, blue, green, alpha (its setting.cc,
    /// ColorSetting::WriteBody): its colors arrive with green and blue swapped, in GTK too.
    case color(red: UInt16, green: UInt16, blue: UInt16, alpha: UInt16)
}

/// What is wrong with an _XSETTINGS_SETTINGS property. Every case names the byte offset in
/// the property where the problem starts, so a bad manager's output can be found with
/// `xprop -root _XSETTINGS_S0` (the owner) and `xprop -id <owner> _XSETTINGS_SETTINGS`.
public enum XSettingsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The property ends inside a field: `field` needs `needed` bytes at `offset`, and only
    /// `available` remain.
    case truncated(offset: Int, field: String, needed: Int, available: Int)
    /// Byte 0 is neither 0 (LSBFirst) nor 1 (MSBFirst).
    case unknownByteOrder(UInt8)
    /// N_SETTINGS (at offset 8) is beyond ``XSettings/maximumSettings``.
    case tooManySettings(count: UInt32, limit: Int)
    /// A setting of a type other than 0, 1, 2 at `offset`. The type says how long the value
    /// is, so nothing after it can be read. `name` is the setting's name when it is UTF-8.
    case unknownType(offset: Int, type: UInt8, name: String?)
    /// A second setting named `name`, at `offset`. GDK rejects the whole property the same
    /// way (xsettings-client.c, parse_settings: "Duplicate entry").
    case duplicateName(offset: Int, name: String)

    public var description: String {
        switch self {
        case .truncated(let offset, let field, let needed, let available):
            return "the XSETTINGS property is cut short at byte \(offset): \(field) needs \(needed) bytes there, "
                + "only \(available) remain (the settings manager wrote a malformed _XSETTINGS_SETTINGS, "
                + "or one longer than the 1 MiB read of it)"
        case .unknownByteOrder(let byte):
            return "the XSETTINGS property's byte order (byte 0) is \(byte), not 0 (LSBFirst) or 1 (MSBFirst): "
                + "the settings manager does not write xsettings-spec 0.5"
        case .tooManySettings(let count, let limit):
            return "the XSETTINGS property claims \(count) settings (N_SETTINGS at byte 8), more than the \(limit) read "
                + "(a settings manager sends tens): the property is corrupt"
        case .unknownType(let offset, let type, let name):
            let which = name.map { "setting \"\($0)\"" } ?? "a setting"
            return "\(which) at byte \(offset) of the XSETTINGS property has type \(type), not 0 (integer), "
                + "1 (string) or 2 (color); the settings after it cannot be read"
        case .duplicateName(let offset, let name):
            return "the XSETTINGS property names \"\(name)\" a second time, at byte \(offset); "
                + "GTK rejects such a property as a whole, and so does fitd"
        }
    }
}

/// The Xft hint styles of `Xft/HintStyle` (GtkSettings `gtk-xft-hintstyle`), as fontconfig
/// names them; GTK maps them to cairo's hint styles in gtksettings.c
/// (settings_update_font_options).
public enum XSettingsHintStyle: String, Hashable, Sendable, CaseIterable {
    case none = "hintnone"
    case slight = "hintslight"
    case medium = "hintmedium"
    case full = "hintfull"
}

/// The subpixel orders of `Xft/RGBA` (GtkSettings `gtk-xft-rgba`: "none, rgb, bgr, vrgb,
/// vbgr"). GTK 4 keeps the setting but draws no subpixel-antialiased text (its gtksettings.c:
/// "GSK does not support subpixel antialiasing, and this setting has no effect on font
/// rendering in GTK"); GTK 3 passes it to cairo.
public enum XSettingsSubpixelOrder: String, Hashable, Sendable, CaseIterable {
    case none, rgb, bgr, vrgb, vbgr
}

/// The settings of an XSETTINGS manager (gnome-settings-daemon's xsettings plugin,
/// xsettingsd, xfsettingsd, …): what GTK on X11 reads for fonts before anything else.
///
/// Parsed from the bytes of the _XSETTINGS_SETTINGS property (xsettings-spec 0.5):
///
///     1  CARD8   byte order (0 LSBFirst, 1 MSBFirst)   3 unused
///     4  CARD32  serial                                4  CARD32  N_SETTINGS
///     then N_SETTINGS records:
///     1  type (0 integer, 1 string, 2 color)           1 unused
///     2  CARD16  name length n     n  name     pad(n) unused
///     4  CARD32  last-change serial
///     integer: 4 INT32 | string: 4 CARD32 length m, m bytes, pad(m) | color: 4 × CARD16
///
/// Parsing is defensive: every length is checked against the bytes that remain, at most
/// ``maximumSettings`` records are read, and a record whose name or string value is not
/// UTF-8 is skipped (its offset goes to ``skippedOffsets``). What cannot be read past (a cut
/// record, an unknown type, a bad byte order) throws ``XSettingsError`` instead.
///
/// How GTK (4.8, as Debian 12 ships it, and GTK 3) uses the font settings on X11, in order
/// of precedence: an application's own g_object_set; then these XSETTINGS; then, for the
/// `gtk-xft-*` properties only, the Xft resources of RESOURCE_MANAGER (`Xft.dpi`,
/// `Xft.antialias`, … through XGetDefault, gdk/x11/gdkxftdefaults.c), and for the DPI last
/// of all the screen's physical resolution (DisplayHeight × 25.4 / DisplayHeightMM). A setting
/// present here wins even when it says "default" (Xft/DPI -1): GTK then uses its own default,
/// not Xft.dpi. GTK clamps integers to the property's range (gtksettings.c,
/// settings_update_xsetting: g_param_value_validate).
///
/// There is no XSETTINGS name for GtkSettings `gtk-hint-font-metrics` (GTK 4.6+) nor for
/// `gtk-font-rendering` (later GTK 4): gdksettings.c maps none, so on X11 they come from
/// settings.ini or the application only.
public struct XSettings: Hashable, Sendable {
    /// How many records are read at most; N_SETTINGS beyond it is an error. Settings managers
    /// send tens (GTK 4.8 knows 44 names).
    public static let maximumSettings = 4096

    /// The manager's SERIAL: it changes with every change of the property.
    public let serial: UInt32
    /// Every setting read, by its XSETTINGS name (`"Gtk/FontName"`).
    public let settings: [String: XSettingValue]
    /// Byte offsets of the records skipped because their name or string value is not UTF-8.
    public let skippedOffsets: [Int]

    /// No settings: what a display without an XSETTINGS manager has.
    public init() {
        serial = 0
        settings = [:]
        skippedOffsets = []
    }

    /// Settings as they are, for tests and for callers that have them from elsewhere.
    public init(serial: UInt32 = 0, settings: [String: XSettingValue]) {
        self.serial = serial
        self.settings = settings
        skippedOffsets = []
    }

    /// Parses the bytes of an _XSETTINGS_SETTINGS property (format 8). Bytes after the last
    /// of N_SETTINGS records are ignored, as GDK ignores them.
    public init(bytes: [UInt8]) throws(XSettingsError) {
        var reader = ByteReader(bytes: bytes)
        let order = try reader.card8(field: "the byte order")
        switch order {
        case 0: reader.bigEndian = false
        case 1: reader.bigEndian = true
        default: throw .unknownByteOrder(order)
        }
        try reader.skip(3, field: "the 3 unused bytes after the byte order")
        let serial = try reader.card32(field: "SERIAL")
        let count = try reader.card32(field: "N_SETTINGS")
        guard count <= Self.maximumSettings else { throw .tooManySettings(count: count, limit: Self.maximumSettings) }

        var settings: [String: XSettingValue] = [:]
        var skipped: [Int] = []
        var index: UInt32 = 0
        while index < count {
            index += 1
            let record = reader.offset
            let number = index
            func which() -> String { "setting \(number) of \(count)" }
            let type = try reader.card8(field: "the type of \(which())")
            try reader.skip(1, field: "the unused byte of \(which())")
            let nameLength = Int(try reader.card16(field: "the name length of \(which())"))
            let name = try reader.string(length: nameLength, field: "the name of \(which())")
            _ = try reader.card32(field: "the last-change serial of \(which())")
            var value: XSettingValue?
            switch type {
            case 0:
                value = .integer(Int32(bitPattern: try reader.card32(field: "the integer value of \(which())")))
            case 1:
                let length = try reader.card32(field: "the string length of \(which())")
                guard let stringLength = Int(exactly: length) else {
                    throw .truncated(offset: reader.offset, field: "the string value of \(which())", needed: Int.max, available: reader.remaining)
                }
                value = try reader.string(length: stringLength, field: "the string value of \(which())").map { .string($0) }
            case 2:
                let red = try reader.card16(field: "the red of \(which())")
                let green = try reader.card16(field: "the green of \(which())")
                let blue = try reader.card16(field: "the blue of \(which())")
                let alpha = try reader.card16(field: "the alpha of \(which())")
                value = .color(red: red, green: green, blue: blue, alpha: alpha)
            default:
                throw .unknownType(offset: record, type: type, name: name)
            }
            guard let name, let value else {
                skipped.append(record)
                continue
            }
            guard settings[name] == nil else { throw .duplicateName(offset: record, name: name) }
            settings[name] = value
        }
        self.serial = serial
        self.settings = settings
        self.skippedOffsets = skipped
    }

    public subscript(name: String) -> XSettingValue? { settings[name] }

    // MARK: The font settings

    /// `Gtk/FontName` → GtkSettings `gtk-font-name`: a Pango font description, family and
    /// size ("Cantarell 11"); GTK's default is "Sans 10". nil when absent or not a string (GTK
    /// would turn an integer into its digits, a font description with a size only).
    public var fontName: String? { string("Gtk/FontName") }

    /// `Xft/DPI` → GtkSettings `gtk-xft-dpi`, "the font resolution, in 1024 * dots/inch; -1 to
    /// use the default value", in dots per inch (147456 → 144). nil when absent, not an
    /// integer, or ≤ 0 (-1 "unset", and 0, both of which GTK 4 takes as 96: the initial
    /// value of its `-gtk-dpi` CSS property, gtkcssinitialvalue.c). Clamped to GTK's
    /// maximum of 1024 × 1024 (1024 dpi), as GTK clamps it.
    ///
    /// gnome-settings-daemon writes the text scale into it: 96 × text-scaling-factor ×
    /// window scale. See ``unscaledDPI`` and ``gtkDPI(gdkScaleIsSet:)`` for what GTK uses.
    public var dpi: Double? { Self.dotsPerInch(integer("Xft/DPI")) }

    /// `Gdk/UnscaledDPI`, in dots per inch: gnome-settings-daemon's Xft/DPI before it is
    /// multiplied by the window scale (96 × text-scaling-factor). GDK reads it in place of
    /// Xft/DPI unless GDK_SCALE fixes the scale (xsettings-client.c, read_settings: "we look
    /// at the specific Gdk/UnscaledDPI setting if it exists and use that instead of
    /// Xft/DPI"). nil when absent, not an integer, or ≤ 0.
    public var unscaledDPI: Double? { Self.dotsPerInch(integer("Gdk/UnscaledDPI")) }

    /// `Gdk/WindowScalingFactor`: the integer window scale GDK sets its surfaces to unless
    /// GDK_SCALE is set (xsettings-client.c, read_settings). nil when absent, not an integer,
    /// or < 1.
    public var windowScalingFactor: Int? {
        guard let value = integer("Gdk/WindowScalingFactor"), value >= 1 else { return nil }
        return Int(value)
    }

    /// The font resolution GTK 4 on X11 takes from these settings, in dots per inch: Gdk/UnscaledDPI
    /// when present (unless GDK_SCALE is set, `gdkScaleIsSet`), else Xft/DPI; 96 when the one
    /// it takes is ≤ 0 (GTK's default, not a fallback to Xft.dpi). nil when the setting it
    /// would take is absent or not an integer: GTK then goes on to Xft.dpi in
    /// RESOURCE_MANAGER, then the screen's physical resolution.
    public func gtkDPI(gdkScaleIsSet: Bool = false) -> Double? {
        let unscaled = gdkScaleIsSet ? nil : integer("Gdk/UnscaledDPI")
        guard let value = unscaled ?? integer("Xft/DPI") else { return nil }
        return Self.dotsPerInch(value) ?? 96
    }

    /// `Xft/Antialias` → GtkSettings `gtk-xft-antialias` ("0 for no, 1 for yes, or -1 for the
    /// system default"; GTK clamps other values into -1…1). nil when absent, not an integer,
    /// or negative (the system default: fontconfig's).
    public var antialias: Bool? { Self.switchValue(integer("Xft/Antialias")) }

    /// `Xft/Hinting` → GtkSettings `gtk-xft-hinting` (0 no, 1 yes, -1 the system default).
    /// GTK applies ``hintStyle`` only when this is 1, and hints nothing when it is 0
    /// (gtksettings.c, settings_update_font_options). nil when absent, not an integer, or
    /// negative.
    public var hinting: Bool? { Self.switchValue(integer("Xft/Hinting")) }

    /// `Xft/HintStyle` → GtkSettings `gtk-xft-hintstyle` ("hintnone", "hintslight",
    /// "hintmedium", "hintfull"). nil when absent, not a string, or another word (GTK keeps
    /// such a string and cairo's default hint style applies).
    public var hintStyle: XSettingsHintStyle? { string("Xft/HintStyle").flatMap(XSettingsHintStyle.init(rawValue:)) }

    /// `Xft/RGBA` → GtkSettings `gtk-xft-rgba`. nil when absent, not a string, or another word.
    public var rgba: XSettingsSubpixelOrder? { string("Xft/RGBA").flatMap(XSettingsSubpixelOrder.init(rawValue:)) }

    private func integer(_ name: String) -> Int32? {
        if case .integer(let value)? = settings[name] { return value }
        return nil
    }

    private func string(_ name: String) -> String? {
        if case .string(let value)? = settings[name] { return value }
        return nil
    }

    /// 1024 × dots per inch to dots per inch; nil for ≤ 0; GTK's maximum 1024 × 1024.
    private static func dotsPerInch(_ value: Int32?) -> Double? {
        guard let value, value > 0 else { return nil }
        return Double(min(value, 1024 * 1024)) / 1024
    }

    private static func switchValue(_ value: Int32?) -> Bool? {
        guard let value, value >= 0 else { return nil }
        return value != 0
    }
}

/// Reads CARD8/16/32 and padded STRING8 fields in the property's byte order, every read
/// checked against what remains.
private struct ByteReader {
    let bytes: [UInt8]
    var offset = 0
    var bigEndian = false

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    var remaining: Int { bytes.count - offset }

    /// The range of the next `count` bytes, which the reader moves past.
    mutating func take(_ count: Int, field: @autoclosure () -> String) throws(XSettingsError) -> Range<Int> {
        guard count >= 0, count <= remaining else {
            throw .truncated(offset: offset, field: field(), needed: count, available: remaining)
        }
        let range = offset..<(offset + count)
        offset += count
        return range
    }

    mutating func skip(_ count: Int, field: @autoclosure () -> String) throws(XSettingsError) {
        _ = try take(count, field: field())
    }

    mutating func card8(field: @autoclosure () -> String) throws(XSettingsError) -> UInt8 {
        bytes[try take(1, field: field()).lowerBound]
    }

    mutating func card16(field: @autoclosure () -> String) throws(XSettingsError) -> UInt16 {
        let start = try take(2, field: field()).lowerBound
        let first = UInt16(bytes[start]), second = UInt16(bytes[start + 1])
        return bigEndian ? first << 8 | second : second << 8 | first
    }

    mutating func card32(field: @autoclosure () -> String) throws(XSettingsError) -> UInt32 {
        let range = try take(4, field: field())
        var value: UInt32 = 0
        if bigEndian {
            for index in range { value = value << 8 | UInt32(bytes[index]) }
        } else {
            for index in range.reversed() { value = value << 8 | UInt32(bytes[index]) }
        }
        return value
    }

    /// `length` bytes and their padding to a multiple of 4 (GDK's fetch_string demands the
    /// padding too); the text up to the first NUL when it is UTF-8, else nil.
    mutating func string(length: Int, field: @autoclosure () -> String) throws(XSettingsError) -> String? {
        let padding = (4 - length % 4) % 4
        let (padded, overflow) = length.addingReportingOverflow(padding)
        func detail() -> String { padding == 0 ? field() : "\(field()) (\(length) bytes and \(padding) of padding)" }
        guard !overflow else {
            throw .truncated(offset: offset, field: detail(), needed: Int.max, available: remaining)
        }
        let range = try take(padded, field: detail())
        var text = bytes[range.lowerBound..<(range.lowerBound + length)]
        if let nul = text.firstIndex(of: 0) { text = text[..<nul] }
        return String(validating: text, as: UTF8.self)
    }
}
