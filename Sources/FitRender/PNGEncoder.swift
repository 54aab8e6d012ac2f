import CCairo
import CZlib

/// Writes an opaque cairo image as PNG (RGB, 8 bits, no interlace; PNG spec, ISO 15948)
/// with zlib's fastest level and no row filter, through ``PictureFile`` (pictures of text
/// and of layouts alike). Why not `cairo_surface_write_to_png`: it
/// encodes through libpng at zlib's default level with adaptive filters, which took 70 % of a
/// layout picture's time (12 sheets of 50 nodes, 2 megapixels: perf, libz 21 %, libpng 17 %,
/// cairo's drawing 17 %), past the 200 ms target (docs/pictures.md); a picture of flat
/// colours and text compresses well without filters. cairo still draws every pixel.
enum PNGEncoder {
    /// `surface` must be an ARGB32 or RGB24 image surface, flushed; alpha is ignored (the
    /// pictures paint their background first, so they are opaque).
    static func write(_ surface: OpaquePointer, to path: String) throws(RenderError) {
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard width > 0, height > 0, let pixels = cairo_image_surface_get_data(surface) else {
            throw .cairo("no image data")
        }
        // Scanlines: a filter byte (0, none), then R, G, B per pixel. cairo stores a pixel as
        // a native-endian 32-bit 0xAARRGGBB: in memory B, G, R, A on a little-endian machine.
        let row = 1 + 3 * width
        var raw = [UInt8](repeating: 0, count: row * height)
        raw.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let line = UnsafeRawPointer(pixels + y * stride).assumingMemoryBound(to: UInt32.self)
                var o = y * row + 1
                for x in 0..<width {
                    let p = line[x]
                    out[o] = UInt8(truncatingIfNeeded: p >> 16)
                    out[o + 1] = UInt8(truncatingIfNeeded: p >> 8)
                    out[o + 2] = UInt8(truncatingIfNeeded: p)
                    o += 3
                }
            }
        }
        var deflated = [UInt8](repeating: 0, count: Int(compressBound(uLong(raw.count))))
        var length = uLongf(deflated.count)
        let status = deflated.withUnsafeMutableBufferPointer { out in
            raw.withUnsafeBufferPointer { compress2(out.baseAddress, &length, $0.baseAddress, uLong($0.count), Z_BEST_SPEED) }
        }
        guard status == Z_OK else { throw .cairo("zlib: deflate failed (\(status))") }
        deflated.removeSubrange(Int(length)...)

        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func chunk(_ type: String, _ data: [UInt8]) {
            let tag = Array(type.utf8)
            png += bigEndian(UInt32(data.count))
            png += tag
            png += data
            var crc = crc32(0, tag, uInt(tag.count))
            crc = data.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
            png += bigEndian(UInt32(truncatingIfNeeded: crc))
        }
        // IHDR: width, height, bit depth 8, colour type 2 (RGB), deflate, filter 0, no interlace.
        chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0])
        chunk("IDAT", deflated)
        chunk("IEND", [])
        try PictureFile.write(png, to: path)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
