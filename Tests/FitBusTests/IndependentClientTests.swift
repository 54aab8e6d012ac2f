import Testing
@testable import FitBus

/// Clients no one here wrote: GLib's gdbus and systemd's busctl.
@Suite(.serialized) struct IndependentClientTests {
    @Test func gdbusCallsAndIntrospects() async throws {
        try await withBus { (bus, _, _) async throws in
            let add = try await runTool("/usr/bin/gdbus", [
                "call", "--session", "--dest", TestObject.busName, "--object-path", TestObject.path,
                "--method", "org.fitbus.Test.Add", "20", "22",
            ], busAddress: bus.address)
            #expect(add.status == 0, "\(add.error)")
            #expect(add.output == "(42,)\n")

            let echo = try await runTool("/usr/bin/gdbus", [
                "call", "--session", "--dest", TestObject.busName, "--object-path", TestObject.path,
                "--method", "org.fitbus.Test.Echo", "héllo",
            ], busAddress: bus.address)
            #expect(echo.output == "('héllo',)\n")

            let introspect = try await runTool("/usr/bin/gdbus", [
                "introspect", "--session", "--dest", TestObject.busName, "--object-path", TestObject.path,
            ], busAddress: bus.address)
            #expect(introspect.status == 0, "\(introspect.error)")
            #expect(introspect.output.contains("interface org.fitbus.Test {"))
            #expect(introspect.output.contains("Add(in  i arg_0,"))
            #expect(introspect.output.contains("readwrite s Name = 'initial';"))
            #expect(introspect.output.contains("readonly u Count = 42;"))
        }
    }

    @Test func busctlCallsAndReadsProperties() async throws {
        try await withBus { (bus, _, _) async throws in
            let add = try await runTool("/usr/bin/busctl", [
                "--user", "call", TestObject.busName, TestObject.path, TestObject.interface, "Add", "ii", "2", "3",
            ], busAddress: bus.address)
            #expect(add.status == 0, "\(add.error)")
            #expect(add.output == "i 5\n")

            let property = try await runTool("/usr/bin/busctl", [
                "--user", "get-property", TestObject.busName, TestObject.path, TestObject.interface, "Count",
            ], busAddress: bus.address)
            #expect(property.output == "u 42\n")

            let set = try await runTool("/usr/bin/busctl", [
                "--user", "set-property", TestObject.busName, TestObject.path, TestObject.interface, "Name", "s", "from busctl",
            ], busAddress: bus.address)
            #expect(set.status == 0, "\(set.error)")
            let name = try await runTool("/usr/bin/busctl", [
                "--user", "get-property", TestObject.busName, TestObject.path, TestObject.interface, "Name",
            ], busAddress: bus.address)
            #expect(name.output == "s \"from busctl\"\n")

            // busctl sends whatever signature it is told, so the server's check is what answers.
            let wrong = try await runTool("/usr/bin/busctl", [
                "--user", "call", TestObject.busName, TestObject.path, TestObject.interface, "Add", "s", "x",
            ], busAddress: bus.address)
            #expect(wrong.status != 0)
            #expect(wrong.error.contains("expected signature ii, got s"), "\(wrong.error)")

            let unknown = try await runTool("/usr/bin/busctl", [
                "--user", "call", TestObject.busName, TestObject.path, TestObject.interface, "Missing",
            ], busAddress: bus.address)
            #expect(unknown.status != 0)
        }
    }
}
