/// Hashing consistent with `==` (doubles by bit pattern), so a decoded request can key a
/// cache before anything is built from it (LayoutService's reply cache).
extension DBusValue: Hashable {
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .byte(let v): hasher.combine(0 as UInt8); hasher.combine(v)
        case .boolean(let v): hasher.combine(1 as UInt8); hasher.combine(v)
        case .int16(let v): hasher.combine(2 as UInt8); hasher.combine(v)
        case .uint16(let v): hasher.combine(3 as UInt8); hasher.combine(v)
        case .int32(let v): hasher.combine(4 as UInt8); hasher.combine(v)
        case .uint32(let v): hasher.combine(5 as UInt8); hasher.combine(v)
        case .int64(let v): hasher.combine(6 as UInt8); hasher.combine(v)
        case .uint64(let v): hasher.combine(7 as UInt8); hasher.combine(v)
        case .double(let v): hasher.combine(8 as UInt8); hasher.combine(v.bitPattern)
        case .string(let v): hasher.combine(9 as UInt8); hasher.combine(v)
        case .objectPath(let v): hasher.combine(10 as UInt8); hasher.combine(v)
        case .signature(let v): hasher.combine(11 as UInt8); hasher.combine(v)
        case .array(let element, let items):
            hasher.combine(12 as UInt8); hasher.combine(element); hasher.combine(items)
        case .dictionary(let key, let value, let entries):
            hasher.combine(13 as UInt8); hasher.combine(key); hasher.combine(value); hasher.combine(entries.count)
            for entry in entries {
                hasher.combine(entry.key)
                hasher.combine(entry.value)
            }
        case .structure(let fields): hasher.combine(14 as UInt8); hasher.combine(fields)
        case .variant(let inner): hasher.combine(15 as UInt8); hasher.combine(inner)
        }
    }
}
