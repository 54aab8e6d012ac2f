import FitBus
import FitTypes

/// MeasureBatch on the wire, read and written value by value (DBusReader, DBusWriter) rather
/// than through `DBusValue` trees: a batch of 1,000 results built as trees cost more than
/// the cached measurements themselves, on both the daemon's side and the client's.
extension MeasureCodec {
    /// MeasureBatch's argument and result.
    public static let batchSignature = "a(ssa{sv})"
    public static let batchResultSignature = "a(bss\(metricsSignature))"

    /// One request of a batch as read off the wire. Its options are read but not yet
    /// interpreted, so that a bad entry fails alone (protocol/README.md, MeasureBatch).
    public struct BatchEntry: Sendable {
        public var text: String
        public var font: String
        public var options: Result<OptionDictionary, DBusError>
    }

    /// Reads MeasureBatch's argument. More than `limit` entries is TooLarge, thrown at the
    /// first entry over the limit: the rest is never read.
    public static func readBatch(_ reader: inout DBusReader, limit: Int) throws(DBusError) -> [BatchEntry] {
        var entries: [BatchEntry] = []
        try reader.array { (entry) throws(DBusError) in
            guard entries.count < limit else {
                throw .tooLarge("batch of more than \(limit) requests; the limit is \(limit) (max_batch in fitd.conf): split it")
            }
            entries.append(try entry.structure { (fields) throws(DBusError) in
                BatchEntry(text: try fields.string(), font: try fields.string(), options: try OptionDictionary.read(&fields))
            })
        }
        return entries
    }

    /// Writes MeasureBatch's argument, a client's requests.
    public static func writeBatch(_ requests: [(request: MeasureRequest, sendTextScale: Bool)], to writer: inout DBusWriter) throws(DBusError) {
        let rows = optionRowsByName
        let textScale = MeasureOptions.textScale
        // Each entry: two lengths, two NULs, the options' length and padding.
        writer.reserveCapacity(requests.reduce(0) { $0 + $1.request.text.utf8.count + $1.request.font.utf8.count + 24 })
        try writer.array { (entries) throws(DBusError) in
            for index in requests.indices {
                try entries.structure { (fields) throws(DBusError) in
                    try fields.append(requests[index].request.text)
                    try fields.append(requests[index].request.font)
                    // The user's scale is the daemon's to apply unless the caller sends its own.
                    try OptionDictionary.write(
                        requests[index].request, rows: rows, leavingOut: requests[index].sendTextScale ? nil : textScale, to: &fields)
                }
            }
        }
    }

    /// Measure's options in the order they are written.
    static let optionRowsByName = OptionDictionary.sortedByName(MeasureOptions.all)

    /// One measured entry of a batch, or the error that entry alone gets.
    public typealias BatchResult = Result<(metrics: TextMetrics, generation: UInt64), DBusError>

    /// Writes MeasureBatch's result: `(ok, error name, error message, metrics)` per entry.
    public static func writeBatchResults(_ results: [BatchResult], to writer: inout DBusWriter) throws(DBusError) {
        try writer.array { (entries) throws(DBusError) in
            for result in results {
                try entries.structure { (fields) throws(DBusError) in
                    switch result {
                    case .success(let measured):
                        try fields.append(true)
                        try fields.append("")
                        try fields.append("")
                        try write(measured.metrics, generation: measured.generation, to: &fields)
                    case .failure(let error):
                        try fields.append(false)
                        try fields.append(error.name.rawValue)
                        try fields.append(error.message)
                        try write(emptyTextMetrics, generation: 0, to: &fields)
                    }
                }
            }
        }
    }

    /// Reads MeasureBatch's result; `units[i]` is what entry i asked for (metrics carry no unit).
    public static func readBatchResults(_ reader: inout DBusReader, units: [MeasureUnit]) throws(DBusError) -> [BatchResult] {
        var results: [BatchResult] = []
        results.reserveCapacity(units.count)
        try reader.array { (entry) throws(DBusError) in
            let unit = results.count < units.count ? units[results.count] : .px
            results.append(try entry.structure { (fields) throws(DBusError) -> BatchResult in
                let ok = try fields.bool()
                let name = try fields.string()
                let message = try fields.string()
                let measured = try readMetrics(&fields, unit: unit)
                return ok ? .success(measured) : .failure(DBusError(.init(rawValue: name), message))
            })
        }
        return results
    }

    /// Writes one Metrics structure, `(dddubbasa(dddduusb)t)`.
    public static func write(_ metrics: TextMetrics, generation: UInt64, to writer: inout DBusWriter) throws(DBusError) {
        try writer.structure { (fields) throws(DBusError) in
            try fields.append(metrics.width)
            try fields.append(metrics.height)
            try fields.append(metrics.baseline)
            try fields.append(UInt32(clamping: metrics.lineCount))
            try fields.append(metrics.ellipsized)
            try fields.append(metrics.truncated)
            try fields.array { (families) throws(DBusError) in
                for family in metrics.fontsUsed { try families.append(family) }
            }
            try fields.array { (lines) throws(DBusError) in
                for line in metrics.lines {
                    try lines.structure { (l) throws(DBusError) in
                        try l.append(line.width)
                        try l.append(line.ascent)
                        try l.append(line.descent)
                        try l.append(line.baseline)
                        try l.append(UInt32(clamping: line.start))
                        try l.append(UInt32(clamping: line.length))
                        try l.append(line.text)
                        try l.append(line.ellipsized)
                    }
                }
            }
            try fields.append(generation)
        }
    }

    /// Reads one Metrics structure.
    public static func readMetrics(_ reader: inout DBusReader, unit: MeasureUnit) throws(DBusError) -> (metrics: TextMetrics, generation: UInt64) {
        try reader.structure { (f) throws(DBusError) in
            let width = try f.double(), height = try f.double(), baseline = try f.double()
            let count = try f.uint32(), ellipsized = try f.bool(), truncated = try f.bool()
            var families: [String] = []
            try f.array { (item) throws(DBusError) in families.append(try item.string()) }
            var lines: [LineMetrics] = []
            try f.array { (item) throws(DBusError) in
                lines.append(try item.structure { (l) throws(DBusError) in
                    LineMetrics(
                        width: try l.double(), ascent: try l.double(), descent: try l.double(), baseline: try l.double(),
                        start: Int(try l.uint32()), length: Int(try l.uint32()), text: try l.string(), ellipsized: try l.bool())
                })
            }
            let generation = try f.uint64()
            let metrics = TextMetrics(
                width: width, height: height, baseline: baseline, lineCount: Int(count), ellipsized: ellipsized,
                truncated: truncated, unit: unit, lines: lines, fontsUsed: families,
                // The wire's Metrics has no last baseline: the last line's, when lines came.
                lastBaseline: lines.last?.baseline)
            return (metrics, generation)
        }
    }
}
