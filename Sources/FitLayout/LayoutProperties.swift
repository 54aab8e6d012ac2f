import FitTypes

/// The properties of a node, all optional; which ones a kind has is ``allowed(for:)``.
/// Lengths are in the layout's unit (px or cells).
public struct LayoutProperties: Hashable, Sendable {
    // text, template
    public var text: String?
    public var font: String?
    public var textStyle: TextStyle?
    public var lineLimit: Int?
    public var truncation: TruncationMode?
    /// text: its own factor in (0, 1]; scaleGroup: the group's.
    public var minimumScaleFactor: Double?
    public var templates: [String]?
    // spacer
    public var minLength: Double?
    // image, frame
    public var width: Double?
    public var height: Double?
    public var aspectRatio: Double?
    public var minWidth: Double?
    public var idealWidth: Double?
    public var maxWidth: Double?
    public var minHeight: Double?
    public var idealHeight: Double?
    public var maxHeight: Double?
    // stacks and decisions
    public var spacing: Double?
    public var alignment: LayoutAlignment?
    public var axis: LayoutAxis?
    public var axes: FitAxes?
    public var category: SizeCategory?
    /// On a child of a threshold: the only arrangement it appears in.
    public var when: LayoutAxis?
    // any node (docs/swiftui-layout.md 1.2, 1.5)
    /// Read by the parent stack: higher priorities are sized first (SwiftUI's `layoutPriority`).
    public var layoutPriority: Double?
    /// Right to left for this node and everything below it that does not set its own
    /// (inherited, spec 4.9): mirrors stacks, leading/trailing and flow lines (spec 1.5).
    public var layoutDirection: LayoutDirection?
    // padding
    public var length: Double?
    public var top: Double?
    public var leading: Double?
    public var bottom: Double?
    public var trailing: Double?
    // fixedSize
    public var horizontal: Bool?
    public var vertical: Bool?
    // any node (docs/swiftui-layout.md 4.3, 4.9)
    /// Laid out as if shown, drawn by nobody; inherited by the subtree (SwiftUI's `hidden()`).
    public var hidden: Bool?
    /// Where a text's lines sit in its frame; inherited, never changes a frame (spec 2.1).
    public var multilineTextAlignment: HorizontalAlignment?
    // forEach
    /// The names of a data row's values, used in the template's strings as `{name}`.
    public var fields: [String]?
    /// The rows, row after row, `fields.count` strings each.
    public var data: [String]?
    // grid
    public var columns: GridColumns?
    /// On a cell of a gridRow (any kind): how many columns it covers; default 1.
    public var gridCellColumns: Int?

    public init(
        text: String? = nil, font: String? = nil, textStyle: TextStyle? = nil, lineLimit: Int? = nil,
        truncation: TruncationMode? = nil, minimumScaleFactor: Double? = nil, templates: [String]? = nil,
        minLength: Double? = nil, width: Double? = nil, height: Double? = nil, aspectRatio: Double? = nil,
        minWidth: Double? = nil, idealWidth: Double? = nil, maxWidth: Double? = nil,
        minHeight: Double? = nil, idealHeight: Double? = nil, maxHeight: Double? = nil,
        spacing: Double? = nil, alignment: LayoutAlignment? = nil, axis: LayoutAxis? = nil, axes: FitAxes? = nil,
        category: SizeCategory? = nil, when: LayoutAxis? = nil,
        length: Double? = nil, top: Double? = nil, leading: Double? = nil, bottom: Double? = nil, trailing: Double? = nil,
        horizontal: Bool? = nil, vertical: Bool? = nil, layoutPriority: Double? = nil,
        hidden: Bool? = nil, multilineTextAlignment: HorizontalAlignment? = nil, layoutDirection: LayoutDirection? = nil,
        fields: [String]? = nil, data: [String]? = nil, columns: GridColumns? = nil, gridCellColumns: Int? = nil
    ) {
        self.text = text
        self.font = font
        self.textStyle = textStyle
        self.lineLimit = lineLimit
        self.truncation = truncation
        self.minimumScaleFactor = minimumScaleFactor
        self.templates = templates
        self.minLength = minLength
        self.width = width
        self.height = height
        self.aspectRatio = aspectRatio
        self.minWidth = minWidth
        self.idealWidth = idealWidth
        self.maxWidth = maxWidth
        self.minHeight = minHeight
        self.idealHeight = idealHeight
        self.maxHeight = maxHeight
        self.spacing = spacing
        self.alignment = alignment
        self.axis = axis
        self.axes = axes
        self.category = category
        self.when = when
        self.length = length
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
        self.horizontal = horizontal
        self.vertical = vertical
        self.layoutPriority = layoutPriority
        self.hidden = hidden
        self.multilineTextAlignment = multilineTextAlignment
        self.layoutDirection = layoutDirection
        self.fields = fields
        self.data = data
        self.columns = columns
        self.gridCellColumns = gridCellColumns
    }

    /// Properties every kind takes that are not inherited: `layoutPriority` (read by the
    /// parent, spec 1.2), `hidden` (spec 4.3), and `gridCellColumns`, read when the node is a
    /// cell of a gridRow.
    public static let anyKind = ["layoutPriority", "hidden", "gridCellColumns"]

    /// Set once on a container, these reach every node below that does not set them itself,
    /// the nearest setting winning (SwiftUI's environment; docs/swiftui-layout.md 4.9).
    public static let inherited = [
        "font", "textStyle", "lineLimit", "truncation", "minimumScaleFactor", "multilineTextAlignment", "layoutDirection",
    ]

    /// Properties any node accepts, whatever its kind: `when` (checked where it is read), the
    /// ``anyKind`` and the ``inherited`` ones. Compared in place, not looked up in a set or an
    /// array: validation runs this for every property.
    static func isUniversal(_ name: String) -> Bool {
        switch name {
        case "when", "layoutPriority", "hidden", "gridCellColumns", "font", "textStyle", "lineLimit", "truncation",
            "minimumScaleFactor", "multilineTextAlignment", "layoutDirection":
            return true
        default:
            return false
        }
    }

    /// The property names each kind accepts; `when` is accepted on any child of a threshold.
    /// Every kind also takes the ``anyKind`` and the ``inherited`` ones.
    public static func allowed(for kind: LayoutNodeKind) -> [String] {
        ownAllowed(for: kind) + anyKind + inherited.filter { !ownAllowed(for: kind).contains($0) }
    }

    static func ownAllowed(for kind: LayoutNodeKind) -> [String] {
        switch kind {
        case .text: return ["text", "font", "textStyle", "lineLimit", "truncation", "minimumScaleFactor"]
        case .spacer: return ["minLength"]
        case .image: return ["width", "height", "font", "textStyle", "aspectRatio"]
        case .hstack, .vstack: return ["spacing", "alignment"]
        case .zstack, .overlay: return ["alignment"]
        case .frame:
            return ["width", "height", "minWidth", "idealWidth", "maxWidth", "minHeight", "idealHeight", "maxHeight", "alignment"]
        case .padding: return ["length", "top", "leading", "bottom", "trailing"]
        case .fixedSize: return ["horizontal", "vertical"]
        case .firstFit: return ["axes"]
        case .uniformFit: return ["axis", "axes", "spacing", "alignment"]
        case .fitting: return ["axis", "spacing", "alignment"]
        case .scroll: return ["axis"]
        case .choice: return []
        case .threshold: return ["category", "spacing", "alignment"]
        case .template: return ["templates", "font", "textStyle", "lineLimit", "alignment"]
        case .scaleGroup: return ["minimumScaleFactor"]
        case .background: return ["alignment"]
        case .grid: return ["spacing", "alignment", "columns"]
        case .gridRow: return ["alignment"]
        case .flow: return ["spacing", "alignment"]
        case .forEach: return ["fields", "data"]
        }
    }

    /// The properties that are set, in a fixed order (for encoding and stable hashing).
    public var values: [(name: String, value: LayoutPropertyValue)] {
        var out: [(String, LayoutPropertyValue)] = []
        forEachValue { name, value in out.append((name, value)) }
        return out
    }

    /// Calls `visit` with each property that is set, in the order of ``values``, without
    /// building that list: validating a document walks every node's properties, and the
    /// list (an array of tuples, each allocated and destroyed generically) cost more than
    /// all the rest of preparing a document.
    func forEachValue<E: Error>(_ visit: (String, LayoutPropertyValue) throws(E) -> Void) throws(E) {
        func add(_ name: String, _ value: LayoutPropertyValue?) throws(E) { if let value { try visit(name, value) } }
        try add("text", text.map(LayoutPropertyValue.string))
        try add("font", font.map(LayoutPropertyValue.string))
        try add("textStyle", textStyle.map { .string($0.name) })
        try add("lineLimit", lineLimit.map { .number(Double($0)) })
        try add("truncation", truncation.map { .string($0.rawValue) })
        try add("minimumScaleFactor", minimumScaleFactor.map(LayoutPropertyValue.number))
        try add("templates", templates.map(LayoutPropertyValue.strings))
        try add("minLength", minLength.map(LayoutPropertyValue.number))
        try forEachLength { (name, value) throws(E) in try add(name, value.map(LayoutPropertyValue.number)) }
        try add("spacing", spacing.map(LayoutPropertyValue.number))
        try add("alignment", alignment.map { .string($0.name) })
        try add("axis", axis.map { .string($0.rawValue) })
        try add("axes", axes.map { .string($0.rawValue) })
        try add("category", category.map { .string($0.name) })
        try add("when", when.map { .string($0.rawValue) })
        try add("horizontal", horizontal.map(LayoutPropertyValue.bool))
        try add("vertical", vertical.map(LayoutPropertyValue.bool))
        try add("layoutPriority", layoutPriority.map(LayoutPropertyValue.number))
        try add("hidden", hidden.map(LayoutPropertyValue.bool))
        try add("multilineTextAlignment", multilineTextAlignment.map { .string($0.rawValue) })
        try add("layoutDirection", layoutDirection.map { .string($0.rawValue) })
        try add("fields", fields.map(LayoutPropertyValue.strings))
        try add("data", data.map(LayoutPropertyValue.strings))
        try add("columns", columns.map { .string($0.rawValue) })
        try add("gridCellColumns", gridCellColumns.map { .number(Double($0)) })
    }

    /// The first property that is set but is neither in `allowed` nor `when` (accepted on any
    /// child of a threshold), in the order of ``values``.
    func firstProperty(notIn allowed: [String]) -> String? {
        setNames.first { !Self.isUniversal($0) && !allowed.contains($0) }
    }

    /// The names of the properties that are set, in the order of ``values`` (from ``setMask``).
    var setNames: [String] {
        var mask = setMask
        var names: [String] = []
        while mask != 0 {
            names.append(Self.orderedNames[mask.trailingZeroBitCount])
            mask &= mask - 1
        }
        return names
    }

    /// The same for a kind's own properties, `hidden` and the inherited ones, as bit masks:
    /// every node of every document passes here, and comparing names (switches over strings)
    /// was 1,500 instructions a node (FitBenchLayout, callgrind).
    func firstProperty(notAllowedFor kind: LayoutNodeKind) -> String? {
        let refused = setMask & ~Self.allowedMasks[kind.ordinal]
        return refused == 0 ? nil : Self.orderedNames[refused.trailingZeroBitCount]
    }

    /// Every property's name in the order of ``values``: bit i of ``setMask`` stands for
    /// `orderedNames[i]`.
    static let orderedNames = [
        "text", "font", "textStyle", "lineLimit", "truncation", "minimumScaleFactor", "templates", "minLength",
        "width", "height", "aspectRatio", "minWidth", "idealWidth", "maxWidth", "minHeight", "idealHeight", "maxHeight",
        "length", "top", "leading", "bottom", "trailing", "spacing", "alignment", "axis", "axes", "category", "when",
        "horizontal", "vertical", "layoutPriority", "hidden", "multilineTextAlignment", "layoutDirection", "fields",
        "data", "columns", "gridCellColumns",
    ]

    /// A bit per property that is set (``orderedNames``); plain tests, no list built.
    var setMask: UInt64 {
        var mask: UInt64 = 0
        if text != nil { mask |= 1 << 0 }
        if font != nil { mask |= 1 << 1 }
        if textStyle != nil { mask |= 1 << 2 }
        if lineLimit != nil { mask |= 1 << 3 }
        if truncation != nil { mask |= 1 << 4 }
        if minimumScaleFactor != nil { mask |= 1 << 5 }
        if templates != nil { mask |= 1 << 6 }
        if minLength != nil { mask |= 1 << 7 }
        if width != nil { mask |= 1 << 8 }
        if height != nil { mask |= 1 << 9 }
        if aspectRatio != nil { mask |= 1 << 10 }
        if minWidth != nil { mask |= 1 << 11 }
        if idealWidth != nil { mask |= 1 << 12 }
        if maxWidth != nil { mask |= 1 << 13 }
        if minHeight != nil { mask |= 1 << 14 }
        if idealHeight != nil { mask |= 1 << 15 }
        if maxHeight != nil { mask |= 1 << 16 }
        if length != nil { mask |= 1 << 17 }
        if top != nil { mask |= 1 << 18 }
        if leading != nil { mask |= 1 << 19 }
        if bottom != nil { mask |= 1 << 20 }
        if trailing != nil { mask |= 1 << 21 }
        if spacing != nil { mask |= 1 << 22 }
        if alignment != nil { mask |= 1 << 23 }
        if axis != nil { mask |= 1 << 24 }
        if axes != nil { mask |= 1 << 25 }
        if category != nil { mask |= 1 << 26 }
        if when != nil { mask |= 1 << 27 }
        if horizontal != nil { mask |= 1 << 28 }
        if vertical != nil { mask |= 1 << 29 }
        if layoutPriority != nil { mask |= 1 << 30 }
        if hidden != nil { mask |= 1 << 31 }
        if multilineTextAlignment != nil { mask |= 1 << 32 }
        if layoutDirection != nil { mask |= 1 << 33 }
        if fields != nil { mask |= 1 << 34 }
        if data != nil { mask |= 1 << 35 }
        if columns != nil { mask |= 1 << 36 }
        if gridCellColumns != nil { mask |= 1 << 37 }
        return mask
    }

    /// Per kind (``LayoutNodeKind/ordinal``): the properties it accepts, its own and the
    /// universal ones.
    static let allowedMasks: [UInt64] = LayoutNodeKind.allCases.map { kind in
        var mask: UInt64 = 0
        for (bit, name) in orderedNames.enumerated() where isUniversal(name) || ownAllowed(for: kind).contains(name) {
            mask |= 1 << UInt64(bit)
        }
        return mask
    }

    /// The first length that is set and is not a finite number of 0 or more (maxWidth and
    /// maxHeight may be infinite).
    var firstInvalidLength: (name: String, value: Double)? {
        var found: (String, Double)? = nil
        forEachLength { name, value in
            guard found == nil, let value else { return }
            let infiniteAllowed = name == "maxWidth" || name == "maxHeight"
            if value.isNaN || value < 0 || !(value.isFinite || infiniteAllowed) { found = (name, value) }
        }
        return found
    }

    /// Calls `visit` with each length-valued property, set or not; they are checked alike
    /// (finite, 0 or more; maxima may be infinite).
    func forEachLength<E: Error>(_ visit: (String, Double?) throws(E) -> Void) throws(E) {
        try visit("width", width)
        try visit("height", height)
        try visit("aspectRatio", aspectRatio)
        try visit("minWidth", minWidth)
        try visit("idealWidth", idealWidth)
        try visit("maxWidth", maxWidth)
        try visit("minHeight", minHeight)
        try visit("idealHeight", idealHeight)
        try visit("maxHeight", maxHeight)
        try visit("length", length)
        try visit("top", top)
        try visit("leading", leading)
        try visit("bottom", bottom)
        try visit("trailing", trailing)
    }

    /// Sets one property from an untyped value, checking that the kind has it and its type.
    mutating func set(_ name: String, _ value: LayoutPropertyValue, node: NodeLocation, kind: LayoutNodeKind) throws(LayoutError) {
        guard Self.isUniversal(name) || Self.ownAllowed(for: kind).contains(name) else {
            throw .unknownProperty(node: node, property: name, kind: kind.rawValue)
        }
        let read = PropertyReader(value: value, node: node, name: name)
        switch name {
        case "text": text = try read.string()
        case "font": font = try read.string()
        case "textStyle":
            let text = try read.string()
            guard let parsed = TextStyle(name: text) else {
                throw .invalidProperty(node: node, property: name, reason: "\"\(text)\" is not one of \(TextStyle.nameList)")
            }
            textStyle = parsed
        case "lineLimit":
            let number = try read.number()
            guard number.isFinite, number >= 1, number == number.rounded(), number <= 1_000_000 else {
                throw .invalidProperty(node: node, property: name, reason: "\(number) is not a whole number of lines ≥ 1")
            }
            lineLimit = Int(number)
        case "truncation": truncation = try read.named(TruncationMode.self, "head, middle, tail")
        case "minimumScaleFactor": minimumScaleFactor = try read.number()
        case "templates": templates = try read.strings()
        case "minLength": minLength = try read.number()
        case "width": width = try read.number()
        case "height": height = try read.number()
        case "aspectRatio": aspectRatio = try read.number()
        case "minWidth": minWidth = try read.number()
        case "idealWidth": idealWidth = try read.number()
        case "maxWidth": maxWidth = try read.number()
        case "minHeight": minHeight = try read.number()
        case "idealHeight": idealHeight = try read.number()
        case "maxHeight": maxHeight = try read.number()
        case "spacing": spacing = try read.number()
        case "alignment":
            let text = try read.string()
            guard let parsed = LayoutAlignment(name: text) else {
                throw .invalidProperty(
                    node: node, property: name,
                    reason: "\"\(text)\" is not one of \(LayoutAlignment.names.map(\.0).joined(separator: ", "))")
            }
            alignment = parsed
        case "axis": axis = try read.named(LayoutAxis.self, "horizontal, vertical")
        case "axes": axes = try read.named(FitAxes.self, "horizontal, vertical, both")
        case "category":
            let text = try read.string()
            guard let parsed = SizeCategory(name: text) else {
                throw .unknownSizeCategory(node: node, name: text)
            }
            category = parsed
        case "when": when = try read.named(LayoutAxis.self, "horizontal, vertical")
        case "length": length = try read.number()
        case "top": top = try read.number()
        case "leading": leading = try read.number()
        case "bottom": bottom = try read.number()
        case "trailing": trailing = try read.number()
        case "horizontal": horizontal = try read.bool()
        case "vertical": vertical = try read.bool()
        case "layoutPriority": layoutPriority = try read.number()
        case "hidden": hidden = try read.bool()
        case "multilineTextAlignment": multilineTextAlignment = try read.named(HorizontalAlignment.self, "leading, center, trailing")
        case "layoutDirection": layoutDirection = try read.named(LayoutDirection.self, "leftToRight, rightToLeft")
        case "fields": fields = try read.strings()
        case "data": data = try read.strings()
        case "columns": columns = try read.named(GridColumns.self, "ideal, equal")
        case "gridCellColumns":
            let number = try read.number()
            guard number.isFinite, number >= 1, number == number.rounded(), number <= Double(LayoutLimits.maxNodes) else {
                throw .invalidProperty(node: node, property: name, reason: "\(number) is not a whole number of columns from 1 to \(LayoutLimits.maxNodes)")
            }
            gridCellColumns = Int(number)
        default: throw .unknownProperty(node: node, property: name, kind: kind.rawValue)
        }
    }
}

/// One property's untyped value read as the type the property has; an error names the node
/// and the property.
private struct PropertyReader {
    let value: LayoutPropertyValue
    let node: NodeLocation
    let name: String

    func string() throws(LayoutError) -> String {
        guard case .string(let text) = value else {
            throw .invalidProperty(node: node, property: name, reason: "expected a string, got \(value)")
        }
        return text
    }

    func number() throws(LayoutError) -> Double {
        switch value {
        case .number(let number): return number
        case .string("infinity"): return .infinity
        default: throw .invalidProperty(node: node, property: name, reason: "expected a number, got \(value)")
        }
    }

    func bool() throws(LayoutError) -> Bool {
        guard case .bool(let flag) = value else {
            throw .invalidProperty(node: node, property: name, reason: "expected true or false, got \(value)")
        }
        return flag
    }

    func strings() throws(LayoutError) -> [String] {
        guard case .strings(let list) = value else {
            throw .invalidProperty(node: node, property: name, reason: "expected an array of strings, got \(value)")
        }
        return list
    }

    func named<T: RawRepresentable<String>>(_: T.Type, _ choices: String) throws(LayoutError) -> T {
        let text = try string()
        guard let parsed = T(rawValue: text) else {
            throw .invalidProperty(node: node, property: name, reason: "\"\(text)\" is not one of \(choices)")
        }
        return parsed
    }
}

/// How a grid sizes its columns: each as wide as its widest cell, or all as wide as the widest
/// column (the template pattern's equal cells; docs/swiftui-layout.md 4.6).
public enum GridColumns: String, Hashable, Sendable, Codable, CaseIterable {
    case ideal, equal
}
