import Foundation
import Testing

@testable import FitScale

@Suite struct ConfigFileTests {
    @Test func parsesSectionsCommentsAndValues() throws {
        let file = try ConfigFile(parsing: "# fitd\n; also a comment\n\n[text]\n  scale = 1.25  \nother=x\n[more]\nscale=2\n", path: "t")
        #expect(file.value(section: "text", key: "scale") == "1.25")
        #expect(file.value(section: "text", key: "other") == "x")
        #expect(file.value(section: "more", key: "scale") == "2")
        #expect(file.value(section: "none", key: "scale") == nil)
    }

    /// Found by Tests/Fuzzing (fuzz-config): "\r\n" is one Swift Character, so splitting at
    /// "\n" left a CRLF file one line (refused), a value "\r" came back as "", and one that
    /// starts with a combining mark came back with the space before it.
    @Test func crlfLinesParseAndValuesSurviveSerializing() throws {
        let file = try ConfigFile(parsing: "[limits]\r\nmax_batch = 5\r\ncache_bytes=0\r\n", path: "t")
        #expect(file.value(section: "limits", key: "max_batch") == "5")
        #expect(file.value(section: "limits", key: "cache_bytes") == "0")
        let returns = try ConfigFile(parsing: "B=\r\r", path: "t")
        #expect(returns.value(section: "", key: "B") == "")
        #expect(try ConfigFile(parsing: returns.serialized(), path: "t") == returns)
        // A value starting with a combining mark (U+0613) after serialized()'s " = ".
        let mark = try ConfigFile(parsing: "k=\t\u{0613}x", path: "t")
        #expect(mark.value(section: "", key: "k") == "\u{0613}x")
        #expect(try ConfigFile(parsing: mark.serialized(), path: "t") == mark)
    }

    @Test func garbageIsATypedErrorWithTheLine() {
        #expect(throws: FitScaleError.configSyntax(path: "t", line: 2, reason: "not `key = value`, a `[section]` or a comment")) {
            try ConfigFile(parsing: "[text]\nthis is garbage\n", path: "t")
        }
        #expect(throws: FitScaleError.self) { try ConfigFile(parsing: "[text\nscale = 1", path: "t") }
        // Lenient (another program's file): skipped.
        #expect(throws: Never.self) { try ConfigFile(parsing: "[General]\ngarbage\nfont=A,10", path: "t", strict: false) }
    }

    @Test func pathsSplitIntoDirectoryAndName() {
        #expect(ConfigFile.split("/home/u/.config/fitd/fitd.conf") == ("/home/u/.config/fitd", "fitd.conf"))
        #expect(ConfigFile.split("/fitd.conf") == ("/", "fitd.conf"))
        #expect(ConfigFile.split("fitd.conf") == (".", "fitd.conf"))
        #expect(ConfigFile.split("conf/fitd.conf") == ("conf", "fitd.conf"))
    }

    @Test func saveCreatesTheMissingDirectoriesPrivate() throws {
        let sandbox = try Sandbox()
        let path = sandbox.root + "/new/fitd/fitd.conf"
        var file = ConfigFile()
        file.setValue("1.5", section: "text", key: "scale")
        try file.save(path: path)
        #expect(try ConfigFile.load(path: path)?.value(section: "text", key: "scale") == "1.5")
        var info = stat()
        #expect(stat(sandbox.root + "/new/fitd", &info) == 0 && info.st_mode & 0o777 == 0o700)
        // Only the file itself is left: the temporary file was renamed over it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.root + "/new/fitd") == ["fitd.conf"])
    }

    @Test func binaryAndHugeFilesAreRejectedUnread() throws {
        let sandbox = try Sandbox()
        let binary = sandbox.root + "/binary.conf"
        try Data([0xff, 0xfe, 0x00, 0x41, 0xc3]).write(to: URL(fileURLWithPath: binary))
        #expect(throws: FitScaleError.configSyntax(path: binary, line: 0, reason: "the file is not UTF-8 text")) {
            try ConfigFile.load(path: binary)
        }
        // 100 MB (sparse: the test does not write 100 MB).
        let huge = sandbox.root + "/huge.conf"
        let fd = open(huge, O_CREAT | O_WRONLY, 0o600)
        #expect(ftruncate(fd, 100 * 1024 * 1024) == 0)
        close(fd)
        #expect(throws: FitScaleError.configTooLarge(path: huge, bytes: 100 * 1024 * 1024, limit: ConfigFile.maximumBytes)) {
            try ConfigFile.load(path: huge)
        }
        #expect(try ConfigFile.load(path: sandbox.root + "/missing.conf") == nil)
    }

    @Test func explicitScaleRoundTripsAtomicallyAndKeepsOtherKeys() throws {
        let sandbox = try Sandbox()
        let path = sandbox.environment.fitdConfigPath
        try sandbox.write(path, "[other]\nkeep = yes\n")
        let store = ExplicitScaleStore(path: path)
        try store.save(try TextScale(1.25))
        #expect(try store.load() == (try TextScale(1.25)))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("[text]\nscale = 1.25\n"))
        #expect(text.contains("keep = yes"))
        // No temporary file left behind.
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.configHome + "/fitd")
        #expect(names == ["fitd.conf"])
        try store.save(nil)
        #expect(try store.load() == nil)
    }

    @Test func badScaleValuesSayTheRange() throws {
        let sandbox = try Sandbox()
        let path = sandbox.environment.fitdConfigPath
        for value in ["0", "-2", "nan", "5", "big"] {
            try sandbox.write(path, "[text]\nscale = \(value)\n")
            do {
                _ = try ExplicitScaleStore(path: path).load()
                Issue.record("scale = \(value) was accepted")
            } catch {
                #expect("\(error)".contains("(0, 4]"), "\(error)")
            }
        }
    }
}
