import ArgumentParser
import FitProtocol
import Foundation

@main
struct Fitctl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fitctl",
        abstract: "Measure text and resolve fonts the way GTK does, with fitd's text engine.",
        discussion: HelpText.discussion("""
            Examples:
              fitctl measure "Hello, world" --font "Noto Sans 12"
              fitctl measure "A long label that wraps" --max-width 120 --max-lines 2 --ellipsize end --lines
              fitctl measure --cells "日本語 and 👩‍💻"
              echo '{"text":"OK","font":"sans-serif 10","id":1}' | fitctl measure --batch
              fitctl font "Sans Bold 12"
              fitctl status                # daemon version, generation, cache figures
              fitctl check dialog.json --translations gtk40 --categories all --widths 240,360,480
              fitctl ping
              fitctl terminal              # which terminal width profile --cells uses here, and why

            By default fitctl asks the fitd daemon (D-Bus activation starts it); --local measures in this process. Where neither the bus nor the daemon answers, measure, fit, font and scale measure in-process and say so on stderr; ping and status do not (they are health checks) and exit 69.

            Exit status:
              0   success
              1   failure (the request was refused, a file could not be read or written); check: something does not fit
              2   measure --batch: some lines failed (each has an "error"); the others were measured
              64  usage: an unknown command or option, or a value out of range
              69  ping, status: no daemon answers (without --local)
            """),
        version: FitVersion.line(program: "fitctl"),
        subcommands: [
            MeasureCommand.self, FitCommand.self, CheckCommand.self, FontCommand.self, ScaleCommand.self, WatchCommand.self,
            StatusCommand.self, PingCommand.self, TerminalCommand.self,
        ])

    /// As ArgumentParser's own main, after a "did you mean" for a mistyped command word
    /// (ArgumentParser suggests option names, not command names).
    static func main() async {
        let arguments = NegativeArgument.separated(Array(CommandLine.arguments.dropFirst()))
        if let message = CommandSuggestion.message(for: arguments, tree: CommandTree(Fitctl.self)) {
            FileHandle.standardError.write(Data((message + "\n").utf8))
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}

/// `fitctl scale set -1`: ArgumentParser takes "-1" for an option and reports the factor
/// missing; placed after "--" it is the factor, which validate() refuses with the range.
enum NegativeArgument {
    static func separated(_ arguments: [String]) -> [String] {
        guard arguments.count >= 3, arguments[0] == "scale", arguments[1] == "set", !arguments.contains("--"),
            let index = arguments.indices.dropFirst(2).first(where: { arguments[$0].hasPrefix("-") && Double(arguments[$0]) != nil })
        else { return arguments }
        var rest = arguments
        let value = rest.remove(at: index)
        return rest + ["--", value]
    }
}

/// Options every fitctl command takes.
struct CommonOptions: ParsableArguments {
    @Flag(help: "Print machine-readable JSON instead of text.")
    var json = false

    @Flag(help: "Measure in this process instead of asking the fitd daemon.")
    var local = false
}
