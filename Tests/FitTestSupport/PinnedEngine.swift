import FitText
import Foundation

/// The one engine the font-using tests of every target share, set up like the Pango oracle
/// (Tests/oracle/pango_measure.py): the pinned fonts of Tests/fonts/fonts.conf, context
/// language en-us. fontconfig reads FONTCONFIG_FILE when the engine loads its configuration,
/// so the variables are set before the engine exists.
public enum PinnedEngine {
    /// Tests/fonts/fonts.conf, found from this file's path (Tests/FitTestSupport/…).
    public static let fontsConf: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fonts/fonts.conf").path

    private static let made: Result<TextEngine, FitTextError> = {
        setenv("FONTCONFIG_FILE", fontsConf, 1)
        // fonts.conf keeps its cache under $XDG_CACHE_HOME; a directory of our own keeps the
        // user's cache out of it, and a fixed name lets later runs reuse the scan.
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("fitd-tests-cache")
        try? FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        setenv("XDG_CACHE_HOME", cache.path, 1)
        return Result { () throws(FitTextError) -> TextEngine in try TextEngine(configuration: configuration) }
    }()

    private static let configuration: TextEngine.Configuration = {
        var configuration = TextEngine.Configuration()
        configuration.language = "en-us"
        configuration.preferredLanguages = []
        return configuration
    }()

    /// The shared engine; a test that needs fonts throws (and so fails) if it could not be made.
    public static func engine() throws -> TextEngine { try made.get() }

    /// An engine of its own on the same fonts, with nothing loaded or cached yet.
    public static func freshEngine() throws -> TextEngine {
        _ = try made.get()  // the environment above
        return try TextEngine(configuration: configuration)
    }
}
