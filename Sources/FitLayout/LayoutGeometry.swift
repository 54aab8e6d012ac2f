/// A size a parent proposes to a child, per axis, as in SwiftUI's `ProposedViewSize`:
/// `nil` asks for the ideal size, 0 for the minimum, `.infinity` for the maximum, any other
/// number for the size that fits in that much space.
public struct ProposedSize: Hashable, Sendable, Codable, CustomStringConvertible {
    public var width: Double?
    public var height: Double?

    public init(width: Double?, height: Double?) {
        self.width = width
        self.height = height
    }

    public static let unspecified = ProposedSize(width: nil, height: nil)
    public static let zero = ProposedSize(width: 0, height: 0)
    public static let infinity = ProposedSize(width: .infinity, height: .infinity)

    subscript(axis: LayoutAxis) -> Double? {
        get { axis == .horizontal ? width : height }
        set { if axis == .horizontal { width = newValue } else { height = newValue } }
    }

    init(main: Double?, cross: Double?, axis: LayoutAxis) {
        self = axis == .horizontal ? .init(width: main, height: cross) : .init(width: cross, height: main)
    }

    public var description: String {
        func show(_ value: Double?) -> String { value.map { $0 == .infinity ? "inf" : "\($0)" } ?? "nil" }
        return "\(show(width))×\(show(height))"
    }
}

public struct LayoutSize: Hashable, Sendable, Codable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public static let zero = LayoutSize(width: 0, height: 0)

    subscript(axis: LayoutAxis) -> Double {
        get { axis == .horizontal ? width : height }
        set { if axis == .horizontal { width = newValue } else { height = newValue } }
    }

    public var description: String { "\(width)×\(height)" }
}

/// A node's place from the root's top-left corner: x grows rightwards and y downwards in every
/// layout direction (right-to-left mirrors placement, not coordinates: docs/swiftui-layout.md 1.5).
public struct LayoutRect: Hashable, Sendable, Codable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public static let zero = LayoutRect(x: 0, y: 0, width: 0, height: 0)

    public var size: LayoutSize { LayoutSize(width: width, height: height) }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    public var description: String { "(\(x), \(y), \(width)×\(height))" }
}

public enum LayoutAxis: String, Hashable, Sendable, Codable, CaseIterable {
    case horizontal, vertical

    var other: LayoutAxis { self == .horizontal ? .vertical : .horizontal }
}

/// The axes on which a `firstFit` candidate must fit (SwiftUI's `ViewThatFits(in:)`).
public enum FitAxes: String, Hashable, Sendable, Codable, CaseIterable {
    case horizontal, vertical, both

    var constrainsWidth: Bool { self != .vertical }
    var constrainsHeight: Bool { self != .horizontal }
}

public enum HorizontalAlignment: String, Hashable, Sendable, Codable {
    case leading, center, trailing
}

/// The text baselines are SwiftUI's `firstTextBaseline`/`lastTextBaseline`: a view with text
/// aligns by its first (last) line's baseline, a view without text by its bottom
/// (docs/swiftui-layout.md 1.4).
public enum VerticalAlignment: String, Hashable, Sendable, Codable {
    case top, center, bottom, firstTextBaseline, lastTextBaseline

    var isBaseline: Bool { self == .firstTextBaseline || self == .lastTextBaseline }
}

/// SwiftUI's `LayoutDirection`: right-to-left mirrors hstack order, leading/trailing
/// alignment and padding (docs/swiftui-layout.md 1.5). Frames stay in left-to-right coordinates.
public enum LayoutDirection: String, Hashable, Sendable, Codable, CaseIterable {
    case leftToRight, rightToLeft
}

/// Where a child sits in a larger frame; the nine names of SwiftUI's `Alignment`. A stack uses
/// only its cross-axis part ("top" for an hstack, "leading" for a vstack).
public struct LayoutAlignment: Hashable, Sendable {
    public var horizontal: HorizontalAlignment
    public var vertical: VerticalAlignment

    public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    public static let center = LayoutAlignment(horizontal: .center, vertical: .center)
    public static let leading = LayoutAlignment(horizontal: .leading, vertical: .center)
    public static let trailing = LayoutAlignment(horizontal: .trailing, vertical: .center)
    public static let top = LayoutAlignment(horizontal: .center, vertical: .top)
    public static let bottom = LayoutAlignment(horizontal: .center, vertical: .bottom)
    public static let topLeading = LayoutAlignment(horizontal: .leading, vertical: .top)

    static let names: [(String, LayoutAlignment)] = [
        ("topLeading", .init(horizontal: .leading, vertical: .top)),
        ("top", .init(horizontal: .center, vertical: .top)),
        ("topTrailing", .init(horizontal: .trailing, vertical: .top)),
        ("leading", .init(horizontal: .leading, vertical: .center)),
        ("center", .init(horizontal: .center, vertical: .center)),
        ("trailing", .init(horizontal: .trailing, vertical: .center)),
        ("bottomLeading", .init(horizontal: .leading, vertical: .bottom)),
        ("bottom", .init(horizontal: .center, vertical: .bottom)),
        ("bottomTrailing", .init(horizontal: .trailing, vertical: .bottom)),
        // SwiftUI's baseline alignments; an hstack reads only the vertical part.
        ("firstTextBaseline", .init(horizontal: .center, vertical: .firstTextBaseline)),
        ("lastTextBaseline", .init(horizontal: .center, vertical: .lastTextBaseline)),
        ("leadingFirstTextBaseline", .init(horizontal: .leading, vertical: .firstTextBaseline)),
        ("trailingFirstTextBaseline", .init(horizontal: .trailing, vertical: .firstTextBaseline)),
        ("leadingLastTextBaseline", .init(horizontal: .leading, vertical: .lastTextBaseline)),
        ("trailingLastTextBaseline", .init(horizontal: .trailing, vertical: .lastTextBaseline)),
    ]

    public init?(name: String) {
        guard let found = Self.names.first(where: { $0.0 == name }) else { return nil }
        self = found.1
    }

    public var name: String { Self.names.first { $0.1 == self }?.0 ?? "center" }

    /// Where the guide sits along `axis` in a length, as a fraction of it (0 leading/top, 1
    /// trailing/bottom); leading and trailing swap right to left. A baseline without text is
    /// the bottom (the explicit value, when there is text, is the caller's to supply).
    func fraction(_ axis: LayoutAxis, rightToLeft: Bool) -> Double {
        if axis == .horizontal {
            let forward = horizontal == .leading ? 0.0 : horizontal == .center ? 0.5 : 1
            return rightToLeft ? 1 - forward : forward
        }
        switch vertical {
        case .top: return 0
        case .center: return 0.5
        case .bottom, .firstTextBaseline, .lastTextBaseline: return 1
        }
    }
}

/// `length × fraction`, where 0 × ∞ is 0: a leading child of infinite length starts at 0.
func part(of length: Double, _ fraction: Double) -> Double { fraction == 0 ? 0 : length * fraction }

/// An offset with ∞ − ∞ (an infinite child in an infinite container: spacers proposed ∞)
/// taken as 0, so no frame is reported at NaN.
func finiteOffset(_ value: Double) -> Double { value.isNaN ? 0 : value }

extension ProposedSize {
    /// A length as fitctl prints it and its pictures label it: "320", "12.5" (to 1/100 px),
    /// "inf", "ideal" for none. Past 1e15 a double's own text: Int(_:) would trap past
    /// Int.max, and `--width 1e19` comes from the command line.
    public static func describe(_ value: Double?) -> String {
        guard let value else { return "ideal" }
        guard value.isFinite else { return value > 0 ? "inf" : "\(value)" }
        guard value.magnitude < 1e15 else { return "\(value)" }
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
