import FitTypes
import Testing

@testable import fitctl

/// --batch reads its options through MeasureOptions: an option the table has and a request
/// line cannot name would be silently unreachable from --batch.
@Suite struct BatchFieldsTests {
    @Test func everyMeasureOptionIsARequestLineField() {
        for option in MeasureOptions.all {
            #expect(RequestFields.Field(named: option.name) != nil, "\(option.name)")
        }
    }
}
