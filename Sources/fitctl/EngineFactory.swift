import FitClient
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
        return client
    }
}

/// A one-line message and a non-zero exit, the way every fitctl command fails.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
