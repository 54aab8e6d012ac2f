import CDBus

/// Name checks for header fields. libdbus aborts the process (a failed `_dbus_return_if_fail`
/// check is fatal by default) when a setter such as `dbus_message_set_member` gets an
/// invalid name, so every name that reaches libdbus is checked here first with libdbus's
/// own public validators (dbus-syntax.h), which implement the specification's
/// "Valid Names" and "Valid Object Paths" rules.
enum DBusNames {
    static func isValidObjectPath(_ path: String) -> Bool {
        valid(path) { dbus_validate_path($0, nil) }
    }

    static func isValidInterface(_ name: String) -> Bool {
        valid(name) { dbus_validate_interface($0, nil) }
    }

    static func isValidMember(_ name: String) -> Bool {
        valid(name) { dbus_validate_member($0, nil) }
    }

    static func isValidErrorName(_ name: String) -> Bool {
        valid(name) { dbus_validate_error_name($0, nil) }
    }

    static func isValidBusName(_ name: String) -> Bool {
        valid(name) { dbus_validate_bus_name($0, nil) }
    }

    /// A NUL inside a Swift string would silently truncate the C string, so it is refused.
    private static func valid(_ text: String, _ check: (UnsafePointer<CChar>) -> dbus_bool_t) -> Bool {
        guard !text.utf8.contains(0) else { return false }
        return text.withCString { check($0) != 0 }
    }

    static func requireObjectPath(_ path: String) throws(DBusError) {
        guard isValidObjectPath(path) else { throw .invalidArgs("invalid object path \"\(path)\"") }
    }

    static func requireInterface(_ name: String) throws(DBusError) {
        guard isValidInterface(name) else { throw .invalidArgs("invalid interface name \"\(name)\"") }
    }

    static func requireMember(_ name: String) throws(DBusError) {
        guard isValidMember(name) else { throw .invalidArgs("invalid member name \"\(name)\"") }
    }

    static func requireBusName(_ name: String) throws(DBusError) {
        guard isValidBusName(name) else { throw .invalidArgs("invalid bus name \"\(name)\"") }
    }
}
