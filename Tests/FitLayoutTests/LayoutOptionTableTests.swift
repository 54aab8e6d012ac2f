import FitTypes
import Testing

@testable import FitLayout

/// LayoutOptionTable is the one table of Layout's options: every field of LayoutOptions is an
/// option there, every option reaches its field, and options differing in any of them are
/// another layout cache key.
@Suite struct LayoutOptionTableTests {
    /// A field added to LayoutOptions without a row would be unreachable from D-Bus and the
    /// flags, and could be left out of LayoutCacheKey's digest with no test noticing.
    @Test func everyFieldOfTheOptionsIsAnOptionOfTheTable() {
        let base = LayoutOptions()
        let fields = Set(Mirror(reflecting: base).children.compactMap(\.label))
        var reached: Set<String> = []
        for option in LayoutOptionTable.all {
            var changed = base
            #expect(throws: Never.self, "\(option.name)") { try option.apply(&changed, option.sample) }
            let moved = zip(Mirror(reflecting: base).children, Mirror(reflecting: changed).children)
                .filter { "\($0.value)" != "\($1.value)" }.compactMap(\.0.label)
            #expect(moved.count == 1, "\(option.name)'s sample changed \(moved), not one field")
            reached.formUnion(moved)
        }
        #expect(reached == fields, "fields no option sets: \(fields.subtracting(reached).sorted())")
    }

    /// The digest is a hand-written stable hash (LayoutCacheKey.swift): each option's sample
    /// must change it, else two layouts asked with different options would share a bucket
    /// and a persisted digest would name the wrong layout.
    @Test func optionsDifferingInAnyOptionAreAnotherCacheKey() throws {
        let document = try LayoutDocument(json: #"{"nodes": [{"id": "t", "kind": "text", "text": "Hello"}]}"#)
        let proposal = ProposedSize(width: 100, height: nil)
        let base = LayoutCacheKey(document: document, proposal: proposal, options: LayoutOptions())
        for option in LayoutOptionTable.all {
            var changed = LayoutOptions()
            try option.apply(&changed, option.sample)
            let key = LayoutCacheKey(document: document, proposal: proposal, options: changed)
            #expect(key != base, "\(option.name) is not in ==")
            #expect(key.digest != base.digest, "\(option.name) is not in the digest")
        }
    }

    @Test func anOptionsValueTakenBackGivesTheSameOptions() throws {
        for option in LayoutOptionTable.all {
            var sent = LayoutOptions()
            try option.apply(&sent, option.sample)
            let value = try #require(option.value(sent), "\(option.name) gives nothing back for its sample")
            var received = LayoutOptions()
            try option.apply(&received, value)
            #expect(received == sent, "\(option.name)")
        }
    }

    @Test func aValueOfTheWrongShapeIsRefusedNamingTheOption() {
        for option in LayoutOptionTable.all {
            let wrong: OptionValue = option.kind == .bool ? .string("yes") : .bool(true)
            var options = LayoutOptions()
            do {
                try option.apply(&options, wrong)
                Issue.record("\(option.name) took \(wrong)")
            } catch {
                #expect(error == option.wrongShape, "\(option.name): \(error)")
            }
        }
    }

    @Test func outOfRangeValuesAreRefusedNamingTheOption() {
        let bad: [(LayoutOptionTable.Option, OptionValue)] = [
            (LayoutOptionTable.unit, .string("pt")), (LayoutOptionTable.sizeCategory, .string("huge")),
            (LayoutOptionTable.spacing, .number(-1)), (LayoutOptionTable.spacing, .number(.infinity)),
            (LayoutOptionTable.textScale, .number(9)), (LayoutOptionTable.breakpoints, .range(600, 100)),
            (LayoutOptionTable.breakpoints, .range(.nan, 10)), (LayoutOptionTable.breakpoints, .range(0, 2e6)),
            (LayoutOptionTable.metrics, .string("qt6")), (LayoutOptionTable.uiFont, .string("")),
        ]
        for (option, value) in bad {
            var options = LayoutOptions()
            do {
                try option.apply(&options, value)
                Issue.record("\(option.name) took \(value)")
            } catch {
                guard case .invalidArgument(let name, _) = error else { Issue.record("\(option.name): \(error)"); continue }
                #expect(name == option.name || option.name == "metrics", "\(option.name): \(error)")
            }
        }
    }
}
