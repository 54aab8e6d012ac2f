import FitBus
import FitProtocol
import FitText

extension FitService {
    /// A Measure call as the fast path decoded it: the engine's request, the generation it
    /// was keyed under and the options (for the reply's size). The handler on the task
    /// measures it as it is, instead of decoding and resolving the call again.
    struct PreparedMeasure: Sendable {
        var text: String
        var options: OptionDictionary
        var request: MeasureRequest
        var generation: UInt64
    }

    /// Measure's fast path (DBusMethod.immediate), on the loop thread: answers what the
    /// engine's result cache already holds (it is emptied when fonts change, and the text
    /// scale is part of the request). A miss is handed on to the handler on a task with its
    /// prepared request; anything the fast path cannot take (an error, a text over the limit)
    /// is handed on with nothing, and the handler answers it with its named error. Nothing is
    /// measured here.
    func measureImmediately(_ arguments: [DBusValue]) -> DBusImmediateOutcome {
        guard arguments.count == 3, case .string(let text) = arguments[0], case .string(let font) = arguments[1],
            text.utf8.count <= limits.maxTextBytes
        else { return .handOver(nil) }
        let context = requestContext
        guard let options = try? OptionDictionary(arguments[2]),
            let request = try? engineRequest(text: text, font: font, options: options, in: context)
        else { return .handOver(nil) }
        let prepared = PreparedMeasure(text: text, options: options, request: request, generation: context.generation)
        guard let metrics = engine.cachedMeasurement(request),
            let body = try? MeasureCodec.replyBody(metrics, generation: context.generation)
        else { return .handOver(prepared) }
        requestsServed.add(1)
        return .body(body)
    }
}
