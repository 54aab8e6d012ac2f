import FitTypes
import Testing

@testable import FitScale

/// GTK 4's settings.ini as GTK reads it: `gtk-font-name` for the UI font, and the two settings
/// that change how GTK 4 measures (`gtk-hint-font-metrics`, `gtk-font-rendering`), a later
/// file's key replacing an earlier one's, a value GTK cannot parse passed over with a warning.
@Suite struct GTKSettingsFileTests {
    private func provider(_ sandbox: Sandbox, directory: String = "gtk-4.0") -> GTKSettingsFileProvider {
        var environment = sandbox.environment
        environment.configDirectories = [sandbox.root + "/xdg"]
        return GTKSettingsFileProvider(environment: environment, toolkitDirectory: directory)
    }

    @Test func theRenderingSettingsAreReadBesideTheFont() throws {
        let sandbox = try Sandbox()
        try sandbox.write(sandbox.configHome + "/gtk-4.0/settings.ini", "[Settings]\ngtk-font-name=Cantarell 13\ngtk-hint-font-metrics=1\ngtk-font-rendering=manual\n")
        let settings = try #require(try provider(sandbox).read())
        #expect(settings.uiFont?.pangoDescription == "Cantarell 13")
        #expect(settings.gtkRendering == GTKFontRenderingSettings(hintFontMetrics: true, fontRendering: .manual))
        #expect(settings.passedOver.isEmpty)
    }

    @Test func aFileWithOnlyARenderingSettingCountsAndLaterFilesWin() throws {
        let sandbox = try Sandbox()
        try sandbox.write(sandbox.root + "/xdg/gtk-4.0/settings.ini", "[Settings]\ngtk-hint-font-metrics=true\ngtk-font-rendering=GTK_FONT_RENDERING_MANUAL\n")
        try sandbox.write(sandbox.configHome + "/gtk-4.0/settings.ini", "[Settings]\ngtk-hint-font-metrics=false \n")
        let settings = try #require(try provider(sandbox).read())
        #expect(settings.uiFont == nil)
        #expect(settings.gtkRendering == GTKFontRenderingSettings(hintFontMetrics: false, fontRendering: .manual))
    }

    @Test func aValueGTKCannotParseIsPassedOverNamingTheFileAndKey() throws {
        let sandbox = try Sandbox()
        let path = sandbox.configHome + "/gtk-4.0/settings.ini"
        try sandbox.write(path, "[Settings]\ngtk-hint-font-metrics=yes\ngtk-font-rendering=sharp\n")
        let settings = try #require(try provider(sandbox).read())
        #expect(settings.gtkRendering.isUnset)
        #expect(settings.passedOver.count == 2)
        #expect(settings.passedOver.allSatisfy { "\($0)".contains(path) })
        #expect(settings.passedOver.contains { "\($0)".contains("gtk-hint-font-metrics") && "\($0)".contains("yes") })
    }

    @Test func gtk3sFilesAreNotAskedForGTK4Settings() throws {
        let sandbox = try Sandbox()
        try sandbox.write(sandbox.configHome + "/gtk-3.0/settings.ini", "[Settings]\ngtk-hint-font-metrics=true\n")
        #expect(try provider(sandbox, directory: "gtk-3.0").read() == nil)
    }

    @Test func layersTakeEachRenderingSettingFromTheFirstThatSetsIt() async throws {
        var upper = DesktopSettings()
        upper.gtkRendering.fontRendering = .manual
        var lower = DesktopSettings()
        lower.gtkRendering = GTKFontRenderingSettings(hintFontMetrics: true, fontRendering: .automatic)
        let merged = try #require(try await LayeredSettingsProvider([Layer(settings: upper, source: .gnome), Layer(settings: lower, source: .gtkSettings)]).currentSettings())
        #expect(merged.gtkRendering == GTKFontRenderingSettings(hintFontMetrics: true, fontRendering: .manual))
    }
}
