/// An option whose value is one word from a fixed list (wrap, ellipsize, metrics, escapes,
/// ambiguous, terminal). The README promises option words are exact, like option keys:
/// "WORD" or "Word" is an error that names the option and lists the words.
public protocol OptionWord: RawRepresentable, CaseIterable where RawValue == String {
    /// The option's name, as the error names it ("wrap").
    static var optionName: String { get }
    /// What a value is, with its article ("a wrap mode").
    static var wordKind: String { get }
}

extension OptionWord {
    /// The exact word, or `invalidArgument` naming the option and every word it takes:
    /// `"WORD" is not a wrap mode; use word, char or word-char`.
    public init(parsing text: String) throws(FitTextError) {
        guard let value = Self(rawValue: text) else {
            throw .invalidArgument(name: Self.optionName, reason: "\"\(text)\" is not \(Self.wordKind); use \(Self.wordList)")
        }
        self = value
    }

    /// The words in declaration order: "a, b or c".
    static var wordList: String {
        let words = allCases.map(\.rawValue)
        guard let last = words.last, words.count > 1 else { return words.joined() }
        return words.dropLast().joined(separator: ", ") + " or " + last
    }
}
