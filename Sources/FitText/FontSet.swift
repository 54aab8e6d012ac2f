import Synchronization

/// The fonts fontconfig sorted for one description and size: the first one that covers a
/// grapheme cluster shapes it (per-cluster fallback, as Pango's fontsets do).
/// Fonts are loaded on first use: a sorted set lists dozens of files, a string needs few.
final class FontSet: Sendable {
    let description: FontDescription
    let pixelSize: Double
    let faces: [FontFaceInfo]
    /// Whether the first face is one of the requested families (false: fontconfig fell back).
    let matchedRequestedFamily: Bool
    private let loaded: Mutex<[Int: Font]> = Mutex([:])
    /// For each code point below `coverageLimit`: the index of the first face that covers
    /// it (what ``faceIndex(covering:)`` answers for a one-code-point cluster), or 255 when
    /// that index does not fit. Built once, with the set (a fontconfig sort costs far more);
    /// it replaces a charset lookup per cluster for the alphabetic scripts.
    private let coverage: [UInt8]
    private static let coverageLimit: UInt32 = 0x800
    private let loader: @Sendable (FontFaceInfo) throws(FitTextError) -> Font
    /// The same answers for the rest of the BMP (CJK, Hangul, Indic, symbols), per block of
    /// 256 code points, filled in when a code point of the block is first asked about:
    /// a charset lookup per face costs about 600 instructions a cluster, one lock about 50.
    private let blocks = Mutex<[[UInt8]]>([])

    init(
        description: FontDescription, pixelSize: Double, faces: [FontFaceInfo], matchedRequestedFamily: Bool,
        loader: @escaping @Sendable (FontFaceInfo) throws(FitTextError) -> Font
    ) {
        self.description = description
        self.pixelSize = pixelSize
        self.faces = faces
        self.matchedRequestedFamily = matchedRequestedFamily
        self.loader = loader
        coverage = (0..<FontSet.coverageLimit).map { scalar in
            let index = FontSet.firstFace(covering: scalar, in: faces)
            return index < 255 ? UInt8(index) : 255
        }
    }

    func font(at index: Int) throws(FitTextError) -> Font {
        if let font = loaded.withLock({ $0[index] }) { return font }
        let font = try loader(faces[index])
        loaded.withLock { $0[index] = font }
        return font
    }

    /// Index of the first face that covers every code point of a cluster that needs a glyph,
    /// else the first that covers its first code point, else 0 (the primary font draws a
    /// missing-glyph box, as Pango does).
    func faceIndex(covering scalars: some Collection<UInt32>) -> Int {
        guard let first = scalars.first else { return 0 }
        for (i, face) in faces.enumerated() where FontSet.covers(face, scalars) {
            return i
        }
        for (i, face) in faces.enumerated() where face.covers(first) {
            return i
        }
        return 0
    }

    /// ``faceIndex(covering:)`` for a cluster of one code point, the common case.
    func faceIndex(covering scalar: UInt32) -> Int {
        if scalar < FontSet.coverageLimit, coverage[Int(scalar)] != 255 { return Int(coverage[Int(scalar)]) }
        if scalar >= FontSet.coverageLimit && scalar <= 0xFFFF {
            let cached = blocks.withLock { blocks -> UInt8 in
                if blocks.isEmpty { blocks = Array(repeating: [], count: 256) }
                let block = Int(scalar >> 8)
                if blocks[block].isEmpty {
                    blocks[block] = (0..<256).map { low in
                        let index = FontSet.firstFace(covering: UInt32(block << 8 | low), in: faces)
                        return index < 255 ? UInt8(index) : 255
                    }
                }
                return blocks[block][Int(scalar & 0xFF)]
            }
            if cached != 255 { return Int(cached) }
        }
        return FontSet.firstFace(covering: scalar, in: faces)
    }

    private static func firstFace(covering scalar: UInt32, in faces: [FontFaceInfo]) -> Int {
        if isDefaultIgnorable(scalar) { return 0 }
        for (i, face) in faces.enumerated() where face.covers(scalar) { return i }
        return 0
    }

    private static func covers(_ face: FontFaceInfo, _ scalars: some Collection<UInt32>) -> Bool {
        for scalar in scalars where !isDefaultIgnorable(scalar) && !face.covers(scalar) { return false }
        return true
    }

    /// Code points that take no glyph of their own and so need no coverage: joiners,
    /// variation selectors, tags, bidi controls (Default_Ignorable_Code_Point, simplified to
    /// the ones that occur in UI text).
    static func isDefaultIgnorable(_ c: UInt32) -> Bool {
        switch c {
        case 0x00AD, 0x034F, 0x061C, 0x180B...0x180F, 0x200B...0x200F, 0x202A...0x202E,
            0x2060...0x206F, 0xFE00...0xFE0F, 0xFEFF, 0xE0000...0xE0FFF:
            return true
        default:
            return false
        }
    }
}
