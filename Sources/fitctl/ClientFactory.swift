import ArgumentParser
import FitClient
import FitText
import Foundation


/// How fitctl reaches the engine: the daemon by default (D-Bus activation starts it), the
/// engine in this process with --local, and in-process with a note on stderr when neither
/// the bus nor the daemon can be reached.
enum ClientFactory {
    static func make(_ options: CommonOptions) async throws -> FitClient {
        let client: FitClient
        do {
            client = try await FitClient.connect(mode: options.local ? .embedded : .automatic)
        } catch {
            throw CommandFailure(error.description)
        }
        if let reason = client.fallbackReason {
            FileHandle.standardError.write(Data("fitctl: \(reason); measuring in-process instead\n".utf8))
        }
        if client.isEmbedded {
            // An engine in this process is never freed: fitctl exits when the command ends, and
            // the kernel drops its pages at once. Freed the usual way, a warmed engine's caches
            // went back entry by entry, on one core, after the last result was written: 10 %
            // of `measure --batch --local`'s 20,000 strings on two cores (perf, the last 20 ms).
            // A global, not a dropped retain, so LeakSanitizer still sees it reachable.
            keptUntilExit = client
        }
        return client
    }

    nonisolated(unsafe) private static var keptUntilExit: FitClient?

    /// The engine a picture's glyphs are laid out with: with --local the one that measured
    /// (its fonts and font sets are loaded), else one of this process's own.
    static func drawingEngine(_ client: FitClient) throws -> TextEngine {
        if let engine = client.embeddedEngine { return engine }
        do {
            return try TextEngine()
        } catch {
            throw CommandFailure(error.description)
        }
    }

    /// The daemon, or with --local the engine in this process; no fallback: where no daemon
    /// answers, one stderr line and exit 69 (ping and status are health checks).
    static func daemon(_ options: CommonOptions, command: String) async throws -> FitClient {
        if options.local { return try await make(options) }
        do {
            return try await FitClient.connect(mode: .daemon)
        } catch {
            FileHandle.standardError.write(Data("fitctl \(command): no daemon: \(error.description)\n".utf8))
            throw ExitStatus.unavailable
        }
    }
}
