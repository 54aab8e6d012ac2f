import ArgumentParser
import FitClient
import FitScale
import FitText
import Foundation

struct ScaleSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set the text scale explicitly (wins over fontconfig and the desktop; persisted).",
        discussion: HelpText.discussion("""
            This changes fitd only: GTK and other programs keep drawing at the desktop's own \
            scale, so when the two differ measurements stop matching the screen (a note on \
            stderr says so). `fitctl scale reset` follows the desktop again; to change the \
            desktop itself use its settings (GNOME: gsettings set org.gnome.desktop.interface \
            text-scaling-factor 1.25), which fitd then follows.
            Examples:
              fitctl scale set 1.25
              fitctl scale set 0.9 --json
            """))

    @OptionGroup var common: CommonOptions

    @Argument(help: "The factor, from 0.25 to 4 (1 is the default size).")
    var factor: Double

    func validate() throws {
        // What the daemon measures with (TextLimits.textScaleRange): a factor outside it would
        // be stored but measured clamped, and `fitctl scale` would show a scale nothing uses.
        let range = TextLimits.textScaleRange
        guard factor.isFinite, range.contains(factor) else {
            throw ValidationError("the text scale must be from \(range.lowerBound) to \(range.upperBound); got \(factor)")
        }
    }

    func run() async throws {
        let client = try await ClientFactory.make(common)
        let info: TextScaleInfo
        do {
            try await client.setTextScale(factor)
            info = try await client.textScale()
        } catch {
            throw CommandFailure(error.description)
        }
        ScaleJSON.printSummary(info, json: common.json)
        if let note = await Self.desktopNote(factor: factor) {
            FileHandle.standardError.write(Data((note + "\n").utf8))
        }
    }

    /// One line when the desktop draws text at another scale than `factor`: what GSettings,
    /// KDE's files or Xft.dpi say (read here, in-process; on GNOME the portal serves the same
    /// dconf values), else 1.0.
    static func desktopNote(factor: Double) async -> String? {
        let environment = FitScaleEnvironment(environment: ProcessInfo.processInfo.environment)
        let settings = try? await LayeredSettingsProvider.inProcessSources(environment: environment).currentSettings()
        let desktop = settings?.textScale ?? 1.0
        guard abs(desktop - factor) > 1e-9 else { return nil }
        let source = settings?.textScale == nil ? "default" : (settings?.textScaleSource ?? .default).rawValue
        return "fitctl: note: only fitd measures at \(factor); the desktop draws text at \(desktop) (\(source)), so measurements will not match the screen; `fitctl scale reset` follows the desktop again"
    }
}
