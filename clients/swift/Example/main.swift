// FitDBusClient's example: measure a label and lay out a button row at the user's text size,
// then (with --watch) wait for the next change of fonts or text scale. It links libdbus and no
// text engine: Tests/EndToEnd/swift_client.sh checks the binary and runs it on a private bus.
import FitDBusClient

#if canImport(Glibc)
import Glibc
#endif

let watch = CommandLine.arguments.contains("--watch")
do {
    let fit = try await FitDBusClient.connect()
    let label = try await fit.measure(MeasureRequest(text: "Save changes", font: "body"))
    print("measure width=\(label.metrics.width) height=\(label.metrics.height) generation=\(label.generation)")
    let scale = try await fit.textScale()
    print("text-scale factor=\(scale.factor) category=\(scale.category)")
    // ViewThatFits { HStack { Save, Discard }; VStack { Save, Discard } }
    let buttons = { (kind: String) in
        LayoutTree(kind, id: kind, children: [LayoutTree("text", ["text": .string("Save changes")]), LayoutTree("text", ["text": .string("Discard")])])
    }
    let row = try LayoutDocument(root: LayoutTree("firstFit", id: "row", children: [buttons("hstack"), buttons("vstack")]))
    let width = CommandLine.arguments.last.flatMap(Double.init) ?? 400
    let result = try await fit.layout(document: row, proposal: ProposedSize(width: width, height: nil))
    let chosen = result.decisions.first { $0.id == "row" }?.candidateID ?? "none"
    print("layout width=\(result.size.width) height=\(result.size.height) chosen=\(chosen)")
    if watch {
        let changes = try await fit.generationChanges()
        print("watching")
        fflush(nil)  // a pipe or file buffers stdout: whoever waits for this line sees it now
        for await change in changes {
            print("changed generation=\(change.generation) reasons=\(change.reasons.joined(separator: ","))")
            break
        }
    }
} catch {
    print("fit-swift-example: \(error)")
    exit(1)
}
