import FuzzSupport
#if canImport(Glibc)
import Glibc
#endif

@testable import FitText

// The persisted result file ($XDG_CACHE_HOME/fitd/results.bin; docs/caching.md, "A warm
// start"): a file on disk that the next fitd reads into memory and looks up in place. The
// input is the file. An input whose first byte is odd gets a header made valid (magic,
// version, fingerprint, size and checksum), so the fuzzer reaches the bucket table and the
// records behind it. Checks: no crash, no trap (the table checks every offset against the
// file's size before it reads); and what a save writes from it opens again, answering every
// request the input answered.

let engine: TextEngine? = {
    var configuration = TextEngine.Configuration()
    configuration.language = "en-us"
    configuration.resultCacheBytes = 1 << 20
    return try? TextEngine(configuration: configuration)
}()
let requests = [
    MeasureRequest(text: "Hello, world", font: "DejaVu Sans 10"),
    MeasureRequest(text: "Screen time this week", font: "DejaVu Sans 11", maxWidth: 60, includeLines: true),
    MeasureRequest(text: "cells │ 表", font: "", unit: .cells, includeLines: true),
]
let fingerprint: UInt64 = 42
// A fixed secret: the fuzzer cannot forge a record's tag under it, so what it reaches past the
// header is the checking of buckets, records and tags.
let secret = PersistenceSecret(bytes: Array(0..<32))
let directory = "/tmp/fitd-fuzz-result-file-\(getpid())"
let input = directory + "/in.bin", output = directory + "/out.bin"

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    mkdir(directory, 0o700)
    atexit {
        unlink(input)
        unlink(output)
        rmdir(directory)
    }
    Seeds.writeIfAsked {
        guard let engine, let secret else { return [] }
        for request in requests { _ = try? engine.measure(request) }
        let file = (engine.persistedFile(stamp: engine.stamp(fingerprint: fingerprint), secret: secret, byteLimit: 1 << 20)?.bytes ?? [])
        return [(name: "results-odd", bytes: [1] + file.dropFirst()), (name: "results-even", bytes: file)]
    }
    return 0
}

/// The input with a header that passes every check but the table's own: the fuzzer cannot
/// forge an FNV-1a checksum.
func repaired(_ bytes: [UInt8]) -> [UInt8] {
    guard bytes.count >= PersistedResultFormat.headerBytes else { return bytes }
    func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
    let buckets = 1 << (u32(24) % 16)
    let header = PersistedResultFormat.Header(
        fingerprint: fingerprint, bucketCount: buckets, entryCount: min(u32(28), buckets),
        bucketsOffset: PersistedResultFormat.headerBytes,
        recordsOffset: PersistedResultFormat.headerBytes + buckets * PersistedResultFormat.bucketBytes,
        fileBytes: bytes.count)
    return header.encoded() + bytes.dropFirst(PersistedResultFormat.headerBytes)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func test(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var bytes = FuzzInput(data, size).bytes
    if bytes.first.map({ $0 & 1 == 1 }) == true { bytes = repaired(bytes) }
    guard let file = fopen(input, "wb") else { fuzzFailure("cannot write \(input)") }
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
    guard let secret, let table = try? PersistedResultTable.open(path: input, fingerprint: fingerprint, secret: secret, byteLimit: 1 << 24) else { return 0 }
    let found = requests.map { table.metrics(for: $0) != nil }
    guard let engine else { return 0 }
    engine.removeCachedMeasurements()
    engine.attachPersistedResults(table)
    defer { engine.attachPersistedResults(nil) }
    do {
        try engine.savePersistedResults(to: output, stamp: engine.stamp(fingerprint: fingerprint), secret: secret)
        guard let saved = try PersistedResultTable.open(path: output, fingerprint: fingerprint, secret: secret, byteLimit: 1 << 24) else {
            fuzzFailure("a save wrote no file")
        }
        for (request, wasFound) in zip(requests, found) where wasFound && saved.metrics(for: request) == nil {
            fuzzFailure("\(request.text.debugDescription) was in the file read, not in the file saved")
        }
    } catch {
        fuzzFailure("what a save wrote does not open: \(error)")
    }
    return 0
}

@main enum Main {
    static func main() { runFuzzer(test) }
}
