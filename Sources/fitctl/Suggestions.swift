import ArgumentParser

/// "Did you mean": the closest of some known words to a mistyped one, by edit distance.
enum Suggestion {
    /// The known word nearest to `word` (at most 2 edits, and fewer than half its letters),
    /// or nil.
    static func closest(to word: String, among known: [String]) -> String? {
        let typed = Array(word.lowercased())
        var best: (word: String, distance: Int)?
        for candidate in known {
            let distance = editDistance(typed, Array(candidate.lowercased()))
            if distance <= 2, distance * 2 < max(typed.count, 2), distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.word
    }

    /// Levenshtein distance, a transposition counting as one edit ("mesaure" → "measure").
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
        }
        return rows[a.count][b.count]
    }

    /// A word's error with a suggestion appended where one is near: "…; did you mean \"end\"?".
    static func appended(to message: String, word: String, among known: [String]) -> String {
        guard let near = closest(to: word, among: known) else { return message }
        return "\(message); did you mean \"\(near)\"?"
    }
}

/// A command's name and its subcommands' (fitctl → measure, …, scale → show, set, …).
struct CommandTree {
    var name: String
    var children: [CommandTree]

    init(name: String, children: [CommandTree]) {
        self.name = name
        self.children = children
    }

    init(_ type: any ParsableCommand.Type) {
        let subcommands: [any ParsableCommand.Type] = type.configuration.subcommands
        var children: [CommandTree] = []
        for subcommand in subcommands { children.append(CommandTree(subcommand)) }
        self.init(name: type._commandName, children: children)
    }
}

/// A mistyped command word: `fitctl mesure` → "Unknown command 'mesure'. Did you mean 'measure'?".
enum CommandSuggestion {
    /// The message for the first command word that is no command of its parent and is near
    /// one; nil where the arguments name commands (or are too far from any to guess).
    /// (scale's default subcommand, show, takes no arguments: a word there is a command.)
    static func message(for arguments: [String], tree root: CommandTree) -> String? {
        var command = root
        var path = root.name
        for argument in arguments {
            if argument == "--" || argument.hasPrefix("-") || command.children.isEmpty { return nil }
            if let next = command.children.first(where: { $0.name == argument }) {
                command = next
                path += " " + next.name
                continue
            }
            guard let near = Suggestion.closest(to: argument, among: command.children.map(\.name)) else { return nil }
            return """
                Error: Unknown command '\(argument)'. Did you mean '\(near)'?
                Usage: \(path) <subcommand>
                  See '\(path) --help' for more information.
                """
        }
        return nil
    }
}
