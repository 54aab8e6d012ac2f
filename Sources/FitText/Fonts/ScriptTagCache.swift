import CFitShims
import CHarfBuzz
import Synchronization

/// ICU script codes → HarfBuzz scripts, through their shared ISO 15924 tags ("Arab").
final class ScriptTagCache: Sendable {
    private let table: Mutex<[Int32: UInt32]> = Mutex([:])

    func hbScript(_ icuScript: Int32) -> hb_script_t {
        if let cached = table.withLock({ $0[icuScript] }) { return hb_script_t(rawValue: cached) }
        var script = HB_SCRIPT_COMMON
        if icuScript > 1, let name = fit_script_short_name(icuScript) {
            script = hb_script_from_string(name, -1)
        }
        table.withLock { $0[icuScript] = script.rawValue }
        return script
    }
}
