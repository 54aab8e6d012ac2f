/// A D-Bus error: a name from the error-name grammar (D-Bus specification, "Valid Error
/// Names") and a human-readable message. Error replies carry both on the wire: the name in
/// the ERROR_NAME header field, the message as the first body argument (specification,
/// "Message Types: ERROR").
///
/// Failures on the client side (timeouts, a closed connection, cancellation) use the
/// standard names libdbus itself reports where one exists, so callers match one type.
public struct DBusError: Error, Sendable, Hashable, CustomStringConvertible {
    public var name: Name
    public var message: String

    public init(_ name: Name, _ message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(name.rawValue): \(message)" }

    /// True when the call got no reply in time. libdbus reports its own timeout of a
    /// pending call as NoReply (dbus-connection.c, `reply_handler_timeout`).
    public var isTimeout: Bool { name == .noReply || name == .timeout }

    /// An error name. The standard names are `DBUS_ERROR_*` in dbus-protocol.h.
    public struct Name: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
        CustomStringConvertible
    {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { self.rawValue = value }
        public var description: String { rawValue }

        /// `DBUS_ERROR_FAILED`: a generic failure, used when nothing more specific fits.
        public static let failed: Name = "org.freedesktop.DBus.Error.Failed"
        /// `DBUS_ERROR_NO_MEMORY`
        public static let noMemory: Name = "org.freedesktop.DBus.Error.NoMemory"
        /// `DBUS_ERROR_SERVICE_UNKNOWN`
        public static let serviceUnknown: Name = "org.freedesktop.DBus.Error.ServiceUnknown"
        /// `DBUS_ERROR_NAME_HAS_NO_OWNER`
        public static let nameHasNoOwner: Name = "org.freedesktop.DBus.Error.NameHasNoOwner"
        /// `DBUS_ERROR_NO_REPLY`: libdbus's pending-call timeout.
        public static let noReply: Name = "org.freedesktop.DBus.Error.NoReply"
        /// `DBUS_ERROR_TIMEOUT`
        public static let timeout: Name = "org.freedesktop.DBus.Error.Timeout"
        /// `DBUS_ERROR_DISCONNECTED`: the connection is closed.
        public static let disconnected: Name = "org.freedesktop.DBus.Error.Disconnected"
        /// `DBUS_ERROR_INVALID_ARGS`: wrong signature, a bad value, a missing argument.
        public static let invalidArgs: Name = "org.freedesktop.DBus.Error.InvalidArgs"
        /// `DBUS_ERROR_INVALID_SIGNATURE`
        public static let invalidSignature: Name = "org.freedesktop.DBus.Error.InvalidSignature"
        /// `DBUS_ERROR_UNKNOWN_METHOD`
        public static let unknownMethod: Name = "org.freedesktop.DBus.Error.UnknownMethod"
        /// `DBUS_ERROR_UNKNOWN_OBJECT`
        public static let unknownObject: Name = "org.freedesktop.DBus.Error.UnknownObject"
        /// `DBUS_ERROR_UNKNOWN_INTERFACE`
        public static let unknownInterface: Name = "org.freedesktop.DBus.Error.UnknownInterface"
        /// `DBUS_ERROR_UNKNOWN_PROPERTY`
        public static let unknownProperty: Name = "org.freedesktop.DBus.Error.UnknownProperty"
        /// `DBUS_ERROR_PROPERTY_READ_ONLY`
        public static let propertyReadOnly: Name = "org.freedesktop.DBus.Error.PropertyReadOnly"
        /// `DBUS_ERROR_ACCESS_DENIED`
        public static let accessDenied: Name = "org.freedesktop.DBus.Error.AccessDenied"
        /// `DBUS_ERROR_NOT_SUPPORTED`
        public static let notSupported: Name = "org.freedesktop.DBus.Error.NotSupported"
        /// `DBUS_ERROR_LIMITS_EXCEEDED`
        public static let limitsExceeded: Name = "org.freedesktop.DBus.Error.LimitsExceeded"
        /// Not a libdbus name: the awaiting Swift task was cancelled. The D-Bus namespace
        /// is reserved, so FitBus uses its own.
        public static let cancelled: Name = "org.fitd.FitBus.Error.Cancelled"
    }
}

extension DBusError {
    static func invalidArgs(_ message: String) -> DBusError { DBusError(.invalidArgs, message) }
    static func failed(_ message: String) -> DBusError { DBusError(.failed, message) }
    static func noMemory(_ what: String) -> DBusError {
        DBusError(.noMemory, "libdbus could not allocate memory while \(what)")
    }
    static let closed = DBusError(.disconnected, "the connection is closed")
}
