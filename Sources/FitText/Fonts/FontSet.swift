import Synchronization

/// The fonts fontconfig sorted for one description and size: the first one that covers a
/// grapheme cluster shapes it (per-cluster fallback, as Pango's fontsets do).
/// Faces are prepared on first use (``SortedFonts``) and fonts loaded on first use: a sorted
/// set lists dozens to hundreds of files, a string needs few.
final class FontSet: Sendable {
    let description: FontDescription
    let pixelSize: Double
    /// fontconfig's sorted fonts, unprepared; their charsets answer coverage.
    private let sorted: SortedFonts
    /// Each face as fontconfig prepares it for this set, made on first use, by index (a set
    /// uses a few of the hundreds it sorts).
    private let prepared: Mutex<[Int: FontFaceInfo]>
    /// The face a prepared pattern describes (the resolver's, which shares one FontFaceInfo
    /// per face between sets).
    private let describe: @Sendable (OpaquePointer) throws(FitTextError) -> FontFaceInfo
    /// Whether the first face is one of the requested families (false: fontconfig fell back).
    let matchedRequestedFamily: Bool
    private let loaded: Mutex<[Int: Font]> = Mutex([:])
    /// For each code point below `coverageLimit`: the index of the first face that covers
    /// it (what ``faceIndex(covering:)`` answers for a one-code-point cluster), or
    /// `notTabled` when that index does not fit. Two bytes an entry: indices are places in
    /// the untrimmed sort, past 255 on a system of a few hundred fonts (one byte each sent
    /// those code points to a walk over every face per cluster). Built once, with the set (a fontconfig sort costs far more);
    /// it replaces a charset lookup per cluster for the alphabetic scripts.
    private let coverage: [UInt16]
    private static let coverageLimit: UInt32 = 0x800
    /// Loads a face at the set's size: every font of the set shapes at the requested size
    /// (Pango gives fallback fonts the same scale); fontconfig's prepared size is a bitmap
    /// strike's for colour emoji fonts, which is not the size to lay out at.
    private let loader: @Sendable (FontFaceInfo, Double) throws(FitTextError) -> Font
    /// Told when the set's ``byteCount`` rose (a font loaded, a coverage block filled), so the
    /// cache holding it can account for it.
    private let grew: @Sendable (FontSet) -> Void
    private let grownBytes = Atomic<Int>(0)
    /// The same answers for the rest of the BMP (CJK, Hangul, Indic, symbols), per block of
    /// 256 code points, filled in when a code point of the block is first asked about:
    /// a charset lookup per face costs about 600 instructions a cluster, one lock about 50.
    private let blocks = Mutex<[[UInt16]]>([])
    private static let notTabled = UInt16.max

    /// - Parameters:
    ///   - request: what the fonts were sorted for, to prepare the first face with.
    ///   - describe: the face a prepared pattern describes.
    init(
        description: FontDescription, pixelSize: Double, sorted: SortedFonts, request: OpaquePointer?,
        describe: @escaping @Sendable (OpaquePointer) throws(FitTextError) -> FontFaceInfo,
        loader: @escaping @Sendable (FontFaceInfo, Double) throws(FitTextError) -> Font,
        grew: @escaping @Sendable (FontSet) -> Void = { _ in }
    ) throws(FitTextError) {
        guard sorted.count > 0 else { throw .noFontsAvailable("no usable font file for \"\(description)\"") }
        self.description = description
        self.pixelSize = pixelSize
        self.sorted = sorted
        self.describe = describe
        self.loader = loader
        self.grew = grew
        let first = try sorted.withPrepared(0, for: request, describe)
        prepared = Mutex([0: first])
        let requested = Set(description.families.map { $0.lowercased() })
        matchedRequestedFamily = requested.isEmpty || requested.contains(first.family.lowercased())
            || !requested.isDisjoint(with: FontResolver.genericFamilies)
        var table = [UInt16](repeating: 0, count: Int(FontSet.coverageLimit))
        for (scalar, index) in sorted.firstCovering(below: FontSet.coverageLimit).enumerated() {
            // As firstFace(covering:in:): ignorables and code points no face has go to face 0.
            if FontSet.isDefaultIgnorable(UInt32(scalar)) && scalar != 0x061C { continue }
            if let index { table[scalar] = FontSet.tabled(index) }
        }
        coverage = table
    }

    /// How many faces the set sorts: every index below is a face's place in fontconfig's
    /// sort, untrimmed (``SortedFonts``); the faces a trimmed sort lists are ``listed``.
    var count: Int { sorted.count }

    /// The indices of the faces Pango's fontset lists (fontconfig's trimmed sort), in order.
    var listed: [Int] { sorted.listed }

    /// Face `index`, prepared on first use.
    func face(at index: Int) throws(FitTextError) -> FontFaceInfo {
        if let face = prepared.withLock({ $0[index] }) { return face }
        let face = try sorted.withRequest { (request) throws(FitTextError) in try sorted.withPrepared(index, for: request, describe) }
        return keep(face, at: index)
    }

    /// Stores a face prepared at `index` unless another thread stored it first (two threads
    /// may prepare one face at once): the first stored is everyone's. Its bytes reach the
    /// set's cache with the next ``grew`` call (``font(at:)`` makes one as it loads the face;
    /// ``preparedFaces()`` one for all it prepared).
    private func keep(_ face: FontFaceInfo, at index: Int) -> FontFaceInfo {
        let (kept, added) = prepared.withLock { faces in
            if let stored = faces[index] { return (stored, false) }
            faces[index] = face
            return (face, true)
        }
        if added { grownBytes.add(FontSet.faceBytes, ordering: .relaxed) }
        return kept
    }

    /// Every listed face, each prepared (a set's whole fallback list, as ResolveFont reports
    /// it), against one request.
    func preparedFaces() throws(FitTextError) -> [FontFaceInfo] {
        let known = prepared.withLock { $0 }
        let listed = sorted.listed
        let faces = try sorted.withRequest { (request) throws(FitTextError) -> [FontFaceInfo] in
            var faces: [FontFaceInfo] = []
            faces.reserveCapacity(listed.count)
            for index in listed {
                if let face = known[index] {
                    faces.append(face)
                } else {
                    faces.append(keep(try sorted.withPrepared(index, for: request, describe), at: index))
                }
            }
            return faces
        }
        if faces.count > known.count { grew(self) }
        return faces
    }

    /// How many faces are prepared so far (for tests).
    var preparedCount: Int { prepared.withLock { $0.count } }

    /// Whether face `index` has a glyph for `scalar`.
    func faceCovers(_ index: Int, _ scalar: UInt32) -> Bool { sorted.covers(index, scalar) }

    func font(at index: Int) throws(FitTextError) -> Font {
        if let font = loaded.withLock({ $0[index] }) { return font }
        let font = try loader(try face(at: index), pixelSize)
        let added = loaded.withLock { loaded -> Bool in
            guard loaded[index] == nil else { return false }
            loaded[index] = font
            return true
        }
        if added {
            grownBytes.add(Font.byteCount, ordering: .relaxed)
            grew(self)
        }
        return font
    }

    /// Index of the first face that covers every code point of a cluster that needs a glyph,
    /// else the first that covers its first code point, else 0 (the primary font draws a
    /// missing-glyph box, as Pango does).
    func faceIndex(covering scalars: some Collection<UInt32>) -> Int {
        guard let first = scalars.first else { return 0 }
        // When every code point that needs a glyph has the same first face, that face covers
        // them all and no earlier face covers any: the answer, from the tables, without a
        // charset lookup per face (nor a reference to each face, whose count two threads
        // would fight over: perf put this loop at 2 % in retain/release on two cores).
        // (A cluster led by an invisible, as at a text's start, takes the long way: when no face
        // covers it all, the first face with its first code point decides, below.)
        var common = FontSet.isDefaultIgnorable(first) ? -2 : -1
        for scalar in scalars where common != -2 && !FontSet.isDefaultIgnorable(scalar) {
            let index = faceIndex(covering: scalar)
            if common >= 0 && common != index {
                common = -2
                break
            }
            common = index
        }
        if common >= 0 { return common }
        // The first face covering the whole cluster, among the listed ones only: a face the
        // trimmed sort drops adds no character, yet may hold a whole cluster the faces before
        // it share between them.
        if let index = sorted.listed.first(where: { covers($0, scalars) }) { return index }
        for i in 0..<count where sorted.covers(i, first) {
            return i
        }
        return 0
    }

    /// ``faceIndex(covering:)`` for a cluster of one code point, the common case.
    func faceIndex(covering scalar: UInt32) -> Int {
        if scalar < FontSet.coverageLimit, coverage[Int(scalar)] != FontSet.notTabled { return Int(coverage[Int(scalar)]) }
        if scalar >= FontSet.coverageLimit && scalar <= 0xFFFF {
            var filled = false
            let cached = blocks.withLock { blocks -> UInt16 in
                if blocks.isEmpty { blocks = Array(repeating: [], count: 256) }
                let block = Int(scalar >> 8)
                if blocks[block].isEmpty, let first = sorted.firstCovering(block: UInt32(block << 8)) {
                    filled = true
                    // As firstFace(covering:): ignorables and code points no face has go to face 0.
                    var table = [UInt16](repeating: 0, count: 256)
                    for low in 0..<256 {
                        guard let index = first[low], !FontSet.isDefaultIgnorable(UInt32(block << 8 | low)) else { continue }
                        table[low] = FontSet.tabled(index)
                    }
                    blocks[block] = table
                }
                return blocks[block].isEmpty ? FontSet.notTabled : blocks[block][Int(scalar & 0xFF)]
            }
            if filled {
                grownBytes.add(FontSet.blockBytes, ordering: .relaxed)
                grew(self)
            }
            if cached != FontSet.notTabled { return Int(cached) }
        }
        return firstFace(covering: scalar)
    }

    /// What the set holds: itself, its sorted fonts (``SortedFonts/byteCount``), the faces
    /// it prepared (an entry each: the faces are the resolver's, shared by every set, see
    /// FontResolver.State.faceInfos), the coverage
    /// table, the blocks filled in and the fonts it loaded — a set owns those (``font(at:)``
    /// keeps them), so an evicted font stays as long as a set that loaded it. Fonts shared
    /// with the resolver's font cache count in both: the sum overstates, never understates.
    /// Checked against mallinfo2 (FontCacheTests.measuredCost, 1,000 sizes, 1,000 families).
    var byteCount: Int {
        // Face 0 is prepared with the set; the others count as they are (grownBytes).
        FontSet.baseBytes + 2 * coverage.count + sorted.byteCount + FontSet.faceBytes + grownBytes.load(ordering: .relaxed)
    }
    static let baseBytes = 1024
    /// Per prepared face: its entry, a reference to the info (the info itself is the
    /// resolver's, counted there), in the dictionary of prepared faces; the sorted fonts
    /// count their own (``SortedFonts/byteCount``).
    static let faceBytes = 48
    /// One block of the BMP's coverage: 256 two-byte entries in an array (plus its header),
    /// and the 256-slot table of blocks the first one creates, shared out per block.
    static let blockBytes = 512 + 32 + 32

    /// A face index as the tables hold it.
    private static func tabled(_ index: Int) -> UInt16 { index < Int(notTabled) ? UInt16(index) : notTabled }

    private func firstFace(covering scalar: UInt32) -> Int {
        // U+061C ARABIC LETTER MARK is a format character Pango does not take as a space
        // (itemize.c consider_as_space spares U+0600–06FF): get_font picks the first font
        // that has it, and that run's font counts in the line's height.
        if FontSet.isDefaultIgnorable(scalar) && scalar != 0x061C { return 0 }
        for i in 0..<count where sorted.covers(i, scalar) { return i }
        return 0
    }

    private func covers(_ index: Int, _ scalars: some Collection<UInt32>) -> Bool {
        for scalar in scalars where !FontSet.isDefaultIgnorable(scalar) && !sorted.covers(index, scalar) { return false }
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
