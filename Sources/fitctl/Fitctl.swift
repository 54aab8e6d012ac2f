import ArgumentParser

@main
struct Fitctl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fitctl",
        abstract: "Measure text and resolve fonts the way GTK does, with fitd's text engine.",
        discussion: """
            Examples:
              fitctl measure "Hello, world" --font "Noto Sans 12"
              fitctl measure "A long label that wraps" --max-width 120 --max-lines 2 --ellipsize end --lines
              fitctl measure --cells "日本語 and 👩‍💻"
              echo '{"text":"OK","font":"sans-serif 10","id":1}' | fitctl measure --batch
              fitctl font "Sans Bold 12"
              fitctl status                # daemon version, generation, cache figures
              fitctl ping
            By default fitctl asks the fitd daemon (D-Bus activation starts it); --local measures
            in this process.
            """,
        subcommands: [
            MeasureCommand.self, FitCommand.self, FontCommand.self, ScaleCommand.self, WatchCommand.self,
            StatusCommand.self, PingCommand.self,
        ])
}

/// Options every fitctl command takes.
struct CommonOptions: ParsableArguments {
    @Flag(help: "Print machine-readable JSON instead of text.")
    var json = false

    @Flag(help: "Measure in this process instead of asking the fitd daemon.")
    var local = false
}
