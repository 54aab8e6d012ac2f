import Testing

@testable import FitScale

/// A layer with a fixed answer and source, or a failure.
private struct Layer: DesktopSettingsProvider {
    var settings: DesktopSettings?
    var source: TextScaleSource
    var failure: FitScaleError?
    func currentSettings() async throws(FitScaleError) -> DesktopSettings? {
        if let failure { throw failure }
        return settings
    }
}

@Suite struct DesktopSourcesTests {
    @Test func xftDpiIsReadFromTheResourceStringAsXrdbPrintsIt() {
        let resources = "Xcursor.size:\t24\nXft.antialias:\t1\nXft.dpi:\t120\nXft.hinting:\t1\n"
        #expect(XResourcesProvider.xftDPI(resources: resources) == 120)
    }

    @Test func xftDpiPrefersTheExactNameOverWildcards() {
        #expect(XResourcesProvider.xftDPI(resources: "*dpi: 144\nXft*dpi: 108\n") == 108)
        #expect(XResourcesProvider.xftDPI(resources: "*dpi: 144\nXft.dpi:  96 \nXft*dpi: 108\n") == 96)
        #expect(XResourcesProvider.xftDPI(resources: "*dpi:\t144") == 144)
    }

    @Test func xftDpiAbsentOrUnusableIsNil() {
        #expect(XResourcesProvider.xftDPI(resources: "") == nil)
        #expect(XResourcesProvider.xftDPI(resources: "Xft.antialias: 1\n! Xft.dpi: 120\n") == nil)
        #expect(XResourcesProvider.xftDPI(resources: "Xft.dpi: big\n") == nil)
        #expect(XResourcesProvider.xftDPI(resources: "Xft.dpi: -96\nXft.dpi: 0\n") == nil)
        #expect(XResourcesProvider.xftDPI(resources: "Xft.dpi: nan\n") == nil)
        #expect(XResourcesProvider.xftDPI(resources: "Xft.dpix: 120\nXXft.dpi: 120\n") == nil)
    }

    @Test func noDisplayReadsNothing() throws {
        #expect(try XResourcesProvider(display: nil).read() == nil)
    }

    @Test func aDisplayThatIsGoneIsNoX11Session() throws {
        #expect(try XResourcesProvider(display: ":9987").read() == nil)
    }

    @Test func gsettingsWithoutDconfOrABackendIsNotAsked() throws {
        let environment = FitScaleEnvironment(configHome: "/nonexistent/fitd-test")
        #expect(!GSettingsProvider(environment: environment).inUse)
        #expect(GSettingsProvider(environment: environment).read() == nil)
        #expect(GSettingsProvider(environment: environment).watchedFiles == [
            "/nonexistent/fitd-test/dconf/user", "/nonexistent/fitd-test/glib-2.0/settings/keyfile",
        ])
    }

    @Test func layersDecideFieldByFieldAndTheScaleNamesItsLayer() async throws {
        let portal = Layer(settings: DesktopSettings(uiFont: UIFont(family: "Cantarell", pointSize: 11, source: .gnome)), source: .gnome)
        let gsettings = Layer(settings: nil, source: .gsettings)
        let xft = Layer(settings: DesktopSettings(textScale: 1.25), source: .xresources)
        let merged = try #require(try await LayeredSettingsProvider([portal, gsettings, xft]).currentSettings())
        #expect(merged.uiFont?.family == "Cantarell")
        #expect(merged.textScale == 1.25 && merged.textScaleSource == .xresources)

        let first = Layer(settings: DesktopSettings(textScale: 1.5), source: .gsettings)
        let both = try #require(try await LayeredSettingsProvider([first, xft]).currentSettings())
        #expect(both.textScale == 1.5 && both.textScaleSource == .gsettings)
    }

    @Test func theResolvedScaleReportsTheLayerThatGaveIt() {
        let preference = TextScalePreference(desktop: DesktopSettings(textScale: 1.25, textScaleSource: .xresources), desktopSource: .gnome)
        #expect(preference.resolvedScale.source == .xresources)
        #expect(preference.resolvedScale.scale.factor == 1.25)
    }

    @Test func aFailingLayerDoesNotHideTheOthersButAloneItThrows() async throws {
        let broken = Layer(settings: nil, source: .gnome, failure: .desktopSettings(source: .gnome, reason: "portal error"))
        let xft = Layer(settings: DesktopSettings(textScale: 1.25), source: .xresources)
        let merged = try await LayeredSettingsProvider([broken, xft]).currentSettings()
        #expect(merged?.textScaleSource == .xresources)
        await #expect(throws: FitScaleError.self) {
            _ = try await LayeredSettingsProvider([broken, Layer(settings: nil, source: .xresources)]).currentSettings()
        }
        #expect(try await LayeredSettingsProvider([]).currentSettings() == nil)
    }
}
