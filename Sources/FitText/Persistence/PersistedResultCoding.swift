/// The bytes of the persisted result file's records (``PersistedResultTable``): a request's
/// key and its metrics, little-endian, every length stated before what it measures. The
/// reader checks every length against what is left: the file is outside input.
enum PersistedResultCoding {
    /// FNV-1a, 64 bits (Fowler–Noll–Vo, the IETF draft's offset basis and prime): stable
    /// across processes, unlike Swift's seeded `Hasher`, so a hash written by one daemon
    /// finds its bucket in the next.
    static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        var h = seed
        for byte in bytes {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01b3
        }
        return h
    }

    static func hash(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { hash($0) }
    }

    // MARK: writing

    struct Writer {
        var bytes: [UInt8] = []

        mutating func u8(_ value: UInt8) { bytes.append(value) }
        mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        mutating func f64(_ value: Double) { u64(value.bitPattern) }
        mutating func f64s(_ values: Double...) { for value in values { f64(value) } }
        mutating func int(_ value: Int) { u64(UInt64(bitPattern: Int64(value))) }
        mutating func bool(_ value: Bool) { u8(value ? 1 : 0) }

        mutating func string(_ value: String) {
            u32(UInt32(truncatingIfNeeded: value.utf8.count))
            bytes.append(contentsOf: value.utf8)
        }

        mutating func optional<T>(_ value: T?, _ write: (inout Writer, T) -> Void) {
            guard let value else { return u8(0) }
            u8(1)
            write(&self, value)
        }
    }

    /// Every field of the request, so that two requests have equal keys exactly when they
    /// are equal (`MeasureRequest.==`: the text byte for byte): the text, the font, and each
    /// option not at its default through its row of MeasureOptions, by name (so a new option is
    /// in the key with no line here, and a reordering of the table cannot make an old file
    /// answer for another option), then what the `metrics` word leaves out: the rendering the
    /// user's GtkSettings gave the toolkit.
    static func key(_ request: MeasureRequest) -> [UInt8] {
        var w = Writer()
        w.bytes.reserveCapacity(request.text.utf8.count + request.font.utf8.count + 64)
        w.string(request.text)
        w.string(request.font)
        for option in MeasureOptions.all {
            guard let value = option.value(request) else { continue }
            w.string(option.name)
            switch value {
            case .number(let number): w.u8(0); w.f64(number)
            case .string(let text): w.u8(1); w.string(text)
            case .bool(let flag): w.u8(2); w.bool(flag)
            case .strings(let list):
                w.u8(3)
                w.u32(UInt32(truncatingIfNeeded: list.count))
                for item in list { w.string(item) }
            case .range(let low, let high): w.u8(4); w.f64(low); w.f64(high)
            }
        }
        w.u32(UInt32.max)  // no option's name is this long: the options end here
        w.bool(request.metrics.rendering.roundsPositions)
        w.bool(request.metrics.rendering.hintsMetrics)
        return w.bytes
    }

    static func value(_ metrics: TextMetrics) -> [UInt8] {
        var w = Writer()
        w.f64s(metrics.width, metrics.height, metrics.baseline, metrics.lastBaseline)
        w.int(metrics.lineCount)
        w.bool(metrics.ellipsized)
        w.bool(metrics.truncated)
        w.string(metrics.unit.rawValue)
        w.u32(UInt32(truncatingIfNeeded: metrics.lines.count))
        for line in metrics.lines {
            w.f64s(line.width, line.ascent, line.descent, line.baseline)
            w.int(line.start)
            w.int(line.length)
            w.string(line.text)
            w.bool(line.ellipsized)
        }
        w.u32(UInt32(truncatingIfNeeded: metrics.fontsUsed.count))
        for family in metrics.fontsUsed { w.string(family) }
        return w.bytes
    }

    // MARK: reading

    /// Reads forward through bytes it does not own; every read checks what is left and
    /// fails (nil) rather than read past the end.
    struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        var remaining: Int { bytes.count - offset }

        mutating func u8() -> UInt8? {
            guard remaining >= 1 else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func u32() -> UInt32? {
            guard remaining >= 4 else { return nil }
            defer { offset += 4 }
            return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        }

        mutating func u64() -> UInt64? {
            guard remaining >= 8 else { return nil }
            defer { offset += 8 }
            return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }

        mutating func f64() -> Double? { u64().map(Double.init(bitPattern:)) }
        mutating func int() -> Int? { u64().map { Int(truncatingIfNeeded: Int64(bitPattern: $0)) } }

        mutating func bool() -> Bool? {
            switch u8() {
            case 0?: false
            case 1?: true
            default: nil
            }
        }

        mutating func string() -> String? {
            guard let count = u32().map(Int.init), count <= remaining else { return nil }
            defer { offset += count }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]), as: UTF8.self)
        }

        /// A count of items each at least `minimumBytes` long: more than the bytes left could
        /// hold is refused before anything is allocated for them.
        mutating func count(minimumBytes: Int) -> Int? {
            guard let count = u32().map(Int.init), count <= remaining / max(1, minimumBytes) else { return nil }
            return count
        }
    }

    /// The metrics in `bytes`, or nil when they are not a whole, valid encoding.
    static func metrics(_ bytes: UnsafeRawBufferPointer) -> TextMetrics? {
        var r = Reader(bytes: bytes)
        guard let width = r.f64(), let height = r.f64(), let baseline = r.f64(), let lastBaseline = r.f64(),
            let lineCount = r.int(), let ellipsized = r.bool(), let truncated = r.bool(),
            let unit = r.string().flatMap(MeasureUnit.init(rawValue:)),
            let count = r.count(minimumBytes: 4 * 8 + 2 * 8 + 4 + 1)
        else { return nil }
        var lines: [LineMetrics] = []
        lines.reserveCapacity(count)
        for _ in 0..<count {
            guard let width = r.f64(), let ascent = r.f64(), let descent = r.f64(), let baseline = r.f64(),
                let start = r.int(), let length = r.int(), let text = r.string(), let ellipsized = r.bool()
            else { return nil }
            lines.append(LineMetrics(
                width: width, ascent: ascent, descent: descent, baseline: baseline, start: start, length: length,
                text: text, ellipsized: ellipsized))
        }
        guard let families = r.count(minimumBytes: 4) else { return nil }
        var fontsUsed: [String] = []
        fontsUsed.reserveCapacity(families)
        for _ in 0..<families {
            guard let family = r.string() else { return nil }
            fontsUsed.append(family)
        }
        guard r.remaining == 0 else { return nil }
        return TextMetrics(
            width: width, height: height, baseline: baseline, lineCount: lineCount, ellipsized: ellipsized,
            truncated: truncated, unit: unit, lines: lines, fontsUsed: fontsUsed, lastBaseline: lastBaseline)
    }
}
