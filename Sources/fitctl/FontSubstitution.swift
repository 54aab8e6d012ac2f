import FitClient
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
        FileHandle.standardError.write(
            Data("fitctl: warning: no font family of \"\(description)\" is installed; fontconfig substituted \(family)\n".utf8))
    }
}
