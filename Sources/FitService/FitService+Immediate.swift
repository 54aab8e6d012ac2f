import FitBus
import FitProtocol
import FitText

extension FitService {
    /// Measure's fast path (DBusMethod.immediate), on the loop thread: answers what the
    /// engine's result cache already holds (it is emptied when fonts change, and the text
    /// scale is part of the request); nil sends everything else, errors included, to the
    /// ordinary handler on a task. Nothing is measured here.
    func measureImmediately(_ arguments: [DBusValue]) -> [DBusValue]? {
        guard arguments.count == 3, case .string(let text) = arguments[0], case .string(let font) = arguments[1],
            text.utf8.count <= limits.maxTextBytes
        else { return nil }
        let context = requestContext
        guard let options = try? OptionDictionary(arguments[2]),
            let request = try? engineRequest(text: text, font: font, options: options, in: context)
        else { return nil }
        guard let metrics = engine.cachedMeasurement(request) else { return nil }
        requestsServed.add(1)
        return [MeasureCodec.encode(metrics, generation: context.generation)]
    }
}
