#if canImport(Glibc)
import Glibc
#endif

/// Standard input as lines, read with read(2) into one buffer (no String per line, no
/// stdio): a line is handed out as a slice of the buffer, valid until the next call. A line
/// longer than `maxLineBytes` is skipped to its end without being kept, and reported with its
/// length, so a huge line costs no memory.
struct LineReader {
    enum Line {
        case text(ArraySlice<UInt8>)
        /// A line over the limit: its length in bytes.
        case tooLong(Int)
    }

    let fd: Int32
    let maxLineBytes: Int
    private var buffer: [UInt8] = []
    /// The unconsumed bytes are buffer[start...]; buffer[start..<scanned] holds no line feed.
    private var start = 0
    private var scanned = 0
    private var atEOF = false
    static let readSize = 64 * 1024

    init(fd: Int32, maxLineBytes: Int) {
        self.fd = fd
        self.maxLineBytes = maxLineBytes
        buffer.reserveCapacity(Self.readSize * 2)
    }

    /// Whether `next()` can return without waiting: a whole line is buffered, or the input
    /// has ended. When the descriptor is readable now (poll(2) with no timeout), what is there
    /// is read first (read(2) then does not block), and it counts only if it completes a line:
    /// the first half of a line would make `next()` wait for the rest while answers to the
    /// lines before it sit unwritten. A failed poll (-1, say EINTR) or read is "not ready":
    /// the caller then answers what it has before it reads, which is never wrong.
    mutating func hasReadyInput() -> Bool {
        if atEOF || lineFeed() != nil { return true }
        if buffer.count - start > maxLineBytes { return true }  // next() refuses it without waiting
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 0) > 0 else { return false }
        do throws(BatchFailure) {
            try fill()
        } catch {
            return false
        }
        return atEOF || lineFeed() != nil || buffer.count - start > maxLineBytes
    }

    /// The next line without its line feed; nil at the end of input.
    mutating func next() throws(BatchFailure) -> Line? {
        while true {
            if let feed = lineFeed() {
                let line = buffer[start..<feed]
                start = feed + 1
                scanned = start
                return line.count > maxLineBytes ? .tooLong(line.count) : .text(line)
            }
            if buffer.count - start > maxLineBytes { return .tooLong(try skipLongLine()) }
            if atEOF {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                start = buffer.count
                scanned = start
                return line.count > maxLineBytes ? .tooLong(line.count) : .text(line)
            }
            try fill()
        }
    }

    /// The index of the first line feed among the unconsumed bytes, if any.
    private mutating func lineFeed() -> Int? {
        guard scanned < buffer.count else { return nil }
        let found: Int? = buffer.withUnsafeBufferPointer { bytes in
            guard let hit = memchr(bytes.baseAddress! + scanned, 0x0A, bytes.count - scanned) else { return nil }
            return bytes.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
        scanned = found ?? buffer.count
        return found
    }

    /// Reads more input after what is buffered, dropping the consumed bytes first.
    private mutating func fill() throws(BatchFailure) {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: Self.readSize))
        // errno is kept as read(2) left it: removeSubrange below may call malloc/free, which
        // may change it.
        let (got, readError) = buffer.withUnsafeMutableBufferPointer { bytes in
            var count: Int
            repeat { count = read(fd, bytes.baseAddress! + old, Self.readSize) } while count < 0 && errno == EINTR
            return (count, count < 0 ? errno : 0)
        }
        buffer.removeSubrange((old + max(got, 0))...)
        if got < 0 { throw BatchFailure("cannot read standard input: \(String(cString: strerror(readError)))") }
        if got == 0 { atEOF = true }
    }

    /// Drops the line being read through its line feed (or the end of input); its length.
    private mutating func skipLongLine() throws(BatchFailure) -> Int {
        var length = 0
        while true {
            if let feed = lineFeed() {
                length += feed - start
                start = feed + 1
                scanned = start
                return length
            }
            length += buffer.count - start
            start = buffer.count
            scanned = start
            if atEOF { return length }
            try fill()
        }
    }
}
