import ArgumentParser
import FitDBusClient
import FitJSON
import FitTypes
import Foundation

struct TerminalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "terminal",
        abstract: "Show the terminal width profile measurements in cells use here, and why.",
        discussion: HelpText.discussion("""
            Examples:
              fitctl terminal
              fitctl terminal --json
              fitctl terminal --no-query      # the environment's rules only

            The rules, in order (FitDBusClient's TerminalDetection; the Python client's fitd.terminal): TERM_PROGRAM and TERM where they name a known terminal (kitty, WezTerm, foot, Ghostty, tmux ≥ 3.4: grapheme; Alacritty, tmux < 3.4, screen: wcwidth); else, when this command is in the foreground of its controlling terminal, the terminal's answers: how far the cursor moves over three emoji clusters (believed first) and its DECRQM answer for mode 2027; else none, and the daemon's default (grapheme) applies. `fitctl measure --cells` without --terminal sends this profile (with --batch: the environment's only).
            """))

    @Flag(help: "Print machine-readable JSON instead of text.")
    var json = false

    @Flag(help: "Do not ask the terminal; the environment's rules only.")
    var noQuery = false

    @Option(help: "How long to wait for the terminal's answers, in milliseconds (1…10000).")
    var timeoutMs = 100

    func validate() throws {
        guard (1...10_000).contains(timeoutMs) else { throw ValidationError("--timeout-ms: 1…10000") }
    }

    func run() throws {
        let found = TerminalDetection.detect(
            environment: ProcessInfo.processInfo.environment, ask: !noQuery, timeout: .milliseconds(timeoutMs))
        if json {
            // Order: profile, source, reason, environment, asked, cursor_cells, decrqm.
            JSONOutput.print { w in
                w.beginObject()
                w.key("profile")
                if let profile = found.profile { w.string(profile.rawValue) } else { w.null() }
                w.member("source", found.source.rawValue)
                w.member("reason", found.reason)
                w.key("environment")
                w.beginObject()
                for name in TerminalProfile.environmentVariables {
                    if let value = found.environment[name] { w.member(name, value) }
                }
                w.endObject()
                w.member("asked", found.asked)
                w.key("cursor_cells")
                if let cells = found.answers.cursorCells {
                    w.beginArray()
                    for cell in cells { w.number(cell) }
                    w.endArray()
                } else {
                    w.null()
                }
                w.key("decrqm")
                if let mode = found.answers.decrqm { w.number(mode) } else { w.null() }
                w.endObject()
            }
            return
        }
        let profile = found.profile?.rawValue ?? "none (the daemon's default, grapheme, applies)"
        print("profile      \(profile)")
        print("decided by   \(found.source.rawValue): \(found.reason)")
        let environment = TerminalProfile.environmentVariables.map { name in found.environment[name].map { "\(name)=\($0)" } ?? "\(name) unset" }
        print("environment  \(environment.joined(separator: ", "))")
        guard found.asked else {
            print("terminal     not asked")
            return
        }
        let cells = found.answers.cursorCells.map { cells in
            zip(TerminalQuery.probes, cells).map { "\($0.cluster) \($1)" }.joined(separator: ", ") + " cells"
        }
        print("cursor       \(cells ?? "no answer")")
        print("DECRQM 2027  \(found.answers.decrqm.map(String.init) ?? "no answer")")
    }
}
