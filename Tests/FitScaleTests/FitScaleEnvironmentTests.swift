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

    @Test func underSystemdFitdConfLivesInTheUnitsConfigurationDirectory() {
        let plain = FitScaleEnvironment(environment: ["XDG_CONFIG_HOME": "/x/cfg"])
        #expect(plain.fitdConfigPath == "/x/cfg/fitd/fitd.conf")
        // fitd.service's ConfigurationDirectory=fitd: systemd made it, below its own
        // $XDG_CONFIG_HOME, and says where in $CONFIGURATION_DIRECTORY.
        let unit = FitScaleEnvironment(environment: ["XDG_CONFIG_HOME": "/x/cfg", "CONFIGURATION_DIRECTORY": "/y/cfg/fitd"])
        #expect(unit.fitdConfigPath == "/y/cfg/fitd/fitd.conf")
        #expect(unit.configHome == "/x/cfg")
        // Some other unit's directory (inherited by a fitctl run from it) is not fitd's.
        for other in ["/y/cfg/other", "relative/fitd", ""] {
            #expect(FitScaleEnvironment(environment: ["XDG_CONFIG_HOME": "/x/cfg", "CONFIGURATION_DIRECTORY": other]).fitdConfigPath == "/x/cfg/fitd/fitd.conf")
        }
        #expect(FitScaleEnvironment(environment: ["CONFIGURATION_DIRECTORY": "/a/other:/b/fitd"]).fitdConfigPath == "/b/fitd/fitd.conf")
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
