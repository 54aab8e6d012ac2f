import Testing

@testable import FitTypes

/// MeasureOptions is the one table of Measure's options: every field of a request is an
/// option there (or its text and font), every option reaches the request, and a request
/// differing in any option is another cache key.
@Suite struct MeasureOptionsTests {
    /// A field added to MeasureRequest without a row here would be unreachable from D-Bus,
    /// --batch and the flags, and could be left out of `==` and `hash` with no test noticing.
    @Test func everyFieldOfARequestIsAnOptionOrItsTextAndFont() {
        let base = MeasureRequest(text: "x")
        let fields = Set(Mirror(reflecting: base).children.compactMap(\.label))
        var reached: Set<String> = ["text", "font"]
        for option in MeasureOptions.all {
            var changed = base
            #expect(throws: Never.self, "\(option.name)") { try option.apply(&changed, option.sample) }
            let before = Mirror(reflecting: base).children
            let after = Mirror(reflecting: changed).children
            let moved = zip(before, after).filter { "\($0.value)" != "\($1.value)" }.compactMap(\.0.label)
            #expect(moved.count == 1, "\(option.name)'s sample changed \(moved), not one field")
            reached.formUnion(moved)
        }
        #expect(reached == fields, "fields no option sets: \(fields.subtracting(reached).sorted())")
    }

    /// Equality and hash are hand-written for speed (MeasureRequest.swift): each option's
    /// sample must make another key, else a cache would answer one request with another's result.
    @Test func aRequestDifferingInAnyOptionIsAnotherCacheKey() throws {
        let base = MeasureRequest(text: "Hello", font: "Sans 10")
        for option in MeasureOptions.all {
            var changed = base
            try option.apply(&changed, option.sample)
            #expect(changed != base, "\(option.name) is not in ==")
            #expect(changed.hashValue != base.hashValue, "\(option.name) is not in hash(into:)")
        }
    }

    /// What a request gives back for an option is what it takes: a client sends it, the
    /// daemon applies it, and the two requests are equal.
    @Test func anOptionsValueTakenBackGivesTheSameRequest() throws {
        for option in MeasureOptions.all {
            var sent = MeasureRequest(text: "x")
            try option.apply(&sent, option.sample)
            let value = try #require(option.value(sent), "\(option.name) gives nothing back for its sample")
            var received = MeasureRequest(text: "x")
            try option.apply(&received, value)
            #expect(received == sent, "\(option.name)")
        }
    }

    @Test func aValueOfTheWrongShapeIsRefusedNamingTheOption() {
        for option in MeasureOptions.all {
            let wrong: OptionValue = option.kind == .bool ? .string("yes") : .bool(true)
            var request = MeasureRequest(text: "x")
            do {
                try option.apply(&request, wrong)
                Issue.record("\(option.name) took \(wrong)")
            } catch {
                #expect(error == option.wrongShape, "\(option.name): \(error)")
            }
        }
    }

    @Test func maxLinesBelowOneIsRefusedInOneWording() {
        var request = MeasureRequest(text: "x")
        #expect(throws: MeasureRequest.maxLinesError(0)) { try MeasureOptions.maxLines.apply(&request, .number(0)) }
        request.maxLines = 0
        #expect(throws: MeasureRequest.maxLinesError(0)) { try request.validate() }
    }
}
