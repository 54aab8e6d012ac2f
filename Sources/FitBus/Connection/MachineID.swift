import CDBus

enum MachineID {
    /// `dbus_try_get_local_machine_id`, not `dbus_get_local_machine_id`, which aborts when
    /// /etc/machine-id is missing (libdbus docs). The result is freed with `dbus_free`.
    static var current: String? {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let raw = dbus_try_get_local_machine_id(&error) else { return nil }
        defer { dbus_free(raw) }
        return String(validatingCString: raw)
    }
}
