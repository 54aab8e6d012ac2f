#if canImport(Glibc)
import Glibc
#endif
import FitJSON

/// Why `measure --batch` stopped before its input's end (fitctl then exits 1).
struct BatchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// `measure --batch`'s standard output: results go into one JSON writer and out in one
/// write(2) per chunk, not a print() per line.
struct BatchOutput {
    let fd: Int32
    var writer = JSONWriter(reservingCapacity: 256 * 1024)

    init(fd: Int32) { self.fd = fd }

    mutating func flush() throws(BatchFailure) {
        let failure: Int32? = writer.bytes.withUnsafeBufferPointer { bytes in
            var offset = 0
            while offset < bytes.count {
                let wrote = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if wrote < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += wrote
            }
            return nil
        }
        writer.removeAll()
        if let failure { throw BatchFailure("cannot write standard output: \(String(cString: strerror(failure)))") }
    }
}
