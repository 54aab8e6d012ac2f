/// The bounds every request is checked against before any work is done, so that no input can
/// make the engine allocate without limit or run for long. The daemon may lower them (its
/// config file); it can never raise them above what the engine accepts.
public enum TextLimits {
    /// Longest text measured in one request, in UTF-8 bytes (1 MiB: a long document chapter,
    /// far past any UI string; layout time is linear in it).
    public static let maxTextBytes = 1 << 20
    /// Largest font size, in pixels after scaling. HarfBuzz works at px × 1024 in 32-bit
    /// integers (Pango units), and nothing on a screen needs more than a few hundred px.
    public static let maxPixelSize = 2048.0
    /// Largest letter spacing in px, either sign.
    public static let maxLetterSpacing = 1000.0
    /// Largest max-width in px (or cells): beyond it wrapping cannot happen anyway.
    public static let maxWidth = 1_000_000.0
    /// Most OpenType features in one request.
    public static let maxFeatures = 64
    /// Distinct font strings in one request (a batch, a layout document). Each new font is a
    /// fontconfig sort, about a millisecond (more with a desktop's fonts): a batch of 10,000
    /// texts each in a family of its own took 6-10 s of a worker, a layout 12 s. Interfaces
    /// name a handful; Dynamic Type's styles count once each.
    public static let maxFontsPerRequest = 256
    /// Smallest and largest text-scale factors (FitScale clamps the user's preference to these).
    public static let textScaleRange: ClosedRange<Double> = 0.25...4.0
}
