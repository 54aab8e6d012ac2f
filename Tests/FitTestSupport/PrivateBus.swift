import FitBus
import Foundation

/// A private dbus-daemon for one test, so tests never touch the user's session bus. The
/// config allows everything; max_message_size is the system bus's 32 MiB (dbus-daemon(1),
/// "max_message_size"), as scripts/private-bus sets it, so oversized messages are refused.
/// Shared by the test targets that need a bus (FitBusTests, FitServiceTests).
public final class PrivateBus {
    public let process = Process()
    public let address: String
    public let directory: URL

    static func config(maxMessageSize: Int) -> String { """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:tmpdir=/tmp</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
          <limit name="max_message_size">\(maxMessageSize)</limit>
        </busconfig>
        """
    }

    /// - Parameter maxMessageSize: the bus's max_message_size; the system bus's 32 MiB by default.
    public init(maxMessageSize: Int = 32 << 20) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("fit-test-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let configURL = directory.appendingPathComponent("bus.conf")
        try Self.config(maxMessageSize: maxMessageSize).write(to: configURL, atomically: true, encoding: .utf8)
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--config-file=\(configURL.path)", "--nofork", "--print-address=1"]
        process.standardOutput = output
        // The bus's complaints (fd limits in containers) are not the test's output.
        process.standardError = FileHandle.nullDevice
        try process.run()
        // dbus-daemon prints its address once it listens; a short blocking read is fine in a test.
        var text = ""
        while !text.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        address = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if address.isEmpty { stop(); throw DBusError(.failed, "dbus-daemon printed no address") }
    }

    public func stop() {
        if process.isRunning {
            // SIGKILL, not terminate(): the child inherits the test runner's signal mask, in
            // which SIGTERM may be blocked, so dbus-daemon would never see it.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}
