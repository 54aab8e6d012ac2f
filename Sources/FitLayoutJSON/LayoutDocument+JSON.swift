#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

import FitLayout

// LayoutDocument's JSON text, apart from FitLayout so that the daemon, which receives
// documents as D-Bus values, links no JSON coder (and no Foundation, which costs idle memory).
extension LayoutDocument {
    /// Parses a JSON document; every failure is a ``LayoutError`` naming the node when there is one.
    public init(json: some Collection<UInt8>) throws(LayoutError) {
        do {
            self = try JSONDecoder().decode(LayoutDocument.self, from: Data(json))
        } catch let error as LayoutError {
            throw error
        } catch let error as DecodingError {
            throw .malformedDocument(Self.explain(error))
        } catch {
            throw .malformedDocument("\(error)")
        }
    }

    public init(json: String) throws(LayoutError) {
        try self.init(json: Array(json.utf8))
    }

    /// The document as JSON, keys sorted (stable output for diffs and tests).
    public func json(pretty: Bool = true) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys] : [.sortedKeys]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    private static func explain(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let parts = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
            return parts.isEmpty ? "" : " at \(parts.joined())"
        }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return context.debugDescription + path(context)
        case .keyNotFound(let key, let context):
            return "missing \"\(key.stringValue)\"" + path(context)
        @unknown default:
            return "\(error)"
        }
    }
}
