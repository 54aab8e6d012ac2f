import FitBus
import FitTypes

extension DBusError {
    /// The named error reply for an engine error; the message is the engine's, which says
    /// what to fix.
    public init(_ error: FitTextError) {
        switch error {
        case .invalidFontDescription, .invalidFontSize:
            self.init(FitErrorName.invalidFont, error.description)
        case .textTooLong:
            self.init(FitErrorName.tooLarge, error.description)
        case .invalidArgument:
            self.init(FitErrorName.invalidArgument, error.description)
        case .noFontsAvailable, .fontLoadFailed:
            self.init(FitErrorName.noFonts, error.description)
        case .textAnalysisFailed:
            self.init(FitErrorName.internal, error.description)
        case .cancelled:
            self.init(.cancelled, error.description)
        }
    }

    public static func invalidArgument(_ message: String) -> DBusError { DBusError(FitErrorName.invalidArgument, message) }
    public static func unknownOption(_ message: String) -> DBusError { DBusError(FitErrorName.unknownOption, message) }
    public static func tooLarge(_ message: String) -> DBusError { DBusError(FitErrorName.tooLarge, message) }
}
