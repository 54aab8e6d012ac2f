import CFitShims

/// Pango's script iterator (pango-script.c, pango_script_iter_next, Pango 1.50.12), run over
/// the clusters of a paragraph: each cluster's script is that of the script run it falls in.
///
/// - Common, Inherited **and Unknown** (unassigned and private-use code points: icon fonts)
///   are not "real" scripts (REAL_SCRIPT): they join the run they are in, and a run of them
///   alone is Common. Before, Unknown kept a script of its own, so `aש \u{F007}` put the
///   icon in a run apart from the space before it (PANGO_RULES.md, "Itemization").
/// - A run takes the first real script in it: leading neutrals take the script after them.
/// - Paired punctuation (the `paired_chars` table): an opening character is pushed with the
///   run's script; its closing partner takes that script, even when another script came in
///   between, so `স“d”` gives the closing quote Bengali, not Latin.
enum ScriptRuns {
    static let common = Int32(FIT_SCRIPT_COMMON)

    /// REAL_SCRIPT in pango-script.c.
    @inline(__always) static func isReal(_ script: Int32) -> Bool {
        script > Int32(FIT_SCRIPT_INHERITED) && script != Int32(FIT_SCRIPT_UNKNOWN)
    }

    /// Replaces each cluster's raw script (ICU's, of its first code point) with its run's.
    /// `pairIndex(c)` is ``pairIndex(_:)`` of cluster `c`'s first code point; it is asked
    /// only for Common clusters. Linear: each cluster is looked at at most twice (once more
    /// when it ends a run), and the stack is bounded.
    static func resolve(_ scripts: inout [Int32], pairIndex: (Int) -> Int) {
        let n = scripts.count
        guard n > 0 else { return }
        // The paren stack, as Pango keeps it: PAREN_STACK_DEPTH entries, wrapping to the
        // bottom when full (deep nesting is then ignored, as in Pango).
        let depth = 128
        var stackPair = [Int](repeating: 0, count: 0)
        var stackScript = [Int32](repeating: 0, count: 0)
        var sp = -1
        var code = common
        var startSp = -1
        var runStart = 0
        var c = 0
        var reprocessing = false
        while c < n {
            var script = scripts[c]
            let pair = script == common ? pairIndex(c) : -1
            if pair >= 0 {
                if pair & 1 == 0 {
                    // The bracket is pushed once, not again when it is looked at a second time
                    // (an opening character never ends a run, so that cannot happen; kept safe).
                    if !reprocessing {
                        sp += 1
                        if sp >= depth { sp = 0 }
                        if stackPair.count <= sp {
                            stackPair.append(pair)
                            stackScript.append(code)
                        } else {
                            stackPair[sp] = pair
                            stackScript[sp] = code
                        }
                    }
                } else if sp >= 0 {
                    let open = pair & ~1
                    while sp >= 0 && stackPair[sp] != open { sp -= 1 }
                    if sp < startSp { startSp = sp }
                    if sp >= 0 { script = stackScript[sp] }
                }
            }
            if !isReal(code) || !isReal(script) || code == script {
                if !isReal(code) && isReal(script) {
                    code = script
                    // Brackets pushed before the run knew its script get it now.
                    while startSp < sp {
                        startSp += 1
                        stackScript[startSp] = code
                    }
                }
                if pair >= 0 && pair & 1 == 1 && sp >= 0 {
                    sp -= 1
                    if sp < startSp { startSp = sp }
                }
                c += 1
                reprocessing = false
            } else {
                // Another script: the run ends before this cluster, which starts the next
                // (looked at again, as Pango's next call starts at it).
                for k in runStart..<c { scripts[k] = code }
                runStart = c
                code = common
                startSp = sp
                reprocessing = true
            }
        }
        for k in runStart..<n { scripts[k] = code }
    }

    /// Index of `c` in Pango's paired_chars table (even: opening, odd: closing), or -1.
    static func pairIndex(_ c: UInt32) -> Int {
        guard c >= 0x28 else { return -1 }
        var lower = 0
        var upper = pairedCharacters.count - 1
        while lower <= upper {
            let mid = (lower + upper) / 2
            if c < pairedCharacters[mid] {
                upper = mid - 1
            } else if c > pairedCharacters[mid] {
                lower = mid + 1
            } else {
                return mid
            }
        }
        return -1
    }

    /// pango-script.c paired_chars (opening, closing), sorted.
    static let pairedCharacters: [UInt32] = [
        0x0028, 0x0029, 0x003c, 0x003e, 0x005b, 0x005d, 0x007b, 0x007d, 0x00ab, 0x00bb,
        0x0f3a, 0x0f3b, 0x0f3c, 0x0f3d, 0x169b, 0x169c, 0x2018, 0x2019, 0x201c, 0x201d,
        0x2039, 0x203a, 0x2045, 0x2046, 0x207d, 0x207e, 0x208d, 0x208e, 0x27e6, 0x27e7,
        0x27e8, 0x27e9, 0x27ea, 0x27eb, 0x27ec, 0x27ed, 0x27ee, 0x27ef, 0x2983, 0x2984,
        0x2985, 0x2986, 0x2987, 0x2988, 0x2989, 0x298a, 0x298b, 0x298c, 0x298d, 0x298e,
        0x298f, 0x2990, 0x2991, 0x2992, 0x2993, 0x2994, 0x2995, 0x2996, 0x2997, 0x2998,
        0x29fc, 0x29fd, 0x2e02, 0x2e03, 0x2e04, 0x2e05, 0x2e09, 0x2e0a, 0x2e0c, 0x2e0d,
        0x2e1c, 0x2e1d, 0x2e20, 0x2e21, 0x2e22, 0x2e23, 0x2e24, 0x2e25, 0x2e26, 0x2e27,
        0x2e28, 0x2e29, 0x3008, 0x3009, 0x300a, 0x300b, 0x300c, 0x300d, 0x300e, 0x300f,
        0x3010, 0x3011, 0x3014, 0x3015, 0x3016, 0x3017, 0x3018, 0x3019, 0x301a, 0x301b,
        0xfe59, 0xfe5a, 0xfe5b, 0xfe5c, 0xfe5d, 0xfe5e, 0xff08, 0xff09, 0xff3b, 0xff3d,
        0xff5b, 0xff5d, 0xff5f, 0xff60, 0xff62, 0xff63,
    ]
}
