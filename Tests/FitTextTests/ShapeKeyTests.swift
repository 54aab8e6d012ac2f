import Testing

@testable import FitText

/// Shaped-run cache keys hold short text inline and long text on the heap; both must compare
/// and hash by content.
@Suite struct ShapeKeyTests {
    private func key(_ text: String, font: Int32 = 1) -> ShapeKey {
        let units = Array(text.utf16)
        return units.withUnsafeBufferPointer {
            ShapeKey(fontID: font, script: 25, language: 0, features: 0, rightToLeft: false, text: $0)
        }
    }

    @Test func keysCompareByContent() {
        for text in ["", "a", "abcd", "abcde", "sixteen units ok", "seventeen units!!", String(repeating: "long ", count: 20)] {
            #expect(key(text) == key(text))
            #expect(key(text).hashValue == key(text).hashValue)
            #expect(key(text).text == Array(text.utf16))
            #expect(key(text) != key(text + "x"))
            #expect(key(text) != key(text, font: 2))
        }
        // Same units, different lengths (the inline tail is zero): not equal.
        #expect(key("a") != key("a\u{0}"))
        var set = Set<ShapeKey>()
        for n in 0..<40 { set.insert(key(String(repeating: "x", count: n))) }
        #expect(set.count == 40)
    }

    /// The shard hint spreads words, one-letter runs and long texts over a sharded cache's 8
    /// shards about evenly (a skewed hint would put the threads back on one lock).
    @Test func shardHintsSpreadKeysOverEightShards() {
        var texts: [String] = []
        for n in 0..<600 { texts.append("word\(n)") }
        for scalar in 0x41..<0x41 + 26 { texts.append(String(UnicodeScalar(UInt8(scalar)))) }
        for n in 0..<200 { texts.append("a long text of more than sixteen code units, number \(n)") }
        for n in 0..<200 { texts.append(String(n)) }
        var counts = [Int](repeating: 0, count: 8)
        for text in texts { counts[key(text).shardHint & 7] += 1 }
        let mean = texts.count / 8
        #expect(counts.allSatisfy { $0 > mean / 2 && $0 < mean * 3 / 2 }, "per shard: \(counts)")
        #expect(key("same").shardHint == key("same").shardHint)
    }
}
