import CHarfBuzz
import Foundation
import Testing

@testable import FitText

/// The result cache saved to a file and read by the next engine (docs/caching.md, "A warm start"):
/// what comes back equals what was measured, and a damaged, forged, foreign or stale file is
/// refused or answers nothing — never a wrong result, never a crash, never a text in clear.
@Suite struct PersistedResultsTests {
    static let requests: [MeasureRequest] = {
        var list = [
            MeasureRequest(text: "Hello, world", font: "DejaVu Sans 10"),
            MeasureRequest(text: "Screen time this week", font: "DejaVu Sans 11", maxWidth: 60, includeLines: true),
            MeasureRequest(text: "A long label that will not fit", font: "DejaVu Sans Bold 12", maxWidth: 80, maxLines: 1, ellipsize: .end, includeLines: true),
            MeasureRequest(text: "tabular 0123", font: "DejaVu Sans 10", features: ["tnum", "-liga"], letterSpacing: 0.5),
            MeasureRequest(text: "Größe 12", font: "DejaVu Sans 10", textScale: 1.25),
            MeasureRequest(text: "日本語のテキスト", font: "sans-serif 10"),
            MeasureRequest(text: "cells │ 表", font: "", unit: .cells, includeLines: true),
        ]
        var markup = MeasureRequest(text: "<b>bold</b> and plain", font: "DejaVu Sans 10")
        markup.markup = true
        var language = MeasureRequest(text: "ابجد", font: "sans-serif 10")
        language.language = "ar"
        var gtk3 = MeasureRequest(text: "Hello, world", font: "DejaVu Sans 10")
        gtk3.metrics = .gtk3
        list += [markup, language, gtk3]
        return list
    }()

    /// A saved result answers only the request it was measured for: a request differing in
    /// any option (MeasureOptions, each row's sample) or in the toolkit's rendering has
    /// another key. `sample` is package-visible in FitTypes, which FitText re-exports.
    @Test func aRequestDifferingInAnyOptionHasAnotherKey() throws {
        let base = MeasureRequest(text: "Hello", font: "DejaVu Sans 10")
        var keys = [PersistedResultCoding.key(base)]
        for option in MeasureOptions.all where option.name != MeasureOptions.uiFont.name {
            var changed = base
            try option.apply(&changed, option.sample)
            keys.append(PersistedResultCoding.key(changed))
        }
        var rendered = base
        rendered.metrics = rendered.metrics.with(GTKFontRenderingSettings(hintFontMetrics: true))
        if rendered.metrics != base.metrics { keys.append(PersistedResultCoding.key(rendered)) }
        #expect(Set(keys).count == keys.count)
    }

    /// A secret of the bytes 0…31: a test's files are its own, the secret need not be secret.
    static let secret: PersistenceSecret = {
        guard let secret = PersistenceSecret(bytes: Array(0..<32)) else { preconditionFailure("32 bytes make a secret") }
        return secret
    }()
    static let byteLimit = 1 << 24

    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fitd-persisted-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A file of `requests` measured by a fresh engine, and what it measured.
    private func savedFile(_ requests: [MeasureRequest] = requests, fingerprint: UInt64 = 42) throws -> (path: String, results: [TextMetrics], bytes: [UInt8]) {
        let engine = try TestEngine.fresh()
        let results = try requests.map { try engine.measure($0) }
        let path = try temporaryDirectory().appendingPathComponent("results.bin").path
        let written = try engine.savePersistedResults(to: path, stamp: engine.stamp(fingerprint: fingerprint), secret: Self.secret)
        #expect(written == Set(requests.map { PersistedResultCoding.key($0) }).count)
        return (path, results, Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    private func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    private func openError(_ path: String, fingerprint: UInt64 = 42) -> PersistedResultsError? {
        do {
            _ = try PersistedResultTable.open(path: path, fingerprint: fingerprint, secret: Self.secret, byteLimit: Self.byteLimit)
            return nil
        } catch {
            return error
        }
    }

    @Test func savedResultsComeBackEqualWithoutMeasuring() throws {
        let (path, results, _) = try savedFile()
        let table = try #require(try PersistedResultTable.open(path: path, fingerprint: 42, secret: Self.secret, byteLimit: Self.byteLimit))
        #expect(table.entryCount == Self.requests.count)
        let engine = try TestEngine.fresh()
        engine.attachPersistedResults(table)
        for (request, expected) in zip(Self.requests, results) {
            // cachedMeasurement never measures: an answer can only come from the file.
            #expect(engine.cachedMeasurement(request) == expected, "\(request.text)")
        }
        let measured = try #require(engine.cacheStatistics.first { $0.name == "persisted-results" })
        #expect(measured.hits == UInt64(Self.requests.count))
        #expect(engine.measuredResultCount == 0)
        // Read once, then kept in memory like any result.
        _ = engine.cachedMeasurement(Self.requests[0])
        #expect(engine.cacheStatistics.first { $0.name == "persisted-results" }?.hits == UInt64(Self.requests.count))
    }

    @Test func requestsThatDifferInOneFieldAreNotConfused() throws {
        let base = MeasureRequest(text: "Hello, world", font: "DejaVu Sans 10")
        let (path, _, _) = try savedFile([base])
        let table = try #require(try PersistedResultTable.open(path: path, fingerprint: 42, secret: Self.secret, byteLimit: Self.byteLimit))
        var variants = [base, base, base, base, base, base]
        variants[0].textScale = 1.25
        variants[1].maxWidth = 40
        variants[2].font = "DejaVu Sans 11"
        variants[3].text = "Hello, world!"
        variants[4].language = "en-us"
        variants[5].includeLines = true
        for variant in variants { #expect(table.metrics(for: variant) == nil) }
        // "é" precomposed and decomposed are one String to Swift, not to the cache.
        let (composed, _, _) = try savedFile([MeasureRequest(text: "caf\u{E9}", font: "DejaVu Sans 10")])
        let other = try #require(try PersistedResultTable.open(path: composed, fingerprint: 42, secret: Self.secret, byteLimit: Self.byteLimit))
        #expect(other.metrics(for: MeasureRequest(text: "cafe\u{301}", font: "DejaVu Sans 10")) == nil)
        #expect(other.metrics(for: MeasureRequest(text: "caf\u{E9}", font: "DejaVu Sans 10")) != nil)
    }

    @Test func aSaveKeepsTheOldFilesResultsAndStaysWithinItsLimit() throws {
        let (path, results, _) = try savedFile(Array(Self.requests.prefix(4)))
        let engine = try TestEngine.fresh()
        engine.attachPersistedResults(try PersistedResultTable.open(path: path, fingerprint: 42, secret: Self.secret, byteLimit: Self.byteLimit))
        let later = try Self.requests.dropFirst(4).map { try engine.measure($0) }
        try engine.savePersistedResults(to: path, stamp: engine.stamp(fingerprint: 42), secret: Self.secret)
        let table = try #require(try PersistedResultTable.open(path: path, fingerprint: 42, secret: Self.secret, byteLimit: Self.byteLimit))
        #expect(table.entryCount == Self.requests.count)
        for (request, expected) in zip(Self.requests, results.prefix(4) + later) {
            #expect(table.metrics(for: request) == expected)
        }
        // A budget too small for all: the most recently used go first, the file stays within it.
        let small = 64 + 8 * 16 + 300
        try engine.savePersistedResults(to: path, stamp: engine.stamp(fingerprint: 42), secret: Self.secret, byteLimit: small)
        let bounded = try #require(try PersistedResultTable.open(path: path, fingerprint: 42, secret: Self.secret, byteLimit: Self.byteLimit))
        #expect(bounded.byteCount <= small)
        #expect(bounded.entryCount >= 1 && bounded.entryCount < Self.requests.count)
        // Every budget is kept, down to the smallest file of one entry.
        for limit in stride(from: 64, through: 2_000, by: 7) {
            let (bytes, entries) = engine.persistedFile(stamp: engine.stamp(fingerprint: 42), secret: Self.secret, byteLimit: limit)!
            #expect(bytes.count <= max(limit, 64 + 8 * 16), "limit \(limit): \(bytes.count) bytes, \(entries) entries")
        }
    }

    @Test func aFileOfAnotherFingerprintIsRefused() throws {
        let (path, _, _) = try savedFile()
        #expect(openError(path, fingerprint: 43) == .staleFingerprint)
        #expect(try PersistedResultTable.open(path: path + ".missing", fingerprint: 42, secret: Self.secret, byteLimit: Self.byteLimit) == nil)
    }

    @Test func everyTruncationIsRefused() throws {
        let (path, _, bytes) = try savedFile()
        var rng = SystemRandomNumberGenerator()
        // Every length of the header and bucket table, and a few hundred of the records.
        let lengths = Array(0..<min(bytes.count, 64 + 8 * 16 + 8)) + (0..<300).map { _ in Int.random(in: 0..<bytes.count, using: &rng) }
        for length in lengths {
            try write(Array(bytes.prefix(length)), to: path)
            let error = try #require(openError(path), "\(length) bytes were accepted")
            switch error {
            case .truncated, .notAResultFile: break
            default: Issue.record("\(length) bytes: \(error)")
            }
        }
    }

    @Test func aFlippedHeaderByteIsRefused() throws {
        let (path, _, bytes) = try savedFile()
        for offset in 0..<64 {
            var damaged = bytes
            damaged[offset] ^= 0x20
            try write(damaged, to: path)
            #expect(openError(path) != nil, "a flipped byte at \(offset) was accepted")
        }
    }

    /// Flipped bytes past the header: the file opens, and every lookup gives either the
    /// exact result that was saved or nothing.
    @Test func flippedBytesInTheTableNeverGiveAWrongResult() throws {
        let (path, results, bytes) = try savedFile()
        var rng = SystemRandomNumberGenerator()
        var refusedRecords: UInt64 = 0
        for _ in 0..<400 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                damaged[Int.random(in: 64..<bytes.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
            }
            try write(damaged, to: path)
            let table = try #require(try PersistedResultTable.open(path: path, fingerprint: 42, secret: Self.secret, byteLimit: Self.byteLimit))
            for (request, expected) in zip(Self.requests, results) {
                if let found = table.metrics(for: request) { #expect(found == expected) }
            }
            refusedRecords += table.corruptRecords
        }
        #expect(refusedRecords > 0)
    }

    /// A header whose checksum is right but whose counts and offsets are absurd — what a
    /// hostile file would carry.
    @Test func absurdCountsAndOffsetsAreRefusedOrAnswerNothing() throws {
        let (path, _, bytes) = try savedFile()
        let records = bytes.count
        func header(buckets: Int, entries: Int, bucketsOffset: Int = 64, recordsOffset: Int? = nil, fileBytes: Int? = nil) -> [UInt8] {
            PersistedResultFormat.Header(
                fingerprint: 42, bucketCount: buckets, entryCount: entries, bucketsOffset: bucketsOffset,
                recordsOffset: recordsOffset ?? bucketsOffset + buckets * 16, fileBytes: fileBytes ?? records
            ).encoded()
        }
        for bad in [
            header(buckets: 1 << 30, entries: 1),
            header(buckets: 3, entries: 1),
            header(buckets: 0, entries: 0),
            header(buckets: 8, entries: 9),
            header(buckets: 8, entries: 1, bucketsOffset: 1 << 31),
            header(buckets: 8, entries: 1, recordsOffset: 4096),
            header(buckets: 8, entries: 1, fileBytes: records + 1),
            header(buckets: 8, entries: 1, fileBytes: records - 1),
        ] {
            try write(bad + bytes.dropFirst(64), to: path)
            #expect(openError(path) != nil)
        }
        // Buckets pointing past the end, at the header, or claiming records of 4 GiB.
        let bucketCount = Int(bytes[24]) | Int(bytes[25]) << 8
        for (offset, size) in [(UInt32.max, UInt32(16)), (0x10, 32), (UInt32(records - 8), 64), (UInt32(64 + bucketCount * 16), UInt32.max)] {
            var damaged = bytes
            for bucket in 0..<bucketCount where damaged[64 + bucket * 16 + 8..<64 + bucket * 16 + 12] != [0, 0, 0, 0] {
                withUnsafeBytes(of: offset.littleEndian) { damaged.replaceSubrange(64 + bucket * 16 + 8..<64 + bucket * 16 + 12, with: $0) }
                withUnsafeBytes(of: size.littleEndian) { damaged.replaceSubrange(64 + bucket * 16 + 12..<64 + bucket * 16 + 16, with: $0) }
            }
            try write(damaged, to: path)
            let table = try #require(try PersistedResultTable.open(path: path, fingerprint: 42, secret: Self.secret, byteLimit: Self.byteLimit))
            for request in Self.requests { #expect(table.metrics(for: request) == nil) }
            #expect(table.corruptRecords > 0)
        }
    }

    /// The file truncated, zeroed or rewritten in place (truncate(1), `cp` over it) while an
    /// engine answers from it: the engine read it whole when it opened it, so nothing faults
    /// (a mapping would die of SIGBUS) and every answer is still a cold engine's.
    @Test func aFileTruncatedOrRewrittenUnderARunningEngineChangesNoAnswer() throws {
        let (path, results, bytes) = try savedFile()
        let cold = try TestEngine.fresh()
        for damage in ["truncate", "zero", "rewrite"] {
            try write(bytes, to: path)
            let warm = try TestEngine.fresh()
            let table = try #require(try PersistedResultTable.open(path: path, fingerprint: 42, secret: Self.secret, byteLimit: Self.byteLimit))
            warm.attachPersistedResults(table)
            let fd = open(path, O_WRONLY)
            #expect(fd >= 0)
            #expect(ftruncate(fd, 0) == 0)
            switch damage {
            case "zero": #expect(ftruncate(fd, off_t(bytes.count)) == 0)
            case "rewrite": _ = Array(repeating: UInt8(0x5A), count: 100).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            default: break
            }
            close(fd)
            for (request, expected) in zip(Self.requests, results) {
                #expect(table.metrics(for: request) == expected, "\(damage): \(request.text)")
                #expect(try warm.measure(request) == cold.measure(request), "\(damage): \(request.text)")
            }
        }
    }

    @Test func aFileLargerThanItsLimitIsRefused() throws {
        let (path, _, bytes) = try savedFile()
        do {
            _ = try PersistedResultTable.open(path: path, fingerprint: 42, secret: Self.secret, byteLimit: bytes.count - 1)
            Issue.record("a file over its limit was read")
        } catch {
            #expect(error == .tooLarge(bytes: bytes.count, limit: bytes.count - 1))
        }
        #expect(try PersistedResultTable.open(path: path, fingerprint: 42, secret: Self.secret, byteLimit: bytes.count) != nil)
    }

    /// A file that yields more bytes than its size said when the read began — one growing
    /// while it is read, as a procfs file (size 0, never empty) always does — is refused.
    @Test func aFileThatChangesWhileReadIsRefused() {
        #expect(openError("/proc/self/stat") == .changedWhileRead(bytes: 1, size: 0))
    }

    /// A record made by someone without the secret: a valid header, the request's key in
    /// clear and a value with a right FNV-1a checksum (what the file held before records
    /// carried a tag) — and a whole file written under another secret. Neither is served.
    @Test func aForgedRecordIsNotServed() throws {
        let request = Self.requests[0]
        let forged = TextMetrics(width: 999, height: 99, baseline: 9, lineCount: 1, ellipsized: false, truncated: false, unit: .px, lines: [], fontsUsed: [])
        let key = PersistedResultCoding.key(request), value = PersistedResultCoding.value(forged)
        let buckets = 8, recordsOffset = 64 + buckets * 16
        var record = PersistedResultCoding.Writer()
        record.u64(PersistedResultCoding.hash(key + value))
        record.u32(UInt32(key.count))
        record.u32(UInt32(value.count))
        record.bytes += key + value
        var table = PersistedResultCoding.Writer()
        for bucket in 0..<buckets {
            let mine = Int(truncatingIfNeeded: PersistedResultCoding.hash(key)) & (buckets - 1) == bucket
            table.u64(mine ? PersistedResultCoding.hash(key) : 0)
            table.u32(mine ? UInt32(recordsOffset) : 0)
            table.u32(mine ? UInt32(record.bytes.count) : 0)
        }
        let header = PersistedResultFormat.Header(
            fingerprint: 42, bucketCount: buckets, entryCount: 1, bucketsOffset: 64, recordsOffset: recordsOffset,
            fileBytes: recordsOffset + record.bytes.count)
        let path = try temporaryDirectory().appendingPathComponent("results.bin").path
        try write(header.encoded() + table.bytes + record.bytes, to: path)
        let file = try #require(try PersistedResultTable.open(path: path, fingerprint: 42, secret: Self.secret, byteLimit: Self.byteLimit))
        #expect(file.metrics(for: request) == nil)
        let engine = try TestEngine.fresh()
        engine.attachPersistedResults(file)
        #expect(engine.cachedMeasurement(request) == nil)

        let (saved, _, _) = try savedFile()
        let other = try #require(PersistenceSecret(bytes: Array(repeating: 7, count: 32)))
        let foreign = try #require(try PersistedResultTable.open(path: saved, fingerprint: 42, secret: other, byteLimit: Self.byteLimit))
        for request in Self.requests { #expect(foreign.metrics(for: request) == nil) }
    }

    /// results.bin's bytes for one fixed request and result, under a fixed secret and
    /// fingerprint, are the ones this format version has always written. They change with the
    /// file's layout, the key's or the value's encoding, the key hash, the cipher or the tag;
    /// such a change must bump PersistedResultFormat.version (a file of the old version is then
    /// refused, not misread) and write the new bytes here. Without this, a value encoded another
    /// way under the same version would be decoded from an older file into a wrong width, which
    /// every other test here (each writes and reads with the same code) would let through.
    ///
    /// The values are chosen to tell every field from its neighbours (no two flags alike, no two
    /// numbers equal), not to be a real measurement. The toolkit is named (GTK 4.2 with cairo
    /// before 1.17.4, whose glyph positions are rounded and metrics not hinted), so the key does
    /// not depend on the GTK installed or FITD_TOOLKIT.
    @Test func theFileBytesAreTheOnesItsFormatVersionNames() throws {
        var request = MeasureRequest(text: "Hello, world", font: "DejaVu Sans 12", maxWidth: 60, includeLines: true)
        request.metrics = ToolkitProfile(.gtk4, minor: 2, subpixelCairo: false)
        #expect(request.metrics.rendering == GlyphRendering(roundsPositions: true, hintsMetrics: false))
        let lines = [
            LineMetrics(width: 38.5, ascent: 11.25, descent: 2.75, baseline: 11.25, start: 0, length: 7, text: "Hello, ", ellipsized: false),
            LineMetrics(width: 40.5, ascent: 11.5, descent: 3, baseline: 25.5, start: 7, length: 5, text: "world", ellipsized: true),
        ]
        let metrics = TextMetrics(
            width: 40.5, height: 28.5, baseline: 11.25, lineCount: 2, ellipsized: true, truncated: false, unit: .px,
            lines: lines, fontsUsed: ["DejaVu Sans"], lastBaseline: 25.5)
        let id = Self.secret.keyID(PersistedResultCoding.key(request))
        let (bytes, entries) = PersistedResultFile.encode(
            records: [(id, PersistedResultCoding.value(metrics))], fingerprint: 0x0123_4567_89ab_cdef, secret: Self.secret,
            byteLimit: Self.byteLimit)
        #expect(entries == 1)
        #expect(PersistedResultFormat.version == 5, "a new version: write its bytes below")
        let hex = bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        #expect(hex == Self.version5File, "results.bin's encoding changed under format version 5")
        // And this reader reads those bytes back to the same result.
        let table = try PersistedResultTable(
            bytes: bytes, fingerprint: 0x0123_4567_89ab_cdef, secret: Self.secret, path: "golden", name: "golden")
        #expect(table.metrics(for: request) == metrics)
    }

    /// What format version 5 writes for the request and result above.
    static let version5File = [
        "464954445741524d0500000040000000efcdab896745230108000000010000004000000000000000c000000000000000",
        "a101000000000000ab0327e8f98519930000000000000000000000000000000000000000000000000000000000000000",
        "0000000000000000000000000000000000000000000000000000000000000000ec405644b464c03bc0000000e1000000",
        "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
        "1e7757cde66ea1d22d0425ac5046064fec405644b464c03b9339fa7d5b14145abd000000f74a42402c54e7076fbcfd1e",
        "4418d7721f589d0de139104748fecacc6abd3e5f79f747d0365b904023facfb26a15b5ad73106db8f53c1e9dcae35773",
        "9077302709db6ebb03c0e0916d9bf43ab9203b3e54899a99334686263f259612b159b2c0ac55b2061525080fe8b4761f",
        "d9c2aa604f450c1c50bad7ae962d2fdd47317c95885647f5ffe29acc6496f619d310e63ccad2d9652e6b88d21259c808",
        "649d8eb3307b8c457f516f79b2e2db0e497394ab0254888ee795d3821face66193",
    ].joined()

    /// Neither file holds a measured text, in UTF-8 (results' keys and lines) or UTF-16
    /// (shaped words' keys): keys are keyed hashes, values enciphered.
    @Test func theFilesHoldNoMeasuredText() throws {
        let marker = "Quixotic Zephyrwhisk"
        let requests = [
            MeasureRequest(text: marker, font: "DejaVu Sans 10"),
            MeasureRequest(text: marker + " and more", font: "DejaVu Sans 11", maxWidth: 90, includeLines: true),
        ]
        let engine = try TestEngine.fresh()
        for request in requests { _ = try engine.measure(request) }
        let directory = try temporaryDirectory()
        let results = directory.appendingPathComponent("results.bin").path, shapes = directory.appendingPathComponent("shapes.bin").path
        #expect(try engine.savePersistedResults(to: results, stamp: engine.stamp(fingerprint: 42), secret: Self.secret) == 2)
        #expect((try engine.savePersistedShapes(to: shapes, stamp: engine.stamp(fingerprint: 42), secret: Self.secret) ?? 0) > 0)
        for path in [results, shapes] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            for word in ["Zephyrwhisk", "Quixotic"] {
                let utf16 = word.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
                #expect(bytes.range(of: Data(word.utf8)) == nil, "\(word) in UTF-8 in \(path)")
                #expect(bytes.range(of: Data(utf16)) == nil, "\(word) in UTF-16 in \(path)")
            }
        }
        // …and they still answer.
        let table = try #require(try PersistedResultTable.open(path: results, fingerprint: 42, secret: Self.secret, byteLimit: Self.byteLimit))
        for request in requests { #expect(try table.metrics(for: request) == engine.measure(request)) }
    }

    @Test func whatIsNotAResultFileIsRefused() throws {
        let directory = try temporaryDirectory()
        let path = directory.appendingPathComponent("results.bin").path
        try write([], to: path)
        #expect(openError(path) == .truncated(bytes: 0))
        try write(Array(repeating: 0x41, count: 4096), to: path)
        #expect(openError(path) == .notAResultFile)
        #expect(openError(directory.path) != nil)
    }

    @Test func recordsDecodeOnlyWhenWhole() throws {
        let metrics = try TestEngine.fresh().measure(Self.requests[2])
        let bytes = PersistedResultCoding.value(metrics)
        #expect(bytes.withUnsafeBytes { PersistedResultCoding.metrics($0) } == metrics)
        for length in 0..<bytes.count {
            #expect(bytes.prefix(length).withUnsafeBytes { PersistedResultCoding.metrics($0) } == nil)
        }
        #expect((bytes + [0]).withUnsafeBytes { PersistedResultCoding.metrics($0) } == nil)
    }

    /// Shaped runs and words saved by one engine shape the next one's text: the same requests,
    /// and new strings made of the same words, measure exactly as on an engine that shaped
    /// them itself.
    @Test func savedShapesMeasureLikeShapingAgain() throws {
        let first = try TestEngine.fresh()
        let results = try Self.requests.map { try first.measure($0) }
        let path = try temporaryDirectory().appendingPathComponent("shapes.bin").path
        let written = try first.savePersistedShapes(to: path, stamp: first.stamp(fingerprint: 42), secret: Self.secret)
        #expect((written ?? 0) > 0)
        let table = try #require(try PersistedResultTable.open(path: path, fingerprint: 42, secret: Self.secret, byteLimit: Self.byteLimit, name: "persisted-shapes"))
        let next = try TestEngine.fresh()
        next.attachPersistedShapes(table)
        for (request, expected) in zip(Self.requests, results) {
            #expect(try next.measure(request) == expected, "\(request.text)")
        }
        let hits = try #require(next.cacheStatistics.first { $0.name == "persisted-shapes" }).hits
        #expect(hits > 0)
        // New strings, known words: "Screen " "time " "this " "week" were shaped as words.
        // …and at width 0, where a line ends before every letter: lines end unshaped only
        // where HarfBuzz said the run may be cut, a flag the file keeps (a fresh engine and a
        // warm one broke this Devanagari text into different numbers of lines when it did not).
        let devanagari = MeasureRequest(text: "क्या आप परिवर्तन सहेजना चाहते हैं?", font: "DejaVu Sans 10", maxWidth: 0, wrap: .char)
        _ = try first.measure(devanagari)
        let withDevanagari = try temporaryDirectory().appendingPathComponent("shapes.bin").path
        #expect((try first.savePersistedShapes(to: withDevanagari, stamp: first.stamp(fingerprint: 42), secret: Self.secret) ?? 0) > 0)
        next.attachPersistedShapes(try #require(try PersistedResultTable.open(path: withDevanagari, fingerprint: 42, secret: Self.secret, byteLimit: Self.byteLimit, name: "persisted-shapes")))
        let before = try #require(next.cacheStatistics.first { $0.name == "persisted-shapes" }).hits
        let reordered = [
            MeasureRequest(text: "this week", font: "DejaVu Sans 11"),
            MeasureRequest(text: "Screen time this week", font: "DejaVu Sans 11", maxWidth: 90, includeLines: true),
            devanagari,
        ]
        let third = try TestEngine.fresh()
        for request in reordered {
            #expect(try next.measure(request) == third.measure(request), "\(request.text)")
        }
        #expect(try #require(next.cacheStatistics.first { $0.name == "persisted-shapes" }).hits > before)
    }

    @Test func shapedRunsDecodeOnlyWhenWholeAndConsistent() throws {
        let run = ShapedRun(clusters: [.init(start: 0, advance: 7.5), .init(start: 2, advance: 3, safeBefore: true)], missing: [
            .init(cluster: 1, notdefAdvance: 6, narrowBoxes: 1, wideBoxes: 0),
        ])
        let bytes = PersistedShapeCoding.value(run)
        let back = try #require(bytes.withUnsafeBytes { PersistedShapeCoding.run($0, units: 3) })
        #expect(back.clusters.map(\.start) == [0, 2] && back.clusters.map(\.advance) == [7.5, 3])
        #expect(back.clusters.map(\.safeBefore) == [false, true])
        #expect(back.missing.map(\.cluster) == [1] && back.missing.map(\.notdefAdvance) == [6])
        for length in 0..<bytes.count {
            #expect(bytes.prefix(length).withUnsafeBytes { PersistedShapeCoding.run($0, units: 3) } == nil)
        }
        // A cluster past the key's text, or missing glyphs of a cluster the run lacks.
        #expect(bytes.withUnsafeBytes { PersistedShapeCoding.run($0, units: 2) } == nil)
        let stray = PersistedShapeCoding.value(ShapedRun(clusters: run.clusters, missing: [.init(cluster: 5, notdefAdvance: 6, narrowBoxes: 1, wideBoxes: 0)]))
        #expect(stray.withUnsafeBytes { PersistedShapeCoding.run($0, units: 3) } == nil)
    }

    /// shapes.bin's records under format version 5: the key and value bytes of one shaped run.
    /// The file around them is results.bin's layout, pinned by the test above; these are what
    /// a changed key or run encoding would alter, and they too need a new format version, or
    /// an older file's runs would be read with other advances. Values chosen so that no two
    /// neighbouring fields are alike.
    @Test func theShapedRunBytesAreTheOnesItsFormatVersionNames() throws {
        #expect(PersistedResultFormat.version == 5, "a new version: write its bytes below")
        let text: [UInt16] = Array("Hé!".utf16)
        let key = text.withUnsafeBufferPointer {
            ShapeKey(fontID: 3, script: 0x4C61_746E, language: 0, features: 1, rightToLeft: true, continuation: false, text: $0)
        }
        let features = [hb_feature_t(tag: 0x6B65_726E, value: 0, start: 0, end: UInt32.max)]
        let keyBytes = PersistedShapeCoding.key(key, font: Array("DejaVuSans.ttf#0".utf8), language: "fr", features: features)
        let run = ShapedRun(
            clusters: [.init(start: 0, advance: 7.5, safeBefore: false), .init(start: 1, advance: 6.25, safeBefore: true), .init(start: 2, advance: 4)],
            missing: [.init(cluster: 2, notdefAdvance: 9.5, narrowBoxes: 1, wideBoxes: 2)])
        let valueBytes = PersistedShapeCoding.value(run)
        func hex(_ bytes: [UInt8]) -> String {
            bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        }
        #expect(hex(keyBytes) == Self.version5ShapeKey, "shapes.bin's key encoding changed under format version 5")
        #expect(hex(valueBytes) == Self.version5ShapedRun, "shapes.bin's run encoding changed under format version 5")
        let back = try #require(valueBytes.withUnsafeBytes { PersistedShapeCoding.run($0, units: text.count) })
        #expect(back.clusters.map(\.advance) == [7.5, 6.25, 4] && back.clusters.map(\.safeBefore) == [false, true, false])
    }

    static let version5ShapeKey = [
        "1000000044656a61567553616e732e74746623306e74614c020000006672010000006e72656b0000000000000000ffff",
        "ffff0100030000004800e9002100",
    ].joined()
    static let version5ShapedRun = [
        "03000000000000000000000000001e400100008000000000000019400200000000000000000010400100000002000000",
        "00000000000000000000234001000000000000000200000000000000",
    ].joined()

    /// The fingerprint follows the font files: touching one (its mtime) makes another, and so
    /// does rewriting one in place with its size and modification time put back.
    @Test func theFingerprintChangesWhenAFontFileChanges() throws {
        let directory = try temporaryDirectory()
        let font = directory.appendingPathComponent("Font.ttf").path
        try write(Array(repeating: 1, count: 128), to: font)
        func fingerprint() -> UInt64 {
            CacheFingerprint.fontSet(files: (configuration: [], fonts: [font]))
        }
        let before = fingerprint()
        #expect(fingerprint() == before)
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, font, &times, 0) == 0)
        let touched = fingerprint()
        #expect(touched != before)
        // Same size, same inode, the modification time set back: only the change time moved.
        usleep(20_000)
        let fd = open(font, O_WRONLY)
        #expect(fd >= 0)
        #expect(pwrite(fd, [UInt8(2)], 1, 64) == 1)
        close(fd)
        #expect(utimensat(AT_FDCWD, font, &times, 0) == 0)
        let rewritten = fingerprint()
        #expect(rewritten != touched)
        try FileManager.default.removeItem(atPath: font)
        #expect(fingerprint() != rewritten)
        // The engine's own covers the pinned configuration's files and fonts, and is stable.
        let engine = try TestEngine.fresh()
        let files = engine.resolver.sourceFiles()
        #expect(files.configuration.contains { $0.hasSuffix("Tests/fonts/fonts.conf") })
        #expect(files.fonts.contains { $0.hasSuffix("DejaVuSans.ttf") })
        #expect(engine.persistenceFingerprint(version: "1") == engine.persistenceFingerprint(version: "1"))
        #expect(engine.persistenceFingerprint(version: "1") != engine.persistenceFingerprint(version: "2"))
    }

    /// Every library the process runs is part of the stamp: an upgraded HarfBuzz (or a
    /// preloaded one) under the same soname is another file.
    @Test func theFontSetStampListsTheShapingLibraries() {
        let code = CacheFingerprint.mappedCode()
        #expect(code.contains { $0.contains("libharfbuzz") }, "\(code)")
        #expect(code.contains { $0.contains("libfontconfig") }, "\(code)")
        #expect(code.contains { $0.contains("libicuuc") }, "\(code)")
        // A maps file naming another library gives another list.
        let maps = try? temporaryDirectory().appendingPathComponent("maps").path
        if let maps {
            try? write(Array("7f00-7f10 r-xp 00000000 08:01 42 /opt/lib/libharfbuzz.so.0.60000.0\n7f10-7f20 r--p 0 08:01 42 /data/font.ttf\n".utf8), to: maps)
            #expect(CacheFingerprint.mappedCode(maps: maps) == ["/opt/lib/libharfbuzz.so.0.60000.0"])
        }
    }
}
