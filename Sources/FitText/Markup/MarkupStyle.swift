/// The attributes in force for a stretch of markup text, innermost tag winning per field as
/// in Pango's attribute iterator (pango-attributes.c, pango_attr_iterator_get_font): each
/// tag starts from its parent's and overrides what it sets. nil: not set (the request's).
public struct MarkupStyle: Hashable, Sendable {
    public var families: [String]?
    public var style: FontStyle?
    public var weight: FontWeight?
    public var stretch: FontStretch?
    public var variant: FontVariant?
    /// An absolute size (size="12pt", font="Sans 12", or <big> inside one: Pango's
    /// pango_attr_size_new, a whole number of Pango units).
    public var size: FontSize?
    /// The scale of <big>, <small>, size="larger"/"x-large"/"150%" when no absolute size is
    /// in force (pango_attr_scale_new); it multiplies the size.
    public var scale: Double?
    public var variations: String?
    /// font_features of every enclosing span, outermost first (all apply).
    public var features: [String] = []
    /// letter_spacing in Pango units (1/1024 px at 96 dpi).
    public var letterSpacing: Int?
    /// rise in Pango units; sub/sup's font_scale and baseline_shift (measured: see
    /// PANGO_RULES.md §13).
    public var rise: Int?
    public var language: String?
    /// Every font_scale and baseline_shift in force, each with the UTF-16 offset where its
    /// tag opened: Pango keeps a stack of them (itemize.c collect_font_scale, pango-layout.c
    /// collect_baseline_shift) and sizes each from the font of the text before that offset.
    public var fontScales: [Anchored<FontScale>] = []
    public var baselineShifts: [Anchored<BaselineShift>] = []

    public struct Anchored<Value: Hashable & Sendable>: Hashable, Sendable {
        public var value: Value
        public var offset: Int
    }

    // Pango's OpenTag state for relative sizes, inherited by nested tags: the level of
    // <big>/<small>/larger/smaller since the last absolute size or scale, and that base.
    var scaleLevel = 0
    var baseScaleFactor = 1.0
    var baseFontSize: FontSize? = nil

    public init() {}

    /// The request's description with this style's fields over it.
    func apply(to base: FontDescription) -> FontDescription {
        var d = base
        if let families { d.families = families }
        if let style { d.style = style }
        if let weight { d.weight = weight }
        if let stretch { d.stretch = stretch }
        if let variant { d.variant = variant }
        if let variations { d.variations = variations }
        if let size { d.size = size }
        if let scale, let size = d.size {
            // pango_attr_iterator_get_font: set_size (scale * size), an int of Pango units.
            switch size {
            case .points(let pt): d.size = .points((scale * (pt * 1024).rounded()).rounded(.towardZero) / 1024)
            case .pixels(let px): d.size = .pixels((scale * (px * 1024).rounded()).rounded(.towardZero) / 1024)
            }
        }
        return d
    }

    public enum FontScale: String, Hashable, Sendable {
        case none, superscript, `subscript`, smallCaps = "small-caps"
    }

    public enum BaselineShift: Hashable, Sendable {
        case none, superscript, `subscript`
        case units(Int)
    }
}

/// Pango's tags and <span> attributes (pango-markup.c, *_parse_func).
enum MarkupTags {
    /// The state of an open tag that Pango keeps for sizes (OpenTag: scale_level,
    /// base_scale_factor, base_font_size) lives in the style: an absolute size in force, or
    /// the scale; each <big>/<small>/"larger"/"smaller" multiplies by 1.2 or divides.
    static func open(
        _ tag: String, attributes: [(String, String)], style: inout MarkupStyle,
        position: () -> (line: Int, char: Int), at offset: Int
    ) throws(FitTextError) {
        var line: Int { position().line }
        var char: Int { position().char }
        if tag != "span", let first = attributes.first {
            guard ["b", "big", "i", "markup", "s", "sub", "sup", "small", "tt", "u"].contains(tag) else {
                throw fail("Unknown tag '\(tag)' on line \(line) char \(char)")
            }
            throw fail("Tag '\(tag)' does not support attribute '\(first.0)' on line \(line) char \(char)")
        }
        switch tag {
        case "b": style.weight = .bold
        case "i": style.style = .italic
        case "big": step(&style, by: 1)
        case "small": step(&style, by: -1)
        case "tt": style.families = ["Monospace"]
        case "sub":
            style.fontScales.append(.init(value: .subscript, offset: offset))
            style.baselineShifts.append(.init(value: .subscript, offset: offset))
        case "sup":
            style.fontScales.append(.init(value: .superscript, offset: offset))
            style.baselineShifts.append(.init(value: .superscript, offset: offset))
        case "s", "u", "markup": break  // decorations: no change to logical extents
        case "span": try span(attributes, style: &style, position: position, at: offset)
        default: throw fail("Unknown tag '\(tag)' on line \(line) char \(char)")
        }
    }

    /// Whether the tag sets an attribute that affects itemization (pango-layout.c
    /// affects_itemization: font, language, fallback, gravity, font_scale, letter_spacing,
    /// rise, baseline_shift, line_height, text_transform; not colours, decorations,
    /// font_features, show, insert_hyphens, allow_breaks). Asked after `open` accepted it.
    static func itemizes(_ tag: String, attributes: [(String, String)]) -> Bool {
        switch tag {
        case "b", "i", "big", "small", "tt", "sub", "sup": return true
        case "span":
            let itemizing: Set<String> = [
                "desc", "family", "size", "style", "weight", "variant", "stretch", "lang", "fallback", "gravity",
                "gravity_hint", "font_scale", "letter_spacing", "rise", "baseline_shift", "line_height", "text_transform",
            ]
            return attributes.contains { itemizing.contains(spanAttributes[String($0.0.map { $0 == "-" ? "_" : $0 })] ?? "") }
        default: return false
        }
    }

    /// One level larger or smaller: markup_data_close_tag's attribute for the tag's range, a
    /// size of base size × 1.2^level when an absolute size is in force (an int of Pango
    /// units), else a scale of base factor × 1.2^level (scale_factor: CSS's step).
    private static func step(_ style: inout MarkupStyle, by level: Int) {
        style.scaleLevel += level
        var factor = 1.0
        for _ in 0..<abs(style.scaleLevel) { factor = style.scaleLevel > 0 ? factor * 1.2 : factor / 1.2 }
        if let base = style.baseFontSize {
            switch base {
            case .points(let pt): style.size = .points((factor * (pt * 1024).rounded()).rounded(.towardZero) / 1024)
            case .pixels(let px):
                // pango_attr_size_new of the base's number: points, even from a px size
                // (measured: <span font="14px"><big> is 16.8 pt, not 16.8 px).
                style.size = .points((factor * (px * 1024).rounded()).rounded(.towardZero) / 1024)
            }
        } else {
            style.scale = factor * style.baseScaleFactor
        }
    }

    /// open_tag_set_absolute_font_size: sizes of nested tags step from this one.
    private static func setAbsoluteSize(_ style: inout MarkupStyle, _ size: FontSize) {
        style.size = size
        style.baseFontSize = size
        style.scaleLevel = 0
    }

    private static let spanAttributes: [String: String] = {
        var map: [String: String] = [:]
        for name in [
            "allow_breaks", "alpha", "background", "background_alpha", "baseline_shift", "fallback", "font_scale",
            "foreground", "font_features", "show", "size", "stretch", "strikethrough", "strikethrough_color", "style",
            "segment", "text_transform", "gravity", "gravity_hint", "insert_hyphens", "lang", "letter_spacing",
            "line_height", "overline", "overline_color", "underline", "underline_color", "rise", "variant", "weight",
        ] { map[name] = name }
        let aliases = [
            "bgcolor": "background", "bgalpha": "background_alpha", "color": "foreground", "fgcolor": "foreground",
            "fgalpha": "alpha", "font": "desc", "font_desc": "desc", "face": "family", "font_family": "family",
            "font_size": "size", "font_stretch": "stretch", "font_style": "style", "font_variant": "variant",
            "font_weight": "weight",
        ]
        for (alias, name) in aliases { map[alias] = name }
        return map
    }()

    /// A <span>'s attributes over `style` (pango-markup.c span_parse_func): each checked as
    /// Pango checks it, the ones that change what is measured applied.
    private static func span(
        _ attributes: [(String, String)], style: inout MarkupStyle, position: () -> (line: Int, char: Int),
        at offset: Int
    ) throws(FitTextError) {
        let values = try spanValues(attributes, position: position)
        try applyFontAttributes(values, to: &style, position: position)
        try applyFaceAttributes(values, to: &style, position: position)
        for key in ["underline", "overline", "gravity", "gravity_hint", "text_transform", "show"] {
            // Enumerations that do not change logical extents: checked as names or numbers.
            if let value = values[key], value.isEmpty {
                throw fail("'' is not a valid value for the '\(key)' attribute on <span> tag, line \(position().line)")
            }
        }
        for key in ["strikethrough", "fallback", "allow_breaks", "insert_hyphens"] {
            if let value = values[key], !["true", "yes", "t", "y", "false", "no", "f", "n"].contains(value) {
                throw fail("Value of '\(key)' attribute on <span> tag line \(position().line) should have one of 'true/yes/t/y' or 'false/no/f/n': '\(value)' is not valid")
            }
        }
        try applyPlacementAttributes(values, to: &style, position: position, at: offset)
        if let value = values["lang"] { style.language = value }
        if let value = values["font_features"] {
            style.features += MeasureRequest.parseFeatureList(value)
        }
    }

    private static func fail(_ message: String) -> FitTextError { .invalidArgument(name: "markup", reason: message) }

    /// A span's attributes by their canonical names (``spanAttributes``): each allowed, and
    /// given once.
    private static func spanValues(
        _ attributes: [(String, String)], position: () -> (line: Int, char: Int)
    ) throws(FitTextError) -> [String: String] {
        var values: [String: String] = [:]
        for (name, value) in attributes {
            // attr_strcmp: '-' and '_' are the same.
            guard let key = spanAttributes[String(name.map { $0 == "-" ? "_" : $0 })] else {
                throw fail("Attribute '\(name)' is not allowed on the <span> tag on line \(position().line) char \(position().char)")
            }
            guard values[key] == nil else {
                throw fail("Attribute '\(name)' occurs twice on <span> tag on line \(position().line) char \(position().char), may only occur once")
            }
            values[key] = value
        }
        return values
    }

    /// The font description, family and size attributes: the description first, then the
    /// others over it (span_parse_func).
    private static func applyFontAttributes(_ values: [String: String], to style: inout MarkupStyle, position: () -> (line: Int, char: Int)) throws(FitTextError) {
        if let desc = values["desc"] {
            let parsed = try FontDescription.parse(desc)
            // pango_font_description_from_string always sets style, weight, variant, stretch.
            if !parsed.families.isEmpty { style.families = parsed.families }
            style.style = parsed.style
            style.weight = parsed.weight
            style.variant = parsed.variant
            style.stretch = parsed.stretch
            if let variations = parsed.variations { style.variations = variations }
            if let size = parsed.size { setAbsoluteSize(&style, size) }
        }
        if let family = values["family"] {
            style.families = family.split(separator: ",").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
        }
        guard let size = values["size"] else { return }
        if let n = length(size), n > 0 {
            setAbsoluteSize(&style, .points(Double(n) / 1024))
        } else if size == "smaller" {
            step(&style, by: -1)
        } else if size == "larger" {
            step(&style, by: 1)
        } else if let factor = absoluteSize(size) {
            // parse_absolute_size: a scale attribute (over any size in force), and nested
            // tags step from it (open_tag_set_absolute_font_scale).
            style.scale = factor
            style.baseScaleFactor = factor
            style.baseFontSize = nil
            style.scaleLevel = 0
        } else {
            throw fail("Value of 'size' attribute on <span> tag on line \(position().line) could not be parsed; should be an integer, or a string such as 'small', not '\(size)'")
        }
    }

    /// The style, weight, variant and stretch attributes: names as Pango's font description
    /// fields (pango_parse_style and the like), or numbers.
    private static func applyFaceAttributes(_ values: [String: String], to style: inout MarkupStyle, position: () -> (line: Int, char: Int)) throws(FitTextError) {
        if let value = values["style"] {
            guard let parsed = field(value, [("Roman", 0), ("Oblique", 1), ("Italic", 2)], normal: 0) else {
                throw fail("'\(value)' is not a valid value for the 'style' attribute on <span> tag, line \(position().line); valid values are 'normal', 'oblique', 'italic'")
            }
            style.style = parsed == 2 ? .italic : parsed == 1 ? .oblique : .normal
        }
        if let value = values["weight"] {
            let names = [
                ("Thin", 100), ("Ultra-Light", 200), ("Extra-Light", 200), ("Light", 300), ("Semi-Light", 350),
                ("Demi-Light", 350), ("Book", 380), ("Regular", 400), ("Medium", 500), ("Semi-Bold", 600),
                ("Demi-Bold", 600), ("Bold", 700), ("Ultra-Bold", 800), ("Extra-Bold", 800), ("Heavy", 900),
                ("Black", 900), ("Ultra-Heavy", 1000), ("Extra-Heavy", 1000), ("Ultra-Black", 1000), ("Extra-Black", 1000),
            ]
            guard let parsed = field(value, names, normal: 400) else {
                throw fail("'\(value)' is not a valid value for the 'weight' attribute on <span> tag, line \(position().line); valid values are for example 'light', 'ultrabold' or a number")
            }
            style.weight = FontWeight(rawValue: min(max(parsed, 1), 1000))
        }
        if let value = values["variant"] {
            let names = [
                ("Small-Caps", 1), ("All-Small-Caps", 2), ("Petite-Caps", 3), ("All-Petite-Caps", 4), ("Unicase", 5),
                ("Title-Caps", 6),
            ]
            guard let parsed = field(value, names, normal: 0) else {
                throw fail("'\(value)' is not a valid value for the 'variant' attribute on <span> tag, line \(position().line); valid values are 'normal', 'smallcaps'")
            }
            style.variant = FontVariant.all.indices.contains(parsed) ? FontVariant.all[parsed] : .normal
        }
        if let value = values["stretch"] {
            let all: [FontStretch] = [
                .ultraCondensed, .extraCondensed, .condensed, .semiCondensed, .normal, .semiExpanded, .expanded,
                .extraExpanded, .ultraExpanded,
            ]
            let names = [
                ("Ultra-Condensed", 0), ("Extra-Condensed", 1), ("Condensed", 2), ("Semi-Condensed", 3),
                ("Semi-Expanded", 5), ("Expanded", 6), ("Extra-Expanded", 7), ("Ultra-Expanded", 8),
            ]
            guard let parsed = field(value, names, normal: 4) else {
                throw fail("'\(value)' is not a valid value for the 'stretch' attribute on <span> tag, line \(position().line); valid values are for example 'condensed', 'ultraexpanded', 'normal'")
            }
            style.stretch = all[min(max(parsed, 0), 8)]
        }
    }

    /// The attributes that move or space the text: rise, baseline_shift and font_scale (kept
    /// with where their tag opened, `offset`, for the shift's previous run), letter_spacing.
    private static func applyPlacementAttributes(
        _ values: [String: String], to style: inout MarkupStyle, position: () -> (line: Int, char: Int), at offset: Int
    ) throws(FitTextError) {
        if let value = values["rise"] {
            guard let n = length(value) else {
                throw fail("Value of 'rise' attribute on <span> tag on line \(position().line) could not be parsed; should be an integer, or a string such as '5.5pt', not '\(value)'")
            }
            style.rise = n
        }
        if let value = values["baseline_shift"] {
            if let parsed = enumValue(value, ["none": 0, "superscript": 1, "subscript": 2]), (0...2).contains(parsed) {
                let shift: MarkupStyle.BaselineShift = parsed == 1 ? .superscript : parsed == 2 ? .subscript : .none
                style.baselineShifts.append(.init(value: shift, offset: offset))
            } else if let n = length(value), n > 1024 || n < -1024 {
                style.baselineShifts.append(.init(value: .units(n), offset: offset))
            } else {
                throw fail("Value of 'baseline_shift' attribute on <span> tag on line \(position().line) could not be parsed; should be 'superscript' or 'subscript' or an integer, or a string such as '5.5pt', not '\(value)'")
            }
        }
        if let value = values["font_scale"] {
            guard let parsed = enumValue(value, ["none": 0, "superscript": 1, "subscript": 2, "small-caps": 3]), (0...3).contains(parsed) else {
                throw fail("'\(value)' is not a valid value for the 'font_scale' attribute on <span> tag, line \(position().line); valid values are none/superscript/subscript/small-caps")
            }
            let scale = [MarkupStyle.FontScale.none, .superscript, .subscript, .smallCaps][parsed]
            style.fontScales.append(.init(value: scale, offset: offset))
        }
        if let value = values["letter_spacing"] {
            guard let n = integer(value) else {
                throw fail("Value of 'letter_spacing' attribute on <span> tag on line \(position().line) could not be parsed; should be an integer, not '\(value)'")
            }
            style.letterSpacing = n
        }
    }

    /// _pango_scan_int: optional sign and decimal digits, the whole string (bounded to Int32).
    private static func integer(_ text: String) -> Int? {
        let trimmed = text.drop(while: { $0 == " " || $0 == "\t" })
        guard let value = Int32(trimmed) else { return nil }
        return Int(value)
    }

    /// parse_length: an integer of Pango units, or a number followed by "pt" (× 1024,
    /// truncated as the C assignment does).
    private static func length(_ text: String) -> Int? {
        if let n = integer(text) { return n }
        guard text.hasSuffix("pt"), let value = Double(text.dropLast(2)), value.isFinite, abs(value) < 1e6 else { return nil }
        return Int((value * 1024).rounded(.towardZero))
    }

    /// parse_absolute_size: CSS's keywords (1.2 per step from medium) or a percentage.
    private static func absoluteSize(_ text: String) -> Double? {
        let levels = ["xx-small": -3, "x-small": -2, "small": -1, "medium": 0, "large": 1, "x-large": 2, "xx-large": 3]
        if let level = levels[text] {
            var factor = 1.0
            for _ in 0..<abs(level) { factor = level > 0 ? factor * 1.2 : factor / 1.2 }
            return factor
        }
        guard text.hasSuffix("%"), let value = Double(text.dropLast()), value.isFinite, value > 0 else { return nil }
        return value / 100
    }

    /// _pango_parse_enum: a GEnum nick, exactly, or an integer.
    private static func enumValue(_ text: String, _ names: [String: Int]) -> Int? {
        names[text] ?? integer(text)
    }

    /// pango/fonts.c parse_field, as pango_parse_style / _weight / _variant / _stretch read a
    /// markup value: "Normal" or a name of the map, case-blind, each "-" of the name optional
    /// (field_matches: "smallcaps" and "SMALL-CAPS" are Small-Caps), else a non-negative
    /// decimal integer (parse_int).
    static func field(_ text: String, _ names: [(String, Int)], normal: Int) -> Int? {
        guard !text.isEmpty else { return nil }
        if fieldMatches("Normal", text) { return normal }
        if let found = names.first(where: { fieldMatches($0.0, text) }) { return found.1 }
        // strtol: leading white space, a sign; the whole string, >= 0 and within an int.
        let trimmed = text.utf8.drop(while: { $0 == 0x20 || (0x09...0x0D).contains($0) })
        guard let value = Int32(String(decoding: trimmed, as: UTF8.self)), value >= 0 else { return nil }
        return Int(value)
    }

    /// pango/fonts.c field_matches: `text` equals `name` ignoring ASCII case, where a "-" of
    /// the name may be left out.
    static func fieldMatches(_ name: String, _ text: String) -> Bool {
        var n = name.utf8.makeIterator()
        var pending = n.next()
        for byte in text.utf8 {
            let t = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            while let c = pending, (c >= 0x41 && c <= 0x5A ? c | 0x20 : c) != t {
                guard c == 0x2D else { return false }
                pending = n.next()
            }
            guard pending != nil else { return false }
            pending = n.next()
        }
        return pending == nil
    }
}

/// A markup request's styles for the layout: per UTF-16 unit of the plain text the index of
/// its style (0: the request's own), each style resolved, and its letter spacing (px, in
/// whole Pango units).
struct MarkupRuns: Sendable {
    var styleOf: [Int32]
    var styles: [ResolvedStyle]
    var letterSpacings: [Double]
    /// How far each style's text is raised: rise and baseline shifts.
    var raises: [MarkupRaise]
    /// Per style, the first style of its item kind: styles that differ only in font_features
    /// itemize as one (pango-layout.c affects_itemization leaves font_features out; they
    /// are applied to the items after itemizing, pango_item_apply_attrs).
    var itemOf: [Int32]
    /// Per UTF-16 unit, whether an item starts there though the style does not change (an
    /// itemizing tag opened or closed: ``MarkupParser/Run/startsItem``); empty when none does.
    var itemBreaks: [Bool] = []
    /// Per style, the style an ellipsis in its text is drawn in when it differs (a sub/sup
    /// scale: the ellipsis is itemized alone, without the previous item's OS/2 ratio).
    var ellipsisStyles: [ResolvedStyle?] = []
}

/// A style's raise (px, up positive): its rise and the baseline shifts in force, which
/// pango-layout.c apply_baseline_shift applies per line (see PixelTypesetter's line extents): a
/// shift is added at the item where its attribute starts, and taken off where it ends only
/// if the entry on top of the layout's stack is that attribute — so text a shift wraps onto
/// the next line is not raised, and what follows its end there is lowered by it.
struct MarkupRaise: Sendable {
    var rise = 0.0
    /// Outermost first: the order of an item's extra_attrs (the markup parser inserts the
    /// last-closed, outer, tag's attributes first; pango_attr_list_insert keeps those of one
    /// start in insertion order; the attribute iterator's stack and get_font keep it).
    var shifts: [Shift] = []

    struct Shift: Sendable {
        /// Where the tag opened and closed (UTF-16 offsets in the text).
        var anchor: Int
        var end: Int
        var px: Double
        /// The shift when the tag opens at the start of a line: no previous run (5000).
        var atLineStart: Double
        /// The attribute's value (none 0, superscript 1, subscript 2, else Pango units): two
        /// attributes are the same when start, end and value are.
        var kind: Int
    }

    /// An entry of the stack (collect_baseline_shift's BaselineItem): the attribute and the
    /// offset it added.
    struct Entry: Sendable {
        var anchor: Int
        var end: Int
        var kind: Int
        var value: Double
    }

    var isZero: Bool { rise == 0 && shifts.allSatisfy { $0.px == 0 && $0.atLineStart == 0 } }
}
