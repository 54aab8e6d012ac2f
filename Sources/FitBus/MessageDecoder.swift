import CDBus
#if canImport(Glibc)
import Glibc
#endif

/// Decodes a message body into `DBusValue`s, walking the body's signature alongside
/// libdbus's iterator. The signature gives every array's element type for free, where
/// asking libdbus (`dbus_message_iter_get_signature`) allocated a C string per array
/// and FitBus then sliced it into several Swift strings: a batch of 1,000 `(ssa{sv})`
/// entries paid that 1,000 times.
///
/// libdbus validated the body against its signature when the message was received
/// (`_dbus_validate_body_with_reason`); every index into the signature is still bounds
/// checked and every type code compared with the iterator's, so a mismatch is an error,
/// never an out-of-bounds read.
struct MessageDecoder {
    private let signature: UnsafeBufferPointer<UInt8>
    /// Element signatures longer than Swift's small-string limit (15 bytes), by their
    /// offset in `signature`, so the entries of a batch share one allocation.
    private var strings: [Int: String] = [:]
    /// Values plus string bytes still allowed; exceeding it stops decoding (see
    /// MethodDispatcher.immediateBudget). Int.max for an ordinary decode.
    private(set) var budget: Int

    init(signature: UnsafeBufferPointer<UInt8>, budget: Int = .max) {
        self.signature = signature
        self.budget = budget
    }

    static let overBudget = DBusError(.limitsExceeded, "the message is larger than this decoder's budget")

    /// Decodes all of a message's arguments.
    static func arguments(of message: OpaquePointer, budget: Int = .max) throws(DBusError) -> [DBusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0, let text = dbus_message_get_signature(message) else {
            return []  // empty body
        }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text))
        var decoder = MessageDecoder(signature: bytes, budget: budget)
        var values: [DBusValue] = []
        var position = 0
        while dbus_message_iter_get_arg_type(&iter) != fit_dbus_type_invalid {
            values.append(try decoder.read(&iter, at: &position))
            dbus_message_iter_next(&iter)
        }
        return values
    }

    private static let mismatch = DBusError.invalidArgs("the message body does not match its signature")

    /// Reads the value under `iter`, whose type starts at `position`; leaves `position`
    /// just after that type.
    mutating func read(_ iter: inout DBusMessageIter, at position: inout Int) throws(DBusError) -> DBusValue {
        let type = dbus_message_iter_get_arg_type(&iter)
        // A signature spells a struct "(", the iterator reports DBUS_TYPE_STRUCT ("r").
        guard position < signature.count,
            (signature[position] == UInt8(ascii: "(") ? fit_dbus_type_struct : Int32(signature[position])) == type
        else { throw Self.mismatch }
        budget -= 1
        guard budget >= 0 else { throw Self.overBudget }
        switch type {
        case fit_dbus_type_array:
            let elementStart = position + 1
            let end = try completeTypeEnd(elementStart)
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            let value = signature[elementStart] == UInt8(ascii: "{")
                ? try readDictionary(&sub, elementStart: elementStart, end: end)
                : try readArray(&sub, elementStart: elementStart, end: end)
            position = end
            return value
        case fit_dbus_type_struct:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            var fields: [DBusValue] = []
            var inner = position + 1
            while dbus_message_iter_get_arg_type(&sub) != fit_dbus_type_invalid {
                fields.append(try read(&sub, at: &inner))
                dbus_message_iter_next(&sub)
            }
            guard inner < signature.count, signature[inner] == UInt8(ascii: ")") else { throw Self.mismatch }
            position = inner + 1
            return .structure(fields)
        case fit_dbus_type_variant:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            position += 1
            return .variant(try readVariantContent(&sub))
        default:
            position += 1
            return try readBasic(&iter, type)
        }
    }

    private mutating func readArray(_ sub: inout DBusMessageIter, elementStart: Int, end: Int) throws(DBusError) -> DBusValue {
        let element = string(elementStart, end)
        if end == elementStart + 1, let fixed = Self.readFixedArray(&sub, Int32(signature[elementStart])) {
            budget -= fixed.count
            guard budget >= 0 else { throw Self.overBudget }
            return .array(elementSignature: element, fixed)
        }
        var items: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&sub) != fit_dbus_type_invalid {
            var itemPosition = elementStart
            items.append(try read(&sub, at: &itemPosition))
            dbus_message_iter_next(&sub)
        }
        return .array(elementSignature: element, items)
    }

    /// `a{kv}`: the key is one basic-type code, the value the rest up to `}`.
    private mutating func readDictionary(_ sub: inout DBusMessageIter, elementStart: Int, end: Int) throws(DBusError) -> DBusValue {
        guard end - elementStart >= 4 else { throw Self.mismatch }
        let key = string(elementStart + 1, elementStart + 2)
        let valueType = string(elementStart + 2, end - 1)
        var entries: [(key: DBusValue, value: DBusValue)] = []
        while dbus_message_iter_get_arg_type(&sub) == fit_dbus_type_dict_entry {
            var pair = DBusMessageIter()
            dbus_message_iter_recurse(&sub, &pair)
            var inner = elementStart + 1
            let k = try read(&pair, at: &inner)
            dbus_message_iter_next(&pair)
            entries.append((k, try read(&pair, at: &inner)))
            dbus_message_iter_next(&sub)
        }
        return .dictionary(keySignature: key, valueSignature: valueType, entries)
    }

    private func completeTypeEnd(_ start: Int) throws(DBusError) -> Int {
        guard let end = DBusSignature.completeTypeEnd(signature, start) else { throw Self.mismatch }
        return end
    }

    private mutating func string(_ start: Int, _ end: Int) -> String {
        let bytes = UnsafeBufferPointer(rebasing: signature[start..<end])
        guard bytes.count > 15 else { return String(decoding: bytes, as: UTF8.self) }
        if let known = strings[start] { return known }
        let text = String(decoding: bytes, as: UTF8.self)
        strings[start] = text
        return text
    }

    /// A variant names its own type: a basic value is read directly, a container with
    /// the signature libdbus reports for it.
    mutating func readVariantContent(_ sub: inout DBusMessageIter) throws(DBusError) -> DBusValue {
        let type = dbus_message_iter_get_arg_type(&sub)
        switch type {
        case fit_dbus_type_array, fit_dbus_type_struct, fit_dbus_type_variant:
            // dbus_message_iter_get_signature returns memory the caller frees with dbus_free.
            guard let text = dbus_message_iter_get_signature(&sub) else { throw .noMemory("reading a signature") }
            defer { dbus_free(text) }
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text))
            var decoder = MessageDecoder(signature: bytes, budget: budget)
            var position = 0
            defer { budget = decoder.budget }
            return try decoder.read(&sub, at: &position)
        default:
            return try readBasic(&sub, type)
        }
    }

    private mutating func readBasic(_ iter: inout DBusMessageIter, _ type: Int32) throws(DBusError) -> DBusValue {
        var basic = DBusBasicValue()
        switch type {
        case fit_dbus_type_string, fit_dbus_type_object_path, fit_dbus_type_signature:
            dbus_message_iter_get_basic(&iter, &basic)
            guard let pointer = basic.str else { throw .invalidArgs("a string argument is missing") }
            // strnlen first, so that an over-budget string is refused without reading it all.
            let length = strnlen(pointer, min(budget, Int.max - 1) + 1)
            budget -= length
            guard budget >= 0 else { throw Self.overBudget }
            guard let text = String(validatingCString: pointer) else {
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

    /// An array of a fixed-size type in one call (dbus_message_iter_get_fixed_array), which
    /// points into the message instead of stepping the iterator per element. Nil for other types.
    private static func readFixedArray(_ sub: inout DBusMessageIter, _ code: Int32) -> [DBusValue]? {
        func items<T>(_ type: T.Type, _ make: (T) -> DBusValue) -> [DBusValue] {
            var pointer: UnsafeRawPointer? = nil
            var count: Int32 = 0
            dbus_message_iter_get_fixed_array(&sub, &pointer, &count)
            guard let pointer, count > 0 else { return [] }
            return UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: T.self), count: Int(count)).map(make)
        }
        switch code {
        case fit_dbus_type_byte: return items(UInt8.self, DBusValue.byte)
        case fit_dbus_type_boolean: return items(dbus_bool_t.self) { .boolean($0 != 0) }
        case fit_dbus_type_int16: return items(Int16.self, DBusValue.int16)
        case fit_dbus_type_uint16: return items(UInt16.self, DBusValue.uint16)
        case fit_dbus_type_int32: return items(Int32.self, DBusValue.int32)
        case fit_dbus_type_uint32: return items(UInt32.self, DBusValue.uint32)
        case fit_dbus_type_int64: return items(Int64.self, DBusValue.int64)
        case fit_dbus_type_uint64: return items(UInt64.self, DBusValue.uint64)
        case fit_dbus_type_double: return items(Double.self, DBusValue.double)
        default: return nil
        }
    }
}
