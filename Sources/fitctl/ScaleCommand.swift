import ArgumentParser

/// `fitctl scale …`: the user's text scale, its source, the size category and the text styles.
struct ScaleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scale",
        abstract: "Show or change the text scale; show the Dynamic Type text styles.",
        discussion: HelpText.discussion("""
            Precedence: fitctl scale set (explicit) → fontconfig dpi/scale → desktop (GNOME portal, else GSettings; or KDE) → X11 Xft.dpi → 1.0. See docs/text-scale.md.

            Examples:
              fitctl scale                 # factor, source, category, UI font, every style's font and size
              fitctl scale --json
              fitctl scale set 1.25        # fitd only (GTK keeps the desktop's scale), persisted in fitd.conf
              fitctl scale reset           # follow fontconfig / the desktop / Xft.dpi / 1.0 again
              fitctl scale categories      # what each style becomes in each of the 12 categories
            """),
        subcommands: [ScaleShowCommand.self, ScaleSetCommand.self, ScaleResetCommand.self, ScaleCategoriesCommand.self],
        defaultSubcommand: ScaleShowCommand.self)
}
