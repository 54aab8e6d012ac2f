import Testing

@testable import FitScale

/// A desktop source's text scale outside 0.25…4 (TextScale.desktopRange) or not finite is
/// passed over, naming the source and the value, and the next source decides; one per source.
@Suite struct DesktopScaleRangeTests {
    static let outOfRange: [Double] = [1e-300, 0, -1, 0.2, 4.5, 1e300, .nan, .infinity, -.infinity]

    /// The problem names the source and the value.
    func namesSourceAndValue(_ problem: FitScaleError?, _ source: TextScaleSource, _ value: String) -> Bool {
        guard case .desktopSettings(let named, let reason)? = problem else { return false }
        return named == source && reason.contains(value) && reason.contains("0.25…4")
    }

    @Test func theRangeIsInclusive() throws {
        #expect(try TextScale.desktop(0.25, source: .gnome, setting: "x").get() == 0.25)
        #expect(try TextScale.desktop(4, source: .gnome, setting: "x").get() == 4)
        for value in Self.outOfRange {
            #expect((try? TextScale.desktop(value, source: .gnome, setting: "x").get()) == nil)
        }
    }

    @Test func portalAndGSettingsPassOverTheirScale() {
        for source in [TextScaleSource.gnome, .gsettings] {
            for value in Self.outOfRange {
                let (settings, problems) = DesktopSettings.gnomeInterface(
                    textScalingFactor: value, fontName: "Cantarell 11", monospaceFontName: nil, source: source)
                #expect(settings.textScale == nil)
                // The font beside it still counts.
                #expect(settings.uiFont?.family == "Cantarell")
                #expect(problems.count == 1)
                #expect(namesSourceAndValue(problems.first, source, "text-scaling-factor gives a text scale of \(value)"))
            }
            let (settings, problems) = DesktopSettings.gnomeInterface(textScalingFactor: 1.25, fontName: nil, monospaceFontName: nil, source: source)
            #expect(settings.textScale == 1.25 && problems.isEmpty)
        }
    }

    @Test func kdeForceFontDpiOutOfRangeKeepsTheFonts() throws {
        let sandbox = try Sandbox()
        try sandbox.write(sandbox.environment.kdeGlobalsPath, "[General]\nfont=Noto Sans,10,-1,5,50,0,0,0,0,0\n")
        for dpi in ["0.0001", "10", "1000", "1e300"] {
            try sandbox.write(sandbox.environment.kcmFontsPath, "[General]\nforceFontDPI=\(dpi)\n")
            let settings = try #require(try KDESettingsProvider(environment: sandbox.environment).read())
            #expect(settings.textScale == nil)
            #expect(settings.uiFont?.family == "Noto Sans")
            #expect(namesSourceAndValue(settings.passedOver.first, .kde, "forceFontDPI=\(dpi)"))
        }
        try sandbox.write(sandbox.environment.kcmFontsPath, "[General]\nforceFontDPI=120\n")
        #expect(try KDESettingsProvider(environment: sandbox.environment).read()?.textScale == 1.25)
    }

    @Test func xsettingsDpiOutOfRangeKeepsTheFont() throws {
        // Xft/DPI is in 1024ths of a dot per inch: 1 is 1/1024 dpi, a scale of 1e-5.
        for value: Int32 in [1, 1024 * 10, 1024 * 400, Int32.max] {
            let parsed = XSettings(settings: ["Xft/DPI": .integer(value), "Gtk/FontName": .string("Cantarell 11")])
            let settings = try #require(try XSettingsProvider.settings(from: parsed, gdkScaleIsSet: false))
            #expect(settings.textScale == nil)
            #expect(settings.uiFont?.family == "Cantarell")
            #expect(namesSourceAndValue(settings.passedOver.first, .xsettings, "Xft/DPI"))
        }
        let good = XSettings(settings: ["Xft/DPI": .integer(120 * 1024)])
        #expect(try XSettingsProvider.settings(from: good, gdkScaleIsSet: false)?.textScale == 1.25)
    }

    @Test func xftDpiOutOfRangeIsPassedOver() {
        for dpi in [0.001, 10, 400, 1e300] {
            let settings = XResourcesProvider.settings(dpi: dpi)
            #expect(settings.textScale == nil)
            #expect(namesSourceAndValue(settings.passedOver.first, .xresources, "Xft.dpi \(dpi.formatted)"))
        }
        #expect(XResourcesProvider.settings(dpi: 144).textScale == 1.5)
    }

    @Test func layersFallToTheNextSourceAndSayWhy() async throws {
        // A provider that does not check its own values (a portal proxy, a future source).
        let broken = Layer(settings: DesktopSettings(textScale: 1e-300), source: .gnome)
        let xft = Layer(settings: DesktopSettings(textScale: 1.25), source: .xresources)
        let merged = try #require(try await LayeredSettingsProvider([broken, xft]).currentSettings())
        #expect(merged.textScale == 1.25 && merged.textScaleSource == .xresources)
        #expect(namesSourceAndValue(merged.passedOver.first, .gnome, "1e-300"))
        // Not finite either.
        let nan = Layer(settings: DesktopSettings(textScale: .nan), source: .kde)
        let next = try #require(try await LayeredSettingsProvider([nan, xft]).currentSettings())
        #expect(next.textScale == 1.25)
        // Without a layered provider, the preference still leaves it out.
        let preference = TextScalePreference(desktop: DesktopSettings(textScale: 1e-300), desktopSource: .gnome)
        #expect(preference.resolvedScale.source == .default && preference.resolvedScale.scale.factor == 1)
    }

    @Test func theStateWarnsNamingTheSourceAndTheValue() async throws {
        let sandbox = try Sandbox()
        try sandbox.writeFontconfig()
        let log = LogCapture()
        let broken = Layer(settings: DesktopSettings(textScale: 1e-300), source: .gnome)
        let state = TextScaleState(environment: sandbox.environment, desktop: LayeredSettingsProvider([broken]), logger: log.logger)
        let snapshot = await state.reload()
        #expect(snapshot.scale.factor == 1 && snapshot.source == .default)
        #expect(log.contains(level: .warning, "gnome"))
        #expect(log.contains(level: .warning, "1e-300"))
    }
}
