import FitText

/// The engine fitctl measures with (in-process until it talks to the daemon).
enum EngineFactory {
    static func make() throws -> TextEngine {
        do {
            return try TextEngine()
        } catch {
            throw CommandFailure(error.description)
        }
    }
}

/// A one-line message and a non-zero exit, the way every fitctl command fails.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
