import FitBus
import FitTypes
import Foundation
import Testing

@testable import FitProtocol

/// Measure's options on the wire come from MeasureOptions, the one table: what the README
/// documents is what the codec takes, and what a client sends the daemon reads back as sent.
@Suite struct MeasureOptionTableTests {
    /// protocol/README.md's Measure options table: (key, first type given) per row.
    static func documentedOptions() throws -> [(name: String, signature: String)] {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("protocol/README.md")
        let lines = try String(contentsOf: readme, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        // The first options table is Measure's (Layout's comes later under its own heading).
        guard let header = lines.firstIndex(where: { $0.hasPrefix("| key | type | default | meaning |") }) else { return [] }
        var rows: [(String, String)] = []
        for line in lines[(header + 2)...] {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            func firstCode(_ cell: String) -> String { cell.split(separator: "`", omittingEmptySubsequences: false).dropFirst().first.map(String.init) ?? cell }
            rows.append((firstCode(cells[1]), firstCode(cells[2])))
        }
        return rows
    }

    @Test func theReadmesTableListsEveryOptionWithItsType() throws {
        let documented = try Self.documentedOptions()
        #expect(documented.map(\.name) == MeasureOptions.all.map(\.name))
        #expect(documented.map(\.signature) == MeasureOptions.all.map(\.signature))
    }

    @Test func everyOptionAClientSendsTheDaemonReadsAsSent() throws {
        var sent = MeasureRequest(text: "x", font: "Sans 10")
        for option in MeasureOptions.all where option.name != MeasureOptions.unit.name {
            try option.apply(&sent, option.sample)
        }
        let options = MeasureCodec.options(of: sent, sendTextScale: true)
        let received = try MeasureCodec.request(text: "x", font: "Sans 10", options: options, textScale: 1)
        #expect(received == sent)
        // Without sendTextScale the user's scale applies.
        let user = try MeasureCodec.request(
            text: "x", font: "Sans 10", options: MeasureCodec.options(of: sent, sendTextScale: false), textScale: 1.5)
        #expect(user.textScale == 1.5)
    }

    @Test func aBadOptionIsInvalidArgumentNamingIt() {
        for (key, value) in [("max_lines", DBusValue.uint32(0)), ("ui_font", .string("")), ("unit", .string("pt"))] {
            do {
                _ = try MeasureCodec.request(text: "x", font: "", options: OptionDictionary([key: value]), textScale: 1)
                Issue.record("\(key) \(value) accepted")
            } catch {
                #expect(error.name.rawValue == "org.fitd.Fit1.Error.InvalidArgument")
                #expect(error.message.contains(key), "\(error.message)")
            }
        }
    }
}
