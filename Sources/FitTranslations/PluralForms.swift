/// A `Plural-Forms` header ("nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : …);"): how many
/// forms a language has and which one a count takes. The expression is C's, restricted as
/// gettext's grammar restricts it (gettext-runtime/intl/plural.y): `n`, unsigned decimal
/// numbers, `!`, `* / %`, `+ -`, `< > <= >=`, `== !=`, `&&`, `||`, `?:` and parentheses;
/// unsigned long arithmetic. Parsed once into a tree whose depth is bounded
/// (``TranslationLimits/maxExpressionDepth``), so neither parsing nor evaluating a hostile
/// header can exhaust the stack.
public struct PluralForms: Hashable, Sendable {
    public var count: Int
    let expression: Expression

    /// Germanic plurals, what gettext assumes without a header (loadmsgcat.c's
    /// `germanic_plural`: nplurals=2; plural=(n != 1)).
    public static let germanic = PluralForms(count: 2, expression: .binary(.notEqual, .n, .number(1)))

    init(count: Int, expression: Expression) {
        self.count = count
        self.expression = expression
    }

    /// Parses the header's value; the error message says what is wrong (the caller adds the place).
    public init(header: String) throws(PluralFormsError) {
        guard let countText = Self.field("nplurals", in: header), let count = Int(countText.trimmed),
            count >= 1, count <= TranslationLimits.maxPluralForms
        else { throw PluralFormsError("nplurals is missing or not 1 to \(TranslationLimits.maxPluralForms)") }
        guard var rule = Self.field("plural", in: header) else { throw PluralFormsError("plural= is missing") }
        rule = rule.trimmed
        var parser = Parser(Array(rule.utf8))
        let expression = try parser.parseWhole()
        self.init(count: count, expression: expression)
    }

    /// The form for `n`; a result outside 0..<count is taken as form 0, as gettext's
    /// plural_lookup does for an index it cannot use (dcigettext.c).
    public func form(for n: UInt64) -> Int {
        guard let value = expression.evaluate(n), value < UInt64(count) else { return 0 }
        return Int(value)
    }

    /// `name=value` up to the next ';' (or the end), case-sensitive as gettext's extract_plural_expression.
    private static func field(_ name: String, in header: String) -> String? {
        var rest = Substring(header)
        while let range = rest.range(of: name) {
            let after = rest[range.upperBound...].drop { $0 == " " || $0 == "\t" }
            if after.first == "=" {
                let value = after.dropFirst()
                return String(value.prefix { $0 != ";" })
            }
            rest = rest[range.upperBound...]
        }
        return nil
    }
}

public struct PluralFormsError: Error, Equatable, Sendable {
    public var message: String
    init(_ message: String) { self.message = message }
}

extension PluralForms {
    indirect enum Expression: Hashable, Sendable {
        case n
        case number(UInt64)
        case not(Expression)
        case binary(Operator, Expression, Expression)
        case conditional(Expression, Expression, Expression)

        /// nil for a division or remainder by zero (C's undefined behaviour; gettext's
        /// plural-eval.c raises SIGFPE): the caller takes form 0.
        func evaluate(_ n: UInt64) -> UInt64? {
            switch self {
            case .n: return n
            case .number(let value): return value
            case .not(let operand):
                guard let value = operand.evaluate(n) else { return nil }
                return value == 0 ? 1 : 0
            case .conditional(let test, let then, let otherwise):
                guard let value = test.evaluate(n) else { return nil }
                return value != 0 ? then.evaluate(n) : otherwise.evaluate(n)
            case .binary(let op, let left, let right):
                guard let a = left.evaluate(n) else { return nil }
                // && and || short-circuit as in C.
                if op == .and, a == 0 { return 0 }
                if op == .or, a != 0 { return 1 }
                guard let b = right.evaluate(n) else { return nil }
                switch op {
                case .multiply: return a &* b
                case .divide: return b == 0 ? nil : a / b
                case .remainder: return b == 0 ? nil : a % b
                case .add: return a &+ b
                case .subtract: return a &- b
                case .less: return a < b ? 1 : 0
                case .greater: return a > b ? 1 : 0
                case .lessEqual: return a <= b ? 1 : 0
                case .greaterEqual: return a >= b ? 1 : 0
                case .equal: return a == b ? 1 : 0
                case .notEqual: return a != b ? 1 : 0
                case .and, .or: return b != 0 ? 1 : 0
                }
            }
        }
    }

    enum Operator: Hashable, Sendable {
        case multiply, divide, remainder, add, subtract, less, greater, lessEqual, greaterEqual, equal, notEqual, and, or

        /// C's precedence, tightest highest (plural.y's %left declarations).
        var precedence: Int {
            switch self {
            case .multiply, .divide, .remainder: return 6
            case .add, .subtract: return 5
            case .less, .greater, .lessEqual, .greaterEqual: return 4
            case .equal, .notEqual: return 3
            case .and: return 2
            case .or: return 1
            }
        }
    }

    /// Precedence climbing over the header's bytes; every recursive call counts toward the
    /// depth limit, so a thousand '(' or '!' fail cleanly.
    struct Parser {
        let bytes: [UInt8]
        var position = 0
        var depth = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func parseWhole() throws(PluralFormsError) -> Expression {
            let expression = try parseConditional()
            skipSpace()
            guard position == bytes.count else {
                throw PluralFormsError("unexpected \"\(String(decoding: bytes[position...], as: UTF8.self))\" in plural=")
            }
            return expression
        }

        private mutating func enter() throws(PluralFormsError) {
            depth += 1
            guard depth <= TranslationLimits.maxExpressionDepth else {
                throw PluralFormsError("plural= nests deeper than \(TranslationLimits.maxExpressionDepth)")
            }
        }

        mutating func parseConditional() throws(PluralFormsError) -> Expression {
            try enter()
            defer { depth -= 1 }
            let test = try parseBinary(minimum: 1)
            skipSpace()
            guard peek() == UInt8(ascii: "?") else { return test }
            position += 1
            let then = try parseConditional()
            skipSpace()
            guard peek() == UInt8(ascii: ":") else { throw PluralFormsError("'?' without ':' in plural=") }
            position += 1
            let otherwise = try parseConditional()
            return .conditional(test, then, otherwise)
        }

        mutating func parseBinary(minimum: Int) throws(PluralFormsError) -> Expression {
            try enter()
            defer { depth -= 1 }
            var left = try parseUnary()
            while true {
                skipSpace()
                guard let (op, length) = peekOperator(), op.precedence >= minimum else { return left }
                position += length
                let right = try parseBinary(minimum: op.precedence + 1)
                left = .binary(op, left, right)
            }
        }

        mutating func parseUnary() throws(PluralFormsError) -> Expression {
            try enter()
            defer { depth -= 1 }
            skipSpace()
            guard let byte = peek() else { throw PluralFormsError("plural= ends where a value was expected") }
            switch byte {
            case UInt8(ascii: "!") where peek(1) != UInt8(ascii: "="):
                position += 1
                return .not(try parseUnary())
            case UInt8(ascii: "("):
                position += 1
                let inner = try parseConditional()
                skipSpace()
                guard peek() == UInt8(ascii: ")") else { throw PluralFormsError("'(' without ')' in plural=") }
                position += 1
                return inner
            case UInt8(ascii: "n"):
                position += 1
                return .n
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                var value: UInt64 = 0
                while let digit = peek(), digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") {
                    let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
                    let (sum, overflow2) = times.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
                    guard !overflow1, !overflow2 else { throw PluralFormsError("a number in plural= is too large") }
                    value = sum
                    position += 1
                }
                return .number(value)
            default:
                throw PluralFormsError("unexpected '\(Character(Unicode.Scalar(byte)))' in plural=")
            }
        }

        private func peek(_ offset: Int = 0) -> UInt8? {
            position + offset < bytes.count ? bytes[position + offset] : nil
        }

        private mutating func skipSpace() {
            while let byte = peek(), byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") {
                position += 1
            }
        }

        private func peekOperator() -> (Operator, Int)? {
            guard let first = peek() else { return nil }
            let second = peek(1)
            switch (first, second) {
            case (UInt8(ascii: "="), UInt8(ascii: "=")): return (.equal, 2)
            case (UInt8(ascii: "!"), UInt8(ascii: "=")): return (.notEqual, 2)
            case (UInt8(ascii: "<"), UInt8(ascii: "=")): return (.lessEqual, 2)
            case (UInt8(ascii: ">"), UInt8(ascii: "=")): return (.greaterEqual, 2)
            case (UInt8(ascii: "&"), UInt8(ascii: "&")): return (.and, 2)
            case (UInt8(ascii: "|"), UInt8(ascii: "|")): return (.or, 2)
            case (UInt8(ascii: "<"), _): return (.less, 1)
            case (UInt8(ascii: ">"), _): return (.greater, 1)
            case (UInt8(ascii: "*"), _): return (.multiply, 1)
            case (UInt8(ascii: "/"), _): return (.divide, 1)
            case (UInt8(ascii: "%"), _): return (.remainder, 1)
            case (UInt8(ascii: "+"), _): return (.add, 1)
            case (UInt8(ascii: "-"), _): return (.subtract, 1)
            default: return nil
            }
        }
    }
}

extension StringProtocol {
    var trimmed: String {
        String(drop { $0 == " " || $0 == "\t" || $0 == "\n" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\n" }.reversed())
    }
}
