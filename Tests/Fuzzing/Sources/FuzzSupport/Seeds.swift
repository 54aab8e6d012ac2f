import CLibFuzzer
#if canImport(Glibc)
import Glibc
#endif

/// Seeds are written by the targets themselves, from real requests built with the project's
/// own encoders: `FUZZ_WRITE_SEEDS=DIR fuzz-X -runs=0` writes them into DIR and exits
/// (scripts/fuzz --seeds). The committed corpora under Corpus/ come from there.
public enum Seeds {
    /// Call from LLVMFuzzerInitialize with the target's seeds (name, content).
    public static func writeIfAsked(_ make: () -> [(name: String, bytes: [UInt8])]) {
        guard let directory = getenv("FUZZ_WRITE_SEEDS").map({ String(cString: $0) }) else { return }
        for seed in make() {
            let path = directory + "/" + seed.name
            guard let file = fopen(path, "wb") else {
                printError("cannot write \(path)\n")
                exit(1)
            }
            _ = seed.bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
            fclose(file)
        }
        exit(0)
    }

    /// A whole file's bytes (the examples under protocol/), relative to the repository root,
    /// which is FITD_ROOT or else the working directory's.
    public static func file(_ relative: String) -> [UInt8] {
        let root = getenv("FITD_ROOT").map { String(cString: $0) } ?? "."
        guard let file = fopen(root + "/" + relative, "rb") else {
            printError("cannot read \(root)/\(relative)\n")
            exit(1)
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }

    /// The example documents of protocol/examples, by name.
    public static let exampleDocuments = [
        "exposure-scale-group", "first-fit-card", "fitting-column", "heart-rate-template",
        "icon-body-style", "payment-row-threshold", "uniform-list", "spacer-rows", "fitting-spacer-rows",
        "uniform-scroll-list", "exposure-overlay",
        // Nested form, forEach, hidden, background, grid.
        "template-cells", "heart-rate-grid", "tag-flow",
    ]
}

/// Stops the run with a message: a property the target checks does not hold. libFuzzer
/// treats the abort as a crash and saves the input.
public func fuzzFailure(_ message: String) -> Never {
    printError("fuzz property violated: \(message)\n")
    abort()
}

/// Writes to standard error (file descriptor 2; Swift 6 refuses the global `stderr`).
public func printError(_ text: String) {
    var text = text
    text.withUTF8 { buffer in _ = write(2, buffer.baseAddress, buffer.count) }
}

/// Runs libFuzzer on `test` with the process's arguments, and exits with its status.
public func runFuzzer(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, test))
}
