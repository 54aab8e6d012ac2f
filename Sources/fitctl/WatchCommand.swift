import ArgumentParser
import FitClient
import FitJSON
import Foundation

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print fitd's generation changes as they happen (fonts, fontconfig, text scale), until Ctrl-C.",
        discussion: HelpText.discussion("""
            Examples:
              fitctl watch
              fitctl watch --json     # one JSON object per line: generation, reasons, scale
            """))

    @Flag(help: "Print one JSON object per line instead of text.")
    var json = false

    func run() async throws {
        let client: FitClient
        let changes: AsyncStream<GenerationChange>
        do {
            client = try await FitClient.connect(mode: .daemon)
            changes = try await client.generationChanges()
        } catch {
            throw CommandFailure("\(error); fitctl watch needs the daemon")
        }
        if !json {
            let generation = (try? await client.generation()).map(String.init) ?? "?"
            print("watching fitd (generation \(generation)); Ctrl-C to stop")
        }
        for await change in changes {
            let info = try? await client.textScale()
            if json {
                // Order: generation, reasons, scale.
                JSONOutput.print { w in
                    w.beginObject()
                    w.member("generation", change.generation)
                    w.member("reasons", change.reasons)
                    if let info {
                        w.key("scale")
                        ScaleJSON.write(info, to: &w)
                    }
                    w.endObject()
                }
            } else {
                let scale = info.map { " — scale \(MetricsText.format($0.factor)) (\($0.source)), \($0.category), UI font \($0.uiFont)" } ?? ""
                print("generation \(change.generation): \(change.reasons.joined(separator: ", "))\(scale)")
            }
            fflush(nil)  // a pipe reader (a test, `| grep`) sees each change at once
        }
    }
}
