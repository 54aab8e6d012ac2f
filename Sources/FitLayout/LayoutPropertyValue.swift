/// An untyped property value, as JSON and D-Bus (`a{sv}`) carry it. Values are flat on purpose:
/// a document's structure is in its parent references, never in nested values.
public enum LayoutPropertyValue: Hashable, Sendable, Codable, CustomStringConvertible {
    case string(String)
    case number(Double)
    case bool(Bool)
    case strings([String])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([String].self) {
            self = .strings(value)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a property is a string, number, boolean or array of strings")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value):
            // JSON has no infinity; "infinity" is how documents spell an unbounded maximum.
            if value == .infinity { try container.encode("infinity") } else { try container.encode(value) }
        case .bool(let value): try container.encode(value)
        case .strings(let value): try container.encode(value)
        }
    }

    public var description: String {
        switch self {
        case .string(let value): return "\"\(value)\""
        case .number(let value): return "\(value)"
        case .bool(let value): return "\(value)"
        case .strings(let value): return "\(value)"
        }
    }
}
