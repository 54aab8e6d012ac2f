import FitTypes
import Testing

@testable import FitBus
@testable import FitProtocol

@Suite struct MeasureBatchCodecTests {
    /// A request with no option, each option alone at its sample, and all of them at once,
    /// each sent with and without its own text scale.
    static func requests() throws -> [(request: MeasureRequest, sendTextScale: Bool)] {
        var requests: [(request: MeasureRequest, sendTextScale: Bool)] = []
        var all = MeasureRequest(text: "every option", font: "Serif 12")
        for option in MeasureOptions.all {
            var one = MeasureRequest(text: option.name, font: "Sans 10")
            try option.apply(&one, option.sample)
            requests += [(one, false), (one, true)]
            // Cells take no pixel options: the unit is sent alone.
            if option !== MeasureOptions.unit { try option.apply(&all, option.sample) }
        }
        let plain = MeasureRequest(text: "plain", font: "Sans 10")
        return requests + [(all, false), (all, true), (plain, false), (plain, true)]
    }

    static func batchBody(_ requests: [(request: MeasureRequest, sendTextScale: Bool)]) throws -> [UInt8] {
        try DBusWriter.body(signature: MeasureCodec.batchSignature) { (writer) throws(DBusError) in
            try MeasureCodec.writeBatch(requests, to: &writer)
        }
    }

    @Test func aBatchCarriesEachRequestsOptionsAsItsOwnDictionaryWould() throws {
        let requests = try Self.requests()
        let throughDictionaries = try DBusWriter.body(signature: MeasureCodec.batchSignature) { (writer) throws(DBusError) in
            try writer.array { (entries) throws(DBusError) in
                for (request, sendTextScale) in requests {
                    try entries.structure { (fields) throws(DBusError) in
                        try fields.append(request.text)
                        try fields.append(request.font)
                        try MeasureCodec.optionDictionary(of: request, sendTextScale: sendTextScale).write(to: &fields)
                    }
                }
            }
        }
        #expect(try Self.batchBody(requests) == throughDictionaries)
    }

    @Test func theDaemonReadsEveryRequestOfABatchAsSent() throws {
        let requests = try Self.requests()
        let message = try DBusMessage.methodCall(
            destination: nil, path: "/org/fitd/Fit1", interface: "org.fitd.Fit1", member: "MeasureBatch",
            signature: MeasureCodec.batchSignature, body: try Self.batchBody(requests))
        let entries = try DBusReader.readBody(of: message) { (reader) throws(DBusError) in
            try MeasureCodec.readBatch(&reader, limit: requests.count)
        }
        #expect(entries.count == requests.count)
        let userScale = 3.0
        for (entry, sent) in zip(entries, requests) {
            let received = try MeasureCodec.request(text: entry.text, font: entry.font, options: entry.options.get(), textScale: userScale)
            var expected = sent.request
            // Without its own scale a request is measured at the user's.
            if !sent.sendTextScale { expected.textScale = userScale }
            #expect(received == expected, "\(entry.text)")
        }
    }
}
