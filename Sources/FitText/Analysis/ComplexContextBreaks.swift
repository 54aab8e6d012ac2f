import CFitShims
import CThai
import Synchronization

/// Line breaks inside complex-context text (UAX #14 class SA: Thai, Lao, Khmer, Myanmar…) as
/// Pango 1.50 makes them, which is not ICU's way: Pango's own UAX #14 pass reads SA as AL
/// (break.c, "Rule LB1"; ``PangoLineBreaks``), so nothing breaks between two such letters, and
/// only Thai gets breaks back, from libthai's dictionary (break-thai.c), in each item whose
/// script is Thai; this adds those. ICU breaks every SA script with dictionaries of its own.
/// PANGO_RULES.md, "Breaking and GTK 3 metrics".
enum ComplexContextBreaks {
    /// libthai's breaker with its default dictionary, opened on first use and kept, as Pango
    /// keeps its one `thai_brk`, and used under a lock as Pango does (G_LOCK (thai_brk)):
    /// 0 not yet opened, -1 could not be opened (no dictionary: no Thai breaks, as Pango
    /// without libthai), otherwise the ThBrk's address.
    private static let thai = Mutex<Int>(0)

    /// Whether `text` may hold an SA character (a cheap look at the UTF-16 units: the blocks
    /// of the SA scripts, and the high surrogate of Ahom's).
    static func mayApply(to text: UnsafeBufferPointer<UInt16>) -> Bool {
        for unit in text where unit >= 0xE00 {
            switch unit {
            case 0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF, 0x1950...0x1AAF, 0xA9E0...0xA9FF, 0xAA60...0xAADF, 0xD805:
                return true
            default: continue
            }
        }
        return false
    }

    /// Adds libthai's breaks to Pango's line-break opportunities (`canBreak[c]`: before cluster
    /// c) of a paragraph.
    static func tailor(_ text: UnsafeBufferPointer<UInt16>, graphemeStarts starts: [Int32], canBreak: inout [Bool]) {
        guard mayApply(to: text) else { return }
        let clusters = starts.count - 1
        var offsets: [Int32] = []
        var scalars: [UInt32] = []
        offsets.reserveCapacity(text.count)
        scalars.reserveCapacity(text.count)
        var i = 0
        while i < text.count {
            let scalar = TextAnalyzer.scalar(at: i, in: text)
            offsets.append(Int32(i))
            scalars.append(scalar)
            i += scalar > 0xFFFF ? 2 : 1
        }
        // The cluster starting at a UTF-16 offset, if one does (starts are increasing).
        func cluster(at offset: Int32) -> Int? {
            var low = 0
            var high = clusters
            while low < high {
                let mid = (low + high) / 2
                if starts[mid] < offset { low = mid + 1 } else { high = mid }
            }
            return low < clusters && starts[low] == offset && low > 0 ? low : nil
        }
        // libthai's breaks in each Thai item: Thai characters and the Common and Inherited
        // ones that follow them (itemize.c: they take the preceding script).
        var k = 0
        while k < scalars.count {
            guard fit_script(scalars[k]) == Int32(FIT_SCRIPT_THAI) else { k += 1; continue }
            var end = k + 1
            while end < scalars.count {
                let script = fit_script(scalars[end])
                guard script == Int32(FIT_SCRIPT_THAI) || script == Int32(FIT_SCRIPT_COMMON)
                    || script == Int32(FIT_SCRIPT_INHERITED)
                else { break }
                end += 1
            }
            for position in thaiBreaks(scalars[k..<end]) where position > 0 && position < end - k {
                if let c = cluster(at: offsets[k + position]) { canBreak[c] = true }
            }
            k = end
        }
    }

    /// Where libthai breaks a run of text: code point offsets into it (break-thai.c: the text
    /// as TIS-620, NUL-terminated, and room for as many positions as it has characters).
    static func thaiBreaks(_ scalars: ArraySlice<UInt32>) -> [Int] {
        var tis: [thchar_t] = []
        tis.reserveCapacity(scalars.count + 1)
        for scalar in scalars { tis.append(th_uni2tis(thwchar_t(truncatingIfNeeded: scalar))) }
        tis.append(0)
        var positions = [Int32](repeating: 0, count: tis.count)
        let count = thai.withLock { state -> Int32 in
            if state == 0 { state = th_brk_new(nil).map { Int(bitPattern: $0) } ?? -1 }
            guard state != -1, let breaker = OpaquePointer(bitPattern: state) else { return 0 }
            return positions.withUnsafeMutableBufferPointer { out in
                th_brk_find_breaks(breaker, tis, out.baseAddress, out.count)
            }
        }
        return positions.prefix(Int(max(0, min(count, Int32(positions.count))))).map { Int($0) }
    }
}
