import CFontconfig
import Synchronization

/// fontconfig's sorted fonts for one ``FontSet``, kept as fontconfig returned them and
/// prepared for the set (FcFontRenderPrepare) one at a time, when the set first needs a face's
/// file, names or variations. Coverage reads each font's FC_CHARSET unprepared: preparing
/// copies it unchanged unless a `<match target="font">` rule of the configuration edits it,
/// and for a configuration that may (``FontResolver``: a file naming "charset" in an
/// attribute) every font is prepared up front and the prepared charsets answer, as Pango's
/// do (pangofc-font.c reads coverage from the prepared pattern).
///
/// Pango prepares the same way, a font at a time as its fontset reaches it
/// (pangofc-fontmap.c, pango_fc_fontset_load_next_font). A trimmed sort lists dozens to
/// hundreds of fonts and a set uses a few; preparing all of them at once was a third of the
/// instructions of `fitctl measure --batch --local` on its first 200 strings (callgrind:
/// 7,230 FcFontRenderPrepare calls for 45 sets, 375 M of 1,159 M).
///
/// Untrimmed: fontconfig's sort with `trim` set (Pango's) drops each font that adds no
/// character to those before it, which merges every font's charset into a running union —
/// 2 M instructions of a set's 5 M on the pinned fonts (FcCharSetMerge, callgrind over
/// fitctl's 20,000 lines). A dropped font is never the first to cover a code point, so
/// per-code-point fallback reads the same from the whole sort; what needs the trimmed list
/// — the first face covering a whole cluster of several code points, the list of fallbacks
/// ResolveFont reports — reads ``listed``, the same trimming done here when first asked.
/// (A configuration that edits charsets is sorted trimmed by fontconfig, as before: each
/// font is prepared up front there, and preparing the untrimmed sort would cost more.)
///
/// Read by any thread: fontconfig only reads the sorted patterns here, each request is its
/// caller's, and the configuration is never reloaded (a change makes a new resolver); this
/// object holds its own references to the patterns and the configuration.
final class SortedFonts: @unchecked Sendable {
    private let config: OpaquePointer
    /// A new request as substituted (FcConfigSubstitute, FcDefaultSubstitute), owned by the
    /// caller: what each font is prepared against. Made again when needed rather than kept:
    /// a substituted request lists every family the configuration appends, and a set
    /// prepares a few faces. Kept with the sorted set, a set cost 19.2 KB (mallinfo2,
    /// FontCacheTests.measuredCost, a set and its font per size); made again, 8.7 KB, for
    /// 1.3 % more instructions on fitctl's first 200 strings (callgrind).
    private let makeRequest: @Sendable () -> OpaquePointer?
    /// The sorted fonts that name a file and have a charset (a pattern without a file cannot
    /// be loaded, and one without a charset fontconfig's trimming skips), unprepared, each
    /// with a reference of its own.
    let fonts: [OpaquePointer]
    /// Each font's FC_CHARSET (nil: none): borrowed from its pattern, or with `preparedCharsets`
    /// the prepared pattern's, owned (FcCharSetCopy).
    let charsets: [OpaquePointer?]
    private let ownsCharsets: Bool
    /// The indices of the fonts a trimmed sort keeps: every one when fontconfig trimmed,
    /// else found when first asked (``listed``).
    private let listedIndices: Mutex<[Int]?>

    /// Keeps the fonts of `sorted` (which stays the caller's) and a reference to `config`;
    /// `request` is the request they were sorted for, `makeRequest` makes it again.
    /// `preparedCharsets`: coverage from each font as prepared (every font is prepared now),
    /// for a configuration whose rules may edit charsets.
    init(
        sorted: UnsafeMutablePointer<FcFontSet>, trimmed: Bool, request: OpaquePointer,
        makeRequest: @escaping @Sendable () -> OpaquePointer?, config: OpaquePointer, preparedCharsets: Bool = false
    ) {
        self.makeRequest = makeRequest
        self.config = config
        FcConfigReference(config)
        var fonts: [OpaquePointer] = []
        var charsets: [OpaquePointer?] = []
        let count = Int(sorted.pointee.nfont)
        fonts.reserveCapacity(count)
        charsets.reserveCapacity(count)
        for i in 0..<count {
            guard let font = sorted.pointee.fonts[i] else { continue }
            var file: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch, file != nil else { continue }
            var charset: OpaquePointer?
            guard FcPatternGetCharSet(font, FC_CHARSET, 0, &charset) == FcResultMatch, charset != nil else { continue }
            if preparedCharsets {
                let prepared = FcFontRenderPrepare(config, request, font)
                if FcPatternGetCharSet(prepared ?? font, FC_CHARSET, 0, &charset) != FcResultMatch { charset = nil }
                charset = charset.map { FcCharSetCopy($0) } ?? nil
                if let prepared { FcPatternDestroy(prepared) }
            }
            FcPatternReference(font)
            fonts.append(font)
            charsets.append(charset)
        }
        self.fonts = fonts
        self.charsets = charsets
        ownsCharsets = preparedCharsets
        listedIndices = Mutex(trimmed ? Array(0..<fonts.count) : nil)
    }

    deinit {
        if ownsCharsets { for case let charset? in charsets { FcCharSetDestroy(charset) } }
        for font in fonts { FcPatternDestroy(font) }
        FcConfigDestroy(config)
    }

    var count: Int { fonts.count }

    /// What this holds beyond the fonts' own patterns (shared with the configuration): two
    /// arrays' slots a font, and the list of listed indices (counted whether or not it is
    /// made yet).
    var byteCount: Int { 64 + 24 * count }

    /// The indices of the fonts fontconfig's trimmed sort lists (FcFontSetSort with `trim`,
    /// as fontconfig 2.14 trims, fcmatch.c FcSortWalk: the first font, then each font whose
    /// charset adds a character to the union of those before it — the union over every
    /// font before it, kept or not, as FcCharSetMerge builds it), in order. Every index when
    /// fontconfig trimmed, or when it is out of memory. (fontconfig also merges the fonts
    /// this leaves out, those without a file; the configuration's scanned fonts all name one.)
    var listed: [Int] {
        if let known = listedIndices.withLock({ $0 }) { return known }
        var kept: [Int] = []
        if let union = FcCharSetCreate() {
            defer { FcCharSetDestroy(union) }
            for (index, charset) in charsets.enumerated() {
                var added: FcBool = FcFalse
                guard FcCharSetMerge(union, charset, &added) != FcFalse else {
                    kept = Array(0..<count)
                    break
                }
                if index == 0 || added != FcFalse { kept.append(index) }
            }
        } else {
            kept = Array(0..<count)
        }
        return listedIndices.withLock { known in
            if let known { return known }
            known = kept
            return kept
        }
    }

    /// Runs `body` with the request made anew (nil when out of memory), freed after it.
    func withRequest<R, E: Error>(_ body: (OpaquePointer?) throws(E) -> R) throws(E) -> R {
        let request = makeRequest()
        defer { if let request { FcPatternDestroy(request) } }
        return try body(request)
    }

    /// Runs `body` with font `index` prepared for `request` (``withRequest(_:)``; the
    /// prepared pattern is freed after it). Should fontconfig fail to prepare it (no request:
    /// out of memory; a type mismatch the sort would have met first), `body` gets the
    /// unprepared pattern: the same file, index and charset, its own names. (Pango's fontset
    /// ends at such a font; before sets prepared lazily, fitd's skipped it.)
    func withPrepared<R, E: Error>(_ index: Int, for request: OpaquePointer?, _ body: (OpaquePointer) throws(E) -> R) throws(E) -> R {
        let prepared = request.flatMap { FcFontRenderPrepare(config, $0, fonts[index]) }
        defer { if let prepared { FcPatternDestroy(prepared) } }
        return try body(prepared ?? fonts[index])
    }

    /// Whether font `index` has a glyph for `scalar`.
    func covers(_ index: Int, _ scalar: UInt32) -> Bool {
        guard let charset = charsets[index] else { return false }
        return FcCharSetHasChar(charset, scalar) != 0
    }

    /// For each of the 256 code points from `base` (a multiple of 256): the index of the first
    /// font that covers it, or nil where none does. Each font is first asked whether it has
    /// any of the block (FcCharSetIntersectCount against a charset of the block: a search
    /// among its pages), and only a font that has some gives its page, read whole
    /// (FcCharSetIntersect, FcCharSetFirstPage): the same answers as asking FcCharSetHasChar
    /// of each font in turn for each code point, which walked every font for each code point
    /// no font has (0.7 M instructions a block; a fifth of them are unassigned in CJK's).
    /// Nil when fontconfig is out of memory.
    func firstCovering(block base: UInt32) -> [Int?]? {
        guard let block = FcCharSetCreate() else { return nil }
        defer { FcCharSetDestroy(block) }
        for scalar in base..<base + 256 where FcCharSetAddChar(block, scalar) == 0 { return nil }
        var found = FirstFonts(from: base, count: 256)
        var map = [FcChar32](repeating: 0, count: 8)  // FC_CHARSET_MAP_SIZE: 256 bits
        for (index, charset) in charsets.enumerated() where found.missing > 0 {
            guard let charset, FcCharSetIntersectCount(charset, block) > 0 else { continue }
            guard let common = FcCharSetIntersect(charset, block) else { return nil }
            defer { FcCharSetDestroy(common) }
            var next: FcChar32 = 0
            let page = map.withUnsafeMutableBufferPointer { FcCharSetFirstPage(common, $0.baseAddress, &next) }
            if page == base { found.take(page: page, map: map, font: index) }
        }
        return found.first
    }

    /// For each code point below `limit` (a multiple of 256): the index of the first font that
    /// covers it, or nil where none does. Read a page of 256 code points at a time from each
    /// charset (FcCharSetFirstPage/NextPage), in font order, until every code point has its
    /// font: the same answers as asking FcCharSetHasChar of each font in turn for each code
    /// point, which cost 2.5 M instructions a set (code points no font has — controls,
    /// unassigned — asked every font).
    func firstCovering(below limit: UInt32) -> [Int?] {
        var found = FirstFonts(from: 0, count: Int(limit))
        var map = [FcChar32](repeating: 0, count: 8)  // FC_CHARSET_MAP_SIZE: 256 bits
        for (index, charset) in charsets.enumerated() where found.missing > 0 {
            guard let charset else { continue }
            var next: FcChar32 = 0
            var page = map.withUnsafeMutableBufferPointer { FcCharSetFirstPage(charset, $0.baseAddress, &next) }
            // FC_CHARSET_DONE, (FcChar32) -1, ends the pages.
            while page != FcChar32.max && page < limit {
                found.take(page: page, map: map, font: index)
                page = map.withUnsafeMutableBufferPointer { FcCharSetNextPage(charset, $0.baseAddress, &next) }
            }
        }
        return found.first
    }

    /// The first font found for each code point of a range of whole pages, fonts offered in
    /// sort order. A bit per code point still without its font: a font's page touches only
    /// the code points it is first to cover (the untrimmed sort's hundreds of fonts each cover
    /// most of Latin; visiting every bit they have was 1 M instructions a set).
    private struct FirstFonts {
        let base: UInt32
        var first: [Int?]
        var unassigned: [UInt32]
        var missing: Int

        init(from base: UInt32, count: Int) {
            self.base = base
            first = [Int?](repeating: nil, count: count)
            unassigned = [UInt32](repeating: .max, count: count / 32)
            missing = count
        }

        /// Font `font`'s coverage of the page from `page` (inside the range): 256 bits in 8 words.
        mutating func take(page: FcChar32, map: [FcChar32], font: Int) {
            let offset = Int(page - base)
            for word in 0..<8 {
                let slot = offset / 32 + word
                var bits = map[word] & unassigned[slot]
                guard bits != 0 else { continue }
                unassigned[slot] &= ~bits
                while bits != 0 {
                    first[offset + word * 32 + bits.trailingZeroBitCount] = font
                    bits &= bits - 1
                    missing -= 1
                }
            }
        }
    }
}
