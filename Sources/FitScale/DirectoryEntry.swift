#if canImport(Glibc)
import Glibc
#endif

/// Reads a `struct dirent` as far as readdir(3) promises and no further.
///
/// readdir returns a record of `d_reclen` bytes, which is often shorter than
/// `MemoryLayout<dirent>.size` (glibc sizes d_name for NAME_MAX + 1 but getdents64 packs
/// records to the name's length, rounded to 8). `entry.pointee` copies the whole struct and
/// so reads past the record — past the end of glibc's buffer for the last entry, which
/// can crash fitd at start (SIGSEGV in 16 of 700 activations). Only fields are read
/// here, through pointers to them; the name through a pointer to `d_name`, its length
/// bounded by the record (readdir(3): d_name is NUL-terminated, d_reclen is the record's size).
enum DirectoryEntry {
    /// The entry's name; nil when it is not NUL-terminated within its record.
    static func name(_ entry: UnsafeMutablePointer<dirent>) -> String? {
        guard let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name),
            let lengthOffset = MemoryLayout<dirent>.offset(of: \dirent.d_reclen)
        else { return nil }
        let raw = UnsafeRawPointer(entry)
        let recordLength = Int(raw.load(fromByteOffset: lengthOffset, as: UInt16.self))
        let capacity = min(recordLength, MemoryLayout<dirent>.size) - nameOffset
        guard capacity > 0 else { return nil }
        let name = (raw + nameOffset).assumingMemoryBound(to: CChar.self)
        let length = strnlen(name, capacity)
        guard length < capacity else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: name, count: length), as: UTF8.self)
    }
}
