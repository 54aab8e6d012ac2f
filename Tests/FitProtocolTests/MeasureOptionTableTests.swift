import FitBus
import FitLayout
import FitTypes
import Foundation
import Testing

@testable import FitProtocol

/// Measure's options on the wire come from MeasureOptions, the one table: what the README
/// documents is what the codec takes, and what a client sends the daemon reads back as sent.
@Suite struct MeasureOptionTableTests {
    /// protocol/README.md's options tables: (key, first type given) per row of the `table`th
    /// (0: Measure's, 1: Layout's, which comes later under its own heading).
    static func documentedOptions(table: Int = 0) throws -> [(name: String, signature: String)] {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("protocol/README.md")
        let lines = try String(contentsOf: readme, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let headers = lines.indices.filter { lines[$0].hasPrefix("| key | type | default | meaning |") }
        guard table < headers.count else { return [] }
        let header = headers[table]
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

    @Test func theReadmesLayoutTableListsEveryLayoutOptionWithItsType() throws {
        let documented = try Self.documentedOptions(table: 1)
        #expect(documented.map(\.name) == LayoutOptionTable.all.map(\.name))
        #expect(documented.map(\.signature) == LayoutOptionTable.all.map(\.signature))
    }

    @Test func everyLayoutOptionAClientSendsTheDaemonReadsAsSent() throws {
        var sent = LayoutOptions()
        for option in LayoutOptionTable.all where option.name != LayoutOptionTable.unit.name {
            try option.apply(&sent, option.sample)
        }
        let received = try LayoutCodec.options(LayoutCodec.options(of: sent, sendSizeCategory: true), defaultCategory: .large)
        #expect(received == sent)
        // Without sendSizeCategory the user's category applies.
        let user = try LayoutCodec.options(LayoutCodec.options(of: sent, sendSizeCategory: false), defaultCategory: .xSmall)
        #expect(user.sizeCategory == .xSmall)
    }

    @Test func aBadLayoutOptionIsInvalidArgumentNamingIt() {
        let bad: [(String, DBusValue)] = [
            ("spacing", .double(-1)), ("ui_font", .string("")), ("unit", .string("pt")), ("size_category", .string("huge")),
            ("text_scale", .double(9)), ("breakpoints", .structure([.double(9), .double(1)])), ("breakpoints", .double(1)),
        ]
        for (key, value) in bad {
            do {
                _ = try LayoutCodec.options(OptionDictionary([key: value]).dbusValue, defaultCategory: .large)
                Issue.record("\(key) \(value) accepted")
            } catch {
                #expect(error.name.rawValue == "org.fitd.Fit1.Error.InvalidArgument")
                #expect(error.message.contains(key), "\(error.message)")
            }
        }
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
