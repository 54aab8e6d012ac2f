import ArgumentParser

/// fitctl's exit status (`fitctl --help`, README "Exit status"): 0 success, 1 failure
/// (CommandFailure), 2 a batch with failed lines, 64 usage (ValidationError, unknown command
/// or option: ArgumentParser's EX_USAGE), 69 no daemon for ping/status (EX_UNAVAILABLE).
enum ExitStatus {
    static let partialFailure = ExitCode(2)
    static let unavailable = ExitCode(69)
}

/// A one-line message and a non-zero exit, the way every fitctl command fails.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
