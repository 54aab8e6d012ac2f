import FitTypes
import Glibc

/// Asks a terminal how it draws: the cursor-position probe ucs-detect uses (write a cluster
/// on which the profiles differ between two cursor position reports, CPR, ECMA-48 8.3.14 / DSR
/// 6, and see how far the cursor moved) for each of ``probes``, and DECRQM for mode 2027,
/// grapheme clustering (contour's terminal-unicode-core spec), ended by DA1, which nearly every
/// terminal answers (xterm's ctlseqs, "Send Device Attributes"), so every answer asked before it
/// has come once it has. The probe is erased and the terminal's modes restored.
public enum TerminalQuery {
    /// A cluster and its width in each profile (protocol/README.md's `terminal` row).
    public struct Probe: Hashable, Sendable {
        public var cluster: String
        public var grapheme: Int
        public var wcwidth: Int
    }

    /// A ZWJ sequence (woman 2 + ZWJ 0 + laptop 2), a skin tone (2 + 2), a VS16 emoji (heart 1
    /// + VS16 0): the Python client's PROBE_CLUSTERS.
    public static let probes = [
        Probe(cluster: "\u{1F469}\u{200D}\u{1F4BB}", grapheme: 2, wcwidth: 4),
        Probe(cluster: "\u{1F44D}\u{1F3FD}", grapheme: 2, wcwidth: 4),
        Probe(cluster: "\u{2764}\u{FE0F}", grapheme: 2, wcwidth: 1),
    ]

    /// What the terminal answered; nil where it gave no answer.
    public struct Answers: Hashable, Sendable {
        /// How many columns the cursor moved over each of ``probes``, in order.
        public var cursorCells: [Int]?
        /// DECRPM's Ps for mode 2027.
        public var decrqm: Int?

        public init(cursorCells: [Int]? = nil, decrqm: Int? = nil) {
            self.cursorCells = cursorCells
            self.decrqm = decrqm
        }
    }

    /// Why a terminal could not be asked.
    public struct Failure: Error, Hashable, Sendable {
        public var reason: String
    }

    /// Replies are untrusted input: at most this many bytes are read.
    public static let maxReplyBytes = 512

    /// The profile a DECRQM 2027 answer names (DECRPM, VT510 manual; terminal-unicode-core):
    /// 1 set, 3 permanently set: grapheme; 2 reset, 4 permanently reset, 0 not recognised:
    /// wcwidth — a reset mode is supported but off, so the terminal adds up wcwidths until a
    /// program turns it on, which a library does not do behind its caller's back.
    public static func profile(decrqm mode: Int) -> TerminalProfile? {
        switch mode {
        case 1, 3: return .grapheme
        case 0, 2, 4: return .wcwidth
        default: return nil
        }
    }

    /// The controlling terminal's answers (/dev/tty), when this process is in its foreground.
    public static func askControllingTerminal(timeout: Duration) throws(Failure) -> Answers {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            // ENXIO: no controlling terminal (a service, a pipe, setsid).
            let code = errno
            throw Failure(reason: code == ENXIO ? "no controlling terminal" : "/dev/tty: \(String(cString: strerror(code)))")
        }
        defer { close(fd) }
        // A background job that touches its terminal's modes is stopped by SIGTTOU.
        guard tcgetpgrp(fd) == getpgrp() else { throw Failure(reason: "not in the terminal's foreground process group") }
        return try query(fd: fd, timeout: timeout)
    }

    /// Asks the terminal on `fd`; its modes are saved and restored, the probe erased.
    public static func query(fd: Int32, timeout: Duration) throws(Failure) -> Answers {
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { throw Failure(reason: "cannot read the terminal's modes: \(String(cString: strerror(errno)))") }
        var raw = saved
        // Replies byte by byte, never echoed.
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(fd, TCSANOW, &raw) == 0 else { throw Failure(reason: "cannot set the terminal's modes: \(String(cString: strerror(errno)))") }
        // TCSAFLUSH: a reply that comes after the deadline is dropped, not read as keys.
        defer { _ = tcsetattr(fd, TCSAFLUSH, &saved) }
        // DECSC, CPR, each cluster and a CPR after it, DECRQM 2027, DA1.
        var probe = Array("\u{1B}7\u{1B}[6n".utf8)
        for entry in probes { probe += Array(entry.cluster.utf8) + Array("\u{1B}[6n".utf8) }
        probe += Array("\u{1B}[?2027$p\u{1B}[c".utf8)
        try write(fd, probe)
        let replies = read(fd, until: ContinuousClock.now.advanced(by: timeout))
        let answers = parse(replies)
        // DECRC, then blanks over the cells the probe drew (a wrapped or unanswered probe: to
        // the end of the line), then DECRC again: the screen is as it was, the cursor back.
        let drawn = answers.cursorCells?.reduce(0, +)
        let erase = drawn.map { (0...16).contains($0) } == true ? String(repeating: " ", count: drawn ?? 0) : "\u{1B}[K"
        try write(fd, Array("\u{1B}8\(erase)\u{1B}8".utf8))
        return answers
    }

    /// The answers in a terminal's replies: the cursor columns of the CPRs (one before the
    /// probe and one after each cluster, all on one row, else nil) and DECRPM 2027's Ps.
    public static func parse(_ replies: [UInt8]) -> Answers {
        var positions: [(row: Int, column: Int)] = []
        var answers = Answers()
        for reply in ControlSequence.all(in: replies) {
            switch (reply.private, reply.intermediate, reply.final, reply.parameters.count) {
            case (false, nil, UInt8(ascii: "R"), 2): positions.append((reply.parameters[0], reply.parameters[1]))
            case (true, UInt8(ascii: "$"), UInt8(ascii: "y"), 2) where reply.parameters[0] == 2027: answers.decrqm = reply.parameters[1]
            default: break
            }
        }
        if positions.count == probes.count + 1, Set(positions.map(\.row)).count == 1 {
            answers.cursorCells = zip(positions, positions.dropFirst()).map { $1.column - $0.column }
        }
        return answers
    }

    /// Whether the replies hold DA1's answer (`CSI ? … c`), the last one asked for.
    static func hasDeviceAttributes(_ replies: [UInt8]) -> Bool {
        ControlSequence.all(in: replies).contains { $0.private && $0.intermediate == nil && $0.final == UInt8(ascii: "c") }
    }

    static func write(_ fd: Int32, _ bytes: [UInt8]) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw Failure(reason: "writing to the terminal: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// Reads replies until DA1's answer, the deadline or ``maxReplyBytes``.
    static func read(_ fd: Int32, until deadline: ContinuousClock.Instant) -> [UInt8] {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: maxReplyBytes)
        while data.count < maxReplyBytes, !hasDeviceAttributes(data) {
            let left = milliseconds(ContinuousClock.now.duration(to: deadline))
            guard left > 0 else { break }
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, Int32(clamping: left))
            if polled < 0 && errno == EINTR { continue }
            guard polled > 0 else { break }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, maxReplyBytes - data.count) }
            guard count > 0 else { break }
            data += buffer[0..<count]
        }
        return data
    }

    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1000 + Int((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
}

/// A control sequence in a terminal's replies: `CSI [?] parameters [intermediate] final`
/// (ECMA-48 5.4), parameters of at most 5 digits each and at most 16 of them.
struct ControlSequence {
    var `private`: Bool
    var parameters: [Int]
    var intermediate: UInt8?
    var final: UInt8

    static func all(in bytes: [UInt8]) -> [ControlSequence] {
        var found: [ControlSequence] = []
        var index = 0
        while index + 1 < bytes.count {
            guard bytes[index] == 0x1B, bytes[index + 1] == UInt8(ascii: "[") else {
                index += 1
                continue
            }
            var cursor = index + 2
            let isPrivate = cursor < bytes.count && bytes[cursor] == UInt8(ascii: "?")
            if isPrivate { cursor += 1 }
            var parameters: [Int] = []
            var current: Int? = nil
            var digits = 0
            var valid = true
            while cursor < bytes.count, valid {
                let byte = bytes[cursor]
                if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                    digits += 1
                    valid = digits <= 5
                    current = (current ?? 0) * 10 + Int(byte - UInt8(ascii: "0"))
                } else if byte == UInt8(ascii: ";") {
                    parameters.append(current ?? 0)
                    (current, digits) = (nil, 0)
                    valid = parameters.count < 16
                } else {
                    break
                }
                cursor += 1
            }
            if let current { parameters.append(current) }
            var intermediate: UInt8? = nil
            if valid, cursor < bytes.count, (0x20...0x2F).contains(bytes[cursor]) {
                intermediate = bytes[cursor]
                cursor += 1
            }
            if valid, cursor < bytes.count, (0x40...0x7E).contains(bytes[cursor]) {
                found.append(ControlSequence(private: isPrivate, parameters: parameters, intermediate: intermediate, final: bytes[cursor]))
                index = cursor + 1
            } else {
                index += 1
            }
        }
        return found
    }
}
