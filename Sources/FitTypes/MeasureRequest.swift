#if canImport(Glibc)
import Glibc
#endif
/// How lines wrap at a maximum width (Pango's PangoWrapMode).
public enum WrapMode: String, Hashable, Sendable, Codable, CaseIterable, OptionWord {
    /// At line-break opportunities (UAX #14); a word longer than the line overflows it.
    case word
    /// Between any two grapheme clusters.
    case char
    /// At break opportunities, and inside a word only when it alone is longer than the line.
    case wordChar = "word-char"

    public static let optionName = "wrap"
    public static let wordKind = "a wrap mode"
}

/// Where text that does not fit is replaced by "…" (Pango's PangoEllipsizeMode).
public enum EllipsizeMode: String, Hashable, Sendable, Codable, CaseIterable, OptionWord {
    case none, start, middle, end

    public static let optionName = "ellipsize"
    public static let wordKind = "an ellipsize mode"
}

/// Logical pixels at 96 dpi for desktop programs, or terminal columns for terminal programs.
public enum MeasureUnit: String, Hashable, Sendable, Codable, CaseIterable {
    case px, cells
}

/// One measurement to make. A value: equal requests give equal results, which is what the
/// result cache relies on.
public struct MeasureRequest: Hashable, Sendable {
    public var text: String
    /// A Pango font description ("Noto Sans Bold 12"); empty for the engine's default font.
    public var font: String
    /// Wrap at this width (px, or cells); nil for no wrapping (one line per paragraph).
    public var maxWidth: Double?
    public var wrap: WrapMode
    /// At most this many lines; nil for no limit. With an ellipsize mode, the last line
    /// takes the rest of the text and is ellipsized; without one, later lines are dropped.
    public var maxLines: Int?
    public var ellipsize: EllipsizeMode
    /// OpenType feature settings in HarfBuzz syntax: "tnum", "-liga", "ss01=2".
    public var features: [String]
    /// Extra space between grapheme clusters, in px (ignored for cells).
    public var letterSpacing: Double
    public var unit: MeasureUnit
    /// Whether the result lists every line (width, ascent, descent, baseline, range, text).
    public var includeLines: Bool
    /// The text-scale factor multiplied into every font size. The clients (FitDBusClient,
    /// FitClient) apply the user's own by default and send this one only when called with
    /// `userTextScale: false`: a factor set here alone is not used.
    public var textScale: Double
    /// The context language (BCP 47, "bn-IN", or "c"), which picks fallback fonts per script
    /// as Pango's context language does; nil for the engine's default (the daemon's locale).
    public var language: String? = nil
    /// The toolkit whose labels the measurement reproduces (ignored for cells): by default
    /// the GTK 4 installed on this machine (``ToolkitProfile/gtk4``).
    public var metrics: ToolkitProfile = .gtk4
    /// Whether `text` is Pango markup (measured as gtk_label_set_markup draws it).
    public var markup: Bool = false
    /// Cells only (ignored for px): whether escape sequences take cells.
    public var escapes: EscapeMode = .none
    /// Cells only: the width of East Asian Width A characters.
    public var ambiguous: AmbiguousWidth = .narrow
    /// Cells only: grapheme clusters (kitty, WezTerm, foot, Ghostty, tmux ≥ 3.4) or code points
    /// added up as wcwidth does (VTE, Konsole, xterm, Alacritty, screen, tmux < 3.4).
    public var terminal: TerminalProfile = .grapheme
    /// The UI font (a Pango description) that an empty `font` and the text styles resolve
    /// against, instead of the user's (the `UIFont` property): the request says which font its
    /// label draws in by default. Resolved, with the text style, before the engine measures,
    /// so the engine's own requests never carry one.
    public var uiFont: String? = nil

    public init(
        text: String, font: String = "", maxWidth: Double? = nil, wrap: WrapMode = .word,
        maxLines: Int? = nil, ellipsize: EllipsizeMode = .none, features: [String] = [],
        letterSpacing: Double = 0, unit: MeasureUnit = .px, includeLines: Bool = false,
        textScale: Double = 1
    ) {
        self.text = text
        self.font = font
        self.maxWidth = maxWidth
        self.wrap = wrap
        self.maxLines = maxLines
        self.ellipsize = ellipsize
        self.features = features
        self.letterSpacing = letterSpacing
        self.unit = unit
        self.includeLines = includeLines
        self.textScale = textScale
    }

    /// Splits "tnum,-liga, ss01=2" into feature settings.
    public static func parseFeatureList(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
    }

    /// Checks every bound before any work is done (see ``TextLimits``).
    public func validate() throws(FitTextError) {
        let bytes = text.utf8.count
        guard bytes <= TextLimits.maxTextBytes else {
            throw .textTooLong(bytes: bytes, limit: TextLimits.maxTextBytes)
        }
        if let maxWidth {
            guard maxWidth.isFinite else {
                throw .invalidArgument(name: "max_width", reason: "\(maxWidth) is not a finite number; omit it for no wrapping")
            }
            guard maxWidth >= 0 else {
                throw .invalidArgument(name: "max_width", reason: "\(maxWidth) is negative; give 0 or more, or omit it for no wrapping")
            }
            guard maxWidth <= TextLimits.maxWidth else {
                throw .invalidArgument(name: "max_width", reason: "\(maxWidth) is above the limit of \(Int(TextLimits.maxWidth))")
            }
        }
        if let maxLines, maxLines < 1 { throw Self.maxLinesError(maxLines) }
        guard letterSpacing.isFinite, abs(letterSpacing) <= TextLimits.maxLetterSpacing else {
            throw .invalidArgument(name: "letter_spacing", reason: "\(letterSpacing) must be a finite number of px within ±\(Int(TextLimits.maxLetterSpacing))")
        }
        guard textScale.isFinite, TextLimits.textScaleRange.contains(textScale) else {
            throw .invalidArgument(name: "text_scale", reason: "\(textScale) must be within \(TextLimits.textScaleRange.lowerBound)…\(TextLimits.textScaleRange.upperBound)")
        }
        if let language { try LanguageTag.checkOption(language) }
        if uiFont != nil {
            throw .invalidArgument(name: "ui_font", reason: "is resolved into the font before the engine measures (FitService, FitClient); the engine takes none")
        }
    }

    /// A `language` option in Pango's canonical form ("bn_IN" → "bn-in"), or
    /// invalidArgument naming `language`.
    public static func canonicalLanguage(_ text: String) throws(FitTextError) -> String {
        try LanguageTag.parseOption(text)
    }
}

/// One laid-out line.
public struct LineMetrics: Hashable, Sendable, Codable {
    /// Logical width in px (or cells).
    public var width: Double
    /// Height above and below the baseline, from the tallest font used on the line.
    public var ascent: Double
    public var descent: Double
    /// Distance from the top of the layout to this line's baseline.
    public var baseline: Double
    /// Offset of the line's first character and the number of characters, in Unicode code
    /// points of the request's text.
    public var start: Int
    public var length: Int
    /// The line's text as shown: with "…" in place of what ellipsizing removed.
    public var text: String
    public var ellipsized: Bool

    public var height: Double { ascent + descent }

    public init(
        width: Double, ascent: Double, descent: Double, baseline: Double, start: Int, length: Int, text: String,
        ellipsized: Bool
    ) {
        self.width = width
        self.ascent = ascent
        self.descent = descent
        self.baseline = baseline
        self.start = start
        self.length = length
        self.text = text
        self.ellipsized = ellipsized
    }
}

/// The result of a measurement.
public struct TextMetrics: Hashable, Sendable, Codable {
    /// Logical width (the widest line) and height (all lines), in `unit`s.
    public var width: Double
    public var height: Double
    /// Distance from the top to the first line's baseline.
    public var baseline: Double
    /// Distance from the top to the last line's baseline (lines differ in height with
    /// fallback fonts and markup sizes): SwiftUI's lastTextBaseline. In-process only: D-Bus's
    /// Metrics struct does not carry it, so metrics read from the daemon have the last line's
    /// baseline when `lines` was asked for, else the first's.
    public var lastBaseline: Double
    public var lineCount: Int
    /// Whether "…" replaced text that did not fit.
    public var ellipsized: Bool
    /// Whether any text is not shown (ellipsized, or lines dropped by max_lines).
    public var truncated: Bool
    public var unit: MeasureUnit
    /// Per-line metrics, when the request asked for them.
    public var lines: [LineMetrics]
    /// The families of the fonts that drew the text, primary first; when the requested family
    /// is not installed this says what was used instead.
    public var fontsUsed: [String]

    public init(
        width: Double, height: Double, baseline: Double, lineCount: Int, ellipsized: Bool, truncated: Bool,
        unit: MeasureUnit, lines: [LineMetrics], fontsUsed: [String], lastBaseline: Double? = nil
    ) {
        self.width = width
        self.height = height
        self.baseline = baseline
        self.lastBaseline = lastBaseline ?? baseline
        self.lineCount = lineCount
        self.ellipsized = ellipsized
        self.truncated = truncated
        self.unit = unit
        self.lines = lines
        self.fontsUsed = fontsUsed
    }

    /// Approximate memory held, for the byte-bounded result cache.
    package var byteCount: Int {
        128 + lines.reduce(0) { $0 + 96 + $1.text.utf8.count } + fontsUsed.reduce(0) { $0 + 16 + $1.utf8.count }
    }
}

/// What a font description resolves to.
public struct ResolvedFont: Hashable, Sendable, Codable {
    /// The description as parsed, in canonical form.
    public var description: String
    public var family: String
    public var style: String
    public var weight: Double
    public var file: String
    public var index: Int
    public var pixelSize: Double
    public var pointSize: Double
    public var ascent: Double
    public var descent: Double
    /// False when none of the requested families is installed and fontconfig substituted.
    public var matchedRequestedFamily: Bool
    /// The families that cover what the primary font does not, in fallback order.
    public var fallbackFamilies: [String]

    public init(
        description: String, family: String, style: String, weight: Double, file: String, index: Int,
        pixelSize: Double, pointSize: Double, ascent: Double, descent: Double, matchedRequestedFamily: Bool,
        fallbackFamilies: [String]
    ) {
        self.description = description
        self.family = family
        self.style = style
        self.weight = weight
        self.file = file
        self.index = index
        self.pixelSize = pixelSize
        self.pointSize = pointSize
        self.ascent = ascent
        self.descent = descent
        self.matchedRequestedFamily = matchedRequestedFamily
        self.fallbackFamilies = fallbackFamilies
    }
}

// The cache keys' equality and hash are @inlinable: the engine's caches (FitText) look them up
// on every measurement, and they were inlined there before the type moved to this module.
extension MeasureRequest {
    /// Equal when every field is: the text byte for byte (Swift's String equality is
    /// canonical equivalence, but "é" and "e◌́" may shape differently, so a cache must not
    /// treat them as one).
    @inlinable public static func == (a: MeasureRequest, b: MeasureRequest) -> Bool {
        a.maxWidth == b.maxWidth && a.wrap == b.wrap && a.maxLines == b.maxLines
            && a.ellipsize == b.ellipsize && a.letterSpacing == b.letterSpacing && a.unit == b.unit
            && a.includeLines == b.includeLines && a.textScale == b.textScale
            && a.metrics == b.metrics && a.markup == b.markup && a.features == b.features && a.language == b.language
            && a.escapes == b.escapes && a.ambiguous == b.ambiguous && a.terminal == b.terminal && a.uiFont == b.uiFont
            && sameBytes(a.font, b.font) && sameBytes(a.text, b.text)
    }

    /// Byte equality with one memcmp (UTF8View.elementsEqual steps a byte at a time: it was
    /// the most expensive part of a cache hit). Also the paragraph cache's text equality.
    @inlinable package static func sameBytes(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        var (a, b) = (a, b)
        return a.withUTF8 { x in
            b.withUTF8 { y in
                guard let p = x.baseAddress, let q = y.baseAddress else { return x.count == y.count }
                return memcmp(p, q, x.count) == 0
            }
        }
    }

    /// Hashes the UTF-8 bytes (no normalization) and the enums by ordinal (their String raw
    /// values would otherwise be hashed as strings: measured, it was most of a cache lookup).
    @inlinable public func hash(into hasher: inout Hasher) {
        MeasureRequest.hashBytes(text, into: &hasher)
        MeasureRequest.hashBytes(font, into: &hasher)
        hasher.combine(maxWidth)
        hasher.combine(maxLines)
        hasher.combine(letterSpacing)
        hasher.combine(textScale)
        var flags = UInt32(WrapMode.allCases.firstIndex(of: wrap) ?? 0)
        flags |= UInt32(EllipsizeMode.allCases.firstIndex(of: ellipsize) ?? 0) << 4
        flags |= UInt32(unit == .px ? 0 : 1) << 8
        flags |= UInt32(includeLines ? 1 : 0) << 9
        flags |= UInt32(markup ? 1 : 0) << 11
        flags |= UInt32(escapes == .ansi ? 1 : 0) << 12
        flags |= UInt32(ambiguous == .wide ? 1 : 0) << 13
        flags |= UInt32(terminal == .wcwidth ? 1 : 0) << 14
        hasher.combine(flags)
        hasher.combine(metrics.ordinal)
        if !features.isEmpty { hasher.combine(features) }
        if let language { hasher.combine(language) }
        if let uiFont { hasher.combine(uiFont) }
    }

    @inlinable static func hashBytes(_ string: String, into hasher: inout Hasher) {
        var string = string
        string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(string.utf8.count)
    }
}
