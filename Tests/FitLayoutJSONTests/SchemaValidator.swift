import FitJSON
import Foundation

/// Checks a JSON value against a JSON Schema (draft 2020-12), as far as
/// protocol/layout-document.schema.json uses it: the keywords in ``checked``, with `$ref` to a
/// JSON pointer in the same document. A keyword it does not know is reported as a failure, so
/// a schema that grows one makes the tests fail rather than pass unread. It keeps the schema
/// tests inside `swift test`, with no Python package (python3-jsonschema) to install; that
/// validator agrees with this one on the documents these tests check.
struct SchemaValidator {
    let root: JSONValue

    /// Keywords that only annotate (draft 2020-12 core §8 and meta-data vocabulary §9).
    static let annotations: Set<String> = ["$schema", "$id", "$defs", "title", "description"]
    static let checked: Set<String> = [
        "$ref", "type", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "minLength", "maxLength",
        "items", "minItems", "maxItems", "properties", "required", "additionalProperties", "unevaluatedProperties",
        "oneOf", "anyOf",
    ]

    /// Every failure, each with the JSON pointer of the value it is about; empty when valid.
    func failures(_ value: JSONValue) -> [String] { check(value, root, at: "").failures }

    struct Outcome {
        var failures: [String] = []
        /// The object members a passing subschema evaluated (for `unevaluatedProperties`,
        /// draft 2020-12 core §11.3: members seen by properties, additionalProperties and the
        /// passing branches of oneOf/anyOf and `$ref`).
        var evaluated: Set<String> = []
    }

    func check(_ value: JSONValue, _ schema: JSONValue, at path: String) -> Outcome {
        // `true` and `false` are schemas too: every value passes, or none (core §4.3.2).
        if case .bool(let allowed) = schema { return allowed ? Outcome() : Outcome(failures: ["\(path): no value is allowed here"]) }
        guard case .object(let keywords) = schema else { return Outcome(failures: ["\(path): the schema is not an object"]) }
        var outcome = Outcome()
        func fail(_ reason: String) { outcome.failures.append("\(path.isEmpty ? "/" : path): \(reason)") }
        for name in keywords.names where !Self.annotations.contains(name) && !Self.checked.contains(name) {
            fail("the validator does not know the keyword \(name)")
        }
        if case .string(let reference)? = keywords["$ref"] {
            if let target = resolve(reference) {
                let inner = check(value, target, at: path)
                outcome.failures += inner.failures
                outcome.evaluated.formUnion(inner.evaluated)
            } else {
                fail("no \(reference) in the schema")
            }
        }
        if case .string(let type)? = keywords["type"], !Self.isOfType(value, type) { fail("not of type \(type)") }
        if case .array(let values)? = keywords["enum"], !values.contains(value) { fail("not one of the enum's values") }
        if let constant = keywords["const"], !Self.sameValue(value, constant) { fail("not the const") }
        if case .number(let number, _) = value {
            if case .number(let bound, _)? = keywords["minimum"], number < bound { fail("below the minimum \(bound)") }
            if case .number(let bound, _)? = keywords["maximum"], number > bound { fail("above the maximum \(bound)") }
            if case .number(let bound, _)? = keywords["exclusiveMinimum"], number <= bound { fail("not above \(bound)") }
        }
        if case .string(let text) = value {
            // Lengths count code points (draft 2020-12 validation §6.3.1).
            let length = Double(text.unicodeScalars.count)
            if case .number(let bound, _)? = keywords["minLength"], length < bound { fail("shorter than \(bound)") }
            if case .number(let bound, _)? = keywords["maxLength"], length > bound { fail("longer than \(bound)") }
        }
        if case .array(let items) = value {
            if case .number(let bound, _)? = keywords["minItems"], Double(items.count) < bound { fail("fewer items than \(bound)") }
            if case .number(let bound, _)? = keywords["maxItems"], Double(items.count) > bound { fail("more items than \(bound)") }
            if let itemSchema = keywords["items"] {
                for (index, item) in items.enumerated() { outcome.failures += check(item, itemSchema, at: "\(path)/\(index)").failures }
            }
        }
        if case .object(let members) = value {
            if case .array(let required)? = keywords["required"] {
                for case .string(let name) in required where members[name] == nil { fail("no member \(name)") }
            }
            var properties = JSONObject()
            if case .object(let given)? = keywords["properties"] { properties = given }
            for member in members.members {
                if let memberSchema = properties[member.name] {
                    outcome.failures += check(member.value, memberSchema, at: "\(path)/\(member.name)").failures
                    outcome.evaluated.insert(member.name)
                } else if let additional = keywords["additionalProperties"] {
                    outcome.failures += check(member.value, additional, at: "\(path)/\(member.name)").failures
                    outcome.evaluated.insert(member.name)
                }
            }
        }
        for (keyword, exactlyOne) in [("oneOf", true), ("anyOf", false)] {
            guard case .array(let branches)? = keywords[keyword] else { continue }
            let passing = branches.map { check(value, $0, at: path) }.filter(\.failures.isEmpty)
            if exactlyOne ? passing.count != 1 : passing.isEmpty {
                fail("\(passing.count) of the \(keyword) branches match")
            }
            for branch in passing { outcome.evaluated.formUnion(branch.evaluated) }
        }
        if case .object(let members) = value, let unevaluated = keywords["unevaluatedProperties"] {
            for member in members.members where !outcome.evaluated.contains(member.name) {
                outcome.failures += check(member.value, unevaluated, at: "\(path)/\(member.name)").failures
                outcome.evaluated.insert(member.name)
            }
        }
        return outcome
    }

    /// A `#/a/b` reference (core §8.2.3.1 with a JSON pointer fragment, RFC 6901).
    func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#") else { return nil }
        var node = root
        for token in reference.dropFirst().split(separator: "/", omittingEmptySubsequences: true) {
            let name = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            guard case .object(let members) = node, let next = members[name] else { return nil }
            node = next
        }
        return node
    }

    static func isOfType(_ value: JSONValue, _ type: String) -> Bool {
        switch (value, type) {
        case (.null, "null"), (.bool, "boolean"), (.number, "number"), (.string, "string"), (.array, "array"), (.object, "object"):
            return true
        case (.number(let number, _), "integer"): return number == number.rounded()
        default: return false
        }
    }

    /// JSON equality (core §4.2.2): 1 and 1.0 are the same number.
    static func sameValue(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if case .number(let x, _) = a, case .number(let y, _) = b { return x == y }
        return a == b
    }
}
