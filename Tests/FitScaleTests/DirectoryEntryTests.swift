import Foundation
import Testing

@testable import FitScale

/// readdir(3) records are d_reclen bytes, usually far shorter than struct dirent: the name is
/// read through a pointer to d_name, never by copying the struct (a copy can read past
/// glibc's buffer and crash fitd at start). Under `make test-sanitizers` ASan reports
/// any read past the buffer, which this directory (more than glibc's 32 KiB buffer of
/// records, names up to NAME_MAX) makes likely for the last record of each batch.
@Suite struct DirectoryEntryTests {
    @Test func everyNameIsReadExactlyAsFarAsItsRecord() throws {
        let sandbox = try Sandbox()
        let root = sandbox.root + "/many"
        #expect(mkdir(root, 0o700) == 0)
        var expected: Set<String> = [".", ".."]
        for length in 1...255 {
            for variant in 0..<4 {
                let name = String(repeating: Character(UnicodeScalar(UInt8(97 + variant))), count: length)
                expected.insert(name)
                #expect(mkdir(root + "/" + name, 0o700) == 0)
            }
        }
        // Multi-byte UTF-8 names, 85 × 3 = 255 bytes at most.
        for count in [1, 42, 85] {
            let name = String(repeating: "é€", count: count).prefix(count).description
            if expected.insert(name).inserted { #expect(mkdir(root + "/" + name, 0o700) == 0) }
        }
        guard let directory = opendir(root) else {
            Issue.record("opendir failed: errno \(errno)")
            return
        }
        defer { closedir(directory) }
        var seen: Set<String> = []
        while let entry = readdir(directory) {
            let name = try #require(DirectoryEntry.name(entry))
            #expect(seen.insert(name).inserted, "\(name) twice")
        }
        #expect(seen == expected)
    }
}
