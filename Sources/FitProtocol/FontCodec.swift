import FitBus
import FitTypes

/// ResolveFont's result on the wire: (sssdsdddbas).
public enum FontCodec {
    public static func encode(_ font: ResolvedFont) -> DBusValue {
        .structure([
            .string(font.description), .string(font.family), .string(font.style), .double(font.weight),
            .string(font.file), .double(font.pixelSize), .double(font.ascent), .double(font.descent),
            .boolean(font.matchedRequestedFamily), .array(elementSignature: "s", font.fallbackFamilies.map(DBusValue.string)),
        ])
    }

    public static func decode(_ value: DBusValue) throws(DBusError) -> ResolvedFont {
        guard case .structure(let f) = value, f.count == 10,
            case .string(let description) = f[0], case .string(let family) = f[1], case .string(let style) = f[2],
            case .double(let weight) = f[3], case .string(let file) = f[4], case .double(let pixelSize) = f[5],
            case .double(let ascent) = f[6], case .double(let descent) = f[7], case .boolean(let matched) = f[8],
            case .array(_, let fallbacks) = f[9]
        else { throw DBusError(.invalidArgs, "resolved font is not (sssdsdddbas): \(value.signature)") }
        return ResolvedFont(
            description: description, family: family, style: style, weight: weight, file: file, index: 0,
            pixelSize: pixelSize, pointSize: pixelSize * 72 / 96, ascent: ascent, descent: descent,
            matchedRequestedFamily: matched,
            fallbackFamilies: fallbacks.compactMap { if case .string(let s) = $0 { return s } else { return nil } })
    }
}
