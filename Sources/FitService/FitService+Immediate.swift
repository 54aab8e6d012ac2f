import FitBus
import FitProtocol
import FitText
import Synchronization

extension FitService {
    /// Texts up to this size may be measured on the bus loop thread: shaping 1 KiB of text
    /// with loaded fonts, the worst case when a known request was evicted, takes well under
    /// a millisecond.
    static let immediateTextBytes = 1024

    /// Measure's fast path (DBusMethod.immediate), on the loop thread: answers requests the
    /// engine has measured in this generation; nil sends everything else, errors included,
    /// to the ordinary handler on a task.
    func measureImmediately(_ arguments: [DBusValue]) -> [DBusValue]? {
        guard arguments.count == 3, case .string(let text) = arguments[0], case .string(let font) = arguments[1],
            text.utf8.count <= Self.immediateTextBytes
        else { return nil }
        let generation = currentGeneration
        guard var request = try? MeasureCodec.request(text: text, font: font, options: arguments[2], textScale: currentTextScale),
            let (engineFont, scale) = try? engineFont(request.font, textScale: request.textScale)
        else { return nil }
        (request.font, request.textScale) = (engineFont, scale)
        let hash = request.hashValue
        guard knownRequests.withLock({ $0.contains(hash, generation: generation) }),
            let metrics = try? engine.measure(request)
        else { return nil }
        requestsServed.add(1, ordering: .relaxed)
        return [MeasureCodec.encode(metrics, generation: generation)]
    }

    /// Records a request the engine answered, for the fast path.
    func remember(_ request: MeasureRequest, generation: UInt64) {
        guard request.text.utf8.count <= Self.immediateTextBytes else { return }
        let hash = request.hashValue
        knownRequests.withLock { $0.insert(hash, generation: generation) }
    }
}
