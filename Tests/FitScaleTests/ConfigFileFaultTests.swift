import Foundation
import Synchronization
import Testing

@testable import FitScale

/// fitd.conf as whatever a user, a tool or an attacker can put at its path:
/// only a regular file is read, nothing blocks, and a save never follows a planted link.
@Suite struct ConfigFileFaultTests {
    /// Runs `body` on its own thread; false when it has not returned after `seconds`
    /// (then `unblock` runs, so a stuck thread can finish and the test does not hang).
    static func returns(within seconds: Double, unblock: () -> Void, _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            done.signal()
        }
        if done.wait(timeout: .now() + seconds) == .success { return true }
        unblock()
        _ = done.wait(timeout: .now() + 10)
        return false
    }

    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        let sandbox = try Sandbox()
        let path = sandbox.root + "/fitd.conf"
        #expect(mkfifo(path, 0o600) == 0)
        let result = Mutex<Result<ConfigFile?, FitScaleError>?>(nil)
        let returned = Self.returns(within: 5, unblock: {
            // A writer unblocks a reader stuck in open(2) (fifo(7)).
            let fd = open(path, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }) {
            let outcome = Result { () throws(FitScaleError) in try ConfigFile.load(path: path) }
            result.withLock { $0 = outcome }
        }
        #expect(returned, "ConfigFile.load blocked on a FIFO")
        #expect(result.withLock { $0 } == .failure(.notRegularFile(path: path, kind: "a FIFO")))
    }

    @Test func aSymbolicLinkIsRefusedEvenToARegularFile() throws {
        let sandbox = try Sandbox()
        let target = sandbox.root + "/real.conf"
        try sandbox.write(target, "[text]\nscale = 2\n")
        let link = sandbox.root + "/fitd.conf"
        #expect(symlink(target, link) == 0)
        // fitd's own file: a save replaces the path by rename, so a link would silently stop
        // being one; refusing it says so at once.
        #expect(throws: FitScaleError.notRegularFile(path: link, kind: "a symbolic link")) { try ConfigFile.load(path: link) }
        // Another program's file (kdeglobals) may be a dotfile manager's link to a regular file.
        #expect(try ConfigFile.load(path: link, strict: false, followingLinks: true)?.value(section: "text", key: "scale") == "2")
    }

    @Test func aLinkToADeviceIsRefusedUnread() throws {
        let sandbox = try Sandbox()
        let link = sandbox.root + "/fitd.conf"
        #expect(symlink("/dev/zero", link) == 0)
        #expect(throws: FitScaleError.notRegularFile(path: link, kind: "a symbolic link")) { try ConfigFile.load(path: link) }
        // Followed, /dev/zero is still no regular file (read, it would never end).
        #expect(throws: FitScaleError.notRegularFile(path: link, kind: "a character device")) {
            try ConfigFile.load(path: link, strict: false, followingLinks: true)
        }
    }

    @Test func aDirectoryIsRefused() throws {
        let sandbox = try Sandbox()
        let path = sandbox.root + "/fitd.conf"
        #expect(mkdir(path, 0o700) == 0)
        #expect(throws: FitScaleError.notRegularFile(path: path, kind: "a directory")) { try ConfigFile.load(path: path) }
    }

    @Test(.enabled(if: geteuid() != 0, "root reads a mode-000 file: the test would prove nothing"))
    func anUnreadableFileIsAFileSystemError() throws {
        let sandbox = try Sandbox()
        let path = sandbox.root + "/fitd.conf"
        try sandbox.write(path, "[text]\nscale = 2\n")
        #expect(chmod(path, 0) == 0)
        #expect(throws: FitScaleError.fileSystem(operation: "open", path: path, errno: EACCES)) { try ConfigFile.load(path: path) }
    }

    @Test func nulBytesAndGarbageAreSyntaxErrors() throws {
        let sandbox = try Sandbox()
        let path = sandbox.root + "/fitd.conf"
        try Data("[text]\nscale = 1\0\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: FitScaleError.configSyntax(path: path, line: 0, reason: "the file contains NUL bytes")) {
            try ConfigFile.load(path: path)
        }
        var random = SystemRandomNumberGenerator()
        try Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }).write(to: URL(fileURLWithPath: path))
        #expect(throws: FitScaleError.self) { try ConfigFile.load(path: path) }
    }

    @Test func theTemporaryFileNeverFollowsAPlantedLink() throws {
        let sandbox = try Sandbox()
        let victim = sandbox.root + "/victim"
        try sandbox.write(victim, "precious\n")
        let directory = sandbox.root + "/fitd"
        #expect(mkdir(directory, 0o700) == 0)
        // The next two names the generator will give are links to the victim.
        #expect(symlink(victim, directory + "/.fitd.conf.a.tmp") == 0)
        #expect(symlink(victim, directory + "/.fitd.conf.b.tmp") == 0)
        var names = ["a", "b", "c"].makeIterator()
        let (fd, path) = try ConfigFile.createTemporary(directory: directory, name: "fitd.conf") { names.next() ?? "z" }
        close(fd)
        #expect(path == directory + "/.fitd.conf.c.tmp")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        // Every name taken: a named error after a bounded number of attempts, nothing written.
        #expect(throws: FitScaleError.fileSystem(operation: "create", path: directory + "/.fitd.conf.a.tmp", errno: EEXIST)) {
            try ConfigFile.createTemporary(directory: directory, name: "fitd.conf") { "a" }
        }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
    }

    @Test func theOldPidNamedTemporaryLinkIsNotFollowedBySave() throws {
        let sandbox = try Sandbox()
        let victim = sandbox.root + "/victim"
        try sandbox.write(victim, "precious\n")
        let path = sandbox.environment.fitdConfigPath
        try sandbox.write(path, "[text]\nscale = 2\n")
        // A predictable temporary name, as .fitd.conf.<pid>.tmp opened O_TRUNC would be.
        #expect(symlink(victim, sandbox.configHome + "/fitd/.fitd.conf.\(getpid()).tmp") == 0)
        try ExplicitScaleStore(path: path).save(try TextScale(3))
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(try ExplicitScaleStore(path: path).load() == (try TextScale(3)))
    }

    @Test func aFailedSaveLeavesTheOldFileAndNoTemporaryFile() throws {
        let sandbox = try Sandbox()
        let directory = sandbox.root + "/fitd"
        let path = directory + "/fitd.conf"
        // rename(2) over a non-empty directory fails (EISDIR): the last step of the save.
        #expect(mkdir(directory, 0o700) == 0 && mkdir(path, 0o700) == 0)
        try sandbox.write(path + "/keep", "x")
        var file = ConfigFile()
        file.setValue("1.5", section: "text", key: "scale")
        #expect(throws: FitScaleError.fileSystem(operation: "rename", path: path, errno: EISDIR)) { try file.save(path: path) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["fitd.conf"])
    }

    @Test func aFailedSetKeepsTheOldValueInForce() async throws {
        let sandbox = try Sandbox()
        try sandbox.writeFontconfig()
        let path = sandbox.environment.fitdConfigPath
        try sandbox.write(path, "[text]\nscale = 1.5\n")
        let state = TextScaleState(environment: sandbox.environment, logger: LogCapture().logger)
        #expect(await state.reload().factor == 1.5)
        // The directory becomes unusable for the temporary file: fitd.conf's directory is
        // replaced by a file, so creating the temporary file fails with ENOTDIR.
        try FileManager.default.moveItem(atPath: sandbox.configHome + "/fitd", toPath: sandbox.root + "/saved")
        try sandbox.write(sandbox.configHome + "/fitd", "not a directory")
        await #expect(throws: FitScaleError.self) { try await state.setExplicitScale(2) }
        #expect(await state.snapshot.factor == 1.5)
        #expect(await state.snapshot.source == .explicit)
    }
}
