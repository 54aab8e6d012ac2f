import FitTypes
import Testing

@testable import FitScale

/// GTK 4's settings.ini as GTK reads it: `gtk-font-name` for the UI font, and the two settings
/// that change how GTK 4 measures (`gtk-hint-font-metrics`, `gtk-font-rendering`), a later
/// file's key replacing an earlier one's, a value GTK cannot parse passed over with a warning.
@Suite struct GTKSettingsFileTests {
    private func provider(_ sandbox: Sandbox) -> GTKSettingsFileProvider {
        var environment = sandbox.environment
        environment.configDirectories = [sandbox.root + "/xdg"]
        return GTKSettingsFileProvider(environment: environment)
    }

    @Test func theRenderingSettingsAreReadBesideTheFont() throws {
        let sandbox = try Sandbox()
        try sandbox.write(sandbox.configHome + "/gtk-4.0/settings.ini", "[Settings]\ngtk-font-name=Cantarell 13\ngtk-hint-font-metrics=1\n")
        let settings = try #require(try provider(sandbox).read())
        #expect(settings.uiFont?.pangoDescription == "Cantarell 13")
        #expect(settings.gtkRendering == GTKFontRenderingSettings(hintFontMetrics: true))
        #expect(settings.passedOver.isEmpty)
    }

    @Test func aFileWithOnlyARenderingSettingCountsAndLaterFilesWin() throws {
        let sandbox = try Sandbox()
        try sandbox.write(sandbox.root + "/xdg/gtk-4.0/settings.ini", "[Settings]\ngtk-hint-font-metrics=true\n")
        try sandbox.write(sandbox.configHome + "/gtk-4.0/settings.ini", "[Settings]\ngtk-hint-font-metrics=false \n")
        let settings = try #require(try provider(sandbox).read())
        #expect(settings.uiFont == nil)
        #expect(settings.gtkRendering == GTKFontRenderingSettings(hintFontMetrics: false))
    }

    @Test func aValueGTKCannotParseIsPassedOverNamingTheFileAndKey() throws {
        let sandbox = try Sandbox()
        let path = sandbox.configHome + "/gtk-4.0/settings.ini"
        try sandbox.write(path, "[Settings]\ngtk-hint-font-metrics=yes\ngtk-font-rendering=manual\n")
        let settings = try #require(try provider(sandbox).read())
        #expect(settings.gtkRendering.isUnset)
        #expect(settings.passedOver.count == 2)
        #expect(settings.passedOver.allSatisfy { "\($0)".contains(path) })
        #expect(settings.passedOver.contains { "\($0)".contains("gtk-hint-font-metrics") && "\($0)".contains("yes") })
        // GTK cannot take the enum from the file at all: said, not followed.
        #expect(settings.passedOver.contains { "\($0)".contains("gtk-font-rendering") && "\($0)".contains("changes nothing") })
    }

    @Test func gtk3sOwnFileGivesGTK3sFontAndNoRenderingSettings() throws {
        let sandbox = try Sandbox()
        try sandbox.write(sandbox.configHome + "/gtk-3.0/settings.ini", "[Settings]\ngtk-font-name=DejaVu Sans 11\ngtk-hint-font-metrics=true\n")
        let settings = try #require(try provider(sandbox).read())
        #expect(settings.uiFont == nil)
        #expect(settings.uiFontForGTK3?.pangoDescription == "DejaVu Sans 11")
        #expect(settings.gtkRendering.isUnset)
    }

    @Test func gtk3FollowsTheSameSourcesButItsOwnSettingsFile() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(sandbox.configHome + "/gtk-4.0/settings.ini", "[Settings]\ngtk-font-name=Cantarell 13\n")
        try sandbox.write(sandbox.configHome + "/gtk-3.0/settings.ini", "[Settings]\ngtk-font-name=DejaVu Sans 11\n")
        let files = provider(sandbox)
        let alone = try #require(try await LayeredSettingsProvider([files]).currentSettings())
        #expect(alone.uiFont?.pangoDescription == "Cantarell 13")
        #expect(alone.gtk3UIFont?.pangoDescription == "DejaVu Sans 11")
        // A settings manager above (XSETTINGS' Gtk/FontName) decides for both toolkits.
        var manager = DesktopSettings()
        manager.uiFont = UIFont(pangoDescription: "Noto Sans 12", source: .xsettings)
        let managed = try #require(try await LayeredSettingsProvider([Layer(settings: manager, source: .xsettings), files]).currentSettings())
        #expect(managed.uiFont?.pangoDescription == "Noto Sans 12")
        #expect(managed.gtk3UIFont?.pangoDescription == "Noto Sans 12")
    }

    @Test func layersTakeTheRenderingSettingFromTheFirstThatSetsIt() async throws {
        var upper = DesktopSettings()
        upper.gtkRendering.hintFontMetrics = false
        var lower = DesktopSettings()
        lower.gtkRendering.hintFontMetrics = true
        let silent = try #require(try await LayeredSettingsProvider([Layer(settings: DesktopSettings(), source: .gnome), Layer(settings: lower, source: .gtkSettings)]).currentSettings())
        #expect(silent.gtkRendering.hintFontMetrics == true)
        let merged = try #require(try await LayeredSettingsProvider([Layer(settings: upper, source: .gnome), Layer(settings: lower, source: .gtkSettings)]).currentSettings())
        #expect(merged.gtkRendering.hintFontMetrics == false)
    }
}
