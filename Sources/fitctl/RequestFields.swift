import FitJSON

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
            language, metrics, markup, escapes, ambiguous, terminal

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
            }
        }

        init?(named name: String) {
            guard name.utf8.allSatisfy({ $0 < 0x80 }), let field = Field.allCases.first(where: { $0.name == name }) else {
                return nil
            }
            self = field
        }
    }

    private var values = [JSONValue?](repeating: nil, count: Field.allCases.count)
    /// The first member whose name is no field, if any.
    private(set) var unknown: String?

    init(_ object: JSONObject) {
        for member in object.members {
            guard let field = Field(named: member.name) else {
                if unknown == nil { unknown = member.name }
                continue
            }
            if values[field.rawValue] == nil { values[field.rawValue] = member.value }
        }
    }

    subscript(field: Field) -> JSONValue? { values[field.rawValue] }
}
