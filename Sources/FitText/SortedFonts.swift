import CFontconfig

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
/// Read by any thread: fontconfig only reads the request and the sorted patterns here, and
/// the configuration is never reloaded (a change makes a new resolver); this object holds its
/// own references to all three.
final class SortedFonts: @unchecked Sendable {
    private let sorted: UnsafeMutablePointer<FcFontSet>
    /// The request as substituted (FcConfigSubstitute, FcDefaultSubstitute): what each font is
    /// prepared against.
    private let request: OpaquePointer
    private let config: OpaquePointer
    /// The sorted fonts that name a file (a pattern without one cannot be loaded, and never
    /// was a face of a set), unprepared. Borrowed from `sorted`.
    let fonts: [OpaquePointer]
    /// Each font's FC_CHARSET (nil: none): borrowed from its pattern, or with `preparedCharsets`
    /// the prepared pattern's, owned (FcCharSetCopy).
    let charsets: [OpaquePointer?]
    private let ownsCharsets: Bool

    /// Takes ownership of `sorted` and `request` (destroyed with this object) and a reference
    /// to `config`. `preparedCharsets`: coverage from each font as prepared (every font is
    /// prepared now), for a configuration whose rules may edit charsets.
    init(sorted: UnsafeMutablePointer<FcFontSet>, request: OpaquePointer, config: OpaquePointer, preparedCharsets: Bool = false) {
        self.sorted = sorted
        self.request = request
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
            if preparedCharsets {
                let prepared = FcFontRenderPrepare(config, request, font)
                if FcPatternGetCharSet(prepared ?? font, FC_CHARSET, 0, &charset) != FcResultMatch { charset = nil }
                charset = charset.map { FcCharSetCopy($0) } ?? nil
                if let prepared { FcPatternDestroy(prepared) }
            } else if FcPatternGetCharSet(font, FC_CHARSET, 0, &charset) != FcResultMatch {
                charset = nil
            }
            fonts.append(font)
            charsets.append(charset)
        }
        self.fonts = fonts
        self.charsets = charsets
        ownsCharsets = preparedCharsets
    }

    deinit {
        if ownsCharsets { for case let charset? in charsets { FcCharSetDestroy(charset) } }
        FcFontSetDestroy(sorted)
        FcPatternDestroy(request)
        FcConfigDestroy(config)
    }

    var count: Int { fonts.count }

    /// What this holds beyond the fonts' own patterns (shared with the configuration): the
    /// substituted request, 8.5–11 KB as mallinfo2 measured it on the pinned fonts, and the
    /// sorted set's and these arrays' slots, about 30 bytes a font.
    var byteCount: Int { (12 << 10) + 32 * count }

    /// Font `index` prepared for the request, owned by the caller (FcPatternDestroy); nil
    /// when fontconfig cannot prepare it (out of memory, or a value of the wrong type).
    func prepared(_ index: Int) -> OpaquePointer? {
        FcFontRenderPrepare(config, request, fonts[index])
    }

    /// Whether font `index` has a glyph for `scalar`.
    func covers(_ index: Int, _ scalar: UInt32) -> Bool {
        guard let charset = charsets[index] else { return false }
        return FcCharSetHasChar(charset, scalar) != 0
    }

    /// For each code point below `limit` (a multiple of 256): the index of the first font that
    /// covers it, or nil where none does. Read a page of 256 code points at a time from each
    /// charset (FcCharSetFirstPage/NextPage), in font order, until every code point has its
    /// font: the same answers as asking FcCharSetHasChar of each font in turn for each code
    /// point, which cost 2.5 M instructions a set (code points no font has — controls,
    /// unassigned — asked every font).
    func firstCovering(below limit: UInt32) -> [Int?] {
        var first = [Int?](repeating: nil, count: Int(limit))
        var missing = Int(limit)
        var map = [FcChar32](repeating: 0, count: 8)  // FC_CHARSET_MAP_SIZE: 256 bits
        for (index, charset) in charsets.enumerated() where missing > 0 {
            guard let charset else { continue }
            var next: FcChar32 = 0
            var page = map.withUnsafeMutableBufferPointer { FcCharSetFirstPage(charset, $0.baseAddress, &next) }
            // FC_CHARSET_DONE, (FcChar32) -1, ends the pages.
            while page != FcChar32.max && page < limit {
                for word in 0..<8 where map[word] != 0 {
                    var bits = map[word]
                    while bits != 0 {
                        let scalar = Int(page) + word * 32 + bits.trailingZeroBitCount
                        bits &= bits - 1
                        if first[scalar] == nil {
                            first[scalar] = index
                            missing -= 1
                        }
                    }
                }
                page = map.withUnsafeMutableBufferPointer { FcCharSetNextPage(charset, $0.baseAddress, &next) }
            }
        }
        return first
    }
}
