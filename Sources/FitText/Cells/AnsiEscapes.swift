/// Removes ECMA-48 control sequences from UTF-16 text, as a terminal's parser consumes them
/// without drawing: one pass, one state per unit, so any input (a megabyte of `ESC [ 1`) is
/// linear. The states are DEC's VT500 parser (vt100.net/emu/dec_ansi_parser), which
/// Alacritty's `vte` crate (src/lib.rs) and xterm implement; Tests/cells/README.md lists
/// where kitty differs.
///
/// - ESC then 0x20–0x2F (intermediates)… then 0x30–0x7E: an escape sequence (ESC 7, ESC ( B).
/// - ESC [ (CSI): 0x20–0x3F (parameters, intermediates), then a final 0x40–0x7E.
/// - ESC ] (OSC): a string to BEL, or to ST (ESC \); OSC 8 hyperlinks are these.
/// - ESC P (DCS), ESC X (SOS), ESC ^ (PM), ESC _ (APC): a string to ST.
/// - C0 controls inside an escape or CSI are executed (kept: they take no cell, LF still
///   ends the paragraph); inside a string they are dropped. DEL is dropped.
/// - CAN (0x18) or SUB (0x1A) cancels the sequence; ESC inside any sequence starts a new one.
/// - A character above U+007F inside ESC or CSI is ignored and the sequence goes on (vte:
///   bytes ≥ 0x80 fall to `anywhere`, which ignores them); in a string it is string content.
/// - A sequence the text does not finish swallows the rest of the text: the terminal is
///   still waiting for its final byte, and draws nothing.
/// - C1 code points (U+0080–U+009F) are not introducers: in UTF-8, Alacritty executes them
///   as single controls and kitty supports only C0 (vt-parser.c); they take no cell anyway.
public enum AnsiEscapes {
    /// The units that remain, and for each the index of the unit in `units` it came from.
    public static func strip(_ units: [UInt16]) -> (text: [UInt16], origin: [Int]) {
        var text: [UInt16] = []
        var origin: [Int] = []
        // No ESC: nothing to remove (the common case costs one scan).
        guard units.contains(0x1B) else { return (units, Array(units.indices)) }
        text.reserveCapacity(units.count)
        origin.reserveCapacity(units.count)
        var state = State.ground
        for (i, u) in units.enumerated() {
            var keep = false
            switch state {
            case .ground:
                if u == 0x1B { state = .escape } else { keep = true }
            case .escape, .escapeIntermediate, .csi:
                switch u {
                case 0x1B: state = .escape
                case 0x18, 0x1A: state = .ground
                case 0x00...0x1F: keep = true  // executed
                case 0x7F, 0x80...: break  // ignored
                case 0x20...0x2F: if state == .escape { state = .escapeIntermediate }
                default:  // 0x30–0x7E
                    if state == .escape {
                        switch u {
                        case 0x5B: state = .csi  // [
                        case 0x5D: state = .osc  // ]
                        case 0x50, 0x58, 0x5E, 0x5F: state = .string  // P X ^ _
                        default: state = .ground
                        }
                    } else if state == .escapeIntermediate || u >= 0x40 {
                        state = .ground
                    }
                }
            case .osc, .string:
                switch u {
                case 0x1B: state = .escape  // ST is ESC \: the \ ends the escape
                case 0x18, 0x1A: state = .ground
                case 0x07: if state == .osc { state = .ground }
                default: break
                }
            }
            if keep {
                text.append(u)
                origin.append(i)
            }
        }
        return (text, origin)
    }

    enum State { case ground, escape, escapeIntermediate, csi, osc, string }
}
