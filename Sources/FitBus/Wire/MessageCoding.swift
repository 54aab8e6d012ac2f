import CDBus
#if canImport(Glibc)
import Glibc
#endif

/// Marshalling between `DBusValue` and a message body through libdbus's iterator API
/// (`dbus_message_iter_*`), never the variadic `dbus_message_append_args`.
extension DBusMessage {
    /// Appends values to the body. Every value is validated first, because libdbus aborts
    /// on an element of the wrong type or an invalid string; after validation the only
    /// failure left is running out of memory.
    public func append(_ values: [DBusValue]) throws(DBusError) {
        for value in values { try value.validate() }
        // The body's signature has the 255-byte limit as a whole (specification, "Valid
        // Signatures"); libdbus does not check it here, and then spends minutes on the message.
        var length = dbus_message_get_signature(raw).map { strlen($0) } ?? 0
        for value in values { length += value.signature.utf8.count }
        guard length <= DBusSignature.maximumLength else {
            throw .invalidArgs("the arguments' signature is longer than \(DBusSignature.maximumLength) bytes")
        }
        // Unknown until every value is in: a write that fails halfway leaves a body of no known length.
        let known = knownBodyBytes
        knownBodyBytes = nil
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(raw, &iter)
        for value in values { try Self.write(value, to: &iter) }
        if let known { knownBodyBytes = DBusValue.wireEnd(of: values, from: known) }
    }

    /// Decodes the whole body into values (DBusReader's general path). What is left to refuse
    /// after libdbus's own validation are types FitBus does not support (`h`).
    public func arguments() throws(DBusError) -> [DBusValue] {
        try arguments(atMost: .max)
    }

    /// The same, refusing (LimitsExceeded) a body of more than `limit` bytes before any of it
    /// is copied or decoded: the loop thread's fast paths must not spend long on one caller.
    func arguments(atMost limit: Int) throws(DBusError) -> [DBusValue] {
        guard limit == .max || bodySize(atMost: limit) != nil else {
            throw DBusError(.limitsExceeded, "the message is larger than \(limit) bytes")
        }
        return try DBusReader.readBody(of: self) { (reader) throws(DBusError) -> [DBusValue] in
            var values: [DBusValue] = []
            while !reader.isAtEnd { values.append(try reader.value()) }
            return values
        }
    }

    /// The body's size when fitd built the message (``knownBodyBytes``); otherwise an upper
    /// bound from its top-level arguments, without copying it: arrays report their byte
    /// length, strings their length, containers are summed. nil when it passes `limit`.
    func bodySize(atMost limit: Int) -> Int? {
        if let knownBodyBytes { return knownBodyBytes <= limit ? knownBodyBytes : nil }
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iter) != 0 else { return 0 }
        var total = 0
        func add(_ iter: inout DBusMessageIter) -> Bool {
            while true {
                let type = dbus_message_iter_get_arg_type(&iter)
                switch type {
                case fit_dbus_type_invalid:
                    return true
                case fit_dbus_type_array:
                    // The byte length is read inside the array (dbus_message_iter_get_array_len:
                    // "The iterator must currently be inside an array-typed value"); asked of
                    // the array itself it answered 0, so every array counted as empty.
                    var elements = DBusMessageIter()
                    dbus_message_iter_recurse(&iter, &elements)
                    total += 8 + Int(fit_dbus_message_iter_array_bytes(&elements))
                case fit_dbus_type_string, fit_dbus_type_object_path, fit_dbus_type_signature:
                    var value = DBusBasicValue()
                    dbus_message_iter_get_basic(&iter, &value)
                    total += 8 + (value.str.map { strlen($0) } ?? 0)
                case fit_dbus_type_struct, fit_dbus_type_dict_entry, fit_dbus_type_variant:
                    var sub = DBusMessageIter()
                    dbus_message_iter_recurse(&iter, &sub)
                    total += 8
                    guard add(&sub) else { return false }
                default:
                    total += 8
                }
                guard total <= limit else { return false }
                dbus_message_iter_next(&iter)
            }
        }
        return add(&iter) ? total : nil
    }

    static func write(_ value: DBusValue, to iter: inout DBusMessageIter) throws(DBusError) {
        switch value {
        case .byte(let v): try basic(&iter, fit_dbus_type_byte, v)
        case .boolean(let v): try basic(&iter, fit_dbus_type_boolean, dbus_bool_t(v ? 1 : 0))
        case .int16(let v): try basic(&iter, fit_dbus_type_int16, v)
        case .uint16(let v): try basic(&iter, fit_dbus_type_uint16, v)
        case .int32(let v): try basic(&iter, fit_dbus_type_int32, v)
        case .uint32(let v): try basic(&iter, fit_dbus_type_uint32, v)
        case .int64(let v): try basic(&iter, fit_dbus_type_int64, v)
        case .uint64(let v): try basic(&iter, fit_dbus_type_uint64, v)
        case .double(let v): try basic(&iter, fit_dbus_type_double, v)
        case .string(let v): try string(&iter, fit_dbus_type_string, v)
        case .objectPath(let v): try string(&iter, fit_dbus_type_object_path, v)
        case .signature(let v): try string(&iter, fit_dbus_type_signature, v)
        case .array(let element, let items):
            try container(&iter, fit_dbus_type_array, element) { (sub) throws(DBusError) in
                for item in items { try write(item, to: &sub) }
            }
        case .dictionary(let key, let valueType, let entries):
            try container(&iter, fit_dbus_type_array, "{" + key + valueType + "}") { (sub) throws(DBusError) in
                for entry in entries {
                    try container(&sub, fit_dbus_type_dict_entry, nil) { (pair) throws(DBusError) in
                        try write(entry.key, to: &pair)
                        try write(entry.value, to: &pair)
                    }
                }
            }
        case .structure(let fields):
            try container(&iter, fit_dbus_type_struct, nil) { (sub) throws(DBusError) in
                for field in fields { try write(field, to: &sub) }
            }
        case .variant(let inner):
            try container(&iter, fit_dbus_type_variant, inner.signature) { (sub) throws(DBusError) in
                try write(inner, to: &sub)
            }
        }
    }

    private static func basic<T: BitwiseCopyable>(_ iter: inout DBusMessageIter, _ type: Int32, _ value: T) throws(DBusError) {
        var copy = value
        guard dbus_message_iter_append_basic(&iter, type, &copy) != 0 else {
            throw .noMemory("appending a value")
        }
    }

    /// libdbus takes strings as a pointer to a `const char *` (dbus_message_iter_append_basic docs).
    private static func string(_ iter: inout DBusMessageIter, _ type: Int32, _ value: String) throws(DBusError) {
        let ok = value.withCString { cString in
            var pointer: UnsafePointer<CChar>? = cString
            return dbus_message_iter_append_basic(&iter, type, &pointer)
        }
        guard ok != 0 else { throw .noMemory("appending a string") }
    }

    /// Opens a container, fills it, closes it; on failure abandons it, as libdbus requires
    /// before the message may be freed (dbus_message_iter_abandon_container docs).
    private static func container(
        _ iter: inout DBusMessageIter, _ type: Int32, _ contained: String?,
        _ body: (inout DBusMessageIter) throws(DBusError) -> Void
    ) throws(DBusError) {
        var sub = DBusMessageIter()
        let opened = withOptionalCString(contained) { dbus_message_iter_open_container(&iter, type, $0, &sub) }
        guard opened != 0 else { throw .noMemory("opening a container") }
        do {
            try body(&sub)
        } catch {
            dbus_message_iter_abandon_container(&iter, &sub)
            throw error
        }
        guard dbus_message_iter_close_container(&iter, &sub) != 0 else {
            throw .noMemory("closing a container")
        }
    }
}
