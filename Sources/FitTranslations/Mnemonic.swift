/// Mnemonics as GTK shows them: with `use-underline`, an underscore marks the next
/// character as the mnemonic (drawn underlined, not as "_") and "__" is a literal underscore
/// (gtklabel.c, `separate_uline_pattern`). A lone trailing underscore stays.
public enum Mnemonic {
    /// The text as drawn, without its mnemonic marks.
    public static func stripped(_ text: String) -> String {
        guard text.contains("_") else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var iterator = text.makeIterator()
        while let character = iterator.next() {
            guard character == "_" else {
                out.append(character)
                continue
            }
            guard let next = iterator.next() else {
                out.append("_")
                break
            }
            out.append(next)
        }
        return out
    }
}
