import CHarfBuzz

/// The variations of a font description ("wght=650,opsz=12") and how Pango applies them to a
/// font (pangofc-font.c, pango_fc_font_create_hb_font).
enum FontVariations {
    /// Most entries a description may list: a font has a handful of axes.
    static let maxEntries = 64

    /// Checks each comma-separated entry with HarfBuzz's own parser (the one Pango's
    /// parse_variations uses). Pango skips an entry it cannot parse and draws the default;
    /// fitd names it instead, since a description that silently means something else is
    /// a bug in the caller's program. An empty list ("@") is no variations, as in Pango.
    static func validate(_ text: String, in description: String) throws(FitTextError) -> String? {
        if text.isEmpty { return nil }
        let entries = text.split(separator: ",", omittingEmptySubsequences: false)
        guard entries.count <= maxEntries else {
            throw .invalidFontDescription(description, reason: "more than \(maxEntries) variations")
        }
        for entry in entries where !entry.isEmpty {
            guard parse(entry) != nil else {
                throw .invalidFontDescription(
                    description, reason: "\"\(entry)\" is not a font variation; write @axis=value, such as @wght=650")
            }
        }
        return text
    }

    static func parse(_ entry: Substring) -> hb_variation_t? {
        var variation = hb_variation_t()
        var entry = String(entry)
        let ok = entry.withUTF8 { bytes -> Bool in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                hb_variation_from_string(chars.baseAddress, Int32(chars.count), &variation) != 0
            }
        }
        return ok ? variation : nil
    }

    /// Sets a font's design coordinates as Pango does: every axis at its default, then the
    /// named instance's (FC_INDEX's upper 16 bits), then fontconfig's FC_FONT_VARIATIONS for
    /// the face (a variable face matched at a weight or width fontconfig chose), then the
    /// description's own — each later one overriding an axis set before. Unknown axes are
    /// ignored. Nothing is set on a font without axes.
    static func apply(to font: OpaquePointer, face: OpaquePointer, index: Int, lists: [String]) {
        let axisCount = Int(hb_ot_var_get_axis_infos(face, 0, nil, nil))
        guard axisCount > 0 else { return }
        var count = UInt32(axisCount)
        var axes = [hb_ot_var_axis_info_t](repeating: hb_ot_var_axis_info_t(), count: axisCount)
        hb_ot_var_get_axis_infos(face, 0, &count, &axes)
        var coords = [Float](repeating: 0, count: axisCount)
        for axis in axes.prefix(Int(count)) where Int(axis.axis_index) < axisCount {
            coords[Int(axis.axis_index)] = axis.default_value
        }
        if index != 0 {
            // pango_fc_font_create_hb_font: (index >> 16) - 1, unsigned; HarfBuzz writes
            // nothing for an instance the face does not have.
            let instance = UInt32(truncatingIfNeeded: (index >> 16) - 1)
            var written = UInt32(axisCount)
            hb_ot_var_named_instance_get_design_coords(face, instance, &written, &coords)
        }
        for list in lists {
            for entry in list.split(separator: ",") {
                guard let variation = parse(entry) else { continue }
                if let axis = axes.prefix(Int(count)).first(where: { $0.tag == variation.tag }),
                    Int(axis.axis_index) < axisCount
                {
                    coords[Int(axis.axis_index)] = variation.value
                }
            }
        }
        hb_font_set_var_coords_design(font, coords, UInt32(axisCount))
    }
}
