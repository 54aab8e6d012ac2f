#if canImport(Glibc)
import Glibc
#endif
import FitJSON
import FitLayout

/// A layout document as fitctl reads it: from a file, a pipe or process substitution
/// (`<(…)`, /dev/stdin: read as a stream, not mapped), or standard input for "-"; its JSON
/// syntax checked first so that an error names the line and column.
enum DocumentInput {
    /// More than any document fitctl may send (10,000 nodes of long texts).
    static let byteLimit = 64 << 20
    /// JSON nesting a nested document may reach: two levels (an object, its `children`) per
    /// level of the tree, LayoutLimits.maxDepth levels.
    static let depthLimit = 2 * LayoutLimits.maxDepth + 8

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The bytes of `path` ("-": standard input), at most ``byteLimit``.
    static func read(_ path: String) throws(Failure) -> [UInt8] {
        let fd = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: "cannot read (\(String(cString: strerror(errno))))") }
        defer { if fd != STDIN_FILENO { close(fd) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw Failure(description: "cannot read (\(String(cString: strerror(errno))))") }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= byteLimit else { throw Failure(description: "more than \(byteLimit >> 20) MiB; not a layout document") }
        }
        return bytes
    }

    /// The document's name for messages ("standard input" for "-") and its bytes, read and
    /// checked to be JSON; a CommandFailure naming the file (and line and column) otherwise.
    static func readChecked(_ path: String) throws -> (name: String, bytes: [UInt8]) {
        let name = path == "-" ? "standard input" : path
        let bytes: [UInt8]
        do throws(Failure) {
            bytes = try read(path)
        } catch {
            throw CommandFailure("\(name): \(error)")
        }
        if let syntax = syntaxError(in: bytes) { throw CommandFailure("\(name):\(syntax)") }
        return (name, bytes)
    }

    /// The JSON syntax error in `bytes`, as "LINE:COLUMN: reason", or nil when it is JSON.
    static func syntaxError(in bytes: [UInt8]) -> String? {
        do throws(JSONReader.Failure) {
            _ = try JSONReader.parse(bytes, limits: .init(maxDepth: depthLimit, maxBytes: byteLimit))
            return nil
        } catch {
            let (line, column) = position(of: error.offset, in: bytes)
            return "\(line):\(column): \(error.reason)"
        }
    }

    /// Line and column (1-based; the column in characters) of a byte offset.
    static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<end where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        // Characters, not bytes: a UTF-8 continuation byte (10xxxxxx) starts none.
        let column = 1 + bytes[lineStart..<end].filter { $0 & 0xC0 != 0x80 }.count
        return (line, column)
    }
}
