import FitBus
import FitTypes
import Testing

@testable import FitProtocol

/// Each engine error goes out as the named D-Bus error the interface documents, with the
/// engine's message, which says what to fix (ErrorMapping.swift).
@Suite struct ErrorMappingTests {
    @Test(arguments: [
        (FitTextError.invalidFontDescription("Sans,", reason: "r"), FitErrorName.invalidFont),
        (.invalidFontSize(0, reason: "r"), FitErrorName.invalidFont),
        (.textTooLong(bytes: 2, limit: 1), FitErrorName.tooLarge),
        (.invalidArgument(name: "wrap", reason: "r"), FitErrorName.invalidArgument),
        (.noFontsAvailable("none"), FitErrorName.noFonts),
        (.fontLoadFailed(file: "/f.ttf", reason: "r"), FitErrorName.noFonts),
        (.textAnalysisFailed(operation: "ubrk_open", code: 7), FitErrorName.internal),
        // Only a caller that left gets it, so it is FitBus's, not one of the interface's.
        (.cancelled, DBusError.Name.cancelled),
    ])
    func engineErrorsGoOutAsTheirNamedErrors(error: FitTextError, name: DBusError.Name) {
        let reply = DBusError(error)
        #expect(reply.name == name)
        #expect(reply.message == error.description)
    }
}
