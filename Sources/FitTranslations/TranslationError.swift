/// Why a translation set could not be read: always with the file, and the line where the
/// file is text (a `.po`, LINGUAS, a JSON file), so that a translator finds the place.
public struct TranslationError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The file could not be opened or read, or is larger than ``TranslationLimits``.
        case unreadable
        /// A `.po` or LINGUAS line gettext's own reader (msgfmt) refuses.
        case syntax
        /// A plural entry without every `msgstr[i]` its header's `nplurals` asks for.
        case missingPluralForm
        /// A `Plural-Forms` header gettext could not evaluate.
        case pluralForms
        /// A `.mo` file whose header or string tables do not hold together.
        case corruptCatalog
        /// A language asked for that the translation set does not have.
        case unknownLanguage
        /// A charset other than UTF-8 (or ASCII).
        case unsupportedCharset
    }

    public var kind: Kind
    public var file: String
    /// 1-based; nil where the file is binary (a `.mo`) or the error is the whole file's.
    public var line: Int?
    public var message: String

    public init(_ kind: Kind, file: String, line: Int? = nil, _ message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.message = message
    }

    /// "po/de.po:12: message", as compilers and msgfmt write it.
    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}

/// Bounds on what is read from outside: a translation file is untrusted input.
public enum TranslationLimits {
    /// gtk40.mo is under 1 MiB for the largest language; 64 MiB is no real catalog.
    public static let maxFileBytes = 64 << 20
    /// Plural forms of one entry: gettext's languages need at most 6 (Arabic).
    public static let maxPluralForms = 16
    /// Nesting of a Plural-Forms expression: real ones nest 6 ternaries deep.
    public static let maxExpressionDepth = 64
    /// Languages of one set: more than the 118 installed gtk40 catalogs.
    public static let maxLanguages = 1024
}
