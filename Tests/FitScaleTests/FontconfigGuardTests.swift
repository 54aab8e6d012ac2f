import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@testable import FitScale

/// fontconfig's files checked before it loads them: what it would wait on or read forever is
/// left out of a copy of its configuration, which then loads at once.
@Suite(.timeLimit(.minutes(1))) struct FontconfigGuardTests {
    /// A guard over the sandbox: FONTCONFIG_FILE is its fonts.conf (the pinned fonts plus the
    /// user's file as Debian's 50-user.conf includes it: prefix="xdg").
    func makeGuard(_ sandbox: Sandbox, extra: String = "") throws -> FontconfigGuard {
        let body = "  <include>\(Sandbox.pinnedFontsConf)</include>\n"
            + "  <include ignore_missing=\"yes\" prefix=\"xdg\">fontconfig/fonts.conf</include>\n"
            + "  <include ignore_missing=\"yes\" prefix=\"xdg\">fontconfig/conf.d</include>\n" + extra
        try sandbox.write(sandbox.fontconfigFile, Sandbox.fontconfigDocument(body))
        return FontconfigGuard(
            environment: ["HOME": sandbox.root, "XDG_CONFIG_HOME": sandbox.configHome, "FONTCONFIG_FILE": sandbox.fontconfigFile],
            directory: sandbox.root + "/copies")
    }

    func copies(_ sandbox: Sandbox) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: sandbox.root + "/copies")) ?? []
    }

    @Test func filesThatAreFineAreLeftAsTheyAreAndNothingIsWritten() throws {
        let sandbox = try Sandbox()
        try sandbox.write(sandbox.userFontconfigFile, Sandbox.fontconfigDocument(Sandbox.dpiRule(120)))
        let check = try makeGuard(sandbox)
        #expect(check.start() == .unchanged)
        #expect(copies(sandbox).isEmpty)
    }

    @Test(arguments: ["FIFO", "/dev/zero", "huge"])
    func theUsersFileIsLeftOutOfACopyThatLoads(kind: String) throws {
        let sandbox = try Sandbox()
        let user = sandbox.userFontconfigFile
        try FileManager.default.createDirectory(atPath: sandbox.configHome + "/fontconfig", withIntermediateDirectories: true)
        switch kind {
        case "FIFO": #expect(mkfifo(user, 0o600) == 0)
        case "/dev/zero": #expect(symlink("/dev/zero", user) == 0)
        default:
            #expect(FileManager.default.createFile(atPath: user, contents: nil))
            #expect(truncate(user, off_t(FontconfigGuard.fileLimit + 1)) == 0)
        }
        let check = try makeGuard(sandbox)
        guard case .rewritten(let file, let skipped) = check.start() else {
            Issue.record("not rewritten")
            return
        }
        #expect(skipped.count == 1 && skipped.first?.path == user)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("fitd left out \(user)"))
        #expect(!text.contains("prefix=\"xdg\">fontconfig/fonts.conf"))
        // The rest is kept: the pinned fonts and the (missing) conf.d directory.
        #expect(text.contains("<include>\(Sandbox.pinnedFontsConf)</include>"))
        #expect(text.contains("fontconfig/conf.d"))
        // fontconfig loads the copy at once (on the original it would wait or read forever).
        let snapshot = try FontconfigReader.readNow(configFile: file)
        #expect(snapshot.uiFont?.family == "DejaVu Sans")
    }

    @Test func aDirectoryIsReadAsFontconfigReadsItWithoutTheEntryThatIsAmiss() throws {
        let sandbox = try Sandbox()
        let directory = sandbox.configHome + "/fontconfig/conf.d"
        try sandbox.write(directory + "/10-dpi.conf", Sandbox.fontconfigDocument(Sandbox.dpiRule(120)))
        try sandbox.write(directory + "/README", "not read: no digit first")
        try sandbox.write(directory + "/9-early.conf", Sandbox.fontconfigDocument(""))
        #expect(mkfifo(directory + "/20-fifo.conf", 0o600) == 0)
        let check = try makeGuard(sandbox)
        guard case .rewritten(let file, let skipped) = check.start() else {
            Issue.record("not rewritten")
            return
        }
        #expect(skipped.map(\.path) == [directory + "/20-fifo.conf"])
        // The top file includes a copy standing for the directory, in fontconfig's byte order.
        let copyName = FontconfigGuard.copyName(for: directory)
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains(copyName))
        let listing = try String(contentsOfFile: sandbox.root + "/copies/" + copyName, encoding: .utf8)
        let early = try #require(listing.range(of: "9-early.conf")), dpi = try #require(listing.range(of: "10-dpi.conf"))
        #expect(dpi.lowerBound < early.lowerBound)
        #expect(!listing.contains("README"))
        #expect(listing.contains("fitd left out \(directory)/20-fifo.conf"))
        // The good file still applies.
        #expect(try FontconfigReader.readNow(configFile: file).dpi == 120)
    }

    @Test func includesResolveAsFontconfigResolvesThem() throws {
        let sandbox = try Sandbox()
        let check = FontconfigGuard(
            environment: ["HOME": "/home/u", "FONTCONFIG_PATH": sandbox.root], directory: sandbox.root + "/copies")
        #expect(check.resolve("fontconfig/fonts.conf", prefix: "xdg") == "/home/u/.config/fontconfig/fonts.conf")
        #expect(check.resolve("~/.fonts.conf", prefix: nil) == "/home/u/.fonts.conf")
        #expect(check.resolve("/etc/x.conf", prefix: nil) == "/etc/x.conf")
        try sandbox.write(sandbox.root + "/local.conf", "")
        #expect(check.resolve("local.conf", prefix: nil) == sandbox.root + "/local.conf")
        #expect(check.resolve("conf.d", prefix: nil) == "/etc/fonts/conf.d")
        let homeless = FontconfigGuard(environment: [:], directory: "/nonexistent")
        #expect(homeless.resolve("~/.fonts.conf", prefix: nil) == nil)
        #expect(homeless.resolve("fontconfig/fonts.conf", prefix: "xdg") == nil)
    }

    @Test func includesInCommentsAndOtherElementsAreNotIncludes() {
        let text = """
            <fontconfig><!-- <include>/a</include> --><dir>/b</dir>
            <include ignore_missing="yes" prefix='xdg'> fontconfig/fonts.conf </include>
            <includex>/c</includex><include
              deprecated="yes">~/.fonts.conf</include></fontconfig>
            """
        let found = FontconfigIncludes.scan(text)
        #expect(found.map(\.name) == ["fontconfig/fonts.conf", "~/.fonts.conf"])
        #expect(found.map(\.prefix) == ["xdg", nil])
        #expect(found.first?.attributes == " ignore_missing=\"yes\" prefix='xdg'")
    }

    @Test func anIncludeThatNeverEndsIsScannedOnce() {
        // 1 MiB of "<include " with no ">": linear, not a scan to the end from each one.
        let text = String(repeating: "<include ", count: 116_000)
        let started = ContinuousClock.now
        #expect(FontconfigIncludes.scan(text).isEmpty)
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test func onReloadAFileThatBecameAmissBlocksUnlessACopyIsInstalled() throws {
        let sandbox = try Sandbox()
        let user = sandbox.userFontconfigFile
        try sandbox.write(user, Sandbox.fontconfigDocument(""))
        let check = try makeGuard(sandbox)
        #expect(check.start() == .unchanged)
        try FileManager.default.removeItem(atPath: user)
        #expect(mkfifo(user, 0o600) == 0)
        guard case .blocked(let problems) = check.prepareForReload() else {
            Issue.record("not blocked")
            return
        }
        #expect(problems.map(\.path) == [user])

        // Started with the FIFO: the copy is installed, and a reload rewrites it in place.
        let started = try makeGuard(sandbox)
        guard case .rewritten(let file, _) = started.start() else {
            Issue.record("not rewritten")
            return
        }
        guard case .rewritten(let again, _) = started.prepareForReload() else {
            Issue.record("not rewritten again")
            return
        }
        #expect(again == file)
        // Fixed: the copy includes the user's file again.
        try FileManager.default.removeItem(atPath: user)
        try sandbox.write(user, Sandbox.fontconfigDocument(Sandbox.dpiRule(144)))
        guard case .rewritten(let fixed, let skipped) = started.prepareForReload() else {
            Issue.record("the installed copy was not rewritten")
            return
        }
        #expect(fixed == file && skipped.isEmpty)
        // (Not loaded here: fontconfig resolves prefix="xdg" with this process's
        // XDG_CONFIG_HOME, not the sandbox's.)
        let text = try String(contentsOfFile: fixed, encoding: .utf8)
        #expect(!text.contains("fitd left out"))
        #expect(text.contains("prefix=\"xdg\">fontconfig/fonts.conf</include>"))
    }

    @Test func aRelativeIncludeInACopyIsNamedInFull() throws {
        let sandbox = try Sandbox()
        try sandbox.write(sandbox.root + "/path/local.conf", Sandbox.fontconfigDocument(Sandbox.dpiRule(144)))
        try FileManager.default.createDirectory(atPath: sandbox.configHome + "/fontconfig", withIntermediateDirectories: true)
        #expect(mkfifo(sandbox.userFontconfigFile, 0o600) == 0)
        _ = try makeGuard(sandbox, extra: "  <include ignore_missing=\"yes\">local.conf</include>\n")
        let check = FontconfigGuard(
            environment: [
                "HOME": sandbox.root, "XDG_CONFIG_HOME": sandbox.configHome, "FONTCONFIG_FILE": sandbox.fontconfigFile,
                "FONTCONFIG_PATH": sandbox.root + "/path",
            ],
            directory: sandbox.root + "/copies")
        guard case .rewritten(let file, _) = check.start() else {
            Issue.record("not rewritten")
            return
        }
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("<include ignore_missing=\"yes\">\(sandbox.root)/path/local.conf</include>"))
        #expect(try FontconfigReader.readNow(configFile: file).dpi == 144)
    }

    @Test func aFontconfigFileThatIsAmissFallsBackToTheSystemsConfiguration() throws {
        let sandbox = try Sandbox()
        let top = sandbox.root + "/fifo.conf"
        #expect(mkfifo(top, 0o600) == 0)
        let check = FontconfigGuard(
            environment: ["HOME": sandbox.root, "XDG_CONFIG_HOME": sandbox.configHome, "FONTCONFIG_FILE": top],
            directory: sandbox.root + "/copies")
        guard case .rewritten(let file, let skipped) = check.start() else {
            Issue.record("not rewritten")
            return
        }
        #expect(skipped.map(\.path) == [top])
        #expect(file.hasSuffix("-fonts.conf"))
    }

    @Test func copiesGoToTheFirstDirectoryThatCanBeWritten() throws {
        #expect(FontconfigGuard.defaultDirectories(environment: [
            "HOME": "/home/u", "XDG_RUNTIME_DIR": "/run/user/1", "CACHE_DIRECTORY": "/home/u/.cache/fitd", "XDG_CACHE_HOME": "relative",
        ]) == ["/run/user/1/fitd/fontconfig", "/home/u/.cache/fitd/fontconfig", "/home/u/.cache/fitd/fontconfig"])
        // Under fitd.service, ProtectSystem=strict leaves $XDG_RUNTIME_DIR read-only: the
        // cache directory takes the copies.
        let sandbox = try Sandbox()
        try sandbox.write(sandbox.root + "/read-only/keep", "")
        #expect(chmod(sandbox.root + "/read-only", 0o500) == 0)
        defer { chmod(sandbox.root + "/read-only", 0o700) }
        let user = sandbox.userFontconfigFile
        try FileManager.default.createDirectory(atPath: sandbox.configHome + "/fontconfig", withIntermediateDirectories: true)
        #expect(mkfifo(user, 0o600) == 0)
        _ = try makeGuard(sandbox)
        let check = FontconfigGuard(
            environment: ["HOME": sandbox.root, "XDG_CONFIG_HOME": sandbox.configHome, "FONTCONFIG_FILE": sandbox.fontconfigFile],
            directories: [sandbox.root + "/read-only/fitd/fontconfig", sandbox.root + "/cache/fitd/fontconfig"])
        guard case .rewritten(let file, _) = check.start() else {
            Issue.record("not rewritten")
            return
        }
        // root writes anywhere: then the first directory is the one.
        #expect(file.hasPrefix(sandbox.root + (getuid() == 0 ? "/read-only/" : "/cache/")))
    }

    @Test func commentsNeverHoldADoubleHyphen() {
        #expect(FontconfigGuard.commentSafe("a--b-") == "a- -b- ")
        #expect(FontconfigGuard.xmlEscaped("a&<b>") == "a&amp;&lt;b&gt;")
    }
}
