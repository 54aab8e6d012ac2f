import Foundation
import Testing

@testable import FitScale

@Suite struct FitScaleEnvironmentTests {
    @Test func configHomeFollowsTheXDGRules() {
        #expect(FitScaleEnvironment(environment: ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/home/u"]).configHome == "/x/cfg")
        // A relative XDG_CONFIG_HOME is invalid (XDG Base Directory Specification): ignored.
        #expect(FitScaleEnvironment(environment: ["XDG_CONFIG_HOME": "cfg", "HOME": "/home/u"]).configHome == "/home/u/.config")
        // No HOME: the password database's home directory.
        let home = FitScaleEnvironment.passwordDatabaseHome()
        #expect(home.hasPrefix("/"))
        #expect(FitScaleEnvironment(environment: [:]).configHome == home + "/.config")
    }

    @Test func kdeFilesExistWhenEitherIsThere() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.configHome, withIntermediateDirectories: true)
        let kde = KDESettingsProvider(environment: sandbox.environment)
        #expect(!kde.filesExist)
        try "[General]\nforceFontDPI=120\n".write(toFile: sandbox.environment.kcmFontsPath, atomically: true, encoding: .utf8)
        #expect(kde.filesExist)
    }
}
