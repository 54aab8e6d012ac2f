import FitJSON
import FitLayout
import FitLayoutJSON
import FitTranslations

/// A layout document whose texts name messages: a text node with `"msgid"` (and optionally
/// `"msgctxt"`, `"msgid_plural"` with the count `"n"`, and `"useUnderline"` for a mnemonic
/// label, GtkLabel's `use-underline`, and `"args"`, the values its printf conversions show)
/// beside its source-language `"text"`. The message keys are
/// fitctl's, not the wire's: they are taken out before the document is read, and each
/// language's document is the same one with its texts replaced.
struct TranslatableDocument: Sendable {
    struct Message: Sendable {
        var reference: MessageReference
        var useUnderline: Bool
        /// The text in the source language, as shown (mnemonic marks removed, arguments in).
        var sourceText: String
        /// The values of its c-format conversions (`%d`, `%2$s`), as the app formats them; nil
        /// to measure the conversions as written.
        var arguments: [String]?
    }

    /// A translation whose conversions the message's arguments cannot fill.
    struct Misformatted: Sendable {
        var node: String
        var reference: MessageReference
        var detail: String
    }

    /// At most this many arguments per message, each at most this long: a document is input.
    static let maxArguments = 64
    static let maxArgumentBytes = 4096

    /// The document in the source language.
    let source: LayoutDocument
    /// Node index (in ``source``) → its message.
    let messages: [Int: Message]

    static let messageKeys: Set<String> = ["msgid", "msgctxt", "msgid_plural", "n", "useUnderline", "args"]

    /// Whether `bytes` has a `"msgid"` key anywhere: a scan, so that documents without
    /// messages are read once, as before.
    static func mayNameMessages(_ bytes: [UInt8]) -> Bool {
        let key = Array("\"msgid\"".utf8)
        guard bytes.count >= key.count else { return false }
        for start in 0...(bytes.count - key.count) where bytes[start] == key[0] {
            if bytes[start..<(start + key.count)].elementsEqual(key) { return true }
        }
        return false
    }

    /// Reads `bytes` (already checked to be JSON by ``DocumentInput``); `name` is for messages.
    init(bytes: [UInt8], name: String) throws {
        let json: JSONValue
        do throws(JSONReader.Failure) {
            json = try JSONReader.parse(bytes, limits: .init(maxDepth: DocumentInput.depthLimit, maxBytes: DocumentInput.byteLimit))
        } catch {
            let (line, column) = DocumentInput.position(of: error.offset, in: bytes)
            throw CommandFailure("\(name):\(line):\(column): \(error.reason)")
        }
        var found: [Message] = []
        let stripped = try Self.strip(json, into: &found, name: name)
        var writer = JSONWriter(reservingCapacity: bytes.count)
        writer.value(stripped)
        var document: LayoutDocument
        do {
            document = try LayoutDocument(json: writer.bytes)
        } catch {
            throw CommandFailure("\(name): \(error)")
        }
        // Each message's text was replaced by its token; the flat form's order is the
        // document's, whatever the nesting was.
        var messages: [Int: Message] = [:]
        for (index, node) in document.nodes.enumerated() {
            guard let text = node.properties.text, let slot = Self.slot(of: text), slot < found.count else { continue }
            messages[index] = found[slot]
            document.nodes[index].properties.text = found[slot].sourceText
        }
        self.source = document
        self.messages = messages
    }

    /// The document in a language: each message's translation, or its source text where the
    /// catalog has none (as gettext shows it); `missing` gets those messages. Right-to-left
    /// languages lay the root out right to left unless the document says otherwise.
    func translated(
        _ catalog: TranslationCatalog, missing: inout [MessageReference], misformatted: inout [Misformatted]
    ) -> LayoutDocument {
        var document = source
        for (index, message) in messages.sorted(by: { $0.key < $1.key }) {
            guard var translation = catalog.translate(message.reference) else {
                // Once per message, however many nodes show it.
                if !missing.contains(message.reference) { missing.append(message.reference) }
                continue
            }
            if let arguments = message.arguments {
                do throws(CFormatArguments.Failure) {
                    translation = try CFormatArguments.substitute(translation, arguments: arguments)
                } catch {
                    misformatted.append(Misformatted(
                        node: document.nodes[index].id, reference: message.reference,
                        detail: "the translation of \"\(message.reference.description)\" needs \(Self.describe(error)); measured as written"))
                }
            }
            document.nodes[index].properties.text = message.useUnderline ? Mnemonic.stripped(translation) : translation
        }
        if catalog.isRightToLeft, let root = document.nodes.firstIndex(where: { $0.parent == nil }),
            document.nodes[root].properties.layoutDirection == nil
        {
            document.nodes[root].properties.layoutDirection = .rightToLeft
        }
        return document
    }

    /// Takes the message keys out of every object that has a `msgid`, recording the message
    /// and putting a token in its `text`. The recursion is bounded by the reader's depth limit.
    private static func strip(_ value: JSONValue, into found: inout [Message], name: String) throws -> JSONValue {
        switch value {
        case .array(let items):
            return .array(try items.map { try strip($0, into: &found, name: name) })
        case .object(let object):
            var members: [(name: String, value: JSONValue)] = []
            var fields: [String: JSONValue] = [:]
            for member in object.members {
                if messageKeys.contains(member.name) {
                    fields[member.name] = member.value
                } else {
                    members.append((member.name, try strip(member.value, into: &found, name: name)))
                }
            }
            guard !fields.isEmpty else { return .object(JSONObject(members)) }
            let id = object["id"].flatMap { if case .string(let id) = $0 { id } else { nil } } ?? "a text"
            func string(_ key: String) throws -> String? {
                guard let field = fields[key] else { return nil }
                guard case .string(let text) = field else { throw CommandFailure("\(name): \(id): \"\(key)\" must be a string") }
                return text
            }
            guard let msgid = try string("msgid") else {
                throw CommandFailure("\(name): \(id): \(fields.keys.sorted().joined(separator: ", ")) without \"msgid\"")
            }
            var reference = MessageReference(msgid: msgid, context: try string("msgctxt"), plural: try string("msgid_plural"))
            if let n = fields["n"] {
                guard case .number(let count, _) = n, count >= 0, count <= 1e15, count == count.rounded() else {
                    throw CommandFailure("\(name): \(id): \"n\" must be a whole number ≥ 0")
                }
                reference.count = UInt64(count)
            }
            if reference.plural != nil, reference.count == nil {
                throw CommandFailure("\(name): \(id): \"msgid_plural\" needs \"n\", the count the text is shown for")
            }
            var useUnderline = false
            if let flag = fields["useUnderline"] {
                guard case .bool(let value) = flag else { throw CommandFailure("\(name): \(id): \"useUnderline\" must be true or false") }
                useUnderline = value
            }
            var text = reference.sourceText
            if let index = members.firstIndex(where: { $0.name == "text" }) {
                guard case .string(let given) = members[index].value else { throw CommandFailure("\(name): \(id): \"text\" must be a string") }
                text = given
                members.remove(at: index)
            }
            let arguments = try Self.arguments(fields["args"], name: name, id: id)
            if let arguments {
                do throws(CFormatArguments.Failure) {
                    text = try CFormatArguments.substitute(text, arguments: arguments)
                } catch {
                    throw CommandFailure("\(name): \(id): the text needs \(describe(error))")
                }
            }
            found.append(Message(
                reference: reference, useUnderline: useUnderline, sourceText: useUnderline ? Mnemonic.stripped(text) : text,
                arguments: arguments))
            members.append(("text", .string(token(found.count - 1))))
            return .object(JSONObject(members))
        default:
            return value
        }
    }

    /// `"args"`: an array of strings, bounded.
    private static func arguments(_ value: JSONValue?, name: String, id: String) throws -> [String]? {
        guard let value else { return nil }
        guard case .array(let items) = value, items.count <= maxArguments else {
            throw CommandFailure("\(name): \(id): \"args\" must be an array of at most \(maxArguments) strings")
        }
        return try items.map { item in
            guard case .string(let text) = item, text.utf8.count <= maxArgumentBytes else {
                throw CommandFailure("\(name): \(id): each of \"args\" must be a string of at most \(maxArgumentBytes) bytes")
            }
            return text
        }
    }

    static func describe(_ failure: CFormatArguments.Failure) -> String {
        switch failure {
        case .missingArgument(let conversion, let given):
            "argument \(conversion) and \"args\" gives \(given)"
        }
    }

    /// A text no document writes: U+0001 is a control character no label shows.
    private static func token(_ slot: Int) -> String { "\u{1}msg\(slot)\u{1}" }

    private static func slot(of text: String) -> Int? {
        guard text.hasPrefix("\u{1}msg"), text.hasSuffix("\u{1}") else { return nil }
        return Int(text.dropFirst(4).dropLast())
    }
}
