import FitText
import Foundation

/// A command's help discussion, its indented blocks laid out for the width ArgumentParser
/// wraps help to.
///
/// ArgumentParser wraps every line of a discussion at the last space that fits, and puts what
/// follows in the first column: an example command was split mid-command, its rest unindented,
/// and a long exit-status entry lost its column. So the indented lines are laid out here first,
/// each shorter than ArgumentParser's limit, which then leaves them as they are; prose (lines in
/// the first column) is still wrapped by ArgumentParser, at word boundaries.
///
/// - An example under `Examples:` that does not fit continues after ` \` (the shell's line
///   continuation, so it can still be pasted) on an indented line, broken between arguments,
///   an option with its value kept together. Its `# comment` stays beside it, nearer if need
///   be, else wraps in its own column, or goes on the lines above the command when there is
///   no room beside it.
/// - Another indented line (`  64  usage: …`) wraps with a hanging indent under its text.
enum HelpText {
    /// The width ArgumentParser renders help at: COLUMNS, else standard output's terminal's
    /// width, else 80 (its Platform.terminalSize).
    static var width: Int {
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap({ Int($0) }) { return columns }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    /// The cells a comment beside a command needs at least; narrower, it goes above.
    static let minimumCommentWidth = 20
    static let indent = "  "
    static let continuationIndent = "      "

    static func discussion(_ text: String) -> String { discussion(text, width: width) }

    static func discussion(_ text: String, width: Int) -> String {
        // ArgumentParser keeps a line whole only when it and its line break fit in `width`
        // characters (its String.wrapped): one fewer than the width, counted here in cells.
        let limit = max(width - 1, 1)
        var out: [String] = []
        var inExamples = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            guard line.hasPrefix(" ") else {
                inExamples = line.trimmingCharacters(in: .whitespaces) == "Examples:"
                out.append(line)
                continue
            }
            if cells(line) <= limit {
                out.append(line)
            } else if inExamples {
                out += example(String(line.drop { $0 == " " }), limit: limit)
            } else {
                out += hanging(line, limit: limit)
            }
        }
        return out.joined(separator: "\n")
    }

    static func cells(_ text: String) -> Int { CellWidth.columns(of: text) }

    /// An example command, with its comment, in lines of at most `limit` cells.
    static func example(_ line: String, limit: Int) -> [String] {
        let (tokens, gap, comment) = ShellWords.split(line)
        let command = layOut(tokens, limit: limit)
        guard let comment else { return command }
        let words = comment.dropFirst().split(separator: " ").map(String.init)
        if command.count == 1, cells(command[0] + "  " + comment) <= limit {
            return [command[0] + "  " + comment]  // beside, nearer than the column it was aligned to
        }
        let column = cells(indent + tokens.joined(separator: " ") + gap)
        if command.count == 1, limit - column >= minimumCommentWidth {
            let pad = String(repeating: " ", count: column)
            return fill(words, width: limit - column - 2).enumerated().map { i, text in
                (i == 0 ? command[0] + gap : pad) + "# " + text
            }
        }
        return fill(words, width: limit - cells(indent) - 2).map { indent + "# " + $0 } + command
    }

    /// A command's words on lines of at most `limit` cells, each but the last ending in ` \`:
    /// an option starts a new unit with its values (as do `|`, `<` and `>`), and a unit goes to
    /// the next line when it does not fit; one too long for a line of its own is broken into
    /// its words, and a word longer than a line stays whole.
    static func layOut(_ tokens: [String], limit: Int) -> [String] {
        var units: [[String]] = []
        for token in tokens {
            let starts = units.isEmpty || (token.count > 1 && token.hasPrefix("-")) || ["|", "<", ">"].contains(token)
            if starts { units.append([token]) } else { units[units.count - 1].append(token) }
        }
        let room = limit - cells(continuationIndent) - 2
        let pieces = units.flatMap { unit in
            cells(unit.joined(separator: " ")) <= room ? [unit.joined(separator: " ")] : unit
        }
        var lines: [String] = []
        var current = indent
        for (i, piece) in pieces.enumerated() {
            let isLast = i == pieces.count - 1
            let candidate = current == indent ? current + piece : current + " " + piece
            if current == indent || cells(candidate) + (isLast ? 0 : 2) <= limit {
                current = candidate
            } else {
                lines.append(current + " \\")
                current = continuationIndent + piece
            }
        }
        lines.append(current)
        return lines
    }

    /// An indented entry wrapped under its text: `  64  usage: …` continues under `usage`.
    static func hanging(_ line: String, limit: Int) -> [String] {
        let lead = line.prefix { $0 == " " }.count
        let rest = line.dropFirst(lead)
        var hang = lead + 2
        if let label = rest.range(of: #"^\S+ {2,}"#, options: .regularExpression) {
            hang = lead + cells(String(rest[label]))
        }
        let head = String(line.prefix(hang))
        let words = line.dropFirst(hang).split(separator: " ").map(String.init)
        let pad = String(repeating: " ", count: hang)
        return fill(words, width: limit - hang).enumerated().map { i, text in (i == 0 ? head : pad) + text }
    }

    /// Words filled into lines of at most `width` cells (a longer word alone on its line).
    static func fill(_ words: [String], width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in words {
            if current.isEmpty {
                current = word
            } else if cells(current + " " + word) <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = word
            }
        }
        return lines + [current]
    }
}

/// The words of a shell command line as written (quotes and escapes kept), and its comment.
enum ShellWords {
    /// The words, the spaces before the comment, and the comment from its `#`, if any: a `#`
    /// that begins a word outside quotes (`"Invoice #1"` is no comment).
    static func split(_ line: String) -> (words: [String], gap: String, comment: String?) {
        var words: [String] = []
        var word = ""
        var quote: Character?
        var escaped = false
        var index = line.startIndex
        while index < line.endIndex {
            let c = line[index]
            defer { index = line.index(after: index) }
            if escaped {
                word.append(c)
                escaped = false
            } else if c == "\\" && quote != "'" {
                word.append(c)
                escaped = true
            } else if let open = quote {
                word.append(c)
                if c == open { quote = nil }
            } else if c == "'" || c == "\"" {
                word.append(c)
                quote = c
            } else if c == " " {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else if c == "#" && word.isEmpty {
                let before = line[..<index]
                let gap = before.reversed().prefix { $0 == " " }.count
                return (words, String(repeating: " ", count: gap), String(line[index...]))
            } else {
                word.append(c)
            }
        }
        if !word.isEmpty { words.append(word) }
        return (words, "", nil)
    }
}
