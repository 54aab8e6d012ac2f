import Synchronization

/// Markup requests (the `markup` option): parsed, then laid out with a style per stretch.
extension TextEngine {
    /// Most distinct attribute sets one markup text may use.
    public static let maxMarkupStyles = 64

    /// Markup: the plain text laid out with a style per stretch, each resolved like a
    /// request's own (the request's description with the stretch's attributes over it, its
    /// features after the request's), so it shares the style, font and shaping caches.
    /// `given`: text and runs already made (a plain request whose variant is emulated).
    func measureMarkup(_ request: MeasureRequest, parsed given: MarkupParser.Result? = nil, sink: GlyphSink? = nil) throws(FitTextError) -> TextMetrics {
        var parsed: MarkupParser.Result
        if let given { parsed = given } else { parsed = try MarkupParser.parse(request.text) }
        var plain = request
        plain.text = parsed.text
        plain.markup = false
        let base = try style(for: plain)
        // itemize.c handle_variants: variants the font cannot draw are emulated.
        parsed = try SmallCaps.emulate(parsed, base: base.description) { (style, variant, piece) throws(FitTextError) -> Bool in
            var span = plain
            span.font = style.apply(to: base.description).description
            let resolved = try self.style(for: span)
            let context = style.language.flatMap(MarkupLanguages.normalize).map(MarkupLanguages.context) ?? resolved.language
            return try !SmallCaps.supported(variant, style: resolved, text: piece.unicodeScalars, context: context)
        }
        plain.text = parsed.text
        var styles = [base]
        var spacings = [LineBreaker.pangoUnits(request.letterSpacing)]
        var raises = [MarkupRaise()]
        var ellipsisStyles: [ResolvedStyle?] = [nil]
        let shiftEnds = Self.shiftEnds(of: parsed.runs)
        var known: [MarkupStyle: Int32] = [MarkupStyle(): 0]
        // Styles that differ only in font_features are one item (pango-layout.c
        // affects_itemization: features are applied to the items afterwards).
        var itemKinds: [MarkupStyle: Int32] = [MarkupStyle(): 0]
        var itemOf: [Int32] = [0]
        let units = Array(parsed.text.utf16)
        let bidi = MarkupBidiLevels(units: units)
        let itemBreaks = Self.itemBreaks(of: parsed.runs, count: units.count)
        var styleOf = [Int32](repeating: 0, count: units.count)
        for run in parsed.runs {
            let index: Int32
            if let found = known[run.style] {
                index = found
            } else {
                // Each distinct style may cost a fontconfig sort (0.35 ms): a label has a few.
                guard styles.count < TextEngine.maxMarkupStyles else {
                    throw .invalidArgument(name: "markup", reason: "more than \(TextEngine.maxMarkupStyles) distinct styles in one text")
                }
                // The font of the text before a tag sizes and shifts its sub/sup: the previous
                // item's, none at a paragraph's start (Pango itemizes each paragraph apart;
                // pango-layout.c apply_baseline_shift starts each line with none — a wrapped
                // line's start is not known here, so there the font before it is used).
                let previous = { (offset: Int) -> Font? in
                    MarkupMetrics.previousFont(before: offset, units: units, styleOf: styleOf, styles: styles, itemOf: itemOf, itemBreaks: itemBreaks,
                        levels: bidi.levels)
                }
                let stretch = try markupStyle(run.style, plain: plain, base: base, previous: previous)
                ellipsisStyles.append(stretch.ellipsis)
                styles.append(stretch.style)
                spacings.append(stretch.letterSpacing)
                raises.append(Self.markupRaise(run.style, shiftEnds: shiftEnds, previous: previous))
                var kind = run.style
                kind.features = []
                if let found = itemKinds[kind] {
                    itemOf.append(found)
                } else {
                    itemOf.append(Int32(styles.count - 1))
                    itemKinds[kind] = Int32(styles.count - 1)
                }
                index = Int32(styles.count - 1)
                known[run.style] = index
            }
            guard index != 0 else { continue }
            for u in run.utf16 { styleOf[u] = index }
        }
        var typesetter = PixelTypesetter(request: plain, style: base, resources: typesetResources)
        typesetter.markup = MarkupRuns(
            styleOf: styleOf, styles: styles, letterSpacings: spacings, raises: raises, itemOf: itemOf, itemBreaks: itemBreaks,
            ellipsisStyles: ellipsisStyles)
        typesetter.glyphSink = sink
        return try typesetter.run()
    }

    /// Where each baseline shift's tag closes: the end of the last stretch inside it (keyed by
    /// where it opened and how deep it sits among the shifts).
    private static func shiftEnds(of runs: [MarkupParser.Run]) -> [MarkupShiftKey: Int] {
        var shiftEnds: [MarkupShiftKey: Int] = [:]
        for run in runs {
            for (depth, entry) in run.style.baselineShifts.enumerated() {
                shiftEnds[MarkupShiftKey(anchor: entry.offset, depth: depth), default: 0] = run.utf16.upperBound
            }
        }
        return shiftEnds
    }

    /// Items that start where an itemizing tag opened or closed, the style unchanged: per
    /// UTF-16 offset of the text, or empty when there are none.
    private static func itemBreaks(of runs: [MarkupParser.Run], count: Int) -> [Bool] {
        var itemBreaks: [Bool] = []
        for (k, run) in runs.enumerated()
        where run.startsItem && k > 0 && runs[k - 1].style == run.style && run.utf16.lowerBound < count {
            if itemBreaks.isEmpty { itemBreaks = [Bool](repeating: false, count: count) }
            itemBreaks[run.utf16.lowerBound] = true
        }
        return itemBreaks
    }

    /// A stretch's style: the request's (`plain`) with the stretch's attributes over it, its
    /// ellipsis's when that is sized apart, and its letter spacing (px, whole Pango units).
    /// `previous`: the font of the item before an offset.
    private func markupStyle(
        _ markup: MarkupStyle, plain: MeasureRequest, base: ResolvedStyle, previous: (Int) -> Font?
    ) throws(FitTextError) -> (style: ResolvedStyle, ellipsis: ResolvedStyle?, letterSpacing: Double) {
        var span = plain
        var description = markup.apply(to: base.description)
        var ellipsisDescription: FontDescription? = nil
        if !markup.fontScales.isEmpty {
            (description, ellipsisDescription) = try scaledDescriptions(markup, description, span: span, previous: previous)
        }
        span.font = description.description
        span.features = plain.features + markup.features
        // letter_spacing is in Pango units: 1/1024 px at 96 dpi (PANGO_RULES.md §13).
        if let spacing = markup.letterSpacing { span.letterSpacing = Double(spacing) / Font.unitsPerPixel }
        try span.validate()
        let shared = try style(for: span)
        let ellipsis = try ellipsisDescription.map { (d: FontDescription) throws(FitTextError) -> ResolvedStyle in
            var alone = span
            alone.font = d.description
            return try style(for: alone)
        }
        let letterSpacing = LineBreaker.pangoUnits(span.letterSpacing)
        guard let language = markup.language.flatMap(MarkupLanguages.normalize) else { return (shared, ellipsis, letterSpacing) }
        // lang: the stretch's own language picks its fallback fonts and HarfBuzz's
        // language (locl), as the item's language does in Pango.
        let own = try ResolvedStyle(
            id: lastStyleID.wrappingAdd(1, ordering: .relaxed).newValue, description: shared.description,
            pixelSize: shared.pixelSize, resolver: shared.resolver, features: shared.features,
            featureID: shared.featureID, language: MarkupLanguages.context(language), rendering: shared.rendering)
        return (own, ellipsis, letterSpacing)
    }

    /// The description of a stretch under sub/sup, big/small scales (apply_scale_to_item:
    /// size × scale, an int of Pango units), and of its ellipsis when that is sized otherwise.
    private func scaledDescriptions(
        _ markup: MarkupStyle, _ description: FontDescription, span: MeasureRequest, previous: (Int) -> Font?
    ) throws(FitTextError) -> (FontDescription, ellipsis: FontDescription?) {
        var description = description
        var ellipsisDescription: FontDescription? = nil
        let own = try style(for: { var r = span; r.font = description.description; return r }()).primary
        let factor = MarkupMetrics.scale(markup.fontScales, previous: previous, own: own)
        // The size is pango_font_describe's, the font's: its FC_SIZE, from the
        // whole Pango units of its pixel size (pangofc-fontmap.c get_scaled_size,
        // pango_fc_make_pattern, font_description_from_pattern), in points.
        let pixelUnits: Double?
        switch description.size {
        case .points(let pt)?: pixelUnits = ((pt * 1024).rounded() * 96 / 72 + 0.5).rounded(.down)
        case .pixels(let px)?: pixelUnits = (px * 1024).rounded()
        case nil: pixelUnits = nil
        }
        guard let pixelUnits else { return (description, nil) }
        let described = (pixelUnits * 72 / 96).rounded(.down)
        // The ellipsis of a gap in this text is itemized alone (ellipsize.c
        // itemize_text): no previous item, so 1/1.2 per sub/sup scale.
        let alone = MarkupMetrics.scale(markup.fontScales, previous: { _ in nil }, own: own)
        if alone != factor {
            ellipsisDescription = description
            ellipsisDescription?.size = .points((alone * described).rounded(.towardZero) / 1024)
        }
        description.size = .points((factor * described).rounded(.towardZero) / 1024)
        return (description, ellipsisDescription)
    }

    /// A stretch's rise and baseline shifts, px: each shift at the line's start (no previous
    /// item) and elsewhere (the font of the item before it sizes sub/sup).
    private static func markupRaise(
        _ markup: MarkupStyle, shiftEnds: [MarkupShiftKey: Int], previous: (Int) -> Font?
    ) -> MarkupRaise {
        var raise = MarkupRaise(rise: Double(markup.rise ?? 0) / Font.unitsPerPixel)
        for (depth, entry) in markup.baselineShifts.enumerated() {
            raise.shifts.append(MarkupRaise.Shift(
                anchor: entry.offset, end: shiftEnds[MarkupShiftKey(anchor: entry.offset, depth: depth)] ?? entry.offset,
                px: Double(MarkupMetrics.shift(entry, previous: previous(entry.offset))) / Font.unitsPerPixel,
                atLineStart: Double(MarkupMetrics.shift(entry, previous: nil)) / Font.unitsPerPixel,
                kind: MarkupMetrics.attributeValue(entry.value)))
        }
        return raise
    }
}

/// A baseline shift's tag in a markup text: where it opened and how deep it sits among the shifts.
private struct MarkupShiftKey: Hashable {
    var anchor: Int
    var depth: Int
}

/// The languages of markup's lang attributes, each worked out once (a context derives a
/// language for every script). Bounded: the tags come from peers.
enum MarkupLanguages {
    private static let contexts = Mutex<[String: LanguageContext]>([:])
    static let limit = 64

    /// pango_language_from_string: lowercase, "_" as "-"; nil for an empty or unusable tag.
    static func normalize(_ text: String) -> String? {
        let tag = String(text.lowercased().map { $0 == "_" ? "-" : $0 }.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        return tag.isEmpty || tag.utf8.count > 64 ? nil : tag
    }

    static func context(_ tag: String) -> LanguageContext {
        if let known = contexts.withLock({ $0[tag] }) { return known }
        let made = LanguageContext(tag)
        contexts.withLock { table in
            if table.count >= limit { table.removeAll() }
            table[tag] = made
        }
        return made
    }
}
