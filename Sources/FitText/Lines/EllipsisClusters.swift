/// A line as ellipsize.c sees it: its glyph clusters in logical order, each with its width in
/// Pango units, and where the spans an ellipsis may replace begin and end.
///
/// Pango ellipsizes by glyph cluster (ellipsize.c line_iter_next_cluster over
/// pango_glyph_item_iter), and Pango shapes with HB_BUFFER_CLUSTER_LEVEL_MONOTONE_CHARACTERS
/// (shape.c pango_hb_shape): a mark is a cluster of its own unless the font joins it to its
/// base, while a ligature is one cluster over several characters. fitd's clusters are
/// grapheme clusters (HarfBuzz's monotone graphemes, then shared out), so the line's runs are
/// shaped again here, by character. Their widths are made to add up to the grapheme clusters'
/// wherever both have a boundary (letter spacing, tabs and hex boxes are in the grapheme
/// widths only): the difference goes to the first glyph cluster there, the one
/// pango_glyph_item_letter_space gives the spacing to.
struct EllipsisClusters {
    /// UTF-16 offsets in the paragraph where each glyph cluster starts, and the line's end.
    private(set) var starts: [Int] = []
    private(set) var widths: [Int64] = []
    /// Per UTF-16 offset of the line (and its end): a grapheme cluster starts there (Pango's
    /// is_cursor_position).
    private var cursor: [Bool] = []
    private let lineStart: Int
    private let text: UnsafeBufferPointer<UInt16>

    /// - Parameter runStyle: the style a cluster was shaped in (its markup stretch's).
    init(
        line: Range<Int>, breaker: LineBreaker, text: UnsafeBufferPointer<UInt16>, runStyle: (Int) -> (index: Int32, style: ResolvedStyle)
    ) {
        self.text = text
        lineStart = breaker.start(of: line.lowerBound)
        let lineEnd = breaker.start(of: line.upperBound)
        cursor = Array(repeating: false, count: lineEnd - lineStart + 1)
        for c in line { cursor[breaker.start(of: c) - lineStart] = true }
        cursor[lineEnd - lineStart] = true
        guard !line.isEmpty else { return }

        // The glyph clusters of each run (one font, script, level and style, as
        // ParagraphShaper shaped it).
        var glyphStarts: [Int] = []
        var glyphWidths: [Int64] = []
        var a = line.lowerBound
        while a < line.upperBound {
            let first = breaker.clusters[a]
            let style = runStyle(a)
            var b = a + 1
            while b < line.upperBound {
                let next = breaker.clusters[b]
                guard next.font == first.font && next.script == first.script && next.level == first.level && runStyle(b).index == style.index
                else { break }
                b += 1
            }
            let u0 = breaker.start(of: a)
            let u1 = breaker.start(of: b)
            let font = breaker.fonts[Int(first.font)]
            let run = Shaper.shape(
                UnsafeBufferPointer(rebasing: text[u0..<u1]), font: font, rightToLeft: first.level & 1 == 1, script: first.script,
                language: style.style.language.hbLanguage(script: first.script), features: style.style.features, characters: true)
            if run.clusters.first?.start == 0 {
                for cluster in run.clusters {
                    glyphStarts.append(u0 + Int(cluster.start))
                    glyphWidths.append(Ellipsizer.units(cluster.advance))
                }
            } else {
                // Nothing shaped (HarfBuzz could not allocate): the grapheme clusters.
                for c in a..<b {
                    glyphStarts.append(breaker.start(of: c))
                    glyphWidths.append(0)
                }
            }
            a = b
        }

        // Where a grapheme cluster and a glyph cluster end together, their widths agree.
        starts.reserveCapacity(glyphStarts.count + 1)
        widths.reserveCapacity(glyphStarts.count)
        var g = line.lowerBound
        var graphemeSum: Int64 = 0
        var glyphSum: Int64 = 0
        var spanFirst = 0
        for k in glyphStarts.indices {
            starts.append(glyphStarts[k])
            widths.append(glyphWidths[k])
            glyphSum += glyphWidths[k]
            let end = k + 1 < glyphStarts.count ? glyphStarts[k + 1] : lineEnd
            while g < line.upperBound && breaker.start(of: g + 1) <= end {
                graphemeSum += Ellipsizer.units(breaker.clusters[g].width)
                g += 1
            }
            if g == line.upperBound || breaker.start(of: g) == end {
                widths[spanFirst] += graphemeSum - glyphSum
                graphemeSum = 0
                glyphSum = 0
                spanFirst = k + 1
            }
        }
        starts.append(lineEnd)
    }

    var count: Int { widths.count }

    /// ellipsize.c starts_at_ellipsization_boundary: the line's first cluster, or one that
    /// starts at a cursor position.
    func startsSpan(_ k: Int) -> Bool {
        k == 0 || isCursorPosition(starts[k])
    }

    /// ellipsize.c ends_at_ellipsization_boundary: the line's last cluster, or one followed by a
    /// cursor position one character after its end — `log_attrs[start_offset + end_char + 1]`,
    /// one past the cluster's end: a cluster ending where a mark follows its base's cluster
    /// ends a span (`नमस्ते द|ुनिया`), one ending at a cursor position before a cluster of
    /// two characters does not (`ಲ|ಕೋ|ಟೆ` is one span from the first).
    func endsSpan(_ k: Int) -> Bool {
        guard k + 1 < count else { return true }
        let end = starts[k + 1]
        let next = end + (UTF16.isLeadSurrogate(text[end]) && end + 1 < text.count ? 2 : 1)
        return isCursorPosition(next)
    }

    private func isCursorPosition(_ offset: Int) -> Bool {
        let i = offset - lineStart
        return i >= 0 && i < cursor.count && cursor[i]
    }
}
