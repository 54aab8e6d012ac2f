import FitTypes

/// Cooperative cancellation inside one long text, so that a departed client's work stops
/// within about a second (docs/reliability.md). The daemon checks `Task.isCancelled` between a
/// batch's entries, but one entry may be 1 MiB of text: a million empty paragraphs, or half a
/// million lines of one paragraph. The layouts check here between paragraphs, between the
/// stages of a long paragraph and between lines, and throw ``FitTextError/cancelled`` when the
/// task that measures was cancelled.
///
/// A check costs a read of the current task (thread-local) and of its status; it is made
/// once per `unitsBetweenChecks` UTF-16 units of paragraphs and once per `linesBetweenChecks`
/// lines, so a short text, the common case, is never checked at all.
struct FitTextCancellation {
    /// A few milliseconds of measuring in a release build (a million empty paragraphs take
    /// 0.5 s, half a million one-word lines 0.6 s: `fitctl measure --batch --local` on
    /// Tests/Reliability/isolation.py's texts): far finer than the second the target allows,
    /// far coarser than the check's cost.
    static let unitsBetweenChecks = 4096
    static let linesBetweenChecks = 1024

    private var units = 0

    /// Before a paragraph of `count` UTF-16 units: checks when the paragraphs measured since
    /// the last check came to `unitsBetweenChecks` (a long paragraph checks its own stages).
    @inline(__always)
    mutating func paragraph(units count: Int) throws(FitTextError) {
        if units >= Self.unitsBetweenChecks {
            units = 0
            try Self.check()
        }
        units += count + 1
    }

    /// Checks after a stage (analysis and shaping, line breaking) of a paragraph of at
    /// least `unitsBetweenChecks` units: one paragraph may be the whole 1 MiB.
    @inline(__always)
    static func stage(ofParagraph count: Int) throws(FitTextError) {
        if count >= unitsBetweenChecks { try check() }
    }

    /// Checks after every `linesBetweenChecks` lines of a paragraph (`index` from 0).
    @inline(__always)
    static func line(_ index: Int) throws(FitTextError) {
        if index % linesBetweenChecks == linesBetweenChecks - 1 { try check() }
    }

    static func check() throws(FitTextError) {
        if Task.isCancelled { throw .cancelled }
    }
}
