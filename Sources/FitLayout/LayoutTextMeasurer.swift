import FitTypes

/// Where text that does not fit is cut and replaced by "…" (SwiftUI's `Text.TruncationMode`).
public enum TruncationMode: String, Hashable, Sendable, Codable, CaseIterable {
    case head, middle, tail
}

/// A text to measure, as the layout engine describes it to a measurer.
public struct LayoutText: Hashable, Sendable {
    public var string: String
    public var font: LayoutFont
    /// The category text styles are sized for (the layout options' category).
    public var sizeCategory: SizeCategory
    /// At most this many lines; nil for no limit.
    public var lineLimit: Int?
    public var truncation: TruncationMode

    public init(
        _ string: String, font: LayoutFont = .default, sizeCategory: SizeCategory = .large,
        lineLimit: Int? = nil, truncation: TruncationMode = .tail
    ) {
        self.string = string
        self.font = font
        self.sizeCategory = sizeCategory
        self.lineLimit = lineLimit
        self.truncation = truncation
    }
}

/// What a measurer answers, in the layout's unit (px or cells).
public struct MeasuredText: Hashable, Sendable {
    public var width: Double
    public var height: Double
    /// From the top to the first line's baseline.
    public var baseline: Double
    /// From the top to the last line's baseline (a stack's `lastTextBaseline` alignment,
    /// docs/swiftui-layout.md 1.4).
    public var lastBaseline: Double
    public var lineCount: Int
    /// Whether any of the text is not shown (ellipsized, or lines dropped by the line limit).
    public var truncated: Bool

    /// Without `lastBaseline`, the lines are taken to be equally tall (one font): the last
    /// baseline is as far above the bottom as the first is below the first line's top.
    public init(width: Double, height: Double, baseline: Double, lastBaseline: Double? = nil, lineCount: Int, truncated: Bool) {
        self.width = width
        self.height = height
        self.baseline = baseline
        self.lastBaseline = lastBaseline ?? (lineCount > 1 ? height - (height / Double(lineCount) - baseline) : baseline)
        self.lineCount = lineCount
        self.truncated = truncated
    }
}

/// How the layout engine measures text: the only thing it knows about fonts. The daemon adapts
/// FitText's `TextEngine` (px or cells); tests use ``FixedAdvanceMeasurer``.
public protocol LayoutTextMeasurer: Sendable {
    /// The size of `text` wrapped to `proposedWidth` (nil: no wrapping, one line per paragraph),
    /// with every font size multiplied by `scale` (a minimum scale factor at work, in (0, 1]).
    /// Text wider than the width after wrapping and the line limit is truncated as
    /// `text.truncation` says, and `truncated` is set. At a width no narrower than its
    /// unwrapped width, a text whose unwrapped measurement lost nothing to its line limit
    /// measures as unwrapped (SwiftUI's Text answers its ideal size then; Pango breaks no line
    /// that fits) whenever ``reusesUnwrapped(width:)`` says so: the layout engine then reuses
    /// that measurement instead of asking again.
    func measure(_ text: LayoutText, proposedWidth: Double?, scale: Double) throws(LayoutError) -> MeasuredText

    /// The height of one line of `font` at `sizeCategory`: what an image sized to a text style
    /// takes (the template-view pattern for icons).
    func lineHeight(of font: LayoutFont, sizeCategory: SizeCategory) throws(LayoutError) -> Double

    /// Whether a text measured unwrapped at `width` measures the same at any wider proposal
    /// (see ``measure(_:proposedWidth:scale:)``). Not where the measurer limits widths (a
    /// text wider than the limit wraps there) or trims what it reports (Pango's letter
    /// spacing at the ends of a line is not counted in its width but is when it is broken).
    func reusesUnwrapped(width: Double) -> Bool
}

extension LayoutTextMeasurer {
    public func reusesUnwrapped(width: Double) -> Bool { true }
}
