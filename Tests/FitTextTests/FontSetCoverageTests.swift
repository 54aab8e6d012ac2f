import Foundation
import Testing

@testable import FitText

/// FontSet.faceIndex(covering:) for a cluster of several code points answers from the
/// per-code-point tables when they agree; it must answer what the definition does: the first
/// face covering every code point that needs a glyph, else the first covering the first
/// code point, else 0.
@Suite struct FontSetCoverageTests {
    static func byDefinition(_ set: FontSet, _ scalars: [UInt32]) -> Int {
        let needed = scalars.filter { !FontSet.isDefaultIgnorable($0) }
        if let index = set.listed.first(where: { face in needed.allSatisfy { set.faceCovers(face, $0) } }) { return index }
        return (0..<set.count).first { set.faceCovers($0, scalars[0]) } ?? 0
    }

    @Test func aClusterGetsTheFaceTheDefinitionGives() throws {
        _ = try TestEngine.engine()  // the pinned fonts
        let resolver = try FontResolver(rounding: .none)
        let set = try resolver.fontSet(for: try FontDescription.parse("Noto Sans 12"), pixelSize: 16)
        #expect(set.count > 3)
        // Letters with marks, a mark no face has, scripts the first face lacks, CJK (the
        // block table), emoji and astral letters (the charset), joiners and variation
        // selectors, a cluster led by an invisible, mixes whose first faces differ.
        let clusters: [[UInt32]] = [
            [0x65, 0x301], [0x41, 0x30A, 0x323], [0x928, 0x94D], [0x915, 0x94D, 0x937],
            [0x5D0, 0x5B8], [0x627, 0x64B], [0xE01, 0xE49], [0x4E00, 0x3099], [0xAC00, 0x302E],
            [0x1F469, 0x200D, 0x1F4BB], [0x2764, 0xFE0F], [0x200D, 0x41], [0x41, 0x10FFFD],
            [0x41, 0x5D0], [0x5D0, 0x41], [0x10330, 0x10331], [0x41, 0xE0001], [0x0531, 0x0301],
            [0x1100, 0x1161, 0x11A8], [0x30, 0xFE0F, 0x20E3], [0x61C, 0x627], [0x10FFFD, 0x41],
        ]
        for cluster in clusters {
            #expect(set.faceIndex(covering: cluster) == Self.byDefinition(set, cluster), "cluster \(cluster.map { String($0, radix: 16) })")
        }
        // Every pair of a letter from a few blocks and a combining mark.
        let letters: [UInt32] = [0x41, 0x3B1, 0x416, 0x5D0, 0x627, 0x915, 0xE01, 0x10D0, 0x4E00, 0xAC00, 0x1F600]
        let marks: [UInt32] = [0x300, 0x308, 0x5B4, 0x650, 0x93C, 0xE48, 0x302A, 0x20DD, 0xFE0E]
        for letter in letters {
            for mark in marks {
                #expect(set.faceIndex(covering: [letter, mark]) == Self.byDefinition(set, [letter, mark]), "\(String(letter, radix: 16)) + \(String(mark, radix: 16))")
            }
        }
    }

    /// The table of first faces below U+0800, read a charset page at a time, answers what
    /// asking each face in turn does, for every code point, in sets whose first faces differ.
    @Test(arguments: [("Noto Sans 12", nil), ("DejaVu Serif 10", "ar"), ("Noto Sans CJK JP 12", "ja"), ("monospace 11", "he")])
    func everyCodePointBelowU0800GetsItsFirstCoveringFace(_ font: String, _ language: String?) throws {
        _ = try TestEngine.engine()  // the pinned fonts
        let resolver = try FontResolver(rounding: .none)
        let set = try resolver.fontSet(for: try FontDescription.parse(font), pixelSize: 16, language: language)
        for scalar in UInt32(0)..<0x800 {
            let expected: Int
            if FontSet.isDefaultIgnorable(scalar) && scalar != 0x061C {
                expected = 0
            } else {
                expected = (0..<set.count).first { set.faceCovers($0, scalar) } ?? 0
            }
            #expect(set.faceIndex(covering: scalar) == expected, "U+\(String(scalar, radix: 16)) in \(font)")
        }
    }

    /// The rest of the BMP, filled a block of 256 at a time (a font asked first whether it
    /// has any of the block), answers what asking each face in turn does, for every code
    /// point: CJK, Hangul, symbols, the surrogate and private-use blocks, U+FFFx.
    @Test(arguments: [("Noto Sans 12", nil), ("Noto Sans CJK JP 12", "ja")])
    func everyBMPCodePointAboveU0800GetsItsFirstCoveringFace(_ font: String, _ language: String?) throws {
        _ = try TestEngine.engine()  // the pinned fonts
        let resolver = try FontResolver(rounding: .none)
        let set = try resolver.fontSet(for: try FontDescription.parse(font), pixelSize: 16, language: language)
        var wrong: [String] = []
        for scalar in UInt32(0x800)...0xFFFF {
            let expected: Int
            if FontSet.isDefaultIgnorable(scalar) {
                expected = 0
            } else {
                expected = (0..<set.count).first { set.faceCovers($0, scalar) } ?? 0
            }
            if set.faceIndex(covering: scalar) != expected { wrong.append("U+\(String(scalar, radix: 16))") }
        }
        let wrongCount = wrong.count
        #expect(wrongCount == 0, "in \(font), first \(wrong.prefix(10))")
    }

    /// A set sorts untrimmed and trims when asked; what it lists is what fontconfig's own
    /// trimming keeps (the same patterns, in order), on the pinned fonts and on the
    /// system's configuration, for requests whose first faces and languages differ.
    @Test(arguments: [nil, "/etc/fonts/fonts.conf"])
    func aSetListsWhatFontconfigsTrimmedSortKeeps(_ configuration: String?) throws {
        _ = try TestEngine.engine()  // the pinned fonts
        if let configuration, !FileManager.default.fileExists(atPath: configuration) { return }
        let resolver = try FontResolver(rounding: .none, configurationFile: configuration)
        let requests: [(String, Double, String?)] = [
            ("Noto Sans 12", 16, nil), ("DejaVu Serif 10", 13, "ar"), ("Noto Sans CJK JP 12", 16, "ja"), ("monospace 11", 15, "he"),
            ("sans-serif Bold 30", 40, "zh-cn"), ("Nope Nope 9", 12, "hi"), ("emoji 12", 16, nil), ("serif Italic 8", 11, "ru"),
        ]
        for (font, size, language) in requests {
            let description = try FontDescription.parse(font)
            let trimmed = try resolver.sortedFonts(for: description, pixelSize: size, language: language, trim: true)
            let whole = try resolver.sortedFonts(for: description, pixelSize: size, language: language, trim: false)
            // The pinned fonts overlap (several Noto and DejaVu styles): the trim drops some.
            if configuration == nil { #expect(whole.count > trimmed.count, "\(font)") }
            let listed = whole.listed.map { whole.fonts[$0] }
            let same = listed == trimmed.fonts
            #expect(same, "\(font) \(language ?? ""): \(listed.count) listed, fontconfig keeps \(trimmed.fonts.count)")
        }
    }

    /// A set prepares (FcFontRenderPrepare) only the faces it uses, as Pango's fontsets do:
    /// Latin text in a set of hundreds of faces prepares its first face and no other.
    @Test func aSetPreparesOnlyTheFacesItUses() throws {
        _ = try TestEngine.engine()
        let resolver = try FontResolver(rounding: .none)
        let set = try resolver.fontSet(for: try FontDescription.parse("Noto Sans 12"), pixelSize: 16)
        #expect(set.count > 50)
        #expect(set.preparedCount == 1)
        for scalar in "Hello, world".unicodeScalars { _ = try set.font(at: set.faceIndex(covering: scalar.value)) }
        #expect(set.preparedCount == 1)
        // A character the first face lacks prepares the face that has it, and only it.
        let han = set.faceIndex(covering: 0x4E00)
        #expect(han > 0)
        _ = try set.font(at: han)
        #expect(set.preparedCount == 2)
        #expect(try set.face(at: han).file.contains("CJK"))
        #expect(try set.preparedFaces().count == set.listed.count)
        #expect(set.preparedCount == set.listed.count)
    }

    /// The pinned fonts' configuration file and a new directory for configurations that
    /// include it (the caller removes it).
    static func pinnedConfigurationAndScratchDirectory() throws -> (String, URL) {
        _ = try TestEngine.engine()
        let pinned = try #require(ProcessInfo.processInfo.environment["FONTCONFIG_FILE"])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fitd-charset-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (pinned, directory)
    }

    /// A configuration whose font rules edit a charset: Pango reads coverage from the
    /// prepared pattern, and so must the set. Here Noto Sans loses its Cyrillic when prepared,
    /// so Cyrillic goes to a fallback face, as in Pango; with the pinned configuration alone
    /// Noto Sans (face 0) has it.
    @Test func aConfigurationThatEditsCharsetsIsReadAsPrepared() throws {
        let (pinned, directory) = try Self.pinnedConfigurationAndScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("fonts.conf")
        try """
            <?xml version="1.0"?>
            <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
            <fontconfig>
              <include>\(pinned)</include>
              <match target="font">
                <test name="family"><string>Noto Sans</string></test>
                <edit name="charset" mode="assign">
                  <minus><name>charset</name><charset><range><int>0x0400</int><int>0x04FF</int></range></charset></minus>
                </edit>
              </match>
            </fontconfig>
            """.write(to: file, atomically: true, encoding: .utf8)
        let description = try FontDescription.parse("Noto Sans 12")
        let plain = try FontResolver(rounding: .none, configurationFile: pinned)
        #expect(!plain.editsCharsets)
        let plainSet = try plain.fontSet(for: description, pixelSize: 16)
        #expect(try plainSet.face(at: 0).family == "Noto Sans")
        #expect(plainSet.faceIndex(covering: 0x0416) == 0)
        let edited = try FontResolver(rounding: .none, configurationFile: file.path)
        #expect(edited.editsCharsets)
        let set = try edited.fontSet(for: description, pixelSize: 16)
        #expect(try set.face(at: 0).family == "Noto Sans")
        #expect(set.faceIndex(covering: 0x41) == 0)
        let cyrillic = set.faceIndex(covering: 0x0416)
        #expect(cyrillic > 0)
        #expect(try set.face(at: cyrillic).family != "Noto Sans")
    }

    /// The configuration's files are read in pieces: a rule naming "charset" across the
    /// boundary of two pieces (16 KiB) is still found; a file without one is not flagged.
    @Test func aCharsetRuleAcrossTwoReadsIsFound() throws {
        let (pinned, directory) = try Self.pinnedConfigurationAndScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func configuration(padding: Int, rule: Bool) throws -> String {
            let head = "<?xml version=\"1.0\"?>\n<fontconfig>\n<include>\(pinned)</include>\n<!-- "
            let comment = String(repeating: "x", count: padding) + " -->\n"
            let body = rule ? "<match target=\"font\"><edit name=\"charset\" mode=\"assign\"><name>charset</name></edit></match>\n" : ""
            let file = directory.appendingPathComponent("fonts-\(padding)-\(rule).conf")
            try (head + comment + body + "</fontconfig>\n").write(to: file, atomically: true, encoding: .utf8)
            return file.path
        }
        // Where the rule's "charset" starts, for this head: put it 3 bytes before 16 KiB.
        let head = "<?xml version=\"1.0\"?>\n<fontconfig>\n<include>\(pinned)</include>\n<!-- ".utf8.count
        let before = " -->\n<match target=\"font\"><edit name=".utf8.count
        let padding = (16 << 10) - 3 - head - before
        #expect(try FontResolver(rounding: .none, configurationFile: configuration(padding: padding, rule: true)).editsCharsets)
        #expect(try !FontResolver(rounding: .none, configurationFile: configuration(padding: padding, rule: false)).editsCharsets)
    }

    /// A configuration that includes a directory, as the system's includes conf.d: fontconfig
    /// lists the directory among its files, and it is no reason to prepare every font; a
    /// charset rule in one of the directory's files still is.
    @Test func anIncludedDirectoryIsReadFileByFile() throws {
        let (pinned, directory) = try Self.pinnedConfigurationAndScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, rule) in [("plain", false), ("edits", true)] {
            let confD = directory.appendingPathComponent("\(name).d")
            try FileManager.default.createDirectory(at: confD, withIntermediateDirectories: true)
            let body = rule ? "<match target=\"font\"><edit name=\"charset\" mode=\"assign\"><name>charset</name></edit></match>" : "<match><edit name=\"dpi\"><double>96</double></edit></match>"
            try "<?xml version=\"1.0\"?>\n<fontconfig>\(body)</fontconfig>\n".write(
                to: confD.appendingPathComponent("50-rule.conf"), atomically: true, encoding: .utf8)
            let file = directory.appendingPathComponent("\(name).conf")
            try "<?xml version=\"1.0\"?>\n<fontconfig>\n<include>\(pinned)</include>\n<include>\(confD.path)</include>\n</fontconfig>\n".write(
                to: file, atomically: true, encoding: .utf8)
            #expect(try FontResolver(rounding: .none, configurationFile: file.path).editsCharsets == rule, "\(name)")
        }
    }
}
