/// Everything that can go wrong while measuring, with what was attempted and what to fix.
/// Requests come from outside the process (a D-Bus peer, a command line, a batch file), so
/// every bad input ends here rather than in a crash.
public enum FitTextError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// A font description that is not in Pango's "Family [Style…] [Size]" syntax.
    case invalidFontDescription(String, reason: String)
    /// A size that is zero, negative, not finite or above ``TextLimits/maxPixelSize``.
    case invalidFontSize(Double, reason: String)
    /// Text longer than ``TextLimits/maxTextBytes`` UTF-8 bytes.
    case textTooLong(bytes: Int, limit: Int)
    /// An option with a value out of its domain (`name` is the option as the caller spelled it).
    case invalidArgument(name: String, reason: String)
    /// fontconfig found no font at all (an empty or broken configuration).
    case noFontsAvailable(String)
    /// A font file fontconfig listed could not be opened or parsed.
    case fontLoadFailed(file: String, reason: String)
    /// An ICU call failed (UErrorCode), which only happens on memory exhaustion or a broken ICU.
    case textAnalysisFailed(operation: String, code: Int32)
    /// The task measuring a long text was cancelled (its caller left the bus): the engine
    /// checks between paragraphs and every 1,024 lines (FitText's FitTextCancellation).
    case cancelled

    public var description: String {
        switch self {
        case .invalidFontDescription(let text, let reason):
            return "invalid font description \"\(text)\": \(reason); expected Pango's syntax, e.g. \"Noto Sans Bold 12\" or \"monospace 14px\""
        case .invalidFontSize(let size, let reason):
            return "invalid font size \(size): \(reason)"
        case .textTooLong(let bytes, let limit):
            return "text is \(bytes) bytes of UTF-8; the limit is \(limit) bytes (TextLimits.maxTextBytes): split it into smaller requests"
        case .invalidArgument(let name, let reason):
            return "invalid \(name): \(reason)"
        case .noFontsAvailable(let detail):
            return "no fonts available: \(detail); install a font package (e.g. fonts-dejavu-core) or check FONTCONFIG_FILE"
        case .fontLoadFailed(let file, let reason):
            return "cannot load font file \(file): \(reason)"
        case .textAnalysisFailed(let operation, let code):
            return "text analysis failed in \(operation) (ICU error \(code))"
        case .cancelled:
            return "the measurement was cancelled before it finished: its caller left or gave up"
        }
    }
}
