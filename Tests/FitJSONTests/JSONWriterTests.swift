import FitJSON
import Foundation
import Testing

@Suite struct JSONWriterTests {
    func written(_ body: (inout JSONWriter) -> Void) -> String {
        var writer = JSONWriter()
        body(&writer)
        return writer.string
    }

    @Test func keysComeOutInTheOrderWritten() {
        let text = written { w in
            w.beginObject()
            w.member("z", 1)
            w.member("a", "x")
            w.key("list")
            w.beginArray()
            w.number(1)
            w.beginObject()
            w.endObject()
            w.beginArray()
            w.endArray()
            w.endArray()
            w.member("b", false)
            w.endObject()
        }
        #expect(text == #"{"z":1,"a":"x","list":[1,{},[]],"b":false}"#)
    }

    @Test func aKeyMadeBeforehandWritesWhatItsNameDoes() {
        for name in ["width", "", "a\"b\\c\n", "日本"] {
            let made = JSONWriter.Key(name)
            // A member, then a key and its value, written one way or the other.
            func object(member: (inout JSONWriter) -> Void, key: (inout JSONWriter) -> Void) -> String {
                written { w in
                    w.beginObject()
                    member(&w)
                    key(&w)
                    w.bool(true)
                    w.endObject()
                }
            }
            let byKey = object(member: { $0.member(made, 1.5) }, key: { $0.key(made) })
            let byName = object(member: { $0.member(name, 1.5) }, key: { $0.key(name) })
            #expect(byKey == byName)
        }
    }

    @Test func stringsEscapeQuotesBackslashesAndEveryControlCharacter() {
        #expect(written { $0.string("a\"b\\c/d") } == #""a\"b\\c/d""#)
        #expect(written { $0.string("\u{08}\u{0C}\n\r\t") } == #""\b\f\n\r\t""#)
        #expect(written { $0.string("\u{00}\u{01}\u{1F}\u{7F}") } == "\"\\u0000\\u0001\\u001f\u{7F}\"")
        // Non-ASCII stays UTF-8 (RFC 8259 §8.1), including U+2028 and astral scalars.
        #expect(written { $0.string("日本 👍🏽 \u{2028}") } == "\"日本 👍🏽 \u{2028}\"")
        // Every control character round-trips through Foundation's reader.
        let all = String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar($0)! }))
        let data = Data(written { $0.string(all) }.utf8)
        #expect((try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) as? String == all)
    }

    @Test func wholeNumbersHaveNoFractionAndOthersTheShortestRoundTrip() {
        #expect(written { $0.number(12.0) } == "12")
        #expect(written { $0.number(-3.0) } == "-3")
        #expect(written { $0.number(-0.0) } == "0")
        #expect(written { $0.number(81.109375) } == "81.109375")
        #expect(written { $0.number(0.1) } == "0.1")
        #expect(written { $0.number(70.47852864583334) } == "70.47852864583334")
        #expect(written { $0.number(1e-7) } == "1e-07")
        #expect(written { $0.number(9_007_199_254_740_992.0) } == "9007199254740992")
        #expect(written { $0.number(1e16) } == "1e+16")
        #expect(written { $0.number(Double.infinity) } == "null")
        #expect(written { $0.number(Double.nan) } == "null")
        #expect(written { $0.number(Int.min) } == "-9223372036854775808")
        #expect(written { $0.number(UInt64.max) } == "18446744073709551615")
        // Each reads back to the same Double.
        for value in [0.1, 1e-7, 1e300, Double.leastNonzeroMagnitude, 123456.789, 1.0 / 3] {
            #expect(Double(written { $0.number(value) }) == value)
        }
    }

    @Test func linesStartFreshValuesAndRemoveAllKeepsNothing() {
        var writer = JSONWriter()
        writer.beginObject(); writer.member("a", 1); writer.endObject()
        writer.newline()
        writer.beginObject(); writer.endObject()
        writer.newline()
        #expect(writer.string == "{\"a\":1}\n{}\n")
        writer.removeAll()
        writer.number(2)
        #expect(writer.string == "2")
    }
}

@Suite struct JSONReaderTests {
    func failure(_ text: String, limits: JSONReader.Limits = .init()) -> String? {
        do {
            _ = try JSONReader.parse(text, limits: limits)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func parsesEveryKindKeepingMemberOrder() throws {
        let value = try JSONReader.parse(#" {"b": [1, -2.5e3, true, false, null], "a": {"x": "y"}, "": ""} "#)
        guard case .object(let object) = value else { Issue.record("not an object"); return }
        #expect(object.names == ["b", "a", ""])
        #expect(object["b"] == .array([.number(1, text: "1"), .number(-2500, text: "-2.5e3"), .bool(true), .bool(false), .null]))
        #expect(object["a"] == .object(JSONObject([("x", .string("y"))])))
        #expect(object["missing"] == nil)
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        #expect(try JSONReader.parse(#""a\"\\\/\b\f\n\r\t\u00e9\u0000""#) == .string("a\"\\/\u{08}\u{0C}\n\r\té\u{00}"))
        #expect(try JSONReader.parse(#""\ud83d\udc4d""#) == .string("👍"))
        #expect(try JSONReader.parse("\"日本\"") == .string("日本"))
    }

    @Test func refusesMalformedTextSayingWhatAndWhere() {
        #expect(failure("") == "expected a value, found end of text at byte 0")
        #expect(failure("{\"a\" 1}") == "expected ':' after a member name, found '1' at byte 5")
        #expect(failure("{\"a\":1,}") == "expected a member name (a string), found '}' at byte 7")
        #expect(failure("[1 2]") == "expected ',' or ']', found '2' at byte 3")
        #expect(failure("{\"a\":1} x") == "unexpected 'x' after the value at byte 8")
        #expect(failure("01") == "a number with a leading zero at byte 0")
        #expect(failure("1.") == "expected a digit after '.', found end of text at byte 2")
        #expect(failure("-") == "expected a digit, found end of text at byte 1")
        #expect(failure("1e400") == "the number 1e400 is out of range at byte 0")
        #expect(failure(String(repeating: "9", count: 5000)) == "the number \(String(repeating: "9", count: 32))… (5000 characters) is out of range at byte 0")
        #expect(failure("tru") == "expected true at byte 0")
        #expect(failure("NaN") == "expected a value, found 'N' at byte 0")
        #expect(failure("\"abc") == "a string without its closing '\"' at byte 0")
        #expect(failure("\"a\u{01}\"") == "an unescaped control character (0x1) in a string at byte 2")
        #expect(failure(#""\x""#) == #"an unknown escape \x in a string at byte 1"#)
        #expect(failure(#""\ud83d""#) == #"a lone surrogate \uD83D in a string at byte 1"#)
        #expect(failure(#""\udc4d""#) == #"a lone surrogate \uDC4D in a string at byte 1"#)
        #expect(failure(#""\u12""#) == #"a \u escape without four hex digits at byte 1"#)
        #expect(failure(#"{"a":1,"a":2}"#) == #"member "a" given twice at byte 7"#)
        // Only JSON's four whitespace characters separate tokens.
        #expect(failure("\u{0B}1") == "expected a value, found byte 0xB at byte 0")
    }

    @Test func findsADuplicateNameAmongManyMembers() {
        // Past the first handful, names go into a hash set; a repeat far down is still found.
        let members = (0..<100).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        #expect(failure("{\(members)}") == nil)
        let text = "{\(members),\"k57\":0}"
        #expect(failure(text) == "member \"k57\" given twice at byte \(text.utf8.count - 8)")
        #expect(failure(#"{"a":1,"b":2,"a":3}"#) == #"member "a" given twice at byte 13"#)
    }

    @Test(.timeLimit(.minutes(1))) func anObjectOfAMillionMembersParsesInLinearTime() throws {
        // A hostile batch line: with a linear search per member this was quadratic (5 * 10^11
        // name comparisons, hours); with the hash set it is a moment.
        let count = 1_000_000
        var text = "{"
        text.reserveCapacity(count * 12)
        for index in 0..<count { text += index == 0 ? "\"k0\":0" : ",\"k\(index)\":0" }
        text += "}"
        guard case .object(let object) = try JSONReader.parse(text) else { Issue.record("not an object"); return }
        #expect(object.members.count == count)
    }

    @Test func namesCompareByTheirBytesNotByCanonicalEquivalence() throws {
        // RFC 8259 §8.3: "\u00e9" and "e\u0301" are different names, though Swift's String
        // == calls them equal.
        guard case .object(let object) = try JSONReader.parse(#"{"\u00e9":1,"e\u0301":2}"#) else {
            Issue.record("not an object"); return
        }
        #expect(object.members.count == 2)
        #expect(object["\u{E9}"] == .number(1, text: "1"))
        #expect(object["e\u{301}"] == .number(2, text: "2"))
    }

    @Test func enforcesDepthAndSizeLimits() {
        let limits = JSONReader.Limits(maxDepth: 3, maxBytes: 20)
        #expect(failure("[[[1]]]", limits: limits) == nil)
        #expect(failure("[[[[1]]]]", limits: limits) == "nested more than 3 deep at byte 3")
        #expect(failure(#"{"a":{"b":{"c":{}}}}"#, limits: limits) == "nested more than 3 deep at byte 15")
        #expect(failure(String(repeating: " ", count: 21), limits: limits) == "the text is 21 bytes; the limit is 20 at byte 0")
        // The default depth stops a deep text before it can exhaust the stack.
        #expect(failure(String(repeating: "[", count: 100_000))?.hasPrefix("nested more than 64 deep") == true)
    }

    /// forEachMember: what parse gives, member by member, for an object whose names have no
    /// escape; false or a throw for everything else, so the caller can take parse's way.
    @Test func forEachMemberHandsOverWhatParseReads() throws {
        func members(_ text: String, limits: JSONReader.Limits = .init()) throws -> [(String, JSONValue)]? {
            var seen: [(String, JSONValue)] = []
            let bytes = Array(text.utf8)
            let complete = try bytes.withUnsafeBufferPointer { buffer in
                try JSONReader.forEachMember(of: buffer, limits: limits) { name, value in
                    seen.append((String(decoding: name, as: UTF8.self), value))
                    return true
                }
            }
            return complete ? seen : nil
        }
        for text in [
            #" {"text": "a\"b\u00e9", "max_width": -1.5e2, "id": {"x": [1, null, true]}, "": false} "#, "{}", " { } ",
            #"{"a":{"b":{"c":1}}}"#, #"{"é":"日本"}"#,
        ] {
            guard case .object(let object) = try JSONReader.parse(text) else { Issue.record("not an object: \(text)"); continue }
            let read = try members(text)
            #expect(read?.map(\.0) == object.names, "\(text)")
            #expect(read?.map(\.1) == object.members.map(\.value), "\(text)")
        }
        // Not an object, or a name with an escape: false, for parse to read.
        #expect(try members("[1]") == nil)
        #expect(try members(#""text""#) == nil)
        #expect(try members(#"{"te\u0078t":1}"#) == nil)
        // The member handler stops it.
        let bytes = Array(#"{"a":1,"b":2}"#.utf8)
        var names = 0
        let stopped = try bytes.withUnsafeBufferPointer { buffer in
            try JSONReader.forEachMember(of: buffer) { _, _ in
                names += 1
                return false
            }
        }
        #expect(!stopped && names == 1)
        // Malformed text and limits throw, as parse does.
        for (text, limits) in [
            (#"{"a":1,}"#, JSONReader.Limits()), (#"{"a":1} x"#, .init()), (#"{"a" 1}"#, .init()), (#"{"a":tru}"#, .init()),
            (#"{"a":"\u12"}"#, .init()), (#"{"a":[[1]]}"#, .init(maxDepth: 2)), (#"{"a":1}"#, .init(maxBytes: 6)),
            ("{\"a\u{01}\":1}", .init()), (#"{"a":1"#, .init()),
        ] {
            #expect(failure(text, limits: limits) != nil, "\(text)")
            #expect(throws: JSONReader.Failure.self, "\(text)") { _ = try members(text, limits: limits) }
        }
    }

    @Test func illFormedUTF8IsRepairedNotRefused() throws {
        let bytes: [UInt8] = [0x22, 0x61, 0xFF, 0x62, 0x22]
        #expect(try JSONReader.parse(bytes) == .string("a\u{FFFD}b"))
    }

    @Test func writingAParsedValueEchoesIntegersExactlyAndOtherNumbersAsDoubles() throws {
        let value = try JSONReader.parse(#"{"id":[12345678901234567890,1e2,2.50,-0,"s",null,{"k":true}]}"#)
        var writer = JSONWriter()
        writer.value(value)
        #expect(writer.string == #"{"id":[12345678901234567890,100,2.5,-0,"s",null,{"k":true}]}"#)
    }

    /// Values in whole Pango units take a fast path; it must write what `description` does
    /// (less a trailing ".0"), for every size of whole part and fraction, both signs, and at
    /// the 15-significant-digit edge where the fast path hands over.
    @Test func pangoUnitValuesAreWrittenAsDescriptionWritesThem() {
        func described(_ value: Double) -> String {
            let text = value.description
            return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
        }
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [1.0 / 1024, 0.5, 12.3759765625, 3.14453125, 1023.0 / 1024, -7.25, 99_999.0009765625]
        for _ in 0..<20_000 {
            let units = Int64.random(in: 1...(1 << 40), using: &generator)
            values.append(Double(units) / 1024 * (Bool.random(using: &generator) ? 1 : -1))
            values.append(Double(Int64.random(in: 1...1_000_000, using: &generator)) / 1024)
        }
        // Around the hand-over: 5 whole digits and 10 decimals (15 significant), and 6 (16).
        values += [12_345.0009765625, 123_456.0009765625, 9_999_999_999.5, 4_398_046_511_103.999]
        for value in values {
            var writer = JSONWriter()
            writer.number(value)
            #expect(writer.string == described(value), "\(value)")
        }
    }
}
