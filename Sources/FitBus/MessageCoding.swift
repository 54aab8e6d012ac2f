import CDBus

/// Marshalling between `DBusValue` and a message body through libdbus's iterator API
/// (`dbus_message_iter_*`), never the variadic `dbus_message_append_args`.
extension DBusMessage {
    /// Appends values to the body. Every value is validated first, because libdbus aborts
    /// on an element of the wrong type or an invalid string; after validation the only
    /// failure left is running out of memory.
    public func append(_ values: [DBusValue]) throws(DBusError) {
        for value in values { try value.validate() }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(raw, &iter)
        for value in values { try Self.write(value, to: &iter) }
    }

    /// Decodes the whole body. libdbus validated it against its signature when it was
    /// received (`_dbus_validate_body_with_reason`), so the shapes below always match;
    /// what is left to refuse are types FitBus does not support (`h`).
    public func arguments() throws(DBusError) -> [DBusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iter) != 0 else { return [] }  // empty body
        return try Self.readAll(&iter)
    }

    private static func write(_ value: DBusValue, to iter: inout DBusMessageIter) throws(DBusError) {
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

    private static func readAll(_ iter: inout DBusMessageIter) throws(DBusError) -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iter) != fit_dbus_type_invalid {
            values.append(try read(&iter))
            dbus_message_iter_next(&iter)
        }
        return values
    }

    private static func read(_ iter: inout DBusMessageIter) throws(DBusError) -> DBusValue {
        let type = dbus_message_iter_get_arg_type(&iter)
        var basic = DBusBasicValue()
        switch type {
        case fit_dbus_type_array:
            let signature = try iteratorSignature(&iter)
            let element = String(signature.dropFirst())
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            guard element.hasPrefix("{") else {
                return .array(elementSignature: element, try readAll(&sub))
            }
            // "{kv}": the key is one basic-type code, the value the rest.
            let inner = element.dropFirst().dropLast()
            let key = String(inner.prefix(1))
            var entries: [(key: DBusValue, value: DBusValue)] = []
            while dbus_message_iter_get_arg_type(&sub) == fit_dbus_type_dict_entry {
                var pair = DBusMessageIter()
                dbus_message_iter_recurse(&sub, &pair)
                let k = try read(&pair)
                dbus_message_iter_next(&pair)
                entries.append((k, try read(&pair)))
                dbus_message_iter_next(&sub)
            }
            return .dictionary(keySignature: key, valueSignature: String(inner.dropFirst()), entries)
        case fit_dbus_type_struct:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .structure(try readAll(&sub))
        case fit_dbus_type_variant:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .variant(try read(&sub))
        case fit_dbus_type_string, fit_dbus_type_object_path, fit_dbus_type_signature:
            dbus_message_iter_get_basic(&iter, &basic)
            guard let pointer = basic.str, let text = String(validatingCString: pointer) else {
                throw .invalidArgs("a string argument is not valid UTF-8")
            }
            switch type {
            case fit_dbus_type_string: return .string(text)
            case fit_dbus_type_object_path: return .objectPath(text)
            default: return .signature(text)
            }
        case fit_dbus_type_byte: dbus_message_iter_get_basic(&iter, &basic); return .byte(basic.byt)
        case fit_dbus_type_boolean: dbus_message_iter_get_basic(&iter, &basic); return .boolean(basic.bool_val != 0)
        case fit_dbus_type_int16: dbus_message_iter_get_basic(&iter, &basic); return .int16(basic.i16)
        case fit_dbus_type_uint16: dbus_message_iter_get_basic(&iter, &basic); return .uint16(basic.u16)
        case fit_dbus_type_int32: dbus_message_iter_get_basic(&iter, &basic); return .int32(basic.i32)
        case fit_dbus_type_uint32: dbus_message_iter_get_basic(&iter, &basic); return .uint32(basic.u32)
        case fit_dbus_type_int64: dbus_message_iter_get_basic(&iter, &basic); return .int64(Int64(basic.i64))
        case fit_dbus_type_uint64: dbus_message_iter_get_basic(&iter, &basic); return .uint64(UInt64(basic.u64))
        case fit_dbus_type_double: dbus_message_iter_get_basic(&iter, &basic); return .double(basic.dbl)
        default:
            // Only `h` (unix fd) reaches here; see DBusValue for why it is unsupported.
            throw .invalidArgs("unsupported D-Bus type code \(type)")
        }
    }

    /// `dbus_message_iter_get_signature` returns memory the caller frees with `dbus_free`.
    private static func iteratorSignature(_ iter: inout DBusMessageIter) throws(DBusError) -> String {
        guard let raw = dbus_message_iter_get_signature(&iter) else { throw .noMemory("reading a signature") }
        defer { dbus_free(raw) }
        return String(cString: raw)
    }
}
