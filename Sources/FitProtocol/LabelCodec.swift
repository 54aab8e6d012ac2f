import FitBus
import FitTypes

/// MeasureLabel's reply: a GtkLabel's size request in whole px (``LabelSize``) and the
/// generation it was measured under, `(iiiiit)`.
public enum LabelCodec {
    public static let method = "MeasureLabel"
    public static let signature = "(iiiiit)"

    /// MeasureLabel's own options beside Measure's, taken out of `options`: `width_chars` and
    /// `max_width_chars`, whole numbers (GtkLabel's −1, unset, is the option left out; the
    /// engine checks the range, ``LabelCharWidths/check()``).
    public static func charWidths(from options: inout OptionDictionary) throws(DBusError) -> LabelCharWidths {
        let chars = LabelCharWidths(
            widthChars: try options.integer(LabelCharWidths.widthCharsName),
            maxWidthChars: try options.integer(LabelCharWidths.maxWidthCharsName))
        _ = options.remove(LabelCharWidths.widthCharsName)
        _ = options.remove(LabelCharWidths.maxWidthCharsName)
        return chars
    }

    /// MeasureLabel's options for `request` and `chars`.
    public static func options(of request: MeasureRequest, chars: LabelCharWidths, sendTextScale: Bool) -> DBusValue {
        var options = MeasureCodec.optionDictionary(of: request, sendTextScale: sendTextScale)
        if let widthChars = chars.widthChars { options.set(LabelCharWidths.widthCharsName, .uint32(UInt32(clamping: widthChars))) }
        if let maxWidthChars = chars.maxWidthChars { options.set(LabelCharWidths.maxWidthCharsName, .uint32(UInt32(clamping: maxWidthChars))) }
        return options.dbusValue
    }

    public static func encode(_ size: LabelSize, generation: UInt64) -> DBusValue {
        .structure([
            .int32(Int32(clamping: size.minimumWidth)), .int32(Int32(clamping: size.naturalWidth)),
            .int32(Int32(clamping: size.minimumHeight)), .int32(Int32(clamping: size.naturalHeight)),
            .int32(Int32(clamping: size.baseline)), .uint64(generation),
        ])
    }

    /// A text frame's `widget` extra (Layout with `widget_sizes`): `(iiiii)`, the same five
    /// sizes without a generation (the reply has its own).
    static func encodeFrame(_ size: LabelSize) -> DBusValue {
        .structure([
            .int32(Int32(clamping: size.minimumWidth)), .int32(Int32(clamping: size.naturalWidth)),
            .int32(Int32(clamping: size.minimumHeight)), .int32(Int32(clamping: size.naturalHeight)),
            .int32(Int32(clamping: size.baseline)),
        ])
    }

    static func decodeFrame(_ value: DBusValue) throws(DBusError) -> LabelSize {
        guard case .structure(let fields) = value, fields.count == 5,
            case .int32(let minimumWidth) = fields[0], case .int32(let naturalWidth) = fields[1],
            case .int32(let minimumHeight) = fields[2], case .int32(let naturalHeight) = fields[3],
            case .int32(let baseline) = fields[4]
        else { throw DBusError(.invalidArgs, "a frame's widget is \(value.signature), not (iiiii)") }
        return LabelSize(
            minimumWidth: Int(minimumWidth), naturalWidth: Int(naturalWidth), minimumHeight: Int(minimumHeight),
            naturalHeight: Int(naturalHeight), baseline: Int(baseline))
    }

    public static func decode(_ value: DBusValue) throws(DBusError) -> (size: LabelSize, generation: UInt64) {
        guard case .structure(let fields) = value, fields.count == 6,
            case .int32(let minimumWidth) = fields[0], case .int32(let naturalWidth) = fields[1],
            case .int32(let minimumHeight) = fields[2], case .int32(let naturalHeight) = fields[3],
            case .int32(let baseline) = fields[4], case .uint64(let generation) = fields[5]
        else { throw DBusError(.invalidArgs, "MeasureLabel returned \(value.signature), not \(signature)") }
        return (
            LabelSize(
                minimumWidth: Int(minimumWidth), naturalWidth: Int(naturalWidth), minimumHeight: Int(minimumHeight),
                naturalHeight: Int(naturalHeight), baseline: Int(baseline)),
            generation
        )
    }
}
