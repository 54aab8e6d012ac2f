import FitDBusClient
import FitBus
import FitProtocol
import FitScale
import FitText
import FitThreads

/// fitd's client with a fallback: the daemon through ``FitDBusClient``, or the engine
/// in-process.
///
///     let client = try await FitClient.connect()
///     let m = try await client.measure(MeasureRequest(text: "Save", font: "sans-serif 11"))
///
/// `.automatic` talks to the daemon (started by D-Bus activation) and falls back to an
/// in-process engine when no session bus or daemon can be reached; `fallbackReason` says why.
/// Programs that need no fallback link FitDBusClient alone, without the engine's C libraries.
public final class FitClient: Sendable {
    public enum Mode: Sendable {
        case automatic
        case daemon
        case embedded
    }

    enum Backend: Sendable {
        case daemon(FitDBusClient)
        /// The engine, and the user's text scale and UI font as the daemon would apply them.
        case embedded(TextEngine, UserText)
    }

    /// What an in-process client applies where the daemon applies the user's settings: read
    /// once, when the client is made, from the sources the daemon reads without the bus
    /// ($XDG_CONFIG_HOME/fitd/fitd.conf, fontconfig, KDE's files; FitClient+Scale), and
    /// applied by the daemon's own rules (UserRequestRules).
    struct UserText: Sendable {
        var rules: UserRequestRules
        var category: SizeCategory

        var textScale: Double { rules.textScale }
        var uiFonts: ToolkitUIFonts { rules.uiFonts }
        var gtkRendering: GTKFontRenderingSettings { rules.gtkRendering }
        /// The UI font GTK 4's labels draw in (GetTextStyles, ResolveFont).
        var uiFont: UIFont { uiFonts.gtk4 }

        init(_ snapshot: TextScaleSnapshot) {
            rules = UserRequestRules(snapshot)
            category = snapshot.category
        }

        /// The request as the daemon measures it (FitService.engineRequest).
        func engineRequest(_ request: MeasureRequest, userTextScale: Bool) throws(FitClientError) -> MeasureRequest {
            do throws(UserRequestRules.Failure) {
                return try rules.engineRequest(request, userTextScale: userTextScale)
            } catch {
                throw .rejected(name: FitErrorName.invalidFont.rawValue, message: error.description)
            }
        }
    }

    let backend: Backend
    /// Why an `.automatic` client measures in-process; nil when it talks to the daemon.
    public let fallbackReason: String?

    init(backend: Backend, fallbackReason: String?) {
        self.backend = backend
        self.fallbackReason = fallbackReason
    }

    public var isEmbedded: Bool {
        if case .embedded = backend { return true }
        return false
    }

    /// The engine measuring in this process, when embedded: a caller that also draws (fitctl's
    /// pictures) lays its glyphs out with it, on the fonts and font sets it has loaded,
    /// instead of loading them again in a second engine.
    public var embeddedEngine: TextEngine? {
        if case .embedded(let engine, _) = backend { return engine }
        return nil
    }

    /// - Parameters:
    ///   - address: a D-Bus address; nil for the session bus (DBUS_SESSION_BUS_ADDRESS).
    ///   - timeout: how long to wait for the daemon, activation included.
    public static func connect(mode: Mode = .automatic, address: String? = nil, timeout: Duration = .seconds(10)) async throws(FitClientError) -> FitClient {
        if mode == .embedded { return try await embedded(reason: nil) }
        do throws(FitClientError) {
            let daemon = try await FitDBusClient.connect(address: address, timeout: timeout)
            return FitClient(backend: .daemon(daemon), fallbackReason: nil)
        } catch {
            guard mode == .automatic else { throw error }
            let reason: String
            if case .unavailable(let text) = error { reason = text } else { reason = error.description }
            return try await embedded(reason: reason)
        }
    }

    private static func embedded(reason: String?) async throws(FitClientError) -> FitClient {
        let engine: TextEngine
        do throws(FitTextError) {
            engine = try TextEngine()
        } catch {
            throw .invalidRequest(error)
        }
        // The scale is read from the configuration the engine loaded (one load, not two).
        let user = UserText(await localState(sharing: engine).reload())
        return FitClient(backend: .embedded(engine, user), fallbackReason: reason)
    }

    // MARK: the contract

    /// Measures one text. With `userTextScale` the daemon applies the user's text scale
    /// (the request's `textScale` is then ignored); without, the request's factor is sent.
    public func measure(_ request: MeasureRequest, userTextScale: Bool = true) async throws(FitClientError) -> TextMeasurement {
        switch backend {
        case .embedded(let engine, let user):
            let resolved = try user.engineRequest(request, userTextScale: userTextScale)
            do throws(FitTextError) {
                return TextMeasurement(metrics: try engine.measure(resolved), generation: 0)
            } catch {
                throw FitClientError(error)
            }
        case .daemon(let daemon):
            return try await daemon.measure(request, userTextScale: userTextScale)
        }
    }

    /// The size a GtkLabel showing `request`'s text requests (``LabelSize``), and the generation.
    /// `chars`: the label's `width-chars` and `max-width-chars`.
    public func measureLabel(
        _ request: MeasureRequest, chars: LabelCharWidths = .unset, userTextScale: Bool = true
    ) async throws(FitClientError) -> (size: LabelSize, generation: UInt64) {
        switch backend {
        case .embedded(let engine, let user):
            let resolved = try user.engineRequest(request, userTextScale: userTextScale)
            do throws(FitTextError) {
                return (try engine.labelSize(resolved, chars: chars), 0)
            } catch {
                throw FitClientError(error)
            }
        case .daemon(let daemon):
            return try await daemon.measureLabel(request, chars: chars, userTextScale: userTextScale)
        }
    }

    /// One entry of a batch: a request, and whether the user's text scale is applied to it.
    public typealias BatchEntry = FitDBusClient.BatchEntry

    /// Measures many texts in one round trip; one result per request, in order.
    public func measureBatch(_ requests: [MeasureRequest], userTextScale: Bool = true) async throws(FitClientError) -> [Result<TextMeasurement, FitClientError>] {
        try await measureBatch(entries: requests.map { BatchEntry($0, userTextScale: userTextScale) })
    }

    public func measureBatch(entries batch: [BatchEntry]) async throws(FitClientError) -> [Result<TextMeasurement, FitClientError>] {
        switch backend {
        case .embedded(let engine, let user):
            // Over every core in chunks, as the daemon's MeasureBatch, sharing the
            // engine's caches; results in order. As there, each chunk yields first, so the
            // caller's other tasks run between chunks, and a cancelled caller stops the batch
            // (checked per entry: one entry can be a 1 MiB text) rather than pay for all of it.
            let chunks = await ParallelChunks.map(
                count: batch.count, chunk: ParallelChunks.batchChunk,
                workers: ParallelChunks.batchWorkers(count: batch.count, available: ParallelChunks.availableCores)
            ) { range in
                await Task.yield()
                var results: [Result<TextMeasurement, FitClientError>] = []
                results.reserveCapacity(range.count)
                for entry in batch[range] {
                    if Task.isCancelled { break }
                    results.append(Self.measureEmbedded(entry, engine: engine, user: user))
                }
                return results
            }
            if Task.isCancelled { throw .rejected(name: DBusError.Name.cancelled.rawValue, message: "the batch was cancelled") }
            return chunks.flatMap { $0 }
        case .daemon(let daemon):
            return try await daemon.measureBatch(entries: batch)
        }
    }

    /// - Parameter fallbacks: false lets the embedded engine leave `fallbackFamilies` empty
    ///   (naming them prepares every face of the set); the daemon always sends them.
    public func resolveFont(_ description: String, fallbacks: Bool = true) async throws(FitClientError) -> ResolvedFont {
        switch backend {
        case .embedded(let engine, let user):
            // As the daemon resolves: a text style in the user's UI font, else the description
            // at the user's text scale.
            let styled: (font: String, textScale: Double)
            do throws(UserRequestRules.Failure) {
                styled = try user.rules.engineFont(description, textScale: user.textScale)
            } catch {
                throw .rejected(name: FitErrorName.invalidFont.rawValue, message: error.description)
            }
            do throws(FitTextError) {
                return try engine.resolveFont(styled.font, textScale: styled.textScale, fallbacks: fallbacks)
            } catch {
                throw .invalidRequest(error)
            }
        case .daemon(let daemon):
            return try await daemon.resolveFont(description)
        }
    }

    public func statistics() async throws(FitClientError) -> ServiceStatistics {
        switch backend {
        case .embedded(let engine, _):
            return ServiceStatistics(caches: engine.cacheStatistics, requestsServed: 0, uptimeSeconds: 0)
        case .daemon(let daemon):
            return try await daemon.statistics()
        }
    }

    /// The daemon's Version property ("embedded" in-process).
    public func version() async throws(FitClientError) -> String {
        guard case .daemon(let daemon) = backend else { return "embedded" }
        return try await daemon.version()
    }

    public func generation() async throws(FitClientError) -> UInt64 {
        guard case .daemon(let daemon) = backend else { return 0 }
        return try await daemon.generation()
    }

    /// One round trip to the daemon (org.freedesktop.DBus.Peer.Ping); zero in-process.
    public func ping() async throws(FitClientError) -> Duration {
        guard case .daemon(let daemon) = backend else { return .zero }
        return try await daemon.ping()
    }

    /// One batch entry measured in-process, as the daemon would: the user's text scale and
    /// UI font applied, text styles resolved.
    static func measureEmbedded(_ entry: BatchEntry, engine: TextEngine, user: UserText) -> Result<TextMeasurement, FitClientError> {
        do throws(FitClientError) {
            let resolved = try user.engineRequest(entry.request, userTextScale: entry.userTextScale)
            do throws(FitTextError) {
                return .success(TextMeasurement(metrics: try engine.measure(resolved), generation: 0))
            } catch {
                throw FitClientError(error)
            }
        } catch {
            return .failure(error)
        }
    }
}
