#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Where the repository's files are, and the process-wide settings every peer must share.
/// Found from this source file's path, so the benchmarks run from any working directory.
public enum BenchEnvironment {
    /// The root of the fitd repository (this file is Benchmarks/Sources/FitBenchPeers/…).
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // FitBenchPeers
        .deletingLastPathComponent()  // Sources
        .deletingLastPathComponent()  // Benchmarks
        .deletingLastPathComponent()  // the repository

    public static var fontsConfiguration: URL {
        repositoryRoot.appendingPathComponent("Tests/fonts/fonts.conf")
    }

    public static var corpus: URL {
        repositoryRoot.appendingPathComponent("Tests/oracle/corpus.jsonl")
    }

    /// Pins the fonts every peer sees to the test set (Tests/fonts/fonts.conf), as the oracle
    /// and the engine tests do. Must run before fontconfig is first used in the process: it
    /// reads FONTCONFIG_FILE once, when it loads its configuration.
    public static func pinFonts() throws(BenchError) {
        let path = fontsConfiguration.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw .missingFile(path, what: "the test fontconfig configuration")
        }
        guard setenv("FONTCONFIG_FILE", path, 1) == 0 else {
            throw .environment("setenv(FONTCONFIG_FILE) failed: errno \(errno)")
        }
    }
}

/// What can go wrong while setting a benchmark up. Each names what was attempted.
public enum BenchError: Error, CustomStringConvertible {
    case missingFile(String, what: String)
    case environment(String)
    case corpus(String)
    case peer(String, reason: String)

    public var description: String {
        switch self {
        case .missingFile(let path, let what):
            "\(what) is missing: \(path) (run scripts/bootstrap for fonts and libraries)"
        case .environment(let message): message
        case .corpus(let message): "corpus: \(message)"
        case .peer(let name, let reason): "peer \(name): \(reason)"
        }
    }
}
