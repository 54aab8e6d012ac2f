@testable import FitBus
import FitLayout
import FitLayoutJSON
import Foundation
import Testing

@testable import FitProtocol

/// protocol/examples, found from this file's path.
private let examples = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("protocol/examples")

private func exampleDocuments() throws -> [(String, LayoutDocument)] {
    try FileManager.default.contentsOfDirectory(atPath: examples.path).filter { $0.hasSuffix(".json") }.sorted().map { name in
        (name, try LayoutDocument(json: [UInt8](Data(contentsOf: examples.appendingPathComponent(name)))))
    }
}

/// The document as the wire carries it: parents as indices, no description.
private func indexed(_ document: LayoutDocument) -> LayoutDocument {
    let indexOfID = Dictionary(document.nodes.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    return LayoutDocument(nodes: document.nodes.map { node in
        var copy = node
        if case .id(let name) = node.parent, let index = indexOfID[name] { copy.parent = .index(index) }
        return copy
    })
}

private func node(_ id: String, _ kind: String, _ parent: Int32, _ properties: [String: DBusValue] = [:]) -> DBusValue {
    .structure([
        .string(id), .string(kind), .int32(parent),
        .dictionary(keySignature: "s", valueSignature: "v", properties.map { (key: DBusValue.string($0.key), value: DBusValue.variant($0.value)) }),
    ])
}

private func nodes(_ entries: [DBusValue]) -> DBusValue { .array(elementSignature: "(ssia{sv})", entries) }

/// The D-Bus error a document gets, as the daemon would send it.
private func refusal(_ value: DBusValue) -> DBusError? {
    do throws(LayoutError) {
        _ = try PreparedLayout(LayoutCodec.document(value))
        return nil
    } catch {
        return DBusError(error)
    }
}

@Suite struct LayoutCodecTests {
    @Test func everyExampleDocumentSurvivesTheWire() throws {
        let documents = try exampleDocuments()
        #expect(documents.count >= 7)
        for (name, document) in documents {
            let value = try LayoutCodec.encode(document)
            #expect(value.signature == LayoutCodec.documentSignature, "\(name)")
            let decoded = try LayoutCodec.document(value)
            #expect(decoded == indexed(document), "\(name)")
            // And it lays out the same as the original.
            let proposal = ProposedSize(width: 320, height: nil)
            let measurer = FixedAdvanceMeasurer()
            #expect(try decoded.layout(in: proposal, measurer: measurer) == document.layout(in: proposal, measurer: measurer), "\(name)")
        }
    }

    @Test func everyResultSurvivesTheWire() throws {
        for (name, document) in try exampleDocuments() {
            for proposal in [ProposedSize(width: 120, height: nil), .unspecified, .zero, .infinity, ProposedSize(width: 480, height: 90)] {
                let result = try document.layout(in: proposal, measurer: FixedAdvanceMeasurer())
                let values = LayoutCodec.encode(result, generation: 7)
                #expect(values.map(\.signature).joined() == LayoutCodec.resultSignature)
                let (decoded, generation) = try LayoutCodec.result(values, proposal: proposal)
                #expect(decoded == result, "\(name) at \(proposal)")
                #expect(generation == 7)
                // One frame per node laid out: a forEach's rows are expanded.
                #expect(decoded.nodes.count == (try PreparedLayout(document)).document.nodes.count)
            }
        }
    }

    /// FitClient's streaming call and reply against the daemon's DBusValue decoding and
    /// encoding: the two paths agree on every example.
    @Test func streamingCallAndReplyAgreeWithTheValuePath() throws {
        for (name, document) in try exampleDocuments() {
            for proposal in [ProposedSize(width: 120, height: nil), .unspecified, .infinity] {
                let call = try LayoutCodec.Call(
                    document: document, proposal: proposal, options: LayoutOptions(sizeCategory: .accessibilityLarge), sendSizeCategory: true)
                let body = try DBusWriter.body(signature: LayoutCodec.callSignature) { (w) throws(DBusError) in try call.write(to: &w) }
                let message = try DBusMessage.methodCall(
                    destination: nil, path: "/org/fitd/Fit1", interface: nil, member: "Layout", signature: LayoutCodec.callSignature, body: body)
                let arguments = try message.arguments()
                #expect(try LayoutCodec.document(arguments[0]) == indexed(document), "\(name)")
                #expect(try LayoutCodec.proposal(arguments[1]) == proposal)
                #expect(try LayoutCodec.options(arguments[2], defaultCategory: .large).sizeCategory == .accessibilityLarge)

                let result = try document.layout(in: proposal, measurer: FixedAdvanceMeasurer())
                let reply = try DBusMessage.methodCall(destination: nil, path: "/org/fitd/Fit1", interface: nil, member: "Reply")
                try reply.append(LayoutCodec.encode(result, generation: 9))
                let (read, generation) = try DBusReader.readBody(of: reply) { (r) throws(DBusError) in
                    try LayoutCodec.readResult(&r, proposal: proposal)
                }
                #expect(read == result, "\(name) at \(proposal)")
                #expect(generation == 9)
            }
        }
    }

    @Test func proposalsKeepIdealMinimumAndMaximumApart() throws {
        for proposal in [ProposedSize.unspecified, .zero, .infinity, ProposedSize(width: 320, height: nil), ProposedSize(width: nil, height: 5)] {
            let value = LayoutCodec.encode(proposal)
            #expect(value.signature == LayoutCodec.proposalSignature)
            #expect(try LayoutCodec.proposal(value) == proposal)
        }
        let nan = DBusValue.structure([.boolean(true), .double(.nan), .boolean(false), .double(0)])
        #expect(throws: DBusError.self) { try LayoutCodec.proposal(nan) }
        do {
            _ = try LayoutCodec.proposal(.structure([.boolean(true), .double(-1), .boolean(false), .double(0)]))
            Issue.record("a negative width was accepted")
        } catch {
            #expect(error.name == FitErrorName.invalidArgument)
        }
    }

    @Test func optionsAreStrictAndRoundTrip() throws {
        let options = LayoutOptions(sizeCategory: .accessibilityLarge, unit: .cells, defaultSpacing: 2, uiFont: "Cantarell 11")
        let value = LayoutCodec.options(of: options, sendSizeCategory: true)
        #expect(try LayoutCodec.options(value, defaultCategory: .small) == options)
        let user = LayoutCodec.options(of: options, sendSizeCategory: false)
        #expect(try LayoutCodec.options(user, defaultCategory: .small).sizeCategory == .small)

        func error(_ entries: [String: DBusValue]) -> DBusError? {
            do {
                _ = try LayoutCodec.options(OptionDictionary(entries).dbusValue, defaultCategory: .large)
                return nil
            } catch { return error }
        }
        #expect(error(["units": .string("px")])?.name == FitErrorName.unknownOption)
        #expect(error(["unit": .string("em")])?.name == FitErrorName.invalidArgument)
        #expect(error(["size_category": .string("huge")])?.name == FitErrorName.invalidArgument)
        #expect(error(["spacing": .double(-.infinity)])?.name == FitErrorName.invalidArgument)
    }

    @Test func badDocumentsAreInvalidDocumentNamingTheNode() throws {
        let unknownKind = refusal(nodes([node("root", "vstack", -1), node("oops", "hbox", 0)]))
        #expect(unknownKind?.name == FitErrorName.invalidDocument)
        #expect(unknownKind?.message.contains("node 1 (id \"oops\")") == true)

        let wrongType = refusal(nodes([node("root", "vstack", -1), node("t", "text", 0, ["text": .structure([.int32(1)])])]))
        #expect(wrongType?.name == FitErrorName.invalidDocument)
        #expect(wrongType?.message.contains("node 1 (id \"t\")") == true)
        #expect(wrongType?.message.contains("\"text\"") == true)

        let dangling = refusal(nodes([node("root", "vstack", -1), node("lost", "spacer", 9)]))
        #expect(dangling?.name == FitErrorName.invalidDocument)
        #expect(dangling?.message.contains("id \"lost\"") == true)

        let negativeParent = refusal(nodes([node("root", "vstack", -1), node("neg", "spacer", -2)]))
        #expect(negativeParent?.message.contains("id \"neg\"") == true)

        let cycle = refusal(nodes([node("root", "vstack", -1), node("a", "vstack", 2), node("b", "vstack", 1)]))
        #expect(cycle?.name == FitErrorName.invalidDocument)
        #expect(cycle?.message.contains("cycle") == true)

        let nanSize = refusal(nodes([node("root", "frame", -1, ["width": .double(.nan)]), node("x", "spacer", 0)]))
        #expect(nanSize?.name == FitErrorName.invalidDocument)
        #expect(nanSize?.message.contains("id \"root\"") == true)

        let badScale = refusal(nodes([node("g", "scaleGroup", -1, ["minimumScaleFactor": .double(1.5)]), node("t", "text", 0, ["text": .string("x")])]))
        #expect(badScale?.message.contains("id \"g\"") == true)

        let unknownProperty = refusal(nodes([node("root", "hstack", -1, ["spacng": .double(3)])]))
        #expect(unknownProperty?.name == FitErrorName.invalidDocument)
        #expect(unknownProperty?.message.contains("spacng") == true)
    }

    @Test func limitsAreTooLarge() throws {
        let many = nodes([node("root", "vstack", -1)] + (1...LayoutLimits.maxNodes).map { node("n\($0)", "spacer", 0) })
        #expect(refusal(many)?.name == FitErrorName.tooLarge)

        // A chain 10,000 deep: refused with the first node past the depth limit, no recursion.
        let chain = nodes((0..<10_000).map { node("c\($0)", "padding", Int32($0) - 1) })
        let deep = refusal(chain)
        #expect(deep?.name == FitErrorName.tooLarge)
        #expect(deep?.message.contains("id \"c\(LayoutLimits.maxDepth + 1)\"") == true)
    }

    @Test func aDocumentWithADanglingParentIdIsRefusedBeforeSending() {
        let document = LayoutDocument(nodes: [LayoutNode(id: "root", kind: .vstack), LayoutNode(id: "x", parent: "nowhere", kind: .spacer)])
        #expect(throws: LayoutError.danglingParent(node: NodeLocation(index: 1, id: "x"), parent: "\"nowhere\"")) {
            try LayoutCodec.encode(document)
        }
    }
}
