import Testing
#if canImport(Glibc)
import Glibc
#endif

@testable import FitText

/// The `metrics` option: which toolkit's labels to measure as. With cairo older than 1.17.4
/// (Debian 12's), GTK 4.0–4.14 round glyph positions but not metrics, GTK 4.16 and later round
/// nothing, GTK 3 rounds both (cairo hint metrics on, Pango's default round_glyph_positions). Figures from Pango 1.50.12 on the
/// pinned fonts (`pango_measure.py --metrics gtk3`; PANGO_RULES.md, "Toolkit profiles").
@Suite struct ToolkitProfileTests {
    private static let unrounded = ToolkitProfile(.gtk4, minor: 16)
    private static let gtk48 = ToolkitProfile(.gtk4, minor: 8, subpixelCairo: false)

    private func measure(_ text: String, font: String = "DejaVu Sans 10", _ metrics: ToolkitProfile, maxWidth: Double? = nil) throws -> TextMetrics {
        var request = MeasureRequest(text: text, font: font, maxWidth: maxWidth)
        request.metrics = metrics
        return try TestEngine.engine().measure(request)
    }

    @Test func gtk3RoundsEachGlyphAdvanceAndTheVerticalMetricsToWholePixels() throws {
        let gtk4 = try measure("Hello World", Self.unrounded)
        #expect(abs(gtk4.width - 76.240234375) < 0.001)
        #expect(abs(gtk4.height - 15.5205078125) < 0.001)
        let gtk3 = try measure("Hello World", .gtk3)
        #expect(gtk3.width == 75)
        #expect(gtk3.height == 17)
        #expect(gtk3.baseline == 13)
    }

    @Test func gtk3RoundsFallbackFontsAndWrappedLinesToo() throws {
        let thai = try measure("ไทย", .gtk3)
        #expect(thai.width == 20)
        #expect(thai.height == 21)
        #expect(thai.baseline == 15)
        let wrapped = try measure("The quick brown fox jumps", .gtk3, maxWidth: 100)
        #expect(wrapped.lineCount == 3)
        #expect(wrapped.width == 65)
        #expect(wrapped.height == 51)
    }

    @Test func gtk3RoundsSpansWithTheirOwnLanguage() throws {
        // A lang span's style kept GTK 4 metrics (14.67 px advances, 21.44 px height).
        var request = MeasureRequest(text: "<span lang='ja'>直</span> <span lang='zh-cn'>直</span>", font: "Noto Sans 11")
        request.markup = true
        request.metrics = .gtk3
        let m = try TestEngine.engine().measure(request)
        #expect(m.width == 34)
        #expect(m.height == 23)
        #expect(m.baseline == 18)
    }

    @Test func theModeIsPartOfTheResultCacheKey() throws {
        // Measured one after the other on the same engine: the second is not the first's cached result.
        let first = try measure("Settings", font: "Noto Sans 11", Self.unrounded)
        let second = try measure("Settings", font: "Noto Sans 11", .gtk3)
        #expect(first.height != second.height)
        #expect(second.width == 55 && second.height == 21)
        var a = MeasureRequest(text: "x")
        var b = a
        b.metrics = .gtk3
        #expect(a != b)
        a.metrics = .gtk3
        #expect(a == b && a.hashValue == b.hashValue)
    }

    @Test func gtk4Before414RoundsGlyphAdvancesButNotTheVerticalMetrics() throws {
        // GTK 4.8.3's GtkLabel: "Hello World" in DejaVu Sans 10 is 75 × 16 px (gtk_widget_measure:
        // the logical size 75 × 15.52 rounded up), where GTK 3 gives 75 × 17.
        let m = try measure("Hello World", Self.gtk48)
        #expect(m.width == 75)
        #expect(abs(m.height - 15.5205078125) < 0.001)
        let a = MeasureRequest(text: "x")
        var b = a
        b.metrics = Self.gtk48
        var c = a
        c.metrics = Self.unrounded
        #expect(b != c)
    }

    @Test func theOptionNamesAToolkitLine() throws {
        #expect(try ToolkitProfile(parsing: "gtk-4.8") == ToolkitProfile(.gtk4, minor: 8))
        #expect(Self.gtk48.rendering == GlyphRendering(roundsPositions: true, hintsMetrics: false))
        // With cairo 1.17.4 or later GTK 4.2–4.10 stop rounding, 4.12–4.14 hint metrics too.
        #expect(ToolkitProfile(.gtk4, minor: 8, subpixelCairo: true).rendering == .unrounded)
        #expect(ToolkitProfile(.gtk4, minor: 12, subpixelCairo: true).rendering == .pangoDefault)
        #expect(ToolkitProfile(.gtk4, minor: 0, subpixelCairo: true).rendering == GlyphRendering(roundsPositions: true, hintsMetrics: false))
        #expect(try ToolkitProfile(parsing: "gtk-4.16").rendering == .unrounded)
        #expect(try ToolkitProfile(parsing: "gtk3").rendering == .pangoDefault)
        #expect(try ToolkitProfile(parsing: "gtk-3.24") == .gtk3)
        // A development snapshot draws as the stable line it leads to.
        #expect(try ToolkitProfile(parsing: "gtk-4.9") == ToolkitProfile(.gtk4, minor: 10))
        #expect(ToolkitProfile.gtk4.name.hasPrefix("gtk-4."))
        // GTK 3 goes on the wire as "gtk3", the word every fitd takes.
        #expect(ToolkitProfile.gtk3.optionWord == "gtk3" && ToolkitProfile(.gtk4, minor: 8).optionWord == "gtk-4.8")
    }

    @Test func theInstalledGTKIsFoundFromItsLibraryFileName() throws {
        let directory = "/tmp/fitd-toolkit-\(getpid())"
        let names = ["libgtk-4.so.1", "libgtk-4.so.1.800.3", "libgtk-4.so.1.1400.2", "libgtk-3.so.0", "libgtk-3.so.0.2406.32", "libcairo.so.2", "libcairo.so.2.11804.2"]
        mkdir(directory, 0o700)
        defer {
            for name in names { unlink(directory + "/" + name) }
            rmdir(directory)
        }
        // The loader opens the soname, which points at 4.14.2: a 4.8.3 left beside it is stale.
        for name in names where name.filter({ $0 == "." }).count > 2 {
            close(open(directory + "/" + name, O_CREAT | O_WRONLY, 0o600))
        }
        symlink("libgtk-4.so.1.1400.2", directory + "/libgtk-4.so.1")
        symlink(directory + "/libcairo.so.2.11804.2", directory + "/libcairo.so.2")
        // A soname that is a file of its own: the versioned file beside it.
        close(open(directory + "/libgtk-3.so.0", O_CREAT | O_WRONLY, 0o600))
        let found = InstalledToolkits(libraryDirectories: ["/nonexistent", directory])
        #expect(found.gtk4?.minor == 14 && found.subpixelCairo)
        #expect(found.gtk4Version == "4.14.2")
        #expect(found.gtk3Version == "3.24.38")
        #expect(InstalledToolkits(libraryDirectories: ["/nonexistent"]).gtk4 == nil)
    }

    @Test func anUnknownModeIsAnInvalidArgumentNamingTheOption() {
        #expect(throws: FitTextError.self) { try ToolkitProfile(parsing: "GTK3") }
        #expect(throws: FitTextError.self) { try ToolkitProfile(parsing: "gtk-4.") }
        #expect(throws: FitTextError.self) { try ToolkitProfile(parsing: "gtk-4.100") }
        #expect(throws: FitTextError.self) { try ToolkitProfile(parsing: "gtk-5.0") }
        let error = #expect(throws: FitTextError.self) { try ToolkitProfile(parsing: "gtk2") }
        guard case .invalidArgument(let name, _)? = error else {
            Issue.record("not invalidArgument: \(String(describing: error))")
            return
        }
        #expect(name == "metrics")
    }

    @Test func aWrappedParagraphFitsWhenItDoesWithoutItsFinalWhiteSpace() throws {
        // Pango: "  leading and " / "trailing spaces  " (125 px, of which 115 without the two
        // final spaces: the last one off, 120, is exactly the width).
        var request = MeasureRequest(text: "  leading and trailing spaces  ", font: "DejaVu Sans 12", maxWidth: 120, wrap: .wordChar)
        request.metrics = .gtk3
        let m = try TestEngine.engine().measure(request)
        #expect(m.lineCount == 2)
        #expect(m.width == 125)
    }

    @Test func gtkHintFontMetricsHintsGTK48sLineHeightsAsItsLabelsShowThem() throws {
        // GTK 4.8.3 under Xvfb with gtk-hint-font-metrics=true in settings.ini: "Save changes"
        // in DejaVu Sans 10 is 90 × 17 px (16 px high without it); gtk_compare.py
        // --settings hint-metrics checks the real strings.
        let hinted = Self.gtk48.with(GTKFontRenderingSettings(hintFontMetrics: true))
        #expect(hinted.rendering == .pangoDefault)
        let m = try measure("Save changes", hinted)
        #expect(m.width == 90 && m.height == 17)
        #expect(try measure("Save changes", Self.gtk48).height < 16)
    }

    @Test func onlyGTK46To410FollowGtkHintFontMetrics() {
        let hinted = GTKFontRenderingSettings(hintFontMetrics: true)
        // GTK 3 and GTK 4 before 4.6 have no such setting: the profile stays equal to the plain one.
        #expect(ToolkitProfile.gtk3.with(hinted) == .gtk3)
        #expect(ToolkitProfile(.gtk4, minor: 4, subpixelCairo: false).with(hinted) == ToolkitProfile(.gtk4, minor: 4, subpixelCairo: false))
        // 4.6–4.10 follow it; with cairo ≥ 1.17.4 it decides position rounding too.
        #expect(ToolkitProfile(.gtk4, minor: 10, subpixelCairo: true).with(hinted).rendering == .pangoDefault)
        #expect(ToolkitProfile(.gtk4, minor: 10, subpixelCairo: true).with(GTKFontRenderingSettings(hintFontMetrics: false)).rendering == .unrounded)
        #expect(ToolkitProfile(.gtk4, minor: 6, subpixelCairo: false).with(hinted).rendering == .pangoDefault)
        // 4.12–4.14 override it at scale 1 (or never read it, with cairo < 1.17.4); 4.16 reads
        // it only under gtk-font-rendering manual, which settings.ini cannot set.
        for minor in [12, 14] {
            for cairo in [false, true] {
                let line = ToolkitProfile(.gtk4, minor: minor, subpixelCairo: cairo)
                #expect(line.with(GTKFontRenderingSettings(hintFontMetrics: false)) == line)
            }
        }
        #expect(Self.unrounded.with(hinted) == Self.unrounded)
    }

    @Test func theSettingsArePartOfTheResultCacheKey() throws {
        var plain = MeasureRequest(text: "Save changes", font: "DejaVu Sans 10")
        plain.metrics = Self.gtk48
        var hinted = plain
        hinted.metrics = Self.gtk48.with(GTKFontRenderingSettings(hintFontMetrics: true))
        #expect(plain != hinted)
        #expect(plain.metrics.ordinal != hinted.metrics.ordinal)
        let engine = try TestEngine.engine()
        #expect(try engine.measure(plain).height != engine.measure(hinted).height)
    }

    @Test func theSettingsReadBackFromTheirDescription() {
        let off = GTKFontRenderingSettings(hintFontMetrics: false)
        #expect(off.description == "gtk-hint-font-metrics=false")
        #expect(GTKFontRenderingSettings(description: off.description) == off)
        #expect(GTKFontRenderingSettings(description: "") == .unset)
        #expect(GTKFontRenderingSettings(description: "gtk-hint-font-metrics=maybe") == nil)
    }
}
