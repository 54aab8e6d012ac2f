/// Pango markup read as `gtk_label_set_markup` reads it (pango/pango-markup.c, Pango 1.50):
/// GMarkup's syntax (elements, attributes in quotes, the five XML entities, numeric character
/// references, comments, CDATA) with Pango's tags and <span> attributes. The result is the
/// plain text and, for each stretch of it, the attributes in force (``MarkupStyle``).
///
/// Linear in the input and bounded: the nesting depth is limited, and each stretch of text
/// gets one style value (copied from its parent tag when the tag opens).
public struct MarkupParser {
    /// Deepest nesting accepted (GMarkup has no limit; a label has a handful).
    public static let maxDepth = 64

    /// The plain text and its styled stretches, in order, covering the whole text (UTF-16
    /// offsets, as the layout indexes text).
    public struct Result: Sendable, Equatable {
        public var text: String
        public var runs: [Run]
    }

    public struct Run: Sendable, Equatable {
        public var utf16: Range<Int>
        public var style: MarkupStyle
        /// An itemizing tag opened or closed right before it (it may have the style of the run
        /// before it, yet it is another item).
        public var startsItem = false
    }

    public static func parse(_ markup: String) throws(FitTextError) -> Result {
        var parser = MarkupParser(markup)
        return try parser.run()
    }

    private let bytes: [UInt8]
    private var i = 0
    private var text = ""
    private var utf16Count = 0
    private var runs: [Run] = []
    private var stack: [(name: String, style: MarkupStyle, itemizes: Bool)] = []
    /// A tag with an attribute that affects itemization opened or closed since the last text
    /// (pango-layout.c affects_itemization): Pango's attribute iterator stops there, so the
    /// text after it starts a new item even when its attributes are equal.
    private var boundary = false

    private init(_ markup: String) { bytes = Array(markup.utf8) }

    // MARK: positions and errors, as GMarkup reports them

    /// GMarkup's "line L char C" for the byte at `offset`: Pango parses "<markup>" + text, so
    /// columns on the first line count those 8 characters; GMarkup's count on later lines
    /// runs one ahead (measured: "x\n<b>y</i>" reports char 9 for the 8th character).
    private func position(_ offset: Int) -> (line: Int, char: Int) {
        var line = 1
        var column = 0
        var k = 0
        let end = min(offset, bytes.count)
        while k < end {
            if bytes[k] == 0x0A {
                line += 1
                column = 1
            } else if bytes[k] & 0xC0 != 0x80 {
                column += 1
            }
            k += 1
        }
        return (line, (line == 1 ? 8 : 0) + column + 1)
    }

    private func syntaxError(_ message: String, at offset: Int) -> FitTextError {
        let (line, char) = position(offset)
        return .invalidArgument(name: "markup", reason: "Error on line \(line) char \(char): \(message)")
    }

    private func lineError(_ message: String, at offset: Int) -> FitTextError {
        .invalidArgument(name: "markup", reason: "Error on line \(position(offset).line): \(message)")
    }


    // MARK: the document

    private mutating func run() throws(FitTextError) -> Result {
        var pending: [UInt8] = []
        func flush(_ parser: inout MarkupParser, _ pending: inout [UInt8]) {
            guard !pending.isEmpty else { return }
            let piece = String(decoding: pending, as: UTF8.self)
            let count = piece.utf16.count
            let style = parser.stack.last?.style ?? MarkupStyle()
            if !parser.boundary, let last = parser.runs.last, last.style == style, last.utf16.upperBound == parser.utf16Count {
                parser.runs[parser.runs.count - 1].utf16 = last.utf16.lowerBound..<(parser.utf16Count + count)
            } else {
                parser.runs.append(
                    Run(utf16: parser.utf16Count..<(parser.utf16Count + count), style: style, startsItem: parser.boundary))
            }
            parser.boundary = false
            parser.text += piece
            parser.utf16Count += count
            pending.removeAll(keepingCapacity: true)
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "<") {
                if hasPrefix("<!--") {
                    guard let end = find("-->", from: i + 4) else { throw lineError("Document ended unexpectedly inside a comment", at: bytes.count) }
                    i = end + 3
                } else if hasPrefix("<![CDATA[") {
                    // GMarkup hands CDATA to the passthrough handler, which Pango has not:
                    // its text is dropped (measured).
                    guard let end = find("]]>", from: i + 9) else { throw lineError("Document ended unexpectedly inside a comment or processing instruction", at: bytes.count) }
                    i = end + 3
                } else if hasPrefix("<?") {
                    guard let end = find("?>", from: i + 2) else { throw lineError("Document ended unexpectedly inside a comment or processing instruction", at: bytes.count) }
                    i = end + 2
                } else {
                    flush(&self, &pending)
                    try element()
                }
            } else if b == UInt8(ascii: "&") {
                pending += try entity(inAttribute: false)
            } else {
                pending.append(b)
                i += 1
            }
        }
        flush(&self, &pending)
        if let open = stack.last {
            // Pango closes its own <markup> last: GMarkup reports the mismatch there.
            let (line, char) = position(bytes.count)
            throw .invalidArgument(
                name: "markup",
                reason: "Error on line \(line) char \(char + 8): Element “markup” was closed, but the currently open element is “\(open.name)”")
        }
        return Result(text: text, runs: runs)
    }

    private func matches(_ s: StaticString, at k: Int) -> Bool {
        let count = s.utf8CodeUnitCount
        guard k + count <= bytes.count else { return false }
        for j in 0..<count where bytes[k + j] != s.utf8Start[j] { return false }
        return true
    }

    private func hasPrefix(_ s: StaticString) -> Bool { matches(s, at: i) }

    /// The offset of `s` at or after `from`, or nil. Linear: the pattern is at most 3 bytes.
    private func find(_ s: StaticString, from: Int) -> Int? {
        var k = from
        while k + s.utf8CodeUnitCount <= bytes.count {
            if matches(s, at: k) { return k }
            k += 1
        }
        return nil
    }

    private static func isNameStart(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == UInt8(ascii: "_") || b == UInt8(ascii: ":") || b >= 0x80
    }

    private static func isNameChar(_ b: UInt8) -> Bool {
        isNameStart(b) || (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: ".") || b == UInt8(ascii: "-")
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    private mutating func skipSpace() { while i < bytes.count && MarkupParser.isSpace(bytes[i]) { i += 1 } }

    private mutating func name() -> String? {
        guard i < bytes.count, MarkupParser.isNameStart(bytes[i]) else { return nil }
        let start = i
        while i < bytes.count && MarkupParser.isNameChar(bytes[i]) { i += 1 }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    private mutating func element() throws(FitTextError) {
        i += 1  // "<"
        if i < bytes.count && bytes[i] == UInt8(ascii: "/") {
            try closingTag()
            return
        }
        guard let tag = name() else {
            throw syntaxError("“\(character(at: i))” is not a valid character following a “<” character; it may not begin an element name", at: i)
        }
        let attributes = try readAttributes(of: tag)
        let selfClosing = bytes[i] == UInt8(ascii: "/")
        if selfClosing {
            i += 1
            guard i < bytes.count, bytes[i] == UInt8(ascii: ">") else {
                throw syntaxError("Odd character “\(character(at: i))”, expected a “>” character to end the empty-element tag “\(tag)”", at: i)
            }
        }
        i += 1  // ">"
        // Pango's own errors name the character after the tag's ">" (worked out only for an
        // error: counting lines for every tag would be quadratic in the text).
        let here = i
        guard stack.count < MarkupParser.maxDepth else {
            let (line, char) = position(here)
            throw .invalidArgument(name: "markup", reason: "Tags nested deeper than \(MarkupParser.maxDepth) on line \(line) char \(char)")
        }
        var style = stack.last?.style ?? MarkupStyle()
        try MarkupTags.open(tag, attributes: attributes, style: &style, position: { position(here) }, at: utf16Count)
        let itemizes = MarkupTags.itemizes(tag, attributes: attributes)
        if itemizes { boundary = true }
        if !selfClosing { stack.append((tag, style, itemizes)) }
    }

    /// "</name>" at `i` (after the "<"): it must close the element open last.
    private mutating func closingTag() throws(FitTextError) {
        i += 1
        guard let closing = name() else {
            throw syntaxError("“\(character(at: i))” is not a valid character following the characters “</”; “\(character(at: i))” may not begin an element name", at: i)
        }
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: ">") else {
            throw syntaxError("“\(character(at: i))” is not a valid character following the close element name “\(closing)”; the allowed character is “>”", at: i)
        }
        guard let open = stack.last else {
            throw syntaxError("Element “\(closing)” was closed, but the currently open element is “markup”", at: i)
        }
        guard open.name == closing else {
            throw syntaxError("Element “\(closing)” was closed, but the currently open element is “\(open.name)”", at: i)
        }
        if open.itemizes { boundary = true }
        stack.removeLast()
        i += 1
    }

    /// The attributes of a start tag, up to its ">" or "/" (left at `i`): names, and values
    /// with their entities replaced, in order.
    private mutating func readAttributes(of tag: String) throws(FitTextError) -> [(String, String)] {
        var attributes: [(String, String)] = []
        while true {
            let before = i
            skipSpace()
            guard i < bytes.count else { throw lineError("Document ended unexpectedly inside an element’s opening tag", at: i) }
            if bytes[i] == UInt8(ascii: ">") || bytes[i] == UInt8(ascii: "/") { break }
            guard i > before, let attribute = name() else {
                throw syntaxError("Odd character “\(character(at: i))”, expected a “>” or “/” character to end the start tag of element “\(tag)”, or optionally an attribute; perhaps you used an invalid character in an attribute name", at: i)
            }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else {
                throw syntaxError("Odd character “\(character(at: i))”, expected a “=” after attribute name “\(attribute)” of element “\(tag)”", at: i)
            }
            i += 1
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else {
                throw syntaxError("Odd character “\(character(at: i))”, expected an open quote mark after the equals sign when giving value for attribute “\(attribute)” of element “\(tag)”", at: i)
            }
            let quote = bytes[i]
            i += 1
            var value: [UInt8] = []
            while i < bytes.count && bytes[i] != quote {
                if bytes[i] == UInt8(ascii: "&") {
                    value += try entity(inAttribute: true)
                } else if bytes[i] == UInt8(ascii: "<") {
                    throw syntaxError("Odd character “<” in an attribute value of element “\(tag)”", at: i)
                } else {
                    value.append(bytes[i])
                    i += 1
                }
            }
            guard i < bytes.count else { throw lineError("Document ended unexpectedly inside an attribute value", at: i) }
            i += 1
            attributes.append((attribute, String(decoding: value, as: UTF8.self)))
        }
        return attributes
    }

    private func character(at offset: Int) -> String {
        guard offset < bytes.count else { return "" }
        var end = offset + 1
        while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
        return String(decoding: bytes[offset..<end], as: UTF8.self)
    }

    /// An entity or character reference at `i` ("&…;"), as UTF-8 (g_markup's unescape_text).
    private mutating func entity(inAttribute: Bool) throws(FitTextError) -> [UInt8] {
        let start = i
        i += 1
        var end = i
        while end < bytes.count && bytes[end] != UInt8(ascii: ";") && end - i <= 32 && !MarkupParser.isSpace(bytes[end])
            && bytes[end] != UInt8(ascii: "&") && bytes[end] != UInt8(ascii: "<")
        {
            end += 1
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
            throw lineError("Entity did not end with a semicolon; most likely you used an ampersand character without intending to start an entity — escape ampersand as &amp;", at: start)
        }
        let body = String(decoding: bytes[i..<end], as: UTF8.self)
        i = end + 1
        switch body {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default: break
        }
        guard body.hasPrefix("#") else {
            if body.isEmpty { throw lineError("Empty entity “&;” seen; valid entities are: &amp; &quot; &lt; &gt; &apos;", at: start) }
            throw lineError("Entity name “\(body)” is not known", at: start)
        }
        let hex = body.hasPrefix("#x")
        let digits = body.dropFirst(hex ? 2 : 1)
        guard !digits.isEmpty, digits.count <= 8, let value = UInt32(digits, radix: hex ? 16 : 10) else {
            throw lineError("Failed to parse “\(digits)”, which should have been a digit inside a character reference (&#234; for example) — perhaps the digit is too large", at: start)
        }
        // XML's Char production, as g_markup checks it.
        let allowed = (value >= 0x1 && value <= 0xD7FF) || (value >= 0xE000 && value <= 0xFFFD) || (value >= 0x10000 && value <= 0x10FFFF)
        guard allowed, let scalar = Unicode.Scalar(value) else {
            throw lineError("Character reference “\(digits)” does not encode a permitted character", at: start)
        }
        return Array(String(Character(scalar)).utf8)
    }
}
