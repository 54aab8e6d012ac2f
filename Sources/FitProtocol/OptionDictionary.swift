import FitBus
import FitTypes

/// An `a{sv}` dictionary read strictly: every key must be known and every value of the
/// right type, so a typo or a wrong type is an error rather than a silently ignored option.
public struct OptionDictionary: Sendable {
    public private(set) var entries: [String: DBusValue] = [:]

    public init(_ value: DBusValue) throws(DBusError) {
        guard case .dictionary(let keySignature, let valueSignature, let pairs) = value, keySignature == "s", valueSignature == "v" else {
            throw .invalidArgument("options must be a{sv}, got \(value.signature)")
        }
        for (key, value) in pairs {
            guard case .string(let name) = key else { throw .invalidArgument("option keys must be strings") }
            guard entries[name] == nil else { throw .invalidArgument("option \"\(name)\" is given twice") }
            entries[name] = value.unwrapped
        }
    }

    public init(_ entries: [String: DBusValue] = [:]) { self.entries = entries }

    /// Reads an `a{sv}` off the wire. A malformed body throws; a key given twice is the
    /// request's own error, returned, so that one entry of a batch fails alone.
    public static func read(_ reader: inout DBusReader) throws(DBusError) -> Result<OptionDictionary, DBusError> {
        var entries: [String: DBusValue] = [:]
        var twice: String?
        try reader.array { (entry) throws(DBusError) in
            try entry.structure { (pair) throws(DBusError) in
                let name = try pair.string()
                let value = try pair.variant()
                if entries.updateValue(value.unwrapped, forKey: name) != nil { twice = twice ?? name }
            }
        }
        if let twice { return .failure(.invalidArgument("option \"\(twice)\" is given twice")) }
        return .success(OptionDictionary(entries))
    }

    /// Writes the dictionary as `a{sv}`, keys sorted like `dbusValue`.
    public func write(to writer: inout DBusWriter) throws(DBusError) {
        let sorted = entries.sorted { $0.key < $1.key }
        try writer.array { (entries) throws(DBusError) in
            for (key, value) in sorted {
                try entries.dictionaryEntry { (pair) throws(DBusError) in
                    try pair.append(key)
                    try pair.append(DBusValue.variant(value))
                }
            }
        }
    }

    public mutating func set(_ key: String, _ value: DBusValue) {
        entries[key] = value
    }

    /// Takes `key` out (a method's own options, read before the shared ones are checked).
    public mutating func remove(_ key: String) -> DBusValue? {
        entries.removeValue(forKey: key)
    }

    /// The `ui_font` option of Measure and Layout alike: a Pango description of 1 to 1024
    /// bytes (whether it names a family is checked where it is resolved,
    /// TextStyleFont.uiFont(requested:user:)).
    public func uiFont() throws(DBusError) -> String? {
        guard let font = try string("ui_font") else { return nil }
        do throws(FitTextError) {
            return try MeasureRequest.uiFontOption(font)
        } catch {
            throw DBusError(error)
        }
    }

    /// An option's value in the shape its row (MeasureOptions, LayoutOptionTable) takes, or a
    /// D-Bus type error naming the key; nil when the dictionary does not hold it.
    func optionValue<Target>(_ option: RequestOption<Target>) throws(DBusError) -> OptionValue? {
        switch option.kind {
        case .number: return try double(option.name).map(OptionValue.number)
        case .wholeNumber: return try integer(option.name).map { .number(Double($0)) }
        case .string: return try string(option.name).map(OptionValue.string)
        case .bool: return try bool(option.name).map(OptionValue.bool)
        case .stringList: return try strings(option.name).map(OptionValue.strings)
        case .range: return try range(option.name).map { OptionValue.range($0.0, $0.1) }
        }
    }

    /// Takes every option the dictionary holds into `target` through its row of `table`
    /// (MeasureOptions, LayoutOptionTable): an unknown key is UnknownOption, a value of the
    /// wrong D-Bus type or meaning InvalidArgument naming the option. Rows are taken in the
    /// table's order, so that of two bad options the same one is named every time.
    func apply<Target>(_ table: [RequestOption<Target>], names: Set<String>, to target: inout Target) throws(DBusError) {
        // Most requests carry no options: a walk of the table finding nothing is not free.
        guard !entries.isEmpty else { return }
        try rejectUnknown(known: names)
        for option in table {
            guard let value = try optionValue(option) else { continue }
            do throws(FitTextError) {
                try option.apply(&target, value)
            } catch {
                throw DBusError(error)
            }
        }
    }

    /// The options `target` holds other than their defaults, as its rows of `table` send
    /// them, without `leftOut` (an option whose default is the daemon's to apply: the user's
    /// text scale, the user's size category).
    init<Target>(_ target: Target, table: [RequestOption<Target>], leavingOut leftOut: RequestOption<Target>? = nil) {
        var entries: [String: DBusValue] = [:]
        for option in table where option !== leftOut {
            guard let value = option.value(target) else { continue }
            entries[option.name] = DBusValue(value, signature: option.signature)
        }
        self.init(entries)
    }

    /// Writes the options `target` holds other than their defaults as `a{sv}` straight from
    /// `rows` (its table sorted by name, ``sortedByName(_:)``, so the bytes are those of
    /// ``write(to:)`` of the same options), without `leftOut`. No dictionary is built: a
    /// client's batch of 1,000 requests, most with no options, spent more on building and
    /// sorting 1,000 empty dictionaries than on writing the rest of the batch.
    static func write<Target>(
        _ target: Target, rows: [RequestOption<Target>], leavingOut leftOut: RequestOption<Target>? = nil,
        to writer: inout DBusWriter
    ) throws(DBusError) {
        try writer.array { (entries) throws(DBusError) in
            for option in rows where option !== leftOut {
                guard let value = option.value(target) else { continue }
                try entries.dictionaryEntry { (pair) throws(DBusError) in
                    try pair.append(option.name)
                    try pair.append(DBusValue.variant(DBusValue(value, signature: option.signature)))
                }
            }
        }
    }

    /// A table's rows in the order ``write(to:)`` sorts its keys.
    static func sortedByName<Target>(_ table: [RequestOption<Target>]) -> [RequestOption<Target>] {
        table.sorted { $0.name < $1.name }
    }

    /// A `(dd)` option: two numbers, the least and the greatest.
    public func range(_ key: String) throws(DBusError) -> (Double, Double)? {
        guard let value = entries[key] else { return nil }
        guard case .structure(let fields) = value, fields.count == 2, case .double(let low) = fields[0],
            case .double(let high) = fields[1]
        else { throw .invalidArgument("option \"\(key)\" must be (dd), the least and the greatest, got \(value.signature)") }
        return (low, high)
    }

    public func rejectUnknown(known: Set<String>) throws(DBusError) {
        if let unknown = entries.keys.sorted().first(where: { !known.contains($0) }) {
            throw .unknownOption("unknown option \"\(unknown)\"; known options: \(known.sorted().joined(separator: ", "))")
        }
    }

    public func double(_ key: String) throws(DBusError) -> Double? {
        guard let value = entries[key] else { return nil }
        switch value {
        case .double(let d): return d
        case .int32(let i): return Double(i)
        case .uint32(let u): return Double(u)
        case .int64(let i): return Double(i)
        case .uint64(let u): return Double(u)
        case .int16(let i): return Double(i)
        case .uint16(let u): return Double(u)
        case .byte(let b): return Double(b)
        default: throw .invalidArgument("option \"\(key)\" must be a number (d, i or u), got \(value.signature)")
        }
    }

    public func integer(_ key: String) throws(DBusError) -> Int? {
        guard let value = entries[key] else { return nil }
        switch value {
        case .int32(let i): return Int(i)
        case .uint32(let u): return Int(u)
        case .int64(let i): return Int(i)
        case .uint64(let u): return u <= UInt64(Int.max) ? Int(u) : Int.max
        case .int16(let i): return Int(i)
        case .uint16(let u): return Int(u)
        case .byte(let b): return Int(b)
        case .double(let d) where d.isFinite && d == d.rounded() && abs(d) < 1e15: return Int(d)
        default: throw .invalidArgument("option \"\(key)\" must be a whole number (u or i), got \(value.signature)")
        }
    }

    public func string(_ key: String) throws(DBusError) -> String? {
        guard let value = entries[key] else { return nil }
        guard case .string(let s) = value else { throw .invalidArgument("option \"\(key)\" must be a string (s), got \(value.signature)") }
        return s
    }

    public func bool(_ key: String) throws(DBusError) -> Bool? {
        guard let value = entries[key] else { return nil }
        guard case .boolean(let b) = value else { throw .invalidArgument("option \"\(key)\" must be a boolean (b), got \(value.signature)") }
        return b
    }

    public func strings(_ key: String) throws(DBusError) -> [String]? {
        guard let value = entries[key] else { return nil }
        switch value {
        case .string(let s): return [s]
        case .array(_, let items):
            var result: [String] = []
            for item in items {
                guard case .string(let s) = item else { throw .invalidArgument("option \"\(key)\" must be as or s") }
                result.append(s)
            }
            return result
        default: throw .invalidArgument("option \"\(key)\" must be as or s, got \(value.signature)")
        }
    }

    /// The dictionary as an `a{sv}` value, keys sorted (deterministic messages).
    public var dbusValue: DBusValue {
        .dictionary(
            keySignature: "s", valueSignature: "v",
            entries.sorted { $0.key < $1.key }.map { (key: DBusValue.string($0.key), value: DBusValue.variant($0.value)) })
    }
}

extension DBusValue {
    /// An option's value as sent with `signature` (its row's).
    init(_ value: OptionValue, signature: String) {
        switch value {
        case .number(let number) where signature == "u":
            self = .uint32(number >= Double(UInt32.max) ? .max : number > 0 ? UInt32(number.rounded()) : 0)
        case .number(let number): self = .double(number)
        case .string(let text): self = .string(text)
        case .bool(let flag): self = .boolean(flag)
        case .strings(let list): self = .array(elementSignature: "s", list.map(DBusValue.string))
        case .range(let low, let high): self = .structure([.double(low), .double(high)])
        }
    }
}
