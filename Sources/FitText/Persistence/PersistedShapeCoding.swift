import CHarfBuzz

/// The bytes of a shaped run saved for a warm start (``PersistedResultFormat``, the file
/// `shapes.bin`): its key in terms that hold in every process — the font by its
/// ``Font/identity``, the language by its BCP 47 tag, the features as HarfBuzz's values —
/// where ``ShapeKey`` holds this process's ids and addresses.
enum PersistedShapeCoding {
    static func key(_ shape: ShapeKey, font: [UInt8], language: String, features: [hb_feature_t]) -> [UInt8] {
        var w = PersistedResultCoding.Writer()
        w.u32(UInt32(truncatingIfNeeded: font.count))
        w.bytes += font
        w.u32(UInt32(bitPattern: shape.script))
        w.string(language)
        w.u32(UInt32(truncatingIfNeeded: features.count))
        for feature in features {
            w.u32(feature.tag)
            w.u32(feature.value)
            w.u32(feature.start)
            w.u32(feature.end)
        }
        w.bool(shape.rightToLeft)
        w.bool(shape.continuation)
        let text = shape.text
        w.u32(UInt32(truncatingIfNeeded: text.count))
        for unit in text { withUnsafeBytes(of: unit.littleEndian) { w.bytes += $0 } }
        return w.bytes
    }

    /// The tag HarfBuzz interned at `language` (ShapeKey keeps the address), "" for none.
    static func languageTag(_ language: UInt) -> String {
        guard let pointer = OpaquePointer(bitPattern: language), let tag = hb_language_to_string(pointer) else { return "" }
        return String(cString: tag)
    }

    static func value(_ run: ShapedRun) -> [UInt8] {
        var w = PersistedResultCoding.Writer()
        w.u32(UInt32(truncatingIfNeeded: run.clusters.count))
        for cluster in run.clusters {
            // The start (below 2^31: a run is at most a paragraph of 1 MiB) and, in the top
            // bit, whether a line may end before the cluster unshaped (``ShapedRun/Cluster/safeBefore``).
            w.u32(UInt32(bitPattern: cluster.start) | (cluster.safeBefore ? 1 << 31 : 0))
            w.f64(cluster.advance)
        }
        w.u32(UInt32(truncatingIfNeeded: run.missing.count))
        for missing in run.missing {
            w.int(missing.cluster)
            w.f64(missing.notdefAdvance)
            w.int(missing.narrowBoxes)
            w.int(missing.wideBoxes)
        }
        return w.bytes
    }

    /// The run in `bytes`, or nil when they are not a whole, valid encoding: cluster starts
    /// ascending from 0, missing glyphs naming clusters of the run (what ShapedRun's readers
    /// index by).
    static func run(_ bytes: UnsafeRawBufferPointer, units: Int) -> ShapedRun? {
        var r = PersistedResultCoding.Reader(bytes: bytes)
        guard let count = r.count(minimumBytes: 12) else { return nil }
        var clusters: [ShapedRun.Cluster] = []
        clusters.reserveCapacity(count)
        var previous: Int32 = -1
        for _ in 0..<count {
            guard let raw = r.u32(), let advance = r.f64() else { return nil }
            let start = Int32(raw & 0x7FFF_FFFF)
            guard start > previous, Int(start) < units, advance.isFinite else { return nil }
            clusters.append(ShapedRun.Cluster(start: start, advance: advance, safeBefore: raw >> 31 == 1))
            previous = start
        }
        guard clusters.first.map({ $0.start == 0 }) ?? (units == 0), let missingCount = r.count(minimumBytes: 32) else { return nil }
        var missing: [ShapedRun.MissingGlyphs] = []
        for _ in 0..<missingCount {
            guard let cluster = r.int(), let advance = r.f64(), let narrow = r.int(), let wide = r.int(),
                clusters.indices.contains(cluster), advance.isFinite, narrow >= 0, wide >= 0, narrow <= units, wide <= units
            else { return nil }
            missing.append(ShapedRun.MissingGlyphs(cluster: cluster, notdefAdvance: advance, narrowBoxes: narrow, wideBoxes: wide))
        }
        guard r.remaining == 0 else { return nil }
        return ShapedRun(clusters: clusters, missing: missing)
    }
}
