import FitBus
import FitProtocol
import FitTypes

/// fitd's client over D-Bus: measures text and lays out documents in the daemon, which D-Bus
/// activation starts on the first call. It links libdbus and pure Swift only, no text engine
/// (HarfBuzz, fontconfig, ICU, cairo); programs that want an in-process fallback when there
/// is no daemon use FitClient, which builds on this type.
///
///     let fit = try await FitDBusClient.connect()
///     let m = try await fit.measure(MeasureRequest(text: "Save", font: "body"))
///
/// Every call applies the user's text size unless told otherwise: `measure` and
/// `measureBatch` the user's text scale (`userTextScale: true`), `layout` the user's size
/// category (`userSizeCategory: true`), `resolveFont` and `textStyles` the user's scale and
/// category. Requests go out as the caller wrote them; the daemon checks and canonicalises them.
public final class FitDBusClient: Sendable {
    let link: DaemonLink

    init(link: DaemonLink) {
        self.link = link
    }

    /// Connects and pings the daemon through its bus name, which starts it if needed.
    ///
    /// - Parameters:
    ///   - address: a D-Bus address; nil for the session bus (DBUS_SESSION_BUS_ADDRESS).
    ///   - timeout: how long to wait for the daemon on every call, activation included.
    /// - Throws: ``FitClientError/unavailable(_:)`` when there is no bus or no daemon.
    public static func connect(address: String? = nil, timeout: Duration = .seconds(10)) async throws(FitClientError) -> FitDBusClient {
        FitDBusClient(link: try await DaemonLink.open(address: address, timeout: timeout))
    }

    // MARK: measuring

    /// Measures one text.
    ///
    /// - Parameters:
    ///   - request: the text, its font (a Pango description or a text style name) and options,
    ///     sent as written; the daemon checks and canonicalises them.
    ///   - userTextScale: the daemon measures at the user's text scale — the default; the
    ///     request's `textScale` is then not sent. `false` sends the request's own factor.
    public func measure(_ request: MeasureRequest, userTextScale: Bool = true) async throws(FitClientError) -> TextMeasurement {
        let reply = try await link.call(
            "Measure", [.string(request.text), .string(request.font), MeasureCodec.options(of: request, sendTextScale: !userTextScale)])
        guard let value = reply.first else { throw .protocolMismatch("Measure returned nothing") }
        do throws(DBusError) {
            let (metrics, generation) = try MeasureCodec.decode(value, unit: request.unit)
            return TextMeasurement(metrics: metrics, generation: generation)
        } catch {
            throw .protocolMismatch(error.message)
        }
    }

    /// The size a GtkLabel showing `request`'s text requests (`LabelSize`: minimum and natural
    /// width and height, baseline, in whole px), and the generation it was measured under. The
    /// label wraps at `maxWidth` unless `ellipsize` is set, with its `width-chars` and
    /// `max-width-chars` (`chars`); pixels only.
    public func measureLabel(
        _ request: MeasureRequest, chars: LabelCharWidths = .unset, userTextScale: Bool = true
    ) async throws(FitClientError) -> (size: LabelSize, generation: UInt64) {
        do throws(FitTextError) { try chars.check() } catch { throw FitClientError(error) }
        let reply = try await link.call(
            LabelCodec.method,
            [.string(request.text), .string(request.font), LabelCodec.options(of: request, chars: chars, sendTextScale: !userTextScale)])
        guard let value = reply.first else { throw .protocolMismatch("MeasureLabel returned nothing") }
        do throws(DBusError) {
            return try LabelCodec.decode(value)
        } catch {
            throw .protocolMismatch(error.message)
        }
    }

    /// One entry of a batch: a request, and whether the daemon applies the user's text scale
    /// to it (the default; else the request's own `textScale` is sent).
    public struct BatchEntry: Sendable {
        public var request: MeasureRequest
        public var userTextScale: Bool
        public init(_ request: MeasureRequest, userTextScale: Bool = true) {
            self.request = request
            self.userTextScale = userTextScale
        }
    }

    /// Measures many texts in one round trip; one result per request, in order. An entry the
    /// daemon refuses fails alone (its result is `.failure`).
    public func measureBatch(_ requests: [MeasureRequest], userTextScale: Bool = true) async throws(FitClientError) -> [Result<TextMeasurement, FitClientError>] {
        try await measureBatch(entries: requests.map { BatchEntry($0, userTextScale: userTextScale) })
    }

    public func measureBatch(entries batch: [BatchEntry]) async throws(FitClientError) -> [Result<TextMeasurement, FitClientError>] {
        let sent = batch.map { (request: $0.request, sendTextScale: !$0.userTextScale) }
        let units = batch.map(\.request.unit)
        let results = try await link.call(
            "MeasureBatch", signature: MeasureCodec.batchSignature,
            write: { (writer) throws(DBusError) in try MeasureCodec.writeBatch(sent, to: &writer) },
            read: { (reader) throws(DBusError) in try MeasureCodec.readBatchResults(&reader, units: units) })
        guard results.count == batch.count else {
            throw .protocolMismatch("MeasureBatch returned \(results.count) results for \(batch.count) requests")
        }
        return results.map { result in
            result.map { TextMeasurement(metrics: $0.metrics, generation: $0.generation) }
                .mapError { .rejected(name: $0.name.rawValue, message: $0.message) }
        }
    }

    /// What a font description (or a text style name, "headline") resolves to, at the user's
    /// text scale.
    public func resolveFont(_ description: String) async throws(FitClientError) -> ResolvedFont {
        let reply = try await link.call("ResolveFont", [.string(description)])
        guard let value = reply.first else { throw .protocolMismatch("ResolveFont returned nothing") }
        do throws(DBusError) {
            return try FontCodec.decode(value)
        } catch {
            throw .protocolMismatch(error.message)
        }
    }

    // MARK: the daemon

    public func statistics() async throws(FitClientError) -> ServiceStatistics {
        let reply = try await link.call("GetStats", [])
        do throws(DBusError) {
            return try ServiceStatistics(dbusValues: reply)
        } catch {
            throw .protocolMismatch(error.message)
        }
    }

    /// The daemon's Version property.
    public func version() async throws(FitClientError) -> String {
        guard case .string(let version) = try await link.property("Version") else {
            throw .protocolMismatch("Version is not a string")
        }
        return version
    }

    /// The generation results are computed under (it changes with fonts and the text scale).
    public func generation() async throws(FitClientError) -> UInt64 {
        guard case .uint64(let generation) = try await link.property("Generation") else {
            throw .protocolMismatch("Generation is not a uint64")
        }
        return generation
    }

    /// One round trip to the daemon (org.freedesktop.DBus.Peer.Ping).
    public func ping() async throws(FitClientError) -> Duration {
        let start = ContinuousClock.now
        _ = try await link.call("Ping", [], interface: "org.freedesktop.DBus.Peer")
        return ContinuousClock.now - start
    }
}
