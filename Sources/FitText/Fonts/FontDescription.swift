/// A font request in Pango's syntax: `"[FAMILY-LIST] [STYLE-OPTIONS] [SIZE]"`, e.g.
/// `"Noto Sans Bold 12"`, `"DejaVu Sans Mono, monospace Italic 10.5"`, `"sans-serif 14px"`.
///
/// The grammar and the keyword list follow `pango_font_description_from_string`
/// (pango/fonts.c, Pango 1.50): the size is the last word (points, or pixels with a `px`
/// suffix); style words are taken from the end while they match a keyword; the rest is a
/// comma-separated family list. Keywords match without regard to case or dashes
/// ("Semi-Bold" = "semibold").
public struct FontDescription: Hashable, Sendable, CustomStringConvertible {
    public var families: [String]
    public var style: FontStyle
    public var weight: FontWeight
    public var stretch: FontStretch
    public var variant: FontVariant
    /// `nil` when the description names no size: the engine's default size applies.
    public var size: FontSize?
    /// OpenType variations, "wght=650,opsz=12": the text after the "@" of the description's
    /// last word (Pango 1.50's `@axis=value,…` syntax); nil when there is none.
    public var variations: String?

    public init(
        families: [String] = [], style: FontStyle = .normal, weight: FontWeight = .normal,
        stretch: FontStretch = .normal, variant: FontVariant = .normal, size: FontSize? = nil,
        variations: String? = nil
    ) {
        self.variations = variations
        self.families = families
        self.style = style
        self.weight = weight
        self.stretch = stretch
        self.variant = variant
        self.size = size
    }

    /// Longest description accepted: a family list, not a document.
    public static let maxLength = 1024

    public static func parse(_ text: String) throws(FitTextError) -> FontDescription {
        guard text.utf8.count <= maxLength else {
            throw .invalidFontDescription(
                String(text.prefix(40)) + "…", reason: "longer than \(maxLength) bytes")
        }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .invalidFontDescription(text, reason: "contains control characters")
        }
        var description = FontDescription()
        var words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)

        // Variations first: only the last word, and only when it starts with "@"
        // (pango/fonts.c, pango_font_description_from_string and parse_variations) — so
        // "Inter @wght=650 11" has none, and its family is "Inter @wght=650".
        if let last = words.last, last.hasPrefix("@") {
            description.variations = try FontVariations.validate(String(last.dropFirst()), in: text)
            words.removeLast()
        }
        if let last = words.last, let size = try FontSize.parse(word: last, in: text) {
            description.size = size
            words.removeLast()
        }
        // Style words, right to left, until a word that is not one: that word ends the family.
        while let last = words.last, description.apply(styleWord: last) {
            words.removeLast()
        }
        let familyText = words.joined(separator: " ")
        description.families = familyText.split(separator: ",")
            .map { $0.trimmingSpaces() }
            .filter { !$0.isEmpty }
        return description
    }

    /// Applies one style keyword; false if `word` is not one (it then belongs to the family).
    private mutating func apply(styleWord word: String) -> Bool {
        let key = word.lowercased().filter { $0 != "-" }
        if key == "normal" || key == "regular" || key == "roman" { return true }
        if let style = FontStyle(keyword: key) { self.style = style; return true }
        if let weight = FontWeight(keyword: key) { self.weight = weight; return true }
        if let stretch = FontStretch(keyword: key) { self.stretch = stretch; return true }
        if let variant = FontVariant(keyword: key) { self.variant = variant; return true }
        return false
    }

    /// Whether the family list needs a trailing comma to parse back as written: its last word
    /// would be read as a style word, or as the size when no style or size follows. Pango's
    /// pango_font_description_to_string does the same (pango/fonts.c).
    private func familyNeedsComma(_ list: String) -> Bool {
        guard let start = list.lastIndex(where: { $0 == " " || $0 == "\t" }).map(list.index(after:)) ?? list.indices.first
        else { return false }
        let word = String(list[start...])
        var scratch = FontDescription()
        if scratch.apply(styleWord: word) { return true }
        guard style == .normal, variant == .normal, weight == .normal, stretch == .normal, size == nil else { return false }
        // A size word, or one that parse refuses as a size (such as "0").
        return (try? FontSize.parse(word: word, in: list)) != .some(nil)
    }

    /// The size in pixels at 96 dpi (CSS px): pt × 96/72, times the user's text scale.
    public func pixelSize(defaultSize: FontSize, textScale: Double) -> Double {
        (size ?? defaultSize).pixels * textScale
    }

    /// The canonical description, which parses back to an equal value.
    /// Built in one string, without an array of words: layout writes a description for every
    /// text it measures.
    public var description: String {
        var out = ""
        var empty = true  // no word yet (a word may be the empty string)
        func add(_ word: String) {
            if !empty { out += " " }
            out += word
            empty = false
        }
        if !families.isEmpty {
            var list = families.count == 1 ? families[0] : families.joined(separator: ",")
            if list.split(whereSeparator: { $0 == " " || $0 == "\t" }).last?.hasPrefix("@") == true {
                // A last word starting with "@" would be read back as the variations, with a
                // comma stuck to it too: a comma of its own keeps it in the family.
                list += " ,"
            } else if familyNeedsComma(list) {
                list += ","
            }
            add(list)
        }
        if style != .normal { add(style.name) }
        if variant != .normal { add(variant.name) }
        if weight != .normal { add(weight.name) }
        if stretch != .normal { add(stretch.name) }
        if let size { add(size.description) }
        if let variations { add("@" + variations) }
        return out
    }
}

public enum FontSize: Hashable, Sendable, CustomStringConvertible {
    case points(Double)
    case pixels(Double)

    /// CSS px at 96 dpi: 1 pt = 96/72 px (the resolution GTK and Pango assume).
    public var pixels: Double {
        switch self {
        case .points(let pt): return pt * 96.0 / 72.0
        case .pixels(let px): return px
        }
    }

    public var description: String {
        switch self {
        case .points(let pt): return FontSize.format(pt)
        case .pixels(let px): return FontSize.format(px) + "px"
        }
    }

    private static func format(_ value: Double) -> String {
        // Int(value) traps past Int.max; parse accepts any finite size, such as "Sans 1e31".
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// A size word, or nil when `word` is not numeric (then it is part of the family or style).
    static func parse(word: String, in text: String) throws(FitTextError) -> FontSize? {
        var number = Substring(word)
        var isPixels = false
        if number.lowercased().hasSuffix("px") {
            number = number.dropLast(2)
            isPixels = true
        }
        guard let first = number.first, first.isNumber || first == "." || first == "-" || first == "+"
        else { return nil }
        // A word such as "3D" or "12pt" is not a size; Pango keeps it in the family name.
        guard number.allSatisfy({ $0.isASCII }), let value = Double(number) else { return nil }
        guard value.isFinite else { throw .invalidFontSize(value, reason: "not a finite number") }
        guard value > 0 else { throw .invalidFontSize(value, reason: "a size must be greater than 0") }
        return isPixels ? .pixels(value) : .points(value)
    }
}

/// `FC_SLANT` values from fontconfig.h.
public enum FontStyle: String, Hashable, Sendable {
    case normal, italic, oblique

    init?(keyword: String) {
        switch keyword {
        case "italic": self = .italic
        case "oblique": self = .oblique
        default: return nil
        }
    }

    var name: String {
        switch self {
        case .normal: return "Normal"
        case .italic: return "Italic"
        case .oblique: return "Oblique"
        }
    }
}

/// An OpenType weight (100–1000), as in CSS and `PangoWeight`.
public struct FontWeight: RawRepresentable, Hashable, Sendable {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let thin = FontWeight(rawValue: 100)
    public static let ultraLight = FontWeight(rawValue: 200)
    public static let light = FontWeight(rawValue: 300)
    public static let semiLight = FontWeight(rawValue: 350)
    public static let book = FontWeight(rawValue: 380)
    public static let normal = FontWeight(rawValue: 400)
    public static let medium = FontWeight(rawValue: 500)
    public static let semiBold = FontWeight(rawValue: 600)
    public static let bold = FontWeight(rawValue: 700)
    public static let ultraBold = FontWeight(rawValue: 800)
    public static let heavy = FontWeight(rawValue: 900)
    public static let ultraHeavy = FontWeight(rawValue: 1000)

    // Pango's weight_map (pango/fonts.c), dashes removed.
    private static let keywords: [String: FontWeight] = [
        "thin": .thin, "ultralight": .ultraLight, "extralight": .ultraLight,
        "light": .light, "semilight": .semiLight, "demilight": .semiLight, "book": .book,
        "medium": .medium, "semibold": .semiBold, "demibold": .semiBold, "bold": .bold,
        "ultrabold": .ultraBold, "extrabold": .ultraBold, "heavy": .heavy, "black": .heavy,
        "ultraheavy": .ultraHeavy, "extraheavy": .ultraHeavy, "ultrablack": .ultraHeavy, "extrablack": .ultraHeavy,
    ]

    init?(keyword: String) {
        if let weight = FontWeight.keywords[keyword] {
            self = weight
        } else if keyword.hasPrefix("weight="), let value = Int(keyword.dropFirst(7)),
            (1...1000).contains(value)
        {
            self.rawValue = value
        } else {
            return nil
        }
    }

    // Pango's canonical spelling of each named weight.
    private static let names: [Int: String] = [
        100: "Thin", 200: "Ultra-Light", 300: "Light", 350: "Semi-Light", 380: "Book", 400: "Normal",
        500: "Medium", 600: "Semi-Bold", 700: "Bold", 800: "Ultra-Bold", 900: "Heavy", 1000: "Ultra-Heavy",
    ]

    var name: String { FontWeight.names[rawValue] ?? "weight=\(rawValue)" }
}

/// Width classes; the raw value is fontconfig's `FC_WIDTH` (percent of normal).
public enum FontStretch: Double, Hashable, Sendable {
    case ultraCondensed = 50, extraCondensed = 62.5, condensed = 75, semiCondensed = 87.5
    case normal = 100
    case semiExpanded = 112.5, expanded = 125, extraExpanded = 150, ultraExpanded = 200

    init?(keyword: String) {
        switch keyword {
        case "ultracondensed": self = .ultraCondensed
        case "extracondensed": self = .extraCondensed
        case "condensed": self = .condensed
        case "semicondensed": self = .semiCondensed
        case "semiexpanded": self = .semiExpanded
        case "expanded": self = .expanded
        case "extraexpanded": self = .extraExpanded
        case "ultraexpanded": self = .ultraExpanded
        default: return nil
        }
    }

    var name: String {
        switch self {
        case .ultraCondensed: return "Ultra-Condensed"
        case .extraCondensed: return "Extra-Condensed"
        case .condensed: return "Condensed"
        case .semiCondensed: return "Semi-Condensed"
        case .normal: return "Normal"
        case .semiExpanded: return "Semi-Expanded"
        case .expanded: return "Expanded"
        case .extraExpanded: return "Extra-Expanded"
        case .ultraExpanded: return "Ultra-Expanded"
        }
    }
}

/// Pango's variants (pango/fonts.c variant_map): each asks fontconfig for its OpenType
/// features (pangofc-fontmap.c pango_fc_make_pattern); where the font lacks them, small and
/// petite capitals and unicase are emulated (itemize.c split_item_for_variant).
public enum FontVariant: String, Hashable, Sendable {
    case normal, smallCaps, allSmallCaps, petiteCaps, allPetiteCaps, unicase, titleCaps

    /// pango/fonts.c variant_map, in order (PangoVariant's values).
    static let all: [FontVariant] = [.normal, .smallCaps, .allSmallCaps, .petiteCaps, .allPetiteCaps, .unicase, .titleCaps]

    init?(keyword: String) {
        switch keyword {
        case "smallcaps": self = .smallCaps
        case "allsmallcaps": self = .allSmallCaps
        case "petitecaps": self = .petiteCaps
        case "allpetitecaps": self = .allPetiteCaps
        case "unicase": self = .unicase
        case "titlecaps": self = .titleCaps
        default: return nil
        }
    }

    var name: String {
        switch self {
        case .normal: return "Normal"
        case .smallCaps: return "Small-Caps"
        case .allSmallCaps: return "All-Small-Caps"
        case .petiteCaps: return "Petite-Caps"
        case .allPetiteCaps: return "All-Petite-Caps"
        case .unicase: return "Unicase"
        case .titleCaps: return "Title-Caps"
        }
    }

    var features: [String] {
        switch self {
        case .normal: return []
        case .smallCaps: return ["smcp"]
        case .allSmallCaps: return ["smcp", "c2sc"]
        case .petiteCaps: return ["pcap"]
        case .allPetiteCaps: return ["pcap", "c2pc"]
        case .unicase: return ["unic"]
        case .titleCaps: return ["titl"]
        }
    }
}
