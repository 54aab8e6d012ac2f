#if canImport(Glibc)
import Glibc
#endif

/// Writes a picture's bytes to the path a user gave, the way command-line tools do (cairo's
/// `cairo_surface_write_to_png`, `pango-view -o`): opened for writing, created or truncated,
/// through a symbolic link rather than replacing it, and a path ending in "/" refused by the
/// kernel (EISDIR) rather than read as the file before it. Every picture (SVG, the text PNG,
/// the layout PNG) goes through here, so one failure reads one way: "cannot write PATH: the
/// system's reason". Like theirs, a write that fails part way (a full disk) leaves the file
/// truncated; writing beside it and renaming would replace a link with a file.
public enum PictureFile {
    public static func write(_ bytes: [UInt8], to path: String) throws(RenderError) {
        var fd: Int32
        repeat { fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw .write(path: path, reason: String(cString: strerror(errno))) }
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if written == 0 {  // no progress and no error: give up rather than spin
                    failure = EIO
                    return
                }
                offset += written
            }
        }
        // close(2) reports a deferred write error (NFS, a full disk): it counts as one.
        if close(fd) != 0, failure == 0 { failure = errno }
        if failure != 0 { throw .write(path: path, reason: String(cString: strerror(failure))) }
    }
}
