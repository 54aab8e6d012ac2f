/// What a layout call depends on besides the document and the proposal.
public struct LayoutOptions: Hashable, Sendable, Codable {
    public enum Unit: String, Hashable, Sendable, Codable, CaseIterable {
        /// Logical pixels at 96 dpi.
        case px
        /// Terminal character cells.
        case cells
    }

    /// The category text styles are sized for and thresholds compare with.
    public var sizeCategory: ContentSizeCategory
    public var unit: Unit
    /// Stack spacing and spacer minimum length where the document gives none; nil for 8 px or
    /// 1 cell (SwiftUI's default spacing between two texts is 8 pt).
    public var defaultSpacing: Double?

    public init(sizeCategory: ContentSizeCategory = .large, unit: Unit = .px, defaultSpacing: Double? = nil) {
        self.sizeCategory = sizeCategory
        self.unit = unit
        self.defaultSpacing = defaultSpacing
    }

    var spacing: Double { defaultSpacing ?? (unit == .px ? 8 : 1) }
}
