import Testing

@testable import FitScale

/// Builds _XSETTINGS_SETTINGS properties (xsettings-spec 0.5) in either byte order, with
/// ways to break them: raw type bytes, raw name and string bytes, a count of one's choosing.
private struct PropertyBuilder {
    var bigEndian = false
    var serial: UInt32 = 7
    /// N_SETTINGS as written; nil: the number of records added.
    var count: UInt32?
    private var records: [[UInt8]] = []

    init(bigEndian: Bool = false) {
        self.bigEndian = bigEndian
    }

    mutating func integer(_ name: String, _ value: Int32) {
        record(type: 0, name: Array(name.utf8), body: card32(UInt32(bitPattern: value)))
    }

    mutating func string(_ name: String, _ value: String) {
        stringBytes(name: Array(name.utf8), value: Array(value.utf8))
    }

    mutating func stringBytes(name: [UInt8], value: [UInt8]) {
        record(type: 1, name: name, body: card32(UInt32(value.count)) + padded(value))
    }

    mutating func color(_ name: String, _ red: UInt16, _ green: UInt16, _ blue: UInt16, _ alpha: UInt16) {
        record(type: 2, name: Array(name.utf8), body: card16(red) + card16(green) + card16(blue) + card16(alpha))
    }

    mutating func record(type: UInt8, name: [UInt8], body: [UInt8], lastChange: UInt32 = 3) {
        records.append([type, 0] + card16(UInt16(name.count)) + padded(name) + card32(lastChange) + body)
    }

    var bytes: [UInt8] {
        [bigEndian ? 1 : 0, 0, 0, 0] + card32(serial) + card32(count ?? UInt32(records.count)) + records.flatMap { $0 }
    }

    func card16(_ value: UInt16) -> [UInt8] {
        let high = UInt8(value >> 8), low = UInt8(value & 0xff)
        return bigEndian ? [high, low] : [low, high]
    }

    func card32(_ value: UInt32) -> [UInt8] {
        let big = [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
        return bigEndian ? big : big.reversed()
    }

    func padded(_ bytes: [UInt8]) -> [UInt8] {
        bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
    }
}

/// What xsettingsd 1.0.2 (Debian 12) put on Xvfb for a configuration of
/// `Gtk/FontName "Cantarell 13"`, `Xft/DPI 147456`, `Xft/Hinting 1`,
/// `Xft/HintStyle "hintslight"`, read back with fit_x_settings_property: 132 bytes, LSBFirst,
/// serial 1, the settings in name order.
private let xsettingsdCantarell13: [UInt8] = [
    0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x0c, 0x00, 0x47, 0x74, 0x6b, 0x2f, 0x46, 0x6f, 0x6e, 0x74,
    0x4e, 0x61, 0x6d, 0x65, 0x01, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x00, 0x00,
    0x43, 0x61, 0x6e, 0x74, 0x61, 0x72, 0x65, 0x6c, 0x6c, 0x20, 0x31, 0x33,
    0x00, 0x00, 0x07, 0x00, 0x58, 0x66, 0x74, 0x2f, 0x44, 0x50, 0x49, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x00, 0x40, 0x02, 0x00, 0x01, 0x00, 0x0d, 0x00,
    0x58, 0x66, 0x74, 0x2f, 0x48, 0x69, 0x6e, 0x74, 0x53, 0x74, 0x79, 0x6c,
    0x65, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x00,
    0x68, 0x69, 0x6e, 0x74, 0x73, 0x6c, 0x69, 0x67, 0x68, 0x74, 0x00, 0x00,
    0x00, 0x00, 0x0b, 0x00, 0x58, 0x66, 0x74, 0x2f, 0x48, 0x69, 0x6e, 0x74,
    0x69, 0x6e, 0x67, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
]

/// xsettingsd 1.0.2 on Xvfb with a GNOME-like configuration: `Gtk/FontName "Noto Sans CJK JP
/// 日本 11"`, `Xft/DPI 196608`, `Gdk/UnscaledDPI 98304`, `Gdk/WindowScalingFactor 2`,
/// `Xft/Antialias 1`, `Xft/Hinting 1`, `Xft/HintStyle "hintfull"`, `Xft/RGBA "rgb"`,
/// `Gtk/ColorPalette (4660, 22136, 39612, 65535)`, `Net/ThemeName ""`: 320 bytes.
private let xsettingsdGnomeLike: [UInt8] = [
    0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0f, 0x00,
    0x47, 0x64, 0x6b, 0x2f, 0x55, 0x6e, 0x73, 0x63, 0x61, 0x6c, 0x65, 0x64, 0x44, 0x50, 0x49, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x00, 0x80, 0x01, 0x00, 0x00, 0x00, 0x17, 0x00, 0x47, 0x64, 0x6b, 0x2f,
    0x57, 0x69, 0x6e, 0x64, 0x6f, 0x77, 0x53, 0x63, 0x61, 0x6c, 0x69, 0x6e, 0x67, 0x46, 0x61, 0x63,
    0x74, 0x6f, 0x72, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02, 0x00, 0x10, 0x00,
    0x47, 0x74, 0x6b, 0x2f, 0x43, 0x6f, 0x6c, 0x6f, 0x72, 0x50, 0x61, 0x6c, 0x65, 0x74, 0x74, 0x65,
    0x01, 0x00, 0x00, 0x00, 0x34, 0x12, 0xbc, 0x9a, 0x78, 0x56, 0xff, 0xff, 0x01, 0x00, 0x0c, 0x00,
    0x47, 0x74, 0x6b, 0x2f, 0x46, 0x6f, 0x6e, 0x74, 0x4e, 0x61, 0x6d, 0x65, 0x01, 0x00, 0x00, 0x00,
    0x1a, 0x00, 0x00, 0x00, 0x4e, 0x6f, 0x74, 0x6f, 0x20, 0x53, 0x61, 0x6e, 0x73, 0x20, 0x43, 0x4a,
    0x4b, 0x20, 0x4a, 0x50, 0x20, 0xe6, 0x97, 0xa5, 0xe6, 0x9c, 0xac, 0x20, 0x31, 0x31, 0x00, 0x00,
    0x01, 0x00, 0x0d, 0x00, 0x4e, 0x65, 0x74, 0x2f, 0x54, 0x68, 0x65, 0x6d, 0x65, 0x4e, 0x61, 0x6d,
    0x65, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0d, 0x00,
    0x58, 0x66, 0x74, 0x2f, 0x41, 0x6e, 0x74, 0x69, 0x61, 0x6c, 0x69, 0x61, 0x73, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07, 0x00, 0x58, 0x66, 0x74, 0x2f,
    0x44, 0x50, 0x49, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x01, 0x00, 0x0d, 0x00,
    0x58, 0x66, 0x74, 0x2f, 0x48, 0x69, 0x6e, 0x74, 0x53, 0x74, 0x79, 0x6c, 0x65, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x68, 0x69, 0x6e, 0x74, 0x66, 0x75, 0x6c, 0x6c,
    0x00, 0x00, 0x0b, 0x00, 0x58, 0x66, 0x74, 0x2f, 0x48, 0x69, 0x6e, 0x74, 0x69, 0x6e, 0x67, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x08, 0x00, 0x58, 0x66, 0x74, 0x2f,
    0x52, 0x47, 0x42, 0x41, 0x01, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x72, 0x67, 0x62, 0x00,
]

/// Every type, names and strings of every length modulo 4, in the given byte order.
private func everyType(bigEndian: Bool) -> PropertyBuilder {
    var builder = PropertyBuilder(bigEndian: bigEndian)
    builder.serial = 0x0102_0304
    builder.string("Gtk/FontName", "Cantarell 11")  // 12 and 12: no padding
    builder.integer("Xft/DPI", 147_456)
    builder.integer("Net/CursorBlinkTime", -1)
    builder.integer("A", Int32.min)  // name of 1: 3 of padding
    builder.string("Xft/RGBA", "rgb")  // 3: 1 of padding
    builder.string("Xft/HintStyle", "hintfull")  // 13: 3 of padding
    builder.string("Net/ThemeName", "")  // empty value
    builder.string("Gtk/IMModule", "ab")  // 2: 2 of padding
    builder.string("Gtk/Unicode", "Noto Sans CJK 日本 11")
    builder.color("Gtk/ColorPalette", 0x1234, 0x5678, 0x9abc, 0xffff)
    return builder
}

private let everyTypeSettings: [String: XSettingValue] = [
    "Gtk/FontName": .string("Cantarell 11"),
    "Xft/DPI": .integer(147_456),
    "Net/CursorBlinkTime": .integer(-1),
    "A": .integer(Int32.min),
    "Xft/RGBA": .string("rgb"),
    "Xft/HintStyle": .string("hintfull"),
    "Net/ThemeName": .string(""),
    "Gtk/IMModule": .string("ab"),
    "Gtk/Unicode": .string("Noto Sans CJK 日本 11"),
    "Gtk/ColorPalette": .color(red: 0x1234, green: 0x5678, blue: 0x9abc, alpha: 0xffff),
]

@Suite struct XSettingsTests {
    @Test(arguments: [false, true])
    func everyTypeInEitherByteOrder(bigEndian: Bool) throws {
        let settings = try XSettings(bytes: everyType(bigEndian: bigEndian).bytes)
        #expect(settings.serial == 0x0102_0304)
        #expect(settings.settings == everyTypeSettings)
        #expect(settings.skippedOffsets.isEmpty)
    }

    @Test func bothByteOrdersOfTheSameSettingsAreEqual() throws {
        let little = try XSettings(bytes: everyType(bigEndian: false).bytes)
        let big = try XSettings(bytes: everyType(bigEndian: true).bytes)
        #expect(little == big)
        #expect(everyType(bigEndian: false).bytes != everyType(bigEndian: true).bytes)
    }

    @Test func xsettingsdPropertyDecodes() throws {
        let settings = try XSettings(bytes: xsettingsdCantarell13)
        #expect(settings.serial == 1)
        #expect(settings.settings.count == 4)
        #expect(settings.fontName == "Cantarell 13")
        #expect(settings.dpi == 144)
        #expect(settings.gtkDPI() == 144)
        #expect(settings.hinting == true)
        #expect(settings.hintStyle == .slight)
        #expect(settings.antialias == nil)
        #expect(settings.rgba == nil)
        #expect(settings["Xft/Hinting"] == .integer(1))
    }

    @Test func xsettingsdGnomeLikePropertyDecodes() throws {
        let settings = try XSettings(bytes: xsettingsdGnomeLike)
        #expect(settings.settings.count == 10)
        #expect(settings.fontName == "Noto Sans CJK JP 日本 11")
        #expect(settings.dpi == 192)
        #expect(settings.unscaledDPI == 96)
        #expect(settings.windowScalingFactor == 2)
        #expect(settings.gtkDPI() == 96)  // gtk4-query-settings on that display: gtk-xft-dpi 98304
        #expect(settings.gtkDPI(gdkScaleIsSet: true) == 192)
        #expect(settings.antialias == true && settings.hinting == true)
        #expect(settings.hintStyle == .full && settings.rgba == .rgb)
        #expect(settings["Net/ThemeName"] == .string(""))
        // xsettingsd writes red, blue, green, alpha (setting.cc, ColorSetting::WriteBody);
        // xsettings-spec 0.5 and GDK read red, green, blue, alpha: green and blue trade places.
        #expect(settings["Gtk/ColorPalette"] == .color(red: 4660, green: 39612, blue: 22136, alpha: 65535))
    }

    @Test(arguments: 1...9)
    func namesOfEveryLengthArePaddedToFourBytes(length: Int) throws {
        let name = String(repeating: "N", count: length)
        var builder = PropertyBuilder()
        builder.integer(name, 42)
        builder.string("After", "x")
        let bytes = builder.bytes
        // Header 12; record header 4, the padded name, serial 4, value 4; then "After" (24).
        #expect(bytes.count == 12 + 4 + (length + 3) / 4 * 4 + 4 + 4 + 24)
        let settings = try XSettings(bytes: bytes)
        #expect(settings.settings == [name: .integer(42), "After": .string("x")])
    }

    @Test func missingPaddingAfterTheLastStringIsTruncation() {
        var builder = PropertyBuilder()
        builder.string("Xft/RGBA", "rgb")
        let bytes = builder.bytes
        #expect(throws: XSettingsError.truncated(
            offset: 32, field: "the string value of setting 1 of 1 (3 bytes and 1 of padding)", needed: 4, available: 3)
        ) {
            try XSettings(bytes: Array(bytes.dropLast()))
        }
    }

    /// Every cut of a valid property is an error, never a crash, and never a partial result.
    @Test(arguments: [false, true])
    func truncationAtEveryOffsetThrows(bigEndian: Bool) {
        let bytes = everyType(bigEndian: bigEndian).bytes
        for length in 0..<bytes.count {
            do throws(XSettingsError) {
                let settings = try XSettings(bytes: Array(bytes[..<length]))
                Issue.record("\(length) of \(bytes.count) bytes parsed: \(settings)")
            } catch {
                guard case .truncated(let offset, _, let needed, let available) = error else {
                    Issue.record("\(length) bytes: \(error)")
                    continue
                }
                #expect(offset <= length && available == length - offset && needed > available)
            }
        }
        for length in 0..<xsettingsdCantarell13.count {
            #expect(throws: XSettingsError.self) { try XSettings(bytes: Array(xsettingsdCantarell13[..<length])) }
        }
    }

    @Test func bytesAfterTheLastSettingAreIgnored() throws {
        let settings = try XSettings(bytes: xsettingsdCantarell13 + [1, 2, 3, 4, 5])
        #expect(settings == (try XSettings(bytes: xsettingsdCantarell13)))
    }

    @Test func absurdCountsAreErrors() {
        for count: UInt32 in [4097, 0x8000_0000, .max] {
            var builder = PropertyBuilder()
            builder.count = count
            builder.integer("Xft/DPI", 98_304)
            #expect(throws: XSettingsError.tooManySettings(count: count, limit: 4096)) {
                try XSettings(bytes: builder.bytes)
            }
        }
        // Within the cap but more than the bytes hold: cut short at the second record.
        var builder = PropertyBuilder()
        builder.count = 4096
        builder.integer("Xft/DPI", 98_304)
        #expect(throws: XSettingsError.truncated(offset: 32, field: "the type of setting 2 of 4096", needed: 1, available: 0)) {
            try XSettings(bytes: builder.bytes)
        }
    }

    @Test func absurdLengthsAreErrors() {
        var builder = PropertyBuilder()
        builder.record(type: 1, name: Array("Gtk/FontName".utf8), body: builder.card32(.max) + Array("Sans".utf8))
        #expect(throws: XSettingsError.truncated(
            offset: 36, field: "the string value of setting 1 of 1 (4294967295 bytes and 1 of padding)",
            needed: 4_294_967_296, available: 4)
        ) {
            try XSettings(bytes: builder.bytes)
        }
        // A name length of 65535 with a few bytes after it.
        let header: [UInt8] = [0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]
        #expect(throws: XSettingsError.truncated(
            offset: 16, field: "the name of setting 1 of 1 (65535 bytes and 1 of padding)", needed: 65536, available: 8)
        ) {
            try XSettings(bytes: header + [0, 0, 0xff, 0xff] + Array("Xft/DPI\0".utf8))
        }
    }

    @Test func zeroSettingsIsEmpty() throws {
        var builder = PropertyBuilder()
        builder.serial = 99
        let settings = try XSettings(bytes: builder.bytes)
        #expect(settings.serial == 99 && settings.settings.isEmpty)
    }

    @Test func unknownByteOrderIsAnError() {
        var bytes = xsettingsdCantarell13
        bytes[0] = 0x6c  // 'l', as some old managers were thought to write
        #expect(throws: XSettingsError.unknownByteOrder(0x6c)) { try XSettings(bytes: bytes) }
    }

    @Test func unknownTypeStopsWithItsOffsetAndName() {
        var builder = PropertyBuilder()
        builder.integer("Xft/DPI", 98_304)
        builder.record(type: 3, name: Array("Gtk/Future".utf8), body: [1, 2, 3, 4])
        builder.integer("Xft/Hinting", 1)
        #expect(throws: XSettingsError.unknownType(offset: 32, type: 3, name: "Gtk/Future")) {
            try XSettings(bytes: builder.bytes)
        }
    }

    @Test func invalidUTF8SkipsOnlyThatSetting() throws {
        var builder = PropertyBuilder()
        builder.integer("Xft/DPI", 98_304)
        let badName = builder.bytes.count
        builder.record(type: 0, name: [0x58, 0xff, 0x2f, 0x44], body: builder.card32(1))  // 0xFF is never UTF-8
        let badValue = builder.bytes.count
        builder.stringBytes(name: Array("Gtk/FontName".utf8), value: [0x53, 0x61, 0xc3, 0x20, 0x31, 0x30])  // lone lead byte
        let overlong = builder.bytes.count
        builder.stringBytes(name: Array("Xft/RGBA".utf8), value: [0xc0, 0xaf])  // overlong "/"
        builder.string("Xft/HintStyle", "hintslight")
        let settings = try XSettings(bytes: builder.bytes)
        #expect(settings.settings == ["Xft/DPI": .integer(98_304), "Xft/HintStyle": .string("hintslight")])
        #expect(settings.skippedOffsets == [badName, badValue, overlong])
        #expect(settings.fontName == nil)
    }

    @Test func stringsEndAtTheirFirstNULAsGDKReadsThem() throws {
        var builder = PropertyBuilder()
        builder.stringBytes(name: Array("Gtk/FontName".utf8), value: Array("Sans 10\0junk".utf8))
        #expect(try XSettings(bytes: builder.bytes).fontName == "Sans 10")
    }

    @Test func duplicateNamesAreAnError() {
        var builder = PropertyBuilder()
        builder.integer("Xft/DPI", 98_304)
        builder.integer("Xft/DPI", 147_456)
        #expect(throws: XSettingsError.duplicateName(offset: 32, name: "Xft/DPI")) { try XSettings(bytes: builder.bytes) }
    }

    @Test func errorsSayWhereAndWhat() {
        let truncated = XSettingsError.truncated(offset: 40, field: "the name of setting 2 of 4", needed: 16, available: 9)
        #expect(truncated.description.contains("byte 40"))
        #expect(truncated.description.contains("the name of setting 2 of 4 needs 16 bytes"))
        #expect(XSettingsError.unknownType(offset: 32, type: 3, name: "Gtk/Future").description.contains("\"Gtk/Future\" at byte 32"))
        #expect(XSettingsError.duplicateName(offset: 32, name: "Xft/DPI").description.contains("byte 32"))
        #expect(XSettingsError.unknownByteOrder(7).description.contains("byte 0) is 7"))
        #expect(XSettingsError.tooManySettings(count: 9999, limit: 4096).description.contains("9999 settings"))
    }

    @Test func dpiIsTheValueOver1024AndUnsetBelowOne() {
        func dpi(_ value: Int32) -> Double? { XSettings(settings: ["Xft/DPI": .integer(value)]).dpi }
        #expect(dpi(98_304) == 96)
        #expect(dpi(147_456) == 144)
        #expect(dpi(100_000) == 100_000.0 / 1024)
        #expect(dpi(-1) == nil)
        #expect(dpi(0) == nil)
        #expect(dpi(.min) == nil)
        #expect(dpi(2_000_000) == 1024)  // GTK clamps to 1024 × 1024
        #expect(XSettings(settings: ["Xft/DPI": .string("147456")]).dpi == nil)
        #expect(XSettings().dpi == nil)
    }

    @Test func gtkDPIFollowsGDKsChoiceOfSetting() {
        let gnome = XSettings(settings: [
            "Xft/DPI": .integer(196_608), "Gdk/UnscaledDPI": .integer(98_304), "Gdk/WindowScalingFactor": .integer(2),
        ])
        #expect(gnome.dpi == 192)
        #expect(gnome.unscaledDPI == 96)
        #expect(gnome.windowScalingFactor == 2)
        #expect(gnome.gtkDPI() == 96)
        #expect(gnome.gtkDPI(gdkScaleIsSet: true) == 192)
        // Present but "default": GTK's 96, not a fall-through to Xft.dpi.
        #expect(XSettings(settings: ["Xft/DPI": .integer(-1)]).gtkDPI() == 96)
        #expect(XSettings(settings: ["Xft/DPI": .integer(0)]).gtkDPI() == 96)
        #expect(XSettings(settings: ["Gtk/FontName": .string("Sans 10")]).gtkDPI() == nil)
        #expect(XSettings(settings: ["Gdk/WindowScalingFactor": .integer(0)]).windowScalingFactor == nil)
    }

    @Test func switchesAreNilForTheSystemDefault() {
        func settings(_ value: Int32) -> XSettings {
            XSettings(settings: ["Xft/Antialias": .integer(value), "Xft/Hinting": .integer(value)])
        }
        #expect(settings(1).antialias == true && settings(1).hinting == true)
        #expect(settings(0).antialias == false && settings(0).hinting == false)
        #expect(settings(-1).antialias == nil && settings(-1).hinting == nil)
        #expect(settings(5).antialias == true)  // GTK clamps to 1
        #expect(settings(-7).hinting == nil)  // GTK clamps to -1
        #expect(XSettings(settings: ["Xft/Antialias": .string("1")]).antialias == nil)
    }

    @Test func hintStyleAndRGBAAreTheWordsGTKKnows() {
        for style in XSettingsHintStyle.allCases {
            #expect(XSettings(settings: ["Xft/HintStyle": .string(style.rawValue)]).hintStyle == style)
        }
        #expect(XSettings(settings: ["Xft/HintStyle": .string("hintbogus")]).hintStyle == nil)
        #expect(XSettings(settings: ["Xft/HintStyle": .integer(1)]).hintStyle == nil)
        for order in XSettingsSubpixelOrder.allCases {
            #expect(XSettings(settings: ["Xft/RGBA": .string(order.rawValue)]).rgba == order)
        }
        #expect(XSettings(settings: ["Xft/RGBA": .string("RGB")]).rgba == nil)
        #expect(XSettings(settings: ["Gtk/FontName": .integer(12)]).fontName == nil)
    }

    /// Random bytes and random corruptions of valid properties: a value or an error, never a
    /// trap. A fixed generator, so a failure repeats.
    @Test func corruptedPropertiesNeverCrash() {
        var random = SplitMix64(seed: 0x5EED_0F_F17D)
        let valid = [everyType(bigEndian: false).bytes, everyType(bigEndian: true).bytes, xsettingsdCantarell13]
        var parsed = 0
        for round in 0..<20_000 {
            var bytes: [UInt8]
            if round % 4 == 0 {
                bytes = (0..<Int(random.next() % 96)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                if bytes.count > 0 { bytes[0] = UInt8(random.next() % 2) }
            } else {
                bytes = valid[round % valid.count]
                for _ in 0..<(1 + random.next() % 4) {
                    let index = Int(random.next() % UInt64(bytes.count))
                    bytes[index] = UInt8(truncatingIfNeeded: random.next())
                }
                if random.next() % 3 == 0 { bytes = Array(bytes.prefix(Int(random.next() % UInt64(bytes.count + 1)))) }
            }
            if (try? XSettings(bytes: bytes)) != nil { parsed += 1 }
        }
        #expect(parsed > 0)
    }
}

/// Steele, Lea and Flood's SplitMix64: a small, fixed pseudo-random sequence.
private struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
