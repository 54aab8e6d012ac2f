import Testing

@testable import FitText

/// FontSet.faceIndex(covering:) for a cluster of several code points answers from the
/// per-code-point tables when they agree; it must answer what the definition does: the first
/// face covering every code point that needs a glyph, else the first covering the first
/// code point, else 0.
@Suite struct FontSetCoverageTests {
    static func byDefinition(_ set: FontSet, _ scalars: [UInt32]) -> Int {
        let needed = scalars.filter { !FontSet.isDefaultIgnorable($0) }
        if let index = set.faces.firstIndex(where: { face in needed.allSatisfy { face.covers($0) } }) { return index }
        return set.faces.firstIndex { $0.covers(scalars[0]) } ?? 0
    }

    @Test func aClusterGetsTheFaceTheDefinitionGives() throws {
        _ = try TestEngine.engine()  // the pinned fonts
        let resolver = try FontResolver(rounding: .none)
        let set = try resolver.fontSet(for: try FontDescription.parse("Noto Sans 12"), pixelSize: 16)
        #expect(set.faces.count > 3)
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
}
