// FitLayout's API speaks FitTypes' SizeCategory and TextStyle (LayoutOptions.sizeCategory,
// LayoutFont.style): a program that imports FitLayout names them without a second import.
@_exported import FitTypes

/// Which font a text is measured in.
public enum LayoutFont: Hashable, Sendable {
    /// The measurer's default font (the desktop's UI font, or the terminal's).
    case `default`
    /// A Pango font description, e.g. "Noto Sans Bold 12".
    case description(String)
    /// A Dynamic Type style, sized for the layout's size category.
    case style(TextStyle)
}
