import Foundation
import Testing

@testable import FitProtocol

/// `--version` and the daemon's Version property print FitVersion.release; VERSION at the
/// repository root is where the version is set (scripts/sync-version copies it over).
@Suite struct VersionTests {
    @Test func releaseConstantIsTheVersionFile() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("VERSION"), encoding: .utf8)
        #expect(text == FitVersion.release + "\n", "VERSION says \(text); run scripts/sync-version")
    }

    @Test func versionLineNamesTheInterface() {
        #expect(FitVersion.line(program: "fitctl") == "fitctl \(FitVersion.release) (org.fitd.Fit1 interface 1)")
    }
}
