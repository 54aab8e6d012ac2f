import FitJSON
import FitLayoutJSON
import Foundation
import Testing

@testable import FitLayout

/// protocol/layout-document.schema.json (written by scripts/layout-schema.py) describes every
/// node kind and every property the engine accepts, each with a description.
@Suite struct SchemaTests {
    static func schema() throws -> [String: Any] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("protocol/layout-document.schema.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    static var protocolDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("protocol")
    }

    static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONReader.Failure) in try JSONReader.parse(buffer) }
    }

    static func validator() throws -> SchemaValidator {
        SchemaValidator(root: try parse(Array(try Data(contentsOf: protocolDirectory.appendingPathComponent("layout-document.schema.json")))))
    }

    static func object(_ value: Any?, _ path: String) throws -> [String: Any] {
        try #require(value as? [String: Any], "\(path) is not an object")
    }

    @Test func everyKindAndPropertyIsInTheSchemaWithADescription() throws {
        let defs = try Self.object(try Self.schema()["$defs"], "$defs")
        let kinds = try Self.object(defs["kinds"], "$defs.kinds")
        #expect(Set(kinds.keys) == Set(LayoutNodeKind.allCases.map(\.rawValue)))
        let common = try Self.object(try Self.object(defs["node"], "node")["properties"], "node.properties")
        for name in LayoutProperties.inherited + LayoutProperties.anyKind + ["when", "id", "parent"] {
            #expect(((common[name] as? [String: Any])?["description"] as? String)?.isEmpty == false, "common \(name)")
        }
        for kind in LayoutNodeKind.allCases {
            let entry = try Self.object(kinds[kind.rawValue], kind.rawValue)
            #expect((entry["description"] as? String)?.isEmpty == false, "\(kind) has no description")
            var own = try Self.object(entry["properties"], "\(kind).properties")
            own["kind"] = nil
            // The kind's own properties exactly; the rest comes from the common ones.
            #expect(Set(own.keys) == Set(LayoutProperties.ownAllowed(for: kind)), "\(kind)")
            for (name, value) in own {
                #expect(((value as? [String: Any])?["description"] as? String)?.isEmpty == false, "\(kind).\(name)")
            }
            for name in LayoutProperties.allowed(for: kind) {
                #expect(own[name] != nil || common[name] != nil, "\(kind).\(name) is not in the schema")
            }
        }
    }

    @Test func theSchemasWordsAreTheEnginesWords() throws {
        let defs = try Self.object(try Self.schema()["$defs"], "$defs")
        let common = try Self.object(try Self.object(defs["node"], "node")["properties"], "node.properties")
        func words(_ name: String) -> [String] { ((common[name] as? [String: Any])?["enum"] as? [String]) ?? [] }
        #expect(words("layoutDirection") == LayoutDirection.allCases.map(\.rawValue))
        // Every alignment name the engine reads, baselines included (spec 1.4), and no other.
        let hstack = try Self.object(try Self.object(defs["kinds"], "kinds")["hstack"], "hstack")
        let alignment = try Self.object(try Self.object(hstack["properties"], "hstack.properties")["alignment"], "alignment")
        #expect(alignment["enum"] as? [String] == LayoutAlignment.names.map(\.0))
        #expect(words("textStyle") == TextStyle.allCases.map(\.name))
        #expect(words("truncation") == TruncationMode.allCases.map(\.rawValue))
        let grid = try Self.object(try Self.object(defs["kinds"], "kinds")["grid"], "grid")
        let columns = try Self.object(try Self.object(grid["properties"], "grid.properties")["columns"], "columns")
        #expect(columns["enum"] as? [String] == GridColumns.allCases.map(\.rawValue))
    }

    @Test func everyExampleDocumentIsValidUnderTheSchema() throws {
        let validator = try Self.validator()
        let examples = Self.protocolDirectory.appendingPathComponent("examples")
        let names = try FileManager.default.contentsOfDirectory(atPath: examples.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(names.count >= 10)
        for name in names {
            let document = try Self.parse(Array(try Data(contentsOf: examples.appendingPathComponent(name))))
            #expect(validator.failures(document) == [], "\(name)")
        }
    }

    /// A forEach with no rows: the engine lays it out as no items (ReuseTests), and both of
    /// the schema's forms of `data` (strings, objects) describe `[]`, so `data` takes either (anyOf).
    @Test func aForEachWithoutRowsIsValidUnderTheSchema() throws {
        let validator = try Self.validator()
        func document(data: String, extra: String = "") -> String {
            """
            {"version": 1, "nodes": [
              {"id": "list", "kind": "vstack"},
              {"id": "rows", "parent": "list", "kind": "forEach", "fields": ["label"], "data": \(data)\(extra)},
              {"id": "label", "parent": "rows", "kind": "text", "text": "{label}"}]}
            """
        }
        let empty = document(data: "[]")
        #expect(validator.failures(try Self.parse(Array(empty.utf8))) == [])
        let laidOut = try LayoutDocument(json: empty).layout(in: ProposedSize(width: 100, height: nil), measurer: FixedAdvanceMeasurer(advance: 10, lineHeight: 20))
        #expect(laidOut.nodes.map(\.id) == ["list"])
        // The nested form too.
        let nested = #"{"root": {"kind": "vstack", "children": [{"kind": "forEach", "fields": ["f"], "data": [], "children": [{"kind": "text", "text": "{f}"}]}]}}"#
        #expect(validator.failures(try Self.parse(Array(nested.utf8))) == [])
        // What it still refuses: values that are neither strings nor objects, an unknown property.
        #expect(validator.failures(try Self.parse(Array(document(data: "[1]").utf8))) != [])
        #expect(validator.failures(try Self.parse(Array(document(data: "[]", extra: #", "rowz": 1"#).utf8))) != [])
    }
}
