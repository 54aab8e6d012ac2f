import CPangoCairo
import Foundation

/// Raw HarfBuzz shaping of the corpus strings with ONE font (DejaVu Sans at 16 px), no font
/// selection, no fallback, no itemization, no line layout: the least work any engine that
/// shapes these strings must do, so the floor no engine can beat by much.
/// Per string: create a buffer, add the UTF-8, guess direction/script/language, shape, sum
/// the advances, destroy the buffer.
public final class HarfBuzzFloorPeer: MeasuringPeer {
    public let name = PeerName.harfbuzzFloor.rawValue
    /// Owned (created here, destroyed in deinit).
    let font: OpaquePointer  // hb_font_t *
    let texts: [[CChar]]

    /// The file fonts-dejavu-core installs; the pinned fonts.conf lists its folder.
    public static let fontFile = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    /// 16 px in 26.6 fixed point, the scale FreeType-based engines give HarfBuzz.
    static let scale: Int32 = 16 * 64

    public init(corpus: Corpus) throws(BenchError) {
        guard FileManager.default.fileExists(atPath: Self.fontFile) else {
            throw .missingFile(Self.fontFile, what: "DejaVu Sans (fonts-dejavu-core)")
        }
        let blob = hb_blob_create_from_file(Self.fontFile)
        let face = hb_face_create(blob, 0)
        hb_blob_destroy(blob)  // the face holds its own reference
        guard hb_face_get_glyph_count(face) > 0 else {
            hb_face_destroy(face)
            throw .peer(PeerName.harfbuzzFloor.rawValue, reason: "HarfBuzz could not read \(Self.fontFile)")
        }
        font = hb_font_create(face)
        hb_face_destroy(face)  // the font holds its own reference
        hb_font_set_scale(font, Self.scale, Self.scale)
        texts = corpus.entries.map { Array($0.text.utf8CString) }
    }

    deinit { hb_font_destroy(font) }

    public func prepareCorpusPass() {}

    public func measureCorpus() -> Double {
        var sum: Int64 = 0
        for text in texts {
            sum += text.withUnsafeBufferPointer { shapedAdvance($0.baseAddress!, length: Int32($0.count - 1)) }
        }
        return Double(sum) / 64
    }

    @inline(__always)
    func shapedAdvance(_ text: UnsafePointer<CChar>, length: Int32) -> Int64 {
        let buffer = hb_buffer_create()
        hb_buffer_add_utf8(buffer, text, length, 0, length)
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        var advance: Int64 = 0
        if let positions = hb_buffer_get_glyph_positions(buffer, &count) {
            for index in 0..<Int(count) { advance += Int64(positions[index].x_advance) }
        }
        hb_buffer_destroy(buffer)
        return advance
    }

    public func widths() -> [Double]? { nil }
}
