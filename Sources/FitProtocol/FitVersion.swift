// The project's version, as the file VERSION at the repository root says it. Written by
// scripts/sync-version from that file (VERSION is the one place to change it); a test
// (FitProtocolTests, VersionTests) fails when the two differ, so a plain `swift build` on a
// fresh clone needs no build-tool plugin and still cannot ship a stale version.

/// The version of fitd and fitctl, and of the D-Bus interface they speak.
public enum FitVersion {
    /// The release, from VERSION (semantic versioning: MAJOR.MINOR.PATCH).
    public static let release = "0.2.0"
    /// The version of org.fitd.Fit1 (docs: what may change within Fit1); a new major
    /// interface version gets a new name (org.fitd.Fit2).
    public static let interface = 1

    /// What `--version` prints: "fitctl 0.2.0 (org.fitd.Fit1 interface 1)".
    public static func line(program: String) -> String {
        "\(program) \(release) (\(FitNames.interface) interface \(interface))"
    }
}
