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
        #expect(words("textStyle") == TextStyle.allCases.map(\.rawValue))
        #expect(words("truncation") == TruncationMode.allCases.map(\.rawValue))
        let grid = try Self.object(try Self.object(defs["kinds"], "kinds")["grid"], "grid")
        let columns = try Self.object(try Self.object(grid["properties"], "grid.properties")["columns"], "columns")
        #expect(columns["enum"] as? [String] == GridColumns.allCases.map(\.rawValue))
    }
}
