@testable import FitBus
import FitLayout
import Testing

@testable import FitProtocol

/// The `breakpoints` Layout option and the breakpoints in the root frame's extras.
@Suite struct BreakpointCodecTests {
    /// A firstFit card (row 238 wide with FixedAdvanceMeasurer's label, else the column)
    /// under a vstack, so that the root is not the decision and not the only frame.
    func document() throws -> LayoutDocument {
        try LayoutDocument(json: Array("""
            {"nodes": [
              {"id": "label", "parent": "screen", "kind": "text", "text": "Title"},
              {"id": "screen", "kind": "vstack"},
              {"id": "card", "parent": "screen", "kind": "firstFit", "axes": "horizontal"},
              {"id": "row", "parent": "card", "kind": "hstack"},
              {"id": "a", "parent": "row", "kind": "text", "text": "Screen time"},
              {"id": "b", "parent": "row", "kind": "text", "text": "this week"},
              {"id": "column", "parent": "card", "kind": "vstack"},
              {"id": "c", "parent": "column", "kind": "text", "text": "Screen time"},
              {"id": "size", "parent": "screen", "kind": "threshold", "category": "accessibilityMedium"},
              {"id": "d", "parent": "size", "kind": "text", "text": "x"}
            ]}
            """.utf8))
    }

    func refusal(_ value: DBusValue) -> DBusError? {
        do {
            _ = try LayoutCodec.options(OptionDictionary(["breakpoints": value]).dbusValue, defaultCategory: .large)
            return nil
        } catch { return error }
    }

    @Test func theOptionIsAMinAndMaxWidthThatRoundTrips() throws {
        var options = LayoutOptions()
        options.breakpoints = BreakpointRange(from: 100, to: 600)
        let value = LayoutCodec.options(of: options, sendSizeCategory: true)
        #expect(try LayoutCodec.options(value, defaultCategory: .small) == options)
        let zero = try LayoutCodec.options(
            OptionDictionary(["breakpoints": .structure([.double(0), .double(1_000_000)])]).dbusValue, defaultCategory: .large)
        #expect(zero.breakpoints == BreakpointRange(from: 0, to: 1_000_000))
    }

    @Test func badRangesAreInvalidArgumentNamingTheOption() {
        let bad: [DBusValue] = [
            .structure([.double(.nan), .double(10)]), .structure([.double(0), .double(.infinity)]),
            .structure([.double(-1), .double(10)]), .structure([.double(20), .double(10)]),
            .structure([.double(0), .double(1_000_001)]), .structure([.double(0), .double(1e300)]),
            .double(100), .structure([.double(0), .double(1), .double(2)]), .structure([.int32(0), .int32(10)]),
        ]
        for value in bad {
            let error = refusal(value)
            #expect(error?.name == FitErrorName.invalidArgument, "\(value)")
            #expect(error?.message.contains("breakpoints") == true, "\(String(describing: error?.message))")
        }
    }

    @Test func theRootFrameCarriesThemAndBothReadersAgree() throws {
        var options = LayoutOptions()
        options.breakpoints = BreakpointRange(from: 10, to: 400)
        let proposal = ProposedSize(width: 300, height: nil)
        let result = try document().layout(in: proposal, options: options, measurer: FixedAdvanceMeasurer())
        let found = try #require(result.breakpoints)
        #expect(found.decisions["card"]?.count == 2)
        #expect(found.decisions["size"] == [DecisionInterval(from: 10, to: 400, axis: .horizontal, exactFrom: 10)])
        #expect(found.decisions["card"]?.allSatisfy { $0.exactFrom != nil } == true)

        let values = LayoutCodec.encode(result, generation: 3)
        #expect(values.map(\.signature).joined() == LayoutCodec.resultSignature)
        // Only the root's frame ("screen", the second) has them; the decisions list is unchanged.
        guard case .array(_, let frames) = values[1], case .structure(let root) = frames[1], case .structure(let first) = frames[0],
            case .dictionary(_, _, let extras) = root[13], case .dictionary(_, _, let none) = first[13]
        else { Issue.record("frames are not as signed"); return }
        #expect(Set(extras.compactMap { if case .string(let key) = $0.key { key } else { nil } })
            == ["min_content_width", "max_content_width", "breakpoint_range", "breakpoints", "breakpoint_flips"])
        #expect(none.isEmpty)
        if case .variant(let list) = extras.first(where: { $0.key == .string("breakpoints") })?.value {
            #expect(list.signature == LayoutCodec.breakpointsSignature)
            // Document order: the firstFit before the threshold.
            if case .array(_, let entries) = list, case .structure(let a) = entries.first {
                #expect(a.first == .string("card"))
            }
        }

        let (decoded, _) = try LayoutCodec.result(values, proposal: proposal)
        #expect(decoded == result)
        let reply = try DBusMessage.methodCall(destination: nil, path: "/org/fitd/Fit1", interface: nil, member: "Reply")
        try reply.append(values)
        let (read, _) = try DBusReader.readBody(of: reply) { (r) throws(DBusError) in try LayoutCodec.readResult(&r, proposal: proposal) }
        #expect(read == result)
        #expect(read.breakpoints?.rootID == "screen")
    }

    @Test func theTextScaleTravelsBesideTheFlips() throws {
        var options = LayoutOptions()
        options.breakpoints = BreakpointRange(from: 10, to: 400)
        let proposal = ProposedSize(width: 300, height: nil)
        var result = try document().layout(in: proposal, options: options, measurer: FixedAdvanceMeasurer())
        result.breakpoints?.textScale = 1.25
        let (decoded, _) = try LayoutCodec.result(LayoutCodec.encode(result, generation: 1), proposal: proposal)
        #expect(decoded.breakpoints?.textScale == 1.25)
        #expect(decoded == result)
    }

    @Test func aReplyFromAFitdWithoutExactFlipsStillReads() throws {
        var options = LayoutOptions()
        options.breakpoints = BreakpointRange(from: 10, to: 400)
        let result = try document().layout(in: ProposedSize(width: 300, height: nil), options: options, measurer: FixedAdvanceMeasurer())
        let found = try #require(result.breakpoints)
        var entries = LayoutCodec.breakpointExtras(found, into: OptionDictionary(), nodes: result.nodes).entries
        entries["breakpoint_flips"] = nil
        let older = OptionDictionary(entries)
        let read = try #require(try LayoutCodec.breakpoints(from: older))
        #expect(read.decisions["card"]?.map(\.from) == found.decisions["card"]?.map(\.from))
        #expect(read.decisions["card"]?.allSatisfy { $0.exactFrom == nil } == true)
        entries["breakpoint_flips"] = .array(elementSignature: "(sad)", [.structure([.string("card"), .array(elementSignature: "d", [.double(1)])])])
        let mismatched = OptionDictionary(entries)
        #expect(throws: DBusError.self) { try LayoutCodec.breakpoints(from: mismatched) }
    }

    @Test func withoutTheOptionNoFrameHasThem() throws {
        let result = try document().layout(in: ProposedSize(width: 300, height: nil), measurer: FixedAdvanceMeasurer())
        let (decoded, _) = try LayoutCodec.result(LayoutCodec.encode(result, generation: 1), proposal: result.proposal)
        #expect(decoded.breakpoints == nil)
    }
}
