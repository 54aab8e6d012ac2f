import Logging
import Testing

@testable import fitd

@Suite struct DaemonOptionsTests {
    private func serve(_ arguments: [String]) throws -> DaemonOptions {
        guard case .serve(let options) = try DaemonOptions.parse(arguments) else {
            Issue.record("\(arguments) did not ask to serve")
            return DaemonOptions()
        }
        return options
    }

    private func usageError(_ arguments: [String]) -> String? {
        do {
            _ = try DaemonOptions.parse(arguments)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func noArgumentsServeTheSessionBusAtInfo() throws {
        #expect(try serve([]) == DaemonOptions(replace: false, address: nil, config: nil, logLevel: .info))
    }

    @Test func valuesAreTakenFromTheNextArgumentOrAfterEquals() throws {
        let separate = try serve(["--replace", "--address", "unix:path=/run/user/1000/bus", "--config", "/etc/fitd.conf", "--log-level", "debug"])
        let joined = try serve(["--replace", "--address=unix:path=/run/user/1000/bus", "--config=/etc/fitd.conf", "--log-level=debug"])
        let expected = DaemonOptions(replace: true, address: "unix:path=/run/user/1000/bus", config: "/etc/fitd.conf", logLevel: .debug)
        #expect(separate == expected)
        #expect(joined == expected)
    }

    @Test func aValueMayHoldEqualsSigns() throws {
        // A D-Bus address is key=value pairs: only the first '=' ends the option's name.
        #expect(try serve(["--address=unix:path=/tmp/bus,guid=0123"]).address == "unix:path=/tmp/bus,guid=0123")
    }

    @Test func theLastOfARepeatedOptionWins() throws {
        #expect(try serve(["--log-level", "trace", "--log-level", "error"]).logLevel == .error)
    }

    @Test func everyLoggerLevelIsAccepted() throws {
        for level in Logger.Level.allCases {
            #expect(try serve(["--log-level", level.rawValue]).logLevel == level)
        }
    }

    @Test func helpAndVersionWinAnywhereBeforeDoubleDash() throws {
        #expect(try DaemonOptions.parse(["--bogus", "--help"]) == .help)
        #expect(try DaemonOptions.parse(["-h"]) == .help)
        #expect(try DaemonOptions.parse(["--replace", "--version"]) == .version)
        #expect(usageError(["--", "--help"]) != nil)
    }

    @Test func usageErrorsNameTheArgumentAtFault() {
        #expect(usageError(["--bogus"]) == "unknown option '--bogus'")
        #expect(usageError(["extra"]) == "unexpected argument 'extra': fitd takes options only")
        #expect(usageError(["--address"]) == "--address needs a value")
        // The next argument is another option: the address was forgotten, not "--replace".
        #expect(usageError(["--address", "--replace"]) == "--address needs a value")
        #expect(usageError(["--config="]) == "--config needs a value after '='")
        #expect(usageError(["--config", ""]) == "--config needs a value, not an empty one")
        #expect(usageError(["--address", ""]) == "--address needs a value, not an empty one")
        #expect(usageError(["--help=yes"]) == "--help takes no value")
        #expect(usageError(["--version=1"]) == "--version takes no value")
        #expect(usageError(["--replace=yes"]) == "--replace takes no value")
        #expect(usageError(["--log-level", "loud"])
            == "--log-level 'loud' is not a level: use one of trace, debug, info, notice, warning, error, critical")
    }

    @Test func helpListsEveryOptionTheParserTakes() {
        for option in ["--replace", "--address", "--config", "--log-level", "--version", "--help"] {
            #expect(DaemonOptions.help.contains(option), "\(option)")
        }
        for level in Logger.Level.allCases {
            #expect(DaemonOptions.help.contains(level.rawValue), "\(level)")
        }
    }

    @Test func helpFitsAnEightyColumnTerminal() {
        for line in DaemonOptions.help.split(separator: "\n") {
            #expect(line.count <= 80, "\(line)")
        }
    }
}
