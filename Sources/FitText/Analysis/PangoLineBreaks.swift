import CFitShims

/// Line-break opportunities as Pango 1.50.12 finds them: its own UAX #14 pass over GLib's
/// line-break classes (break.c `default_break`, "---- Line breaking ----"), not ICU's line
/// iterator. Pango implements only part of UAX #14 and tailors some rules, so the two differ
/// (PANGO_RULES.md, "Pango's line breaking over GLib's classes"): no LB15a–d, LB20a, LB21a's
/// later form or LB25's regular expression; `IS ÷ NU` outside a number (`%.|1f`), `HY ÷ AL`
/// after a space or at the start (`-|def`), `SP × IS` before digits too (` .5`), and LB30's
/// East Asian exception reads F, W and H. This is a port of that pass, state for state; the
/// classes are ICU's Line_Break values, which equal GLib 2.74's `g_unichar_break_type` for
/// every assigned code point (Unicode 15.0 both; checked over all code points with
/// python3-gi and libicu, `Tests/oracle/pango_line_breaks.py --classes`).
///
/// Pango decides a break only at a grapheme boundary (`is_cursor_position`) or before a
/// character of the classes it handles inline (CM, ZWJ, jamo, EM, RI); fitd's clusters are
/// Pango's (``TextAnalyzer/splitConjuncts(_:in:)``), so their starts stand for its cursor
/// positions. Thai's dictionary breaks are added afterwards (``ComplexContextBreaks``), as
/// `break_thai` tailors Pango's.
enum PangoLineBreaks {
    /// GLib's `GUnicodeBreakType`, by UAX #14's short names, with ICU's `ULineBreak` values
    /// (the C shim checks a few at compile time).
    enum Class: UInt8 {
        case XX = 0, AI, AL, B2, BA, BB, BK, CB, CL, CM, CR, EX, GL, HY, ID, IN, IS, LF, NS, NU, OP, PO, PR, QU, SA, SG, SP, SY
        case ZW, NL, WJ, H2, H3, JL, JT, JV, CP, CJ, HL, RI, EB, EM, ZWJ

        var bit: UInt64 { 1 << UInt64(rawValue) }

        func isIn(_ mask: UInt64) -> Bool { mask >> UInt64(rawValue) & 1 == 1 }

        /// The class of `c` as GLib 2.74 gives it. ICU 72 and GLib agree on every assigned code
        /// point; the unassigned U+32400–U+3FFFD, which UAX #14 defaults to ID, GLib leaves XX.
        /// A class a later ICU adds (after ZWJ) is XX, as Pango's BREAK_TYPE_SAFE makes any
        /// class it does not know.
        init(of c: UInt32) {
            if c >= 0x32400 && c <= 0x3FFFD {
                self = .XX
                return
            }
            let raw = fit_line_break(c)
            self = raw >= 0 && raw <= 42 ? Class(rawValue: UInt8(raw)) ?? .XX : .XX
        }
    }

    private static func mask(_ classes: Class...) -> UInt64 { classes.reduce(0) { $0 | $1.bit } }

    private static let letters = mask(.AL, .HL)
    private static let affixes = mask(.PR, .PO)
    private static let jamo = mask(.JL, .JV, .JT, .H2, .H3)
    private static let newlines = mask(.BK, .CR, .LF, .NL)
    /// Classes decided at a position that is not a grapheme boundary too (break.c: "If it's not
    /// a grapheme boundary, it's not a line break either", and its exceptions).
    private static let decidedInsideClusters = mask(.CM, .ZWJ, .JL, .JV, .JT, .H2, .H3, .EM, .RI)
    /// After these a combining mark is not attached (LB9 and LB10).
    private static let markBreakers = mask(.BK, .CR, .LF, .NL, .SP, .ZW)

    /// break.c's LineBreakType: where LB25's "number" state and LB30a's pairs stand.
    private enum NumberState { case other, numeric, numericClose, regionalOdd, regionalEven }

    /// Marks `canBreak[c]` (a break before cluster `c`, for 0 < c < clusters) for `text`, whose
    /// clusters start at `starts` (then its length). Linear in the text.
    static func mark(_ text: UnsafeBufferPointer<UInt16>, graphemeStarts starts: [Int32], into canBreak: inout [Bool]) {
        let clusters = starts.count - 1
        guard !text.isEmpty, clusters > 0, canBreak.count >= clusters else { return }
        var previous = Class.XX  // prev_break_type: G_UNICODE_BREAK_UNKNOWN at the start
        var beforePrevious = Class.XX
        var previousScalar: UInt32 = 0
        var number = NumberState.other
        var cluster = 0
        var offset = 0
        var scalar = TextAnalyzer.scalar(at: 0, in: text)
        var raw = Class(of: scalar)
        while offset < text.count {
            let width = scalar > 0xFFFF ? 2 : 1
            let nextOffset = offset + width
            // The next character's class, for LB25's PR/PO (OP|HY) NU look-ahead; past the end
            // break.c reads a paragraph separator (BK).
            let nextScalar = nextOffset < text.count ? TextAnalyzer.scalar(at: nextOffset, in: text) : 0x2029
            let nextRaw = nextOffset < text.count ? Class(of: nextScalar) : .BK
            while cluster < clusters && Int(starts[cluster]) < offset { cluster += 1 }
            let isClusterStart = cluster < clusters && Int(starts[cluster]) == offset

            // Rule LB1.
            var type = raw
            switch raw {
            case .AI, .SG, .XX: type = .AL
            case .SA:
                let category = fit_char_type(scalar)
                type = category == 6 /* Mn */ || category == 8 /* Mc */ ? .CM : .AL
            case .CJ: type = .NS
            default: break
            }
            let row = previous == .SP ? beforePrevious : previous

            var isBreak = false
            if isClusterStart || type.isIn(decidedInsideClusters) {
                var state = NumberState.other
                switch type {
                case .NU: state = .numeric
                case .CL, .CP: state = number == .numeric ? .numericClose : .other
                case .RI: state = number == .regionalOdd ? .regionalEven : .regionalOdd
                default: break
                }
                isBreak = allowed(
                    previous: previous, beforePrevious: beforePrevious, row: row, type: type, next: nextRaw,
                    scalar: scalar, previousScalar: previousScalar, number: number, state: state) ?? true  // LB31
                if type != .CM && type != .ZWJ {
                    // LB25: a number goes on through SY and IS.
                    if !(type == .NU || type == .SY || type == .IS) || number != .numeric { number = state }
                }
            }

            if type != .SP {
                if type == .CM || type == .ZWJ {
                    // LB10: a mark with nothing to attach to is a letter; else LB9 keeps the class.
                    if offset == 0 || previous.isIn(markBreakers) { previous = .AL }
                } else {
                    beforePrevious = previous
                    previous = type
                }
            } else if previous != .SP {
                beforePrevious = previous
                previous = type
            }
            if isClusterStart && cluster > 0 { canBreak[cluster] = isBreak }
            previousScalar = scalar
            offset = nextOffset
            scalar = nextScalar
            raw = nextRaw
        }
    }

    /// break.c's rules from LB30 down to LB4, in its order (a later rule overrides an earlier
    /// one): true allowed, false prohibited, nil none applies (LB31: allowed).
    private static func allowed(
        previous: Class, beforePrevious: Class, row rowClass: Class, type: Class, next: Class,
        scalar: UInt32, previousScalar: UInt32, number: NumberState, state: NumberState
    ) -> Bool? {
        let row = rowClass == .XX ? Class.AL : rowClass
        var result: Bool? = nil
        // LB30 (East Asian wide, fullwidth and halfwidth brackets excepted).
        if previous.isIn(Class.AL.bit | Class.HL.bit | Class.NU.bit) && type == .OP && fit_is_east_asian_wide_or_half(scalar) == 0 { result = false }
        if previous == .CP && fit_is_east_asian_wide_or_half(previousScalar) == 0 && type.isIn(Class.AL.bit | Class.HL.bit | Class.NU.bit) { result = false }
        // LB30a, LB30b.
        if number == .regionalOdd && state == .regionalEven { result = false }
        if previous == .EB && type == .EM { result = false }
        if type == .EM && fit_is_unassigned_pictographic(previousScalar) != 0 { result = false }
        // LB29, LB28.
        if previous == .IS && type.isIn(letters) { result = false }
        if previous.isIn(letters) && type.isIn(letters) { result = false }
        // LB27, LB26.
        if previous.isIn(jamo) && type == .PO { result = false }
        if previous == .PR && type.isIn(jamo) { result = false }
        if previous == .JL && type.isIn(Class.JL.bit | Class.JV.bit | Class.H2.bit | Class.H3.bit) { result = false }
        if previous.isIn(Class.JV.bit | Class.H2.bit) && type.isIn(Class.JV.bit | Class.JT.bit) { result = false }
        if previous.isIn(Class.JT.bit | Class.H3.bit) && type == .JT { result = false }
        // LB25 "with Example 7 of Customization": pairs, and the number state, no IS × NU.
        if previous.isIn(affixes) && type == .NU { result = false }
        if previous.isIn(affixes) && type.isIn(Class.OP.bit | Class.HY.bit) && next == .NU { result = false }
        if previous.isIn(Class.OP.bit | Class.HY.bit) && type == .NU { result = false }
        if previous == .NU && type.isIn(Class.NU.bit | Class.SY.bit | Class.IS.bit) { result = false }
        if number == .numeric && type.isIn(Class.NU.bit | Class.SY.bit | Class.IS.bit | Class.CL.bit | Class.CP.bit) { result = false }
        if (number == .numeric || number == .numericClose) && type.isIn(affixes) { result = false }
        // LB24, LB23, LB23a.
        if previous.isIn(affixes) && type.isIn(letters) { result = false }
        if previous.isIn(letters) && type.isIn(affixes) { result = false }
        if previous.isIn(letters) && type == .NU { result = false }
        if previous == .NU && type.isIn(letters) { result = false }
        if previous == .PR && type.isIn(Class.ID.bit | Class.EB.bit | Class.EM.bit) { result = false }
        if previous.isIn(Class.ID.bit | Class.EB.bit | Class.EM.bit) && type == .PO { result = false }
        // LB22, LB21 (no LB20a: "-|def" breaks), LB21a, LB21b.
        if type == .IN { result = false }
        if type.isIn(Class.BA.bit | Class.HY.bit | Class.NS.bit) || previous == .BB { result = false }
        if beforePrevious == .HL && previous.isIn(Class.HY.bit | Class.BA.bit) { result = false }
        if previous == .SY && type == .HL { result = false }
        // LB20, LB19, LB18.
        if previous == .CB || type == .CB { result = true }
        if previous == .QU || type == .QU { result = false }
        if previous == .SP { result = true }
        // LB17–LB14 over spaces (the row class).
        if row == .B2 && type == .B2 { result = false }
        if row.isIn(Class.CL.bit | Class.CP.bit) && type == .NS { result = false }
        if row == .QU && type == .OP { result = false }
        if row == .OP { result = false }
        // LB13 "with Example 7 of Customization": no break before EX; before CL, CP, IS, SY
        // unless after a digit (so also none in " .5").
        if type == .EX { result = false }
        if previous != .NU && type.isIn(Class.CL.bit | Class.CP.bit | Class.IS.bit | Class.SY.bit) { result = false }
        // LB12, LB12a, LB11.
        if previous == .GL { result = false }
        if type == .GL && !previous.isIn(Class.SP.bit | Class.BA.bit | Class.HY.bit) { result = false }
        if previous == .WJ || type == .WJ { result = false }
        // LB9.
        if (type == .CM || type == .ZWJ) && !previous.isIn(markBreakers) { result = false }
        // LB8, LB8a, LB7, LB6.
        if row == .ZW { result = true }
        if previousScalar == 0x200D { result = false }
        if type == .SP || type == .ZW { result = false }
        if type.isIn(newlines) { result = false }
        // LB4, LB5: after a newline (a paragraph's end here).
        if previous == .BK || (previous == .CR && scalar != 0x0A) || previous == .LF || previous == .NL { result = true }
        return result
    }
}
