import FitJSON
import FitTypes

/// A request line's members by field, found in one pass over the object. Asking the object
/// for each of the 18 fields in turn (`JSONObject`'s subscript scans its members and compares
/// names byte by byte) and checking every name against a `Set` cost `fitctl measure --batch`
/// 15 K instructions a line of 34 bytes (callgrind: `BatchMeasurer.parse`, 299 M of 2,476 M
/// for 20,000 lines), more than the JSON parse itself.
///
/// Same answers as the subscript: a repeated name (which JSONReader refuses anyway) keeps its
/// first value, and names compare by their bytes (an ASCII name is its bytes under `==`, which for other strings would match
/// canonically equivalent spellings: U+212A KELVIN SIGN equals "K").
struct RequestFields {
    enum Field: Int, CaseIterable {
        case text, font, maxWidth, wrap, maxLines, ellipsize, features, letterSpacing, unit, lines, id, textScale,
            language, metrics, markup, escapes, ambiguous, terminal, widget, widthChars, maxWidthChars, uiFont

        /// The name a request line gives the field.
        var name: String {
            switch self {
            case .text: "text"
            case .font: "font"
            case .maxWidth: "max_width"
            case .wrap: "wrap"
            case .maxLines: "max_lines"
            case .ellipsize: "ellipsize"
            case .features: "features"
            case .letterSpacing: "letter_spacing"
            case .unit: "unit"
            case .lines: "lines"
            case .id: "id"
            case .textScale: "text_scale"
            case .language: "language"
            case .metrics: "metrics"
            case .markup: "markup"
            case .escapes: "escapes"
            case .ambiguous: "ambiguous"
            case .terminal: "terminal"
            case .widget: "widget"
            case .widthChars: LabelCharWidths.widthCharsName
            case .maxWidthChars: LabelCharWidths.maxWidthCharsName
            case .uiFont: "ui_font"
            }
        }

        init?(named name: String) {
            var name = name
            guard let field = name.withUTF8({ Field(bytes: $0) }) else { return nil }
            self = field
        }

        /// The field a name's UTF-8 bytes spell, compared byte for byte.
        init?(bytes: UnsafeBufferPointer<UInt8>) {
            for (index, name) in Field.nameBytes.enumerated() where name.count == bytes.count {
                if name.withUnsafeBufferPointer({ $0.elementsEqual(bytes) }) {
                    self.init(rawValue: index)
                    return
                }
            }
            return nil
        }

        /// Every field's name as bytes, in `rawValue` order.
        private static let nameBytes: [[UInt8]] = Field.allCases.map { Array($0.name.utf8) }
    }

    /// The fields given, in the line's order, each once (a line gives two or three of the
    /// 18, so a scan is as quick as a table): slots of `JSONValue?` held inline cost 2.5 K
    /// instructions a line to copy and destroy (callgrind), an array of them one allocation
    /// of 18 slots.
    private var present: [(field: Field, value: JSONValue)] = []
    /// Bit `rawValue` of each field in `present`.
    private var given: UInt64 = 0
    /// The first member whose name is no field, if any.
    private(set) var unknown: String?

    init(_ object: JSONObject) {
        for member in object.members {
            guard let field = Field(named: member.name) else {
                if unknown == nil { unknown = member.name }
                continue
            }
            if !has(field) { add(member.value, for: field) }
        }
    }

    /// A request line read straight into its fields (``JSONReader/forEachMember(of:limits:_:)``:
    /// no object built); nil when the line takes the general way — ``init(_:)`` over
    /// ``JSONReader/parse(_:limits:)`` — which also words every refusal: a line that is not
    /// an object, malformed, or names a member that is no field, names one twice, or spells
    /// a name with an escape. Either way the fields are the same.
    init?(parsing line: UnsafeBufferPointer<UInt8>, limits: JSONReader.Limits) {
        var fields = RequestFields()
        let complete = try? JSONReader.forEachMember(of: line, limits: limits) { name, value in
            guard let field = Field(bytes: name), !fields.has(field) else { return false }
            fields.add(value, for: field)
            return true
        }
        guard complete == true else { return nil }
        self = fields
    }

    private init() {}

    private func has(_ field: Field) -> Bool { given & (1 << UInt64(field.rawValue)) != 0 }

    private mutating func add(_ value: JSONValue, for field: Field) {
        present.append((field, value))
        given |= 1 << UInt64(field.rawValue)
    }

    subscript(field: Field) -> JSONValue? {
        guard has(field) else { return nil }
        for entry in present where entry.field == field { return entry.value }
        return nil
    }
}
