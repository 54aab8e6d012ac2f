import FitClient
import FitScale
import FitText
import Foundation

/// A requested family that is not installed: fontconfig substitutes another without a word,
/// so fitctl asks ResolveFont (its `matched`: the first face is of a requested family, a
/// generic alias counting as matched) and says so on stderr once per description.
enum FontSubstitution {
    /// Whether `description`'s family was substituted; false for the default font ("") and
    /// where the font cannot be resolved (the measurement reports that error itself).
    static func check(_ description: String, client: FitClient, warn: Bool = true) async -> Bool {
        guard !description.trimmingCharacters(in: .whitespaces).isEmpty,
            let font = try? await client.resolveFont(description, fallbacks: false)
        else { return false }
        if !font.matchedRequestedFamily && warn { warning(description, used: font.family) }
        return !font.matchedRequestedFamily
    }

    static func warning(_ description: String, used family: String) {
        var line = "fitctl: warning: no font family of \"\(description)\" is installed; fontconfig substituted \(family)"
        if let style = nearTextStyle(description) { line += "; did you mean the text style \"\(style)\"?" }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// The text style a mistyped description's first word is near ("headlin" → "headline"):
    /// a text style name is a font string of its own, and a typo in it reaches fontconfig as
    /// a family nobody has.
    static func nearTextStyle(_ description: String) -> String? {
        let word = description.prefix { !$0.isWhitespace && $0 != "," }
        guard !word.isEmpty else { return nil }
        guard TextStyle(name: word) == nil else { return nil }
        let names = TextStyle.allCases.map(\.name) + TextStyle.aliases.map(\.name)
        return Suggestion.closest(to: String(word), among: names)
    }
}
