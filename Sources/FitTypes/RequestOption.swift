/// An option's value as it arrives, whichever way: a D-Bus variant (FitProtocol's codecs),
/// a field of a JSON request line (fitctl's batch), a command-line flag. The transport checks
/// the shape (a number is a number); the option's row in its table (``MeasureOptions``,
/// FitLayout's `LayoutOptionTable`) checks the meaning.
public enum OptionValue: Hashable, Sendable {
    case number(Double)
    case string(String)
    case bool(Bool)
    case strings([String])
    /// Two numbers, least and greatest (D-Bus `(dd)`).
    case range(Double, Double)
}

/// The shape of the option's value on every transport.
public enum RequestOptionKind: Sendable {
    /// D-Bus `d` (also `i`, `u`); a JSON number.
    case number
    /// D-Bus `u` (also `i`, or a `d` that is whole); a JSON number that is whole.
    case wholeNumber
    case string
    case bool
    /// D-Bus `as` or `s`; a JSON list of strings or a string. Each string is split at commas.
    case stringList
    /// D-Bus `(dd)`: a least and a greatest number.
    case range

    static func wrongShape(name: String, kind: RequestOptionKind) -> FitTextError {
        let reason = switch kind {
        case .number: "not a number"
        case .wholeNumber: "not a whole number"
        case .string: "not a string"
        case .bool: "not true or false"
        case .stringList: "give a string \"tnum,-liga\" or a list of strings"
        case .range: "give two numbers, the least and the greatest"
        }
        return .invalidArgument(name: name, reason: reason)
    }
}

/// One option of a request: its wire name, its D-Bus type, what it means, how a value is
/// taken into the request (`Target`: a MeasureRequest, FitLayout's LayoutOptions) and how the
/// request gives it back. A class: decoders walk the table for every request, and a
/// reference is one count to hold where a struct of three closures and four strings is eight.
public final class RequestOption<Target>: Sendable {
    public typealias Kind = RequestOptionKind

    /// The key on the wire and in a JSON request line: "max_width".
    public let name: String
    public let kind: Kind
    /// The D-Bus type the option is sent with (protocol/README.md's table).
    public let signature: String
    /// What the option does, for fitctl's help.
    public let help: String
    /// The words it takes, where it takes a fixed set (shell completion, "did you mean").
    public let words: [String]
    /// Takes a value into a request, or says what is wrong with it, naming the option.
    public let apply: @Sendable (inout Target, OptionValue) throws(FitTextError) -> Void
    /// The request's value of the option; nil where it has the default (nothing to send).
    public let value: @Sendable (Target) -> OptionValue?
    /// A value other than the default, which the tests apply to check that every option
    /// reaches the request and its equality and hash.
    public let sample: OptionValue

    public init(
        name: String, kind: Kind, signature: String, words: [String] = [], help: String,
        apply: @escaping @Sendable (inout Target, OptionValue) throws(FitTextError) -> Void,
        value: @escaping @Sendable (Target) -> OptionValue?, sample: OptionValue
    ) {
        self.name = name
        self.kind = kind
        self.signature = signature
        self.help = help
        self.words = words
        self.apply = apply
        self.value = value
        self.sample = sample
    }

    /// A value of the wrong shape for the option, in one wording whichever way it came.
    public var wrongShape: FitTextError { Kind.wrongShape(name: name, kind: kind) }

    /// The flag fitctl gives the option: "--max-width".
    public var flag: String { "--" + name.replacingUnderscores }
}

/// Measure's options (``MeasureOptions``) take values into a MeasureRequest.
public typealias MeasureOption = RequestOption<MeasureRequest>

extension OptionValue {
    // The rows' readers: a value of another shape is RequestOptionKind.wrongShape.
    public func number(for name: String) throws(FitTextError) -> Double {
        guard case .number(let value) = self else { throw RequestOptionKind.wrongShape(name: name, kind: .number) }
        return value
    }

    public func wholeNumber(for name: String) throws(FitTextError) -> Int {
        guard case .number(let value) = self, value == value.rounded() else {
            throw RequestOptionKind.wrongShape(name: name, kind: .wholeNumber)
        }
        // A count beyond any text's lines (D-Bus's u64 2^64 − 1, "no limit in practice")
        // is taken as the largest one.
        if value >= Double(Int.max) { return .max }
        if value <= Double(Int.min) { return .min }
        return Int(value)
    }

    public func string(for name: String) throws(FitTextError) -> String {
        guard case .string(let value) = self else { throw RequestOptionKind.wrongShape(name: name, kind: .string) }
        return value
    }

    public func bool(for name: String) throws(FitTextError) -> Bool {
        guard case .bool(let value) = self else { throw RequestOptionKind.wrongShape(name: name, kind: .bool) }
        return value
    }

    public func range(for name: String) throws(FitTextError) -> (Double, Double) {
        guard case .range(let low, let high) = self else { throw RequestOptionKind.wrongShape(name: name, kind: .range) }
        return (low, high)
    }

    public func strings(for name: String) throws(FitTextError) -> [String] {
        switch self {
        case .string(let value): return [value]
        case .strings(let values): return values
        default: throw RequestOptionKind.wrongShape(name: name, kind: .stringList)
        }
    }
}

extension String {
    fileprivate var replacingUnderscores: String { String(map { $0 == "_" ? "-" : $0 }) }
}
