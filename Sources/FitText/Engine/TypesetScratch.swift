import Synchronization

/// The per-cluster arrays of one paragraph (analysis, fonts, widths), kept from one
/// measurement to the next instead of allocated anew: each allocation of an array cost
/// about 500 instructions (most in the generic-metadata lookup of its storage class), and a
/// cold measurement made a dozen.
///
/// Used by one measurement at a time: ``ScratchPool`` hands each out to one caller and takes
/// it back, under its mutex — that hand-over is what makes the `@unchecked Sendable` safe.
///
/// For the same reason the arrays skip Swift's run-time exclusivity checks (each cost about
/// 60 instructions, 14 per paragraph): one measurement at a time holds the object, so two
/// accesses cannot overlap.
final class TypesetScratch: @unchecked Sendable {
    @exclusivity(unchecked) var starts: [Int32] = []
    @exclusivity(unchecked) var canBreak: [Bool] = []
    @exclusivity(unchecked) var white: [Bool] = []
    @exclusivity(unchecked) var levels: [UInt8] = []
    @exclusivity(unchecked) var scripts: [Int32] = []
    @exclusivity(unchecked) var fontOf: [Int32] = []
    @exclusivity(unchecked) var widths: [Double] = []
    @exclusivity(unchecked) var safe: [Bool] = []
    /// The request's text in UTF-16.
    @exclusivity(unchecked) var units: [UInt16] = []

    /// Takes an array out for filling: emptied, capacity kept (when nothing else holds it).
    static func take<T>(_ array: inout [T]) -> [T] {
        var taken: [T] = []
        swap(&taken, &array)
        taken.removeAll(keepingCapacity: true)
        return taken
    }

    /// Takes an array out holding `count` copies of `value`, in its storage when it has room:
    /// the elements it kept are overwritten in place (emptying it and appending again cost
    /// more than the fill).
    static func take<T>(_ array: inout [T], filledWith value: T, count: Int) -> [T] {
        var taken: [T] = []
        swap(&taken, &array)
        if taken.count > count { taken.removeLast(taken.count - count) }
        let kept = taken.count
        taken.withUnsafeMutableBufferPointer { $0.update(repeating: value) }
        if kept < count { taken.append(contentsOf: repeatElement(value, count: count - kept)) }
        return taken
    }

    /// Takes back the arrays of a paragraph that is done with. Swapped out of it, not
    /// assigned: each assignment retained an array that the paragraph's end released again,
    /// eight pairs per paragraph (callgrind: `reclaim` was 1.0 K instructions a string of
    /// FitBenchRatios' fitd-cold). What the paragraph gets back, and drops, is what the
    /// scratch held, which the assignments dropped too (mostly the empty arrays ``take(_:)``
    /// left when it handed them out).
    func reclaim(_ shaped: consuming ShapedParagraph) {
        var shaped = shaped
        swap(&starts, &shaped.analysis.graphemeStarts)
        swap(&canBreak, &shaped.analysis.canBreakBefore)
        swap(&white, &shaped.analysis.isWhiteSpace)
        swap(&levels, &shaped.analysis.levels)
        swap(&scripts, &shaped.analysis.scripts)
        swap(&fontOf, &shaped.fontOf)
        swap(&widths, &shaped.widths)
        swap(&safe, &shaped.safeBreak)
    }

    /// Whether the arrays are small enough to keep (a huge text's stay with it).
    var worthKeeping: Bool { starts.capacity <= 4096 && widths.capacity <= 4096 && units.capacity <= 16384 }
}

/// Idle ``TypesetScratch`` objects, at most 16 (one per thread measuring at once).
final class ScratchPool: Sendable {
    private let idle: Mutex<[TypesetScratch]> = Mutex([])

    func withScratch<R, E: Error>(_ body: (TypesetScratch) throws(E) -> R) throws(E) -> R {
        let scratch = idle.withLock { $0.popLast() } ?? TypesetScratch()
        defer {
            if scratch.worthKeeping {
                idle.withLock { list in if list.count < 16 { list.append(scratch) } }
            }
        }
        return try body(scratch)
    }
}
