import FitScale
import FitService
import FuzzSupport

// fitd.conf ($XDG_CONFIG_HOME/fitd/fitd.conf) as the daemon reads it: parsed strictly, the
// [limits] section read (ServiceLimits(config:)), then serialized and parsed again, which
// must give the same file (Set TextScale saves what it loaded). Also parsed leniently, as
// KDE's files are (no property: fitd never writes those).

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    Seeds.writeIfAsked {
        [
            "[limits]\nmax_text_bytes = 262144\nmax_batch = 10000\ncache_bytes = 67108864\n",
            "# fitd.conf, written by fitd\n[scale]\ntext_scale = 1.25\n\n[limits]\nmax_batch = 100\n",
            "; comment\n[scale]\ntext_scale=1.5\n[limits]\ncache_bytes=0\n",
            "[limits]\nmax_text_bytes = 0\n",
            "[limits]\nunknown = 1\n",
            "text_scale = 2\n",
            "[scale\n",
            "[limits]\nmax_batch = 99999999999999999999\n",
        ].enumerated().map { (name: "conf-\($0.offset)", bytes: Array($0.element.utf8)) }
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func test(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let text = input.rest()
    // Lenient: how KDE's files are read (KDESettingsProvider); fitd never writes those.
    _ = try? ConfigFile(parsing: text, path: "kdeglobals", strict: false)
    guard let config = try? ConfigFile(parsing: text, path: "fitd.conf", strict: true) else { return 0 }
    _ = try? ServiceLimits(config: config)
    let written = config.serialized(header: "written by the fuzzer")
    guard let again = try? ConfigFile(parsing: written, path: "fitd.conf", strict: true) else {
        fuzzFailure("\(text.debugDescription) serializes to \(written.debugDescription), which does not parse")
    }
    guard again == config else {
        fuzzFailure("\(text.debugDescription) serializes to \(written.debugDescription), which parses to another file")
    }
    return 0
}

@main enum Main {
    static func main() { runFuzzer(test) }
}
