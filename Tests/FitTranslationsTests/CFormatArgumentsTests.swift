import Testing

@testable import FitTranslations

/// A message's c-format placeholders filled with the values a check was given.
@Suite struct CFormatArgumentsTests {
    @Test func conversionsTakeTheArgumentsInOrder() throws {
        #expect(try CFormatArguments.substitute("Delete %d files from %s?", arguments: ["12", "Music"]) == "Delete 12 files from Music?")
        #expect(try CFormatArguments.substitute("%'lu B of %.1f GB", arguments: ["1,024", "3.5"]) == "1,024 B of 3.5 GB")
    }

    @Test func aTranslationReordersWithPositions() throws {
        // German puts the folder first: "%2$s: %1$d Dateien löschen?"
        #expect(try CFormatArguments.substitute("%2$s: %1$d Dateien löschen?", arguments: ["12", "Musik"]) == "Musik: 12 Dateien löschen?")
    }

    @Test func whatIsNoConversionStaysAsWritten() throws {
        // ("100% sure" would be one: "% s" is a conversion with the space flag, as printf reads it.)
        #expect(try CFormatArguments.substitute("100%!, 50%% off", arguments: []) == "100%!, 50% off")
        #expect(try CFormatArguments.substitute("a trailing %", arguments: []) == "a trailing %")
        #expect(try CFormatArguments.substitute("%*d", arguments: ["1"]) == "%*d")
        #expect(try CFormatArguments.substitute("%99999999999d", arguments: ["1"]) == "%99999999999d")
    }

    @Test func aConversionWithoutItsArgumentIsNamed() {
        #expect(throws: CFormatArguments.Failure.missingArgument(conversion: 2, given: 1)) {
            try CFormatArguments.substitute("%s and %s", arguments: ["one"])
        }
        #expect(throws: CFormatArguments.Failure.missingArgument(conversion: 3, given: 2)) {
            try CFormatArguments.substitute("%3$s", arguments: ["a", "b"])
        }
    }
}
