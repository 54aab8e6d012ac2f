import FitLayout
import FitScale
import FitText
import Synchronization

/// The layout engine's measurer backed by FitText's `TextEngine`: what the daemon and the
/// embedded client lay out with. It lives in a module of its own so that FitLayout stays pure
/// Swift (it knows text only through `LayoutTextMeasurer`) and so that FitClient can lay out
/// in-process without linking the daemon's FitService.
///
/// Fonts: a text style resolves through FitScale (`TextStyleFont.resolve`) for the UI font at
/// the layout's size category — the category already carries the user's text scale, so styled
/// text is measured with text scale 1. The default font is the UI font, and a Pango description
/// is used as given; both are multiplied by `textScale` (the user's), as `Measure` does.
public struct TextEngineMeasurer: LayoutTextMeasurer {
    public let engine: TextEngine
    public let unit: MeasureUnit
    public let uiFont: UIFont
    /// The user's text scale, applied to the default font and to font descriptions.
    public let textScale: Double
    /// The context language of every text (nil: the engine's default).
    public var language: String? = nil
    /// The toolkit whose labels the texts are measured as (``ToolkitProfile``).
    public var metrics: ToolkitProfile = .gtk4
    /// Texts are Pango markup (LayoutOptions.markup).
    public var markup = false
    /// Texts take a GtkLabel's whole-pixel size (LayoutOptions.labelSizes).
    public var labelSizes = false
    /// The UI font's Pango description, written once: most texts are in the default font, and
    /// writing it per measurement cost as much as looking the result up.
    private let defaultFont: String
    /// The descriptions of the text styles this measurer has met: a layout measures each
    /// styled text at several widths, and writing the description (its size printed as a
    /// number) cost ≈ 2,400 instructions a measurement, 4.5 % of a cold 50-node layout.
    private let styleFonts = StyleFontMemo()

    /// GTK's default font (TextScalePreference.fallbackUIFont): what a layout is measured in
    /// when nothing names the desktop's UI font, as an unstyled label is drawn.
    public static let defaultUIFont = TextScalePreference.fallbackUIFont

    public init(engine: TextEngine, unit: MeasureUnit = .px, uiFont: UIFont = Self.defaultUIFont, textScale: Double = 1) {
        self.engine = engine
        self.unit = unit
        self.uiFont = uiFont
        self.textScale = textScale
        defaultFont = uiFont.pangoDescription
    }

    /// A measurer for a layout call: unit and UI font from the options (an unparsable UI font
    /// is an error, not a silent fallback); the toolkit profile the options name, with the
    /// user's GtkSettings (`gtkRendering`) applied as every Measure applies them.
    public init(
        engine: TextEngine, options: LayoutOptions, textScale: Double = 1, gtkRendering: GTKFontRenderingSettings = .unset
    ) throws(LayoutError) {
        let font: UIFont
        switch TextStyleFont.uiFont(requested: options.uiFont, user: Self.defaultUIFont) {
        case .success(let resolved): font = resolved
        case .failure(let problem): throw .measurementFailed(node: nil, reason: problem.description)
        }
        // The options' text scale, when given, is the one the document's fonts are at (a toolkit
        // sending the sizes it resolved already); the user's otherwise.
        self.init(engine: engine, unit: options.unit == .cells ? .cells : .px, uiFont: font, textScale: options.textScale ?? textScale)
        language = options.language
        if let metrics = options.metrics {
            do throws(FitTextError) {
                self.metrics = try ToolkitProfile(parsing: metrics)
            } catch {
                throw .measurementFailed(node: nil, reason: error.description)
            }
        }
        markup = options.markup
        labelSizes = options.labelSizes && options.unit == .px
        metrics = metrics.with(gtkRendering)
    }

    public func measure(_ text: LayoutText, proposedWidth: Double?, scale: Double) throws(LayoutError) -> MeasuredText {
        // A layout of many texts stops here once its task is cancelled (the daemon cancels the
        // calls of a client that left the bus): the rest would be measured for no one.
        if Task.isCancelled { throw .measurementFailed(node: nil, reason: "the layout was cancelled") }
        let request = try self.request(text, proposedWidth: proposedWidth, scale: scale)
        let metrics: TextMetrics
        do throws(FitTextError) {
            metrics = try engine.measure(request)
        } catch {
            throw .measurementFailed(node: nil, reason: error.description)
        }
        // The last line's baseline as the engine laid it out: lines differ in height with
        // fallback fonts and markup sizes, so it is not estimated from equal lines.
        let lastBaseline: Double? = metrics.lineCount > 1 ? metrics.lastBaseline : nil
        // A GtkLabel requests its logical extents rounded up (gtklabel.c, PANGO_PIXELS_CEIL).
        let width = labelSizes ? metrics.width.rounded(.up) : metrics.width
        let height = labelSizes ? metrics.height.rounded(.up) : metrics.height
        return MeasuredText(
            width: width, height: height, baseline: metrics.baseline, lastBaseline: lastBaseline,
            lineCount: metrics.lineCount, truncated: metrics.truncated || metrics.ellipsized)
    }

    /// A text wider than the engine's width limit wraps at the limit under any wider
    /// proposal; markup's letter spacing is trimmed from a line's reported width but not from
    /// what the line breaker compares (pango-layout.c), so such a text breaks at its own width.
    public func reusesUnwrapped(width: Double) -> Bool {
        !markup && width <= TextLimits.maxWidth
    }

    /// The engine request a text is measured with under a proposed width at a factor: what
    /// ``measure(_:proposedWidth:scale:)`` sends, and what a picture of the layout draws again
    /// (FitRender).
    public func request(_ text: LayoutText, proposedWidth: Double?, scale: Double) throws(LayoutError) -> MeasureRequest {
        var request = MeasureRequest(text: text.string, unit: unit)
        request.language = language
        request.metrics = metrics
        request.markup = markup
        // An infinite proposal is no constraint: measure unwrapped. Wider than the engine's
        // limit is as good as infinite for any text that fits in memory.
        if let width = proposedWidth, width.isFinite {
            request.maxWidth = min(width, TextLimits.maxWidth)
        }
        // SwiftUI's Text breaks inside a word only when the word alone is wider than the line:
        // Pango's WORD_CHAR. So a text never overflows its proposed width.
        request.wrap = .wordChar
        if let limit = text.lineLimit {
            request.maxLines = limit
            // Pango ellipsizes only at a width; without one, the first lines are kept.
            if request.maxWidth != nil { request.ellipsize = Self.ellipsize(text.truncation) }
        }
        if unit == .px {
            (request.font, request.textScale) = try font(text.font, sizeCategory: text.sizeCategory, scale: scale)
        }
        return request
    }

    /// A style's line height is its Dynamic Type leading (scaled to the UI font, FitScale's
    /// table); any other font's is the height of one line of it as the engine measures it.
    /// In cells a line is one row.
    public func lineHeight(of font: LayoutFont, sizeCategory: SizeCategory) throws(LayoutError) -> Double {
        guard unit == .px else { return 1 }
        if case .style(let style) = font {
            return TextStyleFont.resolve(style, uiFont: uiFont, category: sizeCategory).lineHeightPixels
        }
        let (description, scale) = try self.font(font, sizeCategory: sizeCategory, scale: 1)
        do throws(FitTextError) {
            return try engine.measure(MeasureRequest(text: "X", font: description, textScale: scale)).height
        } catch {
            throw .measurementFailed(node: nil, reason: error.description)
        }
    }

    /// The Pango description and text scale a font is measured with, its size multiplied by
    /// `scale` (a minimum scale factor at work). The size is rewritten rather than folded into
    /// the text scale, whose range (TextLimits.textScaleRange) a small factor would leave.
    func font(_ font: LayoutFont, sizeCategory: SizeCategory, scale: Double) throws(LayoutError) -> (String, Double) {
        switch font {
        case .style(let style):
            if let known = styleFonts.description(style, sizeCategory, scale) { return (known, 1) }
            let resolved = TextStyleFont.resolve(style, uiFont: uiFont, category: sizeCategory)
            let description = FontDescription(
                families: [resolved.family], weight: FontWeight(rawValue: resolved.weight.numericWeight),
                size: .points(resolved.pointSize * scale)
            ).description
            styleFonts.remember(description, style, sizeCategory, scale)
            return (description, 1)
        case .default:
            guard scale != 1 else { return (defaultFont, textScale) }
            var description = (try? FontDescription.parse(defaultFont)) ?? FontDescription(families: [uiFont.family])
            description.size = .points(uiFont.pointSize * scale)
            return (description.description, textScale)
        case .description(let text):
            guard scale != 1 else { return (text, textScale) }
            do throws(FitTextError) {
                var description = try FontDescription.parse(text)
                if description.families.isEmpty { description.families = [uiFont.family] }
                switch description.size ?? .points(uiFont.pointSize) {
                case .points(let points): description.size = .points(points * scale)
                case .pixels(let pixels): description.size = .pixels(pixels * scale)
                }
                return (description.description, textScale)
            } catch {
                throw .measurementFailed(node: nil, reason: error.description)
            }
        }
    }

    static func ellipsize(_ mode: TruncationMode) -> EllipsizeMode {
        switch mode {
        case .head: return .start
        case .middle: return .middle
        case .tail: return .end
        }
    }
}

/// A style's Pango description per size category and scale, for one measurer (one layout
/// call): a short list searched in order, as a layout uses a handful of styles and scales.
/// Full, it stops remembering (a layout of many scale factors writes descriptions as before).
final class StyleFontMemo: Sendable {
    private struct Entry {
        var style: TextStyle
        var category: SizeCategory
        var scale: Double
        var description: String
    }
    static let capacity = 32
    private let entries = Mutex<[Entry]>([])

    func description(_ style: TextStyle, _ category: SizeCategory, _ scale: Double) -> String? {
        entries.withLock { list in
            for entry in list where entry.style == style && entry.category == category && entry.scale == scale {
                return entry.description
            }
            return nil
        }
    }

    func remember(_ description: String, _ style: TextStyle, _ category: SizeCategory, _ scale: Double) {
        entries.withLock { list in
            if list.count < Self.capacity { list.append(Entry(style: style, category: category, scale: scale, description: description)) }
        }
    }
}
