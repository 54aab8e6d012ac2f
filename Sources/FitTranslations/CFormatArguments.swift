/// A message's printf placeholders filled with the values an app shows, so a check measures
/// "Delete 12 files?" rather than "Delete %d files?". gettext's c-format (the `c-format` flag
/// xgettext sets; printf(3)'s grammar): `%[N$][flags][width][.precision][length]conversion`,
/// `%%` a literal percent sign. A translation may reorder its arguments with `N$` (gettext
/// manual, "c-format"). Each conversion is replaced by its argument as given, formatted by
/// the app already: width and precision are not applied (labels rarely pad).
public enum CFormatArguments {
    public enum Failure: Error, Equatable, Sendable {
        /// A conversion with no argument: the text's conversions and the arguments disagree.
        case missingArgument(conversion: Int, given: Int)
    }

    /// The conversions a length modifier may come before and the modifiers themselves.
    static let conversions: Set<Character> = ["d", "i", "o", "u", "x", "X", "e", "E", "f", "F", "g", "G", "a", "A", "c", "s", "p"]
    static let lengthModifiers: Set<Character> = ["h", "l", "L", "q", "j", "z", "Z", "t"]
    static let flags: Set<Character> = ["-", "+", " ", "#", "0", "'", "I"]

    /// `text` with each conversion replaced by its argument. Something that is not a
    /// conversion ("100%!", a `*` width) stays as written, as a label would show a
    /// message the app did not format. One pass over the text.
    public static func substitute(_ text: String, arguments: [String]) throws(Failure) -> String {
        guard text.contains("%") else { return text }
        let characters = Array(text)
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var next = 0  // the next argument for conversions without N$
        var index = 0
        while index < characters.count {
            let character = characters[index]
            guard character == "%", index + 1 < characters.count else {
                out.append(character)
                index += 1
                continue
            }
            if characters[index + 1] == "%" {
                out.append("%")
                index += 2
                continue
            }
            guard let (position, end) = conversion(in: characters, after: index) else {
                out.append(character)
                index += 1
                continue
            }
            let argument = position ?? next
            if position == nil { next += 1 }
            guard argument < arguments.count else { throw .missingArgument(conversion: argument + 1, given: arguments.count) }
            out += arguments[argument]
            index = end
        }
        return out
    }

    /// The conversion starting at `percent`: its zero-based `N$` position (nil when it takes
    /// the next argument) and the index after it; nil when the text there is no conversion.
    static func conversion(in characters: [Character], after percent: Int) -> (Int?, Int)? {
        var index = percent + 1
        func digits() -> Int? {
            var value = 0, count = 0
            while index < characters.count, let digit = characters[index].wholeNumberValue, characters[index].isASCII {
                // Bounded: a position or width past 9 digits is no conversion an app writes.
                guard count < 9 else { return nil }
                value = value * 10 + digit
                count += 1
                index += 1
            }
            return count > 0 ? value : nil
        }
        var position: Int?
        let start = index
        if let number = digits(), index < characters.count, characters[index] == "$", number >= 1 {
            position = number - 1
            index += 1
        } else {
            index = start
        }
        while index < characters.count, flags.contains(characters[index]) { index += 1 }
        _ = digits()
        if index < characters.count, characters[index] == "." {
            index += 1
            _ = digits()
        }
        while index < characters.count, lengthModifiers.contains(characters[index]) { index += 1 }
        guard index < characters.count, conversions.contains(characters[index]) else { return nil }
        return (position, index + 1)
    }
}
