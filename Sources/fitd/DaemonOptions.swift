import Logging

/// fitd's command line: four options, `--help` and `--version`.
///
/// Parsed here, not with swift-argument-parser as fitctl's are: that package imports
/// FoundationEssentials (its error descriptions, its help dump), which put 3.9 MB of code into
/// the daemon's binary and about 0.5 MB to its idle RSS (Benchmarks/README, the daemon's
/// "Memory"). A daemon started by D-Bus activation or systemd, with no subcommands, needs none
/// of the rest.
///
/// Long options as most daemons take them: an option's value is the next argument or follows
/// `=`, the last of a repeated option wins, `--` ends the options. Unlike getopt_long, names
/// are not abbreviated, and an option where a value should be is a missing value
/// (`--address --replace` forgot the address). A usage error says which argument and what to
/// do, and fitd exits 64 (EX_USAGE, sysexits.h), as fitctl does.
struct DaemonOptions: Equatable {
    var replace = false
    var address: String?
    var config: String?
    var logLevel: Logger.Level = .info

    /// What the command line asks for.
    enum Command: Equatable {
        case serve(DaemonOptions)
        case help
        case version
    }

    /// A command line fitd cannot run; the message names the argument at fault.
    struct UsageError: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    /// `arguments` without the program's name. `--help` or `--version` anywhere before `--`
    /// wins over everything else, errors included, as in fitctl.
    static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        let options = arguments.prefix { $0 != "--" }
        if options.contains(where: { $0 == "--help" || $0 == "-h" }) { return .help }
        if options.contains("--version") { return .version }
        var result = DaemonOptions()
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                if index < arguments.endIndex { throw unexpected(arguments[index]) }
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else { throw unexpected(argument) }
            let name: String
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            } else {
                name = argument
            }
            // The value of an option that takes one: after "=", else the next argument unless
            // that is an option itself (`--address --replace` forgot the address).
            func value() throws(UsageError) -> String {
                if let inlineValue {
                    guard !inlineValue.isEmpty else { throw UsageError(description: "\(name) needs a value after '='") }
                    return inlineValue
                }
                guard index < arguments.endIndex, !arguments[index].hasPrefix("--") else {
                    throw UsageError(description: "\(name) needs a value")
                }
                // An empty address or path is never meant: `--config ""` would read no file.
                guard !arguments[index].isEmpty else { throw UsageError(description: "\(name) needs a value, not an empty one") }
                defer { index += 1 }
                return arguments[index]
            }
            switch name {
            case "--replace":
                guard inlineValue == nil else { throw UsageError(description: "--replace takes no value") }
                result.replace = true
            case "--help", "-h", "--version":
                // Alone they returned above: here they came with "=value".
                throw UsageError(description: "\(name) takes no value")
            case "--log-level":
                let text = try value()
                guard let level = Logger.Level(rawValue: text) else {
                    throw UsageError(description: "--log-level '\(text)' is not a level: use one of \(levelNames)")
                }
                result.logLevel = level
            case "--address":
                result.address = try value()
            case "--config":
                result.config = try value()
            default:
                throw UsageError(description: "unknown option '\(name)'")
            }
        }
        return .serve(result)
    }

    private static func unexpected(_ argument: String) -> UsageError {
        UsageError(description: "unexpected argument '\(argument)': fitd takes options only")
    }

    private static let levelNames = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")

    static let usage = "fitd [--replace] [--address ADDRESS] [--config FILE] [--log-level LEVEL]"

    /// `fitd --help`, wrapped for an 80-column terminal. docs/fitd.8 says the same at length;
    /// Tests/EndToEnd/cli_contract.sh checks that both list every option.
    static let help = """
        fitd: text measurement and adaptive layout on the D-Bus session bus.

        Normally started by D-Bus activation or as the systemd user service
        fitd.service. See fitd(8).

        Usage:
          \(usage)

        Options:
          --replace          Take org.fitd.Fit1 over from the instance that owns it.
          --address ADDRESS  Connect to this D-Bus address instead of the session bus.
          --config FILE      Read limits from FILE instead of
                             $XDG_CONFIG_HOME/fitd/fitd.conf.
          --log-level LEVEL  How much to log (to the journal, or stderr): trace, debug,
                             info, notice, warning, error or critical (default: info).
          --version          Show the version.
          -h, --help         Show this help.

        Examples:
          fitd                       # serve org.fitd.Fit1 on the session bus
          fitd --replace             # take the name over from a running fitd
          fitd --address unix:path=/run/user/1000/bus

        Limits come from $XDG_CONFIG_HOME/fitd/fitd.conf ([limits] max_text_bytes,
        max_batch, cache_bytes, idle_release_seconds, workers, persist_results).

        Measured results are saved to $XDG_CACHE_HOME/fitd/results.bin when fitd
        stops or goes idle, and the next fitd answers them at once;
        persist_results = false turns it off. The files hold keyed hashes and
        enciphered values under a per-user secret beside them, never a text in
        clear; a cache directory that is a link, someone else's or writable by
        others turns it off with a warning.
        """
}
