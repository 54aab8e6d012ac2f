import FitBus
import FitTypes

#if canImport(Glibc)
import Glibc
#endif

/// How many bytes a Measure or MeasureBatch reply takes on the wire, worked out before it is
/// built: D-Bus caps one array at 64 MiB (specification, "Valid Signatures": "The maximum
/// length of an array is 2^26 bytes") and a batch's results are one array, so a batch whose
/// results would pass that is refused with TooLarge — first from a lower bound of the
/// request (before measuring), then from a running total of the results (while measuring) —
/// rather than measured in full, held in memory (a 30 MB batch of newlines peaked at +2.1 GB)
/// and refused by the writer with LimitsExceeded.
extension MeasureCodec {
    /// The specification's limit on an array, which a batch's results are.
    public static let replyByteLimit = 1 << 26

    /// The fewest bytes an entry's result can take: its fixed fields, and with `lines`, a line
    /// per paragraph (each line feed starts one; `max_lines` caps them) of at least 52 bytes
    /// (`(dddduusb)` with an empty text: 4 × 8 + 4 + 4 + 4 + 1, padded to 4, + 4).
    public static func minimumResultBytes(text: String, options: OptionDictionary?) -> Int {
        let fixed = 96
        guard let options, (try? options.bool("lines")) == true else { return fixed }
        let lines = 1 + lineFeeds(in: text)
        guard let maxLines = try? options.integer("max_lines"), maxLines >= 1 else { return fixed + lines * 52 }
        return fixed + min(lines, maxLines) * 52
    }

    /// memchr over the UTF-8 (a batch may hold 30 MB of text: this runs before anything else).
    static func lineFeeds(in text: String) -> Int {
        var text = text
        return text.withUTF8 { utf8 -> Int in
            guard var cursor = UnsafeRawPointer(utf8.baseAddress) else { return 0 }
            let end = cursor + utf8.count
            var count = 0
            while cursor < end, let found = memchr(cursor, 0x0A, end - cursor) {
                count += 1
                cursor = UnsafeRawPointer(found) + 1
            }
            return count
        }
    }

    /// An upper estimate of one batch entry's result on the wire (each field's padding
    /// counted at its most).
    public static func resultBytes(_ result: BatchResult) -> Int {
        switch result {
        case .success(let measured): return 24 + metricsBytes(measured.metrics)
        case .failure(let error):
            return 24 + error.name.rawValue.utf8.count + error.message.utf8.count + metricsBytes(emptyTextMetrics)
        }
    }

    /// `(dddubbasa(dddduusb)t)`: 24 + 4 + 4 + 4, two array lengths with padding, the
    /// generation; per family a string; per line 4 × 8 + 4 + 4 + a string + 4, aligned to 8.
    public static func metricsBytes(_ metrics: TextMetrics) -> Int {
        var bytes = 8 + 24 + 12 + 16 + 8
        for family in metrics.fontsUsed { bytes += 8 + family.utf8.count }
        for line in metrics.lines { bytes += 60 + line.text.utf8.count }
        return bytes
    }

    /// What a reply's results may take, and whose limit that is: D-Bus's array limit, or
    /// the bus's message limit when it is smaller (`busBodyBytes`:
    /// BusConnection.maxReplyBodyBytes; a longer reply would make the bus drop the daemon).
    public struct ReplyLimit: Sendable, Equatable {
        public var bytes: Int
        public var what: String

        /// - Parameters:
        ///   - bus: the bus's message limit, as the log and the error name it.
        ///   - busBodyBytes: what a reply's body may take under it (the header's room taken off).
        public init(bus: BusMessageLimit, busBodyBytes: Int) {
            if busBodyBytes < MeasureCodec.replyByteLimit {
                bytes = busBodyBytes
                what = "the bus's limit of \(Self.mebibytes(bus.bytes)) MiB for one message"
            } else {
                bytes = MeasureCodec.replyByteLimit
                what = "D-Bus's limit of \(MeasureCodec.replyByteLimit >> 20) MiB for one array"
            }
        }

        /// D-Bus's array limit alone (no bus: in-process callers).
        public static let array = ReplyLimit(bus: BusMessageLimit(bytes: .max, source: "none"), busBodyBytes: .max)

        /// MiB to a tenth, rounded up ("32", "60.1").
        static func mebibytes(_ bytes: Int) -> String {
            let tenths = (Double(bytes) / Double(1 << 20) * 10).rounded(.up)
            return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10))" : "\(tenths / 10)"
        }
    }

    /// The error for a reply of about `bytes`: what it would be, the limit, what to ask instead.
    public static func replyTooLarge(_ bytes: Int, entries: Int, limit: ReplyLimit = .array) -> DBusError {
        .tooLarge(
            "the reply would be at least \(ReplyLimit.mebibytes(bytes)) MiB, over \(limit.what)"
                + " (the results of \(entries) \(entries == 1 ? "text" : "texts")); ask for fewer texts, or without lines")
    }
}
