import Testing
@testable import FitLayout

@Suite struct BadInputTests {
    func at(_ index: Int, _ id: String) -> NodeLocation { NodeLocation(index: index, id: id) }

    @Test func structuralErrorsPointAtTheNode() {
        #expect(refusal([]) == .emptyDocument)
        #expect(refusal([node("a", nil, .vstack), node("a", "a", .spacer)]) == .duplicateID(node: at(1, "a"), firstIndex: 0))
        #expect(refusal([node("a", nil, .vstack), node("b", "nope", .spacer)]) == .danglingParent(node: at(1, "b"), parent: "\"nope\""))
        #expect(refusal([node("a", nil, .vstack), node("b", 7, .spacer)]) == .danglingParent(node: at(1, "b"), parent: "index 7"))
        #expect(refusal([node("r", nil, .vstack), node("a", "b", .vstack), node("b", "a", .vstack)]) == .cycle(node: at(1, "a")))
        #expect(refusal([node("a", "a", .vstack)]) == .cycle(node: at(0, "a")))
        #expect(refusal([node("a", "b", .vstack), node("b", "a", .vstack)]) == .noRoot)
        #expect(refusal([node("a", nil, .vstack), node("b", nil, .vstack)]) == .multipleRoots(node: at(1, "b"), firstRoot: at(0, "a")))
        #expect(refusal([node("", nil, .vstack)]) == .invalidID(node: at(0, ""), reason: "an id is 1 to 256 bytes of UTF-8"))
        #expect(refusal([text("t", nil, "x"), text("u", "t", "y")]) == .invalidChildren(node: at(0, "t"), reason: "a text has no children"))
        #expect(refusal([node("f", nil, .frame)]) == .invalidChildren(node: at(0, "f"), reason: "a frame has exactly one child, not 0"))
        // A uniformFit's item may be any subtree, a text too (docs/swiftui-layout.md 3.2). A
        // choice outside any uniformFit is refused.
        #expect(refusal([node("u", nil, .uniformFit), text("t", "u", "x")]) == nil)
        #expect(refusal([node("c", nil, .choice), text("t", "c", "x")]) == .invalidChildren(
            node: at(0, "c"), reason: "a choice shows what an enclosing uniformFit decides; it is in none"))
        #expect(refusal([node("s", nil, .scroll)]) == .invalidChildren(node: at(0, "s"), reason: "a scroll has exactly one child, not 0"))
    }

    @Test func valueErrorsPointAtTheNode() {
        #expect(refusal([node("f", nil, .spacer, .init(minLength: -1))]) == .invalidSize(node: at(0, "f"), property: "minLength", value: -1))
        #expect(refusal([node("s", nil, .hstack, .init(spacing: .nan))]).isInvalidSize(property: "spacing"))
        #expect(refusal([node("i", nil, .image, .init(width: .infinity, height: 2))]) == .invalidSize(node: at(0, "i"), property: "width", value: .infinity))
        #expect(refusal([node("f", nil, .frame, .init(maxWidth: .infinity)), node("s", "f", .spacer)]) == nil)
        for factor in [0, -0.5, 1.5, .nan] {
            var label = text("t", nil, "x")
            label.properties.minimumScaleFactor = factor
            #expect(refusal([label]).isScaleFactorError)
        }
        #expect(refusal([node("g", nil, .scaleGroup), text("t", "g", "x")]) == .missingProperty(node: at(0, "g"), property: "minimumScaleFactor"))
        #expect(refusal([node("th", nil, .threshold)]) == .thresholdWithoutCategory(node: at(0, "th")))
        #expect(refusal([node("v", nil, .vstack), node("s", "v", .spacer, .init(when: .horizontal))])
            == .invalidProperty(node: at(1, "s"), property: "when", reason: "only a child of a threshold appears in one arrangement"))
        #expect(refusal([node("s", nil, .spacer, .init(text: "x"))]) == .unknownProperty(node: at(0, "s"), property: "text", kind: "spacer"))
        #expect(refusal([node("t", nil, .text)]) == .missingProperty(node: at(0, "t"), property: "text"))
    }

    /// Validation walks the properties without building ``LayoutProperties/values``; it must
    /// still name the first wrong one in that order, and check every length.
    @Test func theFirstWrongPropertyIsNamedInTheOrderOfValues() {
        let properties = LayoutProperties(
            text: "x", minLength: 1, width: 3, height: -2, minWidth: -1, spacing: 4, when: .horizontal, horizontal: true)
        #expect(properties.firstProperty(notIn: LayoutProperties.allowed(for: .spacer)) == "text")
        #expect(properties.firstProperty(notIn: ["text", "minLength"]) == "width")
        #expect(properties.firstProperty(notIn: ["text", "minLength", "width", "height", "minWidth", "spacing", "horizontal"]) == nil)
        #expect(properties.firstInvalidLength! == ("height", -2))
        #expect(LayoutProperties(maxWidth: .infinity, maxHeight: .infinity).firstInvalidLength == nil)
        #expect(LayoutProperties(idealWidth: .infinity).firstInvalidLength! == ("idealWidth", .infinity))
        #expect(LayoutProperties(trailing: .nan).firstInvalidLength?.name == "trailing")
        var visited: [String] = []
        properties.forEachValue { name, _ in visited.append(name) }
        #expect(visited == properties.values.map(\.name))
        #expect(visited == ["text", "minLength", "width", "height", "minWidth", "spacing", "when", "horizontal"])
        #expect(properties.setNames == visited)
    }

    /// The names validation checks (``LayoutProperties/setMask``, ``LayoutProperties/setNames``)
    /// are those of every property that is set — all of them, counted against the type's
    /// stored properties, so a property added to the type and not to the mask fails here.
    @Test func everySetPropertyIsNamedForValidation() {
        let all = LayoutProperties(
            text: "t", font: "Sans 10", textStyle: .body, lineLimit: 1, truncation: .tail, minimumScaleFactor: 0.5,
            templates: ["a"], minLength: 1, width: 1, height: 1, aspectRatio: 1, minWidth: 1, idealWidth: 1, maxWidth: 1,
            minHeight: 1, idealHeight: 1, maxHeight: 1, spacing: 1, alignment: LayoutAlignment(horizontal: .center, vertical: .center),
            axis: .horizontal, axes: .both, category: .large, when: .horizontal, length: 1, top: 1, leading: 1, bottom: 1,
            trailing: 1, horizontal: true, vertical: true, layoutPriority: 1, hidden: false, multilineTextAlignment: .center,
            layoutDirection: .leftToRight, fields: ["f"], data: ["d"], columns: .equal, gridCellColumns: 2)
        let named = all.setNames
        #expect(named == all.values.map(\.name))
        #expect(named.count == Mirror(reflecting: all).children.count)
        #expect(named == LayoutProperties.orderedNames)
        #expect(all.setMask == (1 << UInt64(named.count)) - 1)
        #expect(LayoutNodeKind.allCases.enumerated().allSatisfy { $0.offset == $0.element.ordinal })
        // The masks refuse what the names refuse, for every kind and every single property.
        for kind in LayoutNodeKind.allCases {
            for (bit, name) in LayoutProperties.orderedNames.enumerated() {
                let refusedByName = !LayoutProperties.isUniversal(name) && !LayoutProperties.ownAllowed(for: kind).contains(name)
                let refusedByMask = LayoutProperties.allowedMasks[kind.ordinal] & (1 << UInt64(bit)) == 0
                #expect(refusedByName == refusedByMask, "\(kind) \(name)")
            }
            #expect(all.firstProperty(notAllowedFor: kind) == all.firstProperty(notIn: LayoutProperties.allowed(for: kind)), "\(kind)")
        }
        #expect(LayoutProperties().firstProperty(notIn: []) == nil)
        #expect(refusal([node("s", nil, .spacer, .init(text: "x", width: 1))]) == .unknownProperty(node: at(0, "s"), property: "text", kind: "spacer"))
        #expect(refusal([node("i", nil, .image, .init(width: 1, height: 1, aspectRatio: -1))]) == .invalidSize(node: at(0, "i"), property: "aspectRatio", value: -1))
        #expect(refusal([node("f", nil, .frame, .init(minWidth: 5, maxWidth: 4)), node("s", "f", .spacer)])
            == .invalidProperty(node: at(0, "f"), property: "minWidth", reason: "5.0 is above the maximum 4.0"))
    }

    @Test func jsonErrorsPointAtTheNode() {
        #expect(refusal(json: #"{"nodes":[{"id":"a","kind":"blob"}]}"#) == .unknownKind(node: at(0, "a"), kind: "blob"))
        #expect(refusal(json: #"{"nodes":[{"id":"a","kind":"vstack"},{"id":"b","parent":"a","kind":"text","text":"x","colour":"red"}]}"#)
            == .unknownProperty(node: at(1, "b"), property: "colour", kind: "text"))
        #expect(refusal(json: #"{"nodes":[{"id":"a","kind":"threshold","category":"huge"}]}"#) == .unknownSizeCategory(node: at(0, "a"), name: "huge"))
        #expect(refusal(json: #"{"nodes":[{"id":"a","kind":"hstack","spacing":"wide"}]}"#)
            == .invalidProperty(node: at(0, "a"), property: "spacing", reason: "expected a number, got \"wide\""))
        #expect(refusal(json: #"{"nodes":[{"id":"a","kind":"spacer","minLength":-3}]}"#) == .invalidSize(node: at(0, "a"), property: "minLength", value: -3))
        #expect(refusal(json: #"{"nodes":[{"id":"a","kind":"text","text":"x","minimumScaleFactor":0}]}"#) == .invalidScaleFactor(node: at(0, "a"), value: 0))
        #expect(refusal(json: #"{"nodes":[{"kind":"text"}]}"#) == .invalidID(node: at(0, ""), reason: "every node needs a string \"id\""))
        if case .malformedDocument = refusal(json: #"{"nodes":[{"id":"a","kind":"vstack"}"#) {} else { Issue.record("truncated JSON accepted") }
        if case .malformedDocument = refusal(json: #"{"nodez":[]}"#) {} else { Issue.record("unknown key accepted") }
    }

    @Test func tenThousandDeepChainIsRefusedWithoutRecursion() {
        var nodes = [node("n0", nil, .vstack)]
        for depth in 1..<10_000 { nodes.append(node("n\(depth)", .index(depth - 1), .vstack)) }
        let limit = LayoutLimits.maxDepth
        #expect(refusal(nodes) == .tooDeep(node: at(limit + 1, "n\(limit + 1)"), limit: limit))
        // Listed leaf-first, the walk goes up 9,999 parents in one explicit path.
        let reversed = nodes.reversed().enumerated().map { index, node in
            var copy = node
            if case .index(let parent)? = node.parent { copy.parent = .index(9_999 - parent) }
            _ = index
            return copy
        }
        #expect(refusal(Array(reversed)).isTooDeep)
    }

    @Test func hundredThousandNodesAreRefused() throws {
        let nodes = [node("root", nil, .vstack)] + (1..<100_000).map { text("t\($0)", 0, "x") }
        #expect(refusal(nodes) == .tooManyNodes(count: 100_000, limit: LayoutLimits.maxNodes))
        var json = #"{"nodes":[{"id":"root","kind":"vstack"}"#
        for index in 1..<100_000 { json += #",{"id":"t\#(index)","parent":0,"kind":"spacer"}"# }
        json += "]}"
        #expect(refusal(json: json) == .tooManyNodes(count: 100_000, limit: LayoutLimits.maxNodes))
    }

    /// Every new font is a fontconfig sort: a document of thousands of fonts would hold a worker
    /// for seconds, so more than LayoutLimits.maxFonts distinct ones are refused before any layout.
    @Test func moreDistinctFontsThanTheLimitAreRefused() {
        func document(fonts: Int) -> [LayoutNode] {
            [node("root", nil, .vstack)] + (0..<fonts).map { index in
                var label = text("t\(index)", 0, "x")
                label.properties.font = "Family\(index) 12"
                return label
            } + [text("again", 0, "y")]
        }
        #expect(refusal(document(fonts: LayoutLimits.maxFonts)) == nil)
        #expect(refusal(document(fonts: LayoutLimits.maxFonts + 1)) == .tooManyFonts(count: LayoutLimits.maxFonts + 1, limit: LayoutLimits.maxFonts))
        // The same font on every node is one font.
        let same = [node("root", nil, .vstack)] + (0..<2_000).map { index in
            var label = text("t\(index)", 0, "x")
            label.properties.font = "Sans 12"
            return label
        }
        #expect(refusal(same) == nil)
    }

    /// A scaleGroup's factor is searched by laying out all its texts a dozen times: more than
    /// LayoutLimits.maxScaleGroupMembers texts are refused before any layout.
    @Test func aScaleGroupOfMoreTextsThanTheLimitIsRefused() {
        func group(_ texts: Int) -> [LayoutNode] {
            [node("g", nil, .scaleGroup, .init(minimumScaleFactor: 0.5)), node("row", 0, .vstack)] + (0..<texts).map { text("t\($0)", 1, "label \($0)") }
        }
        #expect(refusal(group(LayoutLimits.maxScaleGroupMembers)) == nil)
        #expect(refusal(group(LayoutLimits.maxScaleGroupMembers + 1)) == .tooManyScaleGroupMembers(
            node: at(0, "g"), count: LayoutLimits.maxScaleGroupMembers + 1, limit: LayoutLimits.maxScaleGroupMembers))
    }

    /// uniformFit (outer) → vstack → [choice with `outer` candidates, uniformFit (inner) →
    /// firstFit item with `inner` candidates].
    func nestedLists(outer: Int, inner: Int) -> [LayoutNode] {
        var nodes = [node("outer", nil, .uniformFit), node("item", "outer", .vstack), node("a", "item", .choice)]
        for k in 0..<outer { nodes.append(image("a\(k)", "a", Double(100 - k))) }
        nodes += [node("inner", "item", .uniformFit), node("b", "inner", .firstFit)]
        for k in 0..<inner { nodes.append(image("b\(k)", "b", Double(100 - k))) }
        return nodes
    }

    @Test func nestedUniformFitsAreBoundedByTheProductOfTheirPositions() throws {
        // 8 × 8 = 64 combinations lay out; 8 × 9 = 72 is refused before any layout.
        #expect(try layout(nestedLists(outer: 8, inner: 8), width: 50).size.width > 0)
        guard case .invalidChildren(let where_, let reason) = refusal(nestedLists(outer: 8, inner: 9)) else {
            Issue.record("expected invalidChildren")
            return
        }
        #expect(where_ == at(11, "inner"))
        #expect(reason.contains("72") && reason.contains("maxNestedChoicePositions"))
    }

    @Test func badProposalsAndMeasurerFailures() throws {
        let document = LayoutDocument(nodes: [text("t", nil, "x")])
        #expect(throws: LayoutError.invalidProposal(axis: .horizontal, value: -1)) {
            try document.layout(in: ProposedSize(width: -1, height: nil), measurer: measurer)
        }
        // NaN is not equal to itself, so match the case.
        do {
            _ = try document.layout(in: ProposedSize(width: 1, height: .nan), measurer: measurer)
            Issue.record("NaN proposal accepted")
        } catch {
            guard case .invalidProposal(.vertical, let value) = error, value.isNaN else { Issue.record("\(error)"); return }
        }
        #expect(throws: LayoutError.measurementFailed(node: NodeLocation(index: 0, id: "t"), reason: "no fonts")) {
            try document.layout(in: .unspecified, measurer: FailingMeasurer())
        }
    }
}

struct FailingMeasurer: LayoutTextMeasurer {
    func measure(_ text: LayoutText, proposedWidth: Double?, scale: Double) throws(LayoutError) -> MeasuredText {
        throw .measurementFailed(node: nil, reason: "no fonts")
    }
    func lineHeight(of font: LayoutFont, sizeCategory: SizeCategory) throws(LayoutError) -> Double {
        throw .measurementFailed(node: nil, reason: "no fonts")
    }
}

extension Optional where Wrapped == LayoutError {
    var isScaleFactorError: Bool { if case .invalidScaleFactor? = self { return true } else { return false } }
    var isTooDeep: Bool { if case .tooDeep? = self { return true } else { return false } }
    func isInvalidSize(property name: String) -> Bool {
        if case .invalidSize(_, let property, _)? = self { return property == name } else { return false }
    }
}
