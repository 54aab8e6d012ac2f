import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@testable import FitScale

/// The files GIO would open for GSettings are checked first (SafeFile): one that is not a
/// regular file of a sane size is passed over, and GIO is not asked.
@Suite struct GSettingsFilesTests {
    @Test func gsettingsPassesOverADconfDatabaseThatIsNotARegularFile() throws {
        let sandbox = try Sandbox()
        let environment = sandbox.environment
        try FileManager.default.createDirectory(atPath: sandbox.configHome + "/dconf", withIntermediateDirectories: true)
        #expect(mkfifo(environment.dconfUserPath, 0o600) == 0)
        let provider = GSettingsProvider(environment: environment)
        #expect(provider.inUse)
        #expect(throws: FitScaleError.notRegularFile(path: environment.dconfUserPath, kind: "a FIFO")) { try provider.read() }
        unlink(environment.dconfUserPath)
        #expect(symlink("/dev/zero", environment.dconfUserPath) == 0)
        #expect(throws: FitScaleError.notRegularFile(path: environment.dconfUserPath, kind: "a character device")) { try provider.read() }
    }

    @Test func gsettingsPassesOverAKeyfileThatIsNotARegularFileOrTooLarge() throws {
        let sandbox = try Sandbox()
        var environment = sandbox.environment
        environment.gsettingsBackend = "keyfile"
        let keyfile = environment.gsettingsKeyfilePath
        try FileManager.default.createDirectory(atPath: (keyfile as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(symlink("/dev/zero", keyfile) == 0)
        let provider = GSettingsProvider(environment: environment)
        #expect(throws: FitScaleError.notRegularFile(path: keyfile, kind: "a character device")) { try provider.read() }
        unlink(keyfile)
        #expect(mkfifo(keyfile, 0o600) == 0)
        #expect(throws: FitScaleError.notRegularFile(path: keyfile, kind: "a FIFO")) { try provider.read() }
        unlink(keyfile)
        #expect(truncate(keyfile, 0) != 0)
        #expect(FileManager.default.createFile(atPath: keyfile, contents: nil))
        #expect(truncate(keyfile, off_t(GSettingsProvider.keyfileLimit + 1)) == 0)
        #expect(throws: FitScaleError.configTooLarge(path: keyfile, bytes: GSettingsProvider.keyfileLimit + 1, limit: GSettingsProvider.keyfileLimit)) {
            try provider.read()
        }
    }

    @Test func gsettingsChecksTheUsersCompiledSchemas() {
        let environment = FitScaleEnvironment(environment: ["HOME": "/home/u", "GSETTINGS_SCHEMA_DIR": "/opt/a:/opt/b"])
        #expect(environment.gsettingsSchemaFiles == [
            "/opt/a/gschemas.compiled", "/opt/b/gschemas.compiled", "/home/u/.local/share/glib-2.0/schemas/gschemas.compiled",
        ])
        let provider = GSettingsProvider(environment: environment)
        #expect(provider.checkedFiles.map(\.path) == ["/home/u/.config/dconf/user"] + environment.gsettingsSchemaFiles)
    }
}
