import FitBus
import FitProtocol

extension FitService {
    /// The org.fitd.Fit1 interface as protocol/org.fitd.Fit1.xml declares it.
    public func interface() throws(DBusError) -> DBusInterface {
        let metrics = MeasureCodec.metricsSignature
        return try DBusInterface(
            FitNames.interface,
            methods: [
                DBusMethod(
                    "Measure", in: "ssa{sv}", out: metrics, inNames: ["text", "font", "options"], outNames: ["metrics"],
                    doc: "Measures one text in one font.",
                    immediate: { [self] arguments, _ in measureImmediately(arguments) },
                    // A repeated call is answered from its bytes; the reply depends on the
                    // arguments and on state whose every change bumps the generation.
                    replyCache: measureReplies,
                    streaming: { [self] arguments, context throws(DBusError) in
                        try measure(
                            arguments, limit: .init(bus: context.connection.messageLimit, busBodyBytes: context.connection.maxReplyBodyBytes),
                            prepared: context.handedOver as? PreparedMeasure)
                    }),
                DBusMethod(
                    LabelCodec.method, in: "ssa{sv}", out: LabelCodec.signature, inNames: ["text", "font", "options"],
                    outNames: ["size"],
                    doc: "The size a GtkLabel showing the text requests, as gtk_widget_measure reports it: minimum and natural width and height and the baseline in whole px, and the generation."
                ) { [self] arguments, _ throws(DBusError) in try measureLabel(arguments) },
                DBusMethod(
                    "MeasureBatch", in: MeasureCodec.batchSignature, out: MeasureCodec.batchResultSignature,
                    inNames: ["requests"], outNames: ["results"],
                    doc: "Measures many texts; one result per request, in order.",
                    streaming: { [self] arguments, context throws(DBusError) in
                        try await measureBatch(arguments, limit: .init(bus: context.connection.messageLimit, busBodyBytes: context.connection.maxReplyBodyBytes))
                    }),
                DBusMethod(
                    "ResolveFont", in: "s", out: "(sssdsdddbas)", inNames: ["font"], outNames: ["resolved"],
                    doc: "What a font description resolves to through fontconfig."
                ) { [self] arguments, _ throws(DBusError) in try resolveFont(arguments) },
                DBusMethod(
                    "GetStats", out: "a(suttttt)td", outNames: ["caches", "requests_served", "uptime_seconds"],
                    doc: "Cache and service statistics."
                ) { [self] _, _ in statistics.dbusValues },
            ] + layoutMethods() + scaleMethods(),
            properties: [
                DBusProperty("Version", signature: "s", doc: "The daemon's version.", constant: true) {
                    .string(FitService.version)
                },
                DBusProperty("Generation", signature: "t", doc: "Increments whenever fonts, font configuration or the text scale change.") {
                    [self] in .uint64(currentGeneration)
                },
            ] + scaleProperties(),
            signals: [
                DBusSignalDescription(
                    FitNames.generationChanged, signature: "tas", argumentNames: ["generation", "reasons"],
                    doc: "Fonts, their configuration or the text scale changed: cached results are stale. reasons: fonts, fontconfig, text-scale, config, desktop."),
            ],
            doc: "Text measurement and adaptive layout, computed once and shared by every client.")
    }

    public func exportedObject() throws(DBusError) -> ExportedObject {
        try ExportedObject(path: FitNames.objectPath, interfaces: [interface()])
    }

    /// Announces a new generation to every client: the Generation property and the signal.
    public func announce(generation: UInt64, reasons: [String], on connection: BusConnection) {
        do throws(DBusError) {
            try connection.emitPropertiesChanged(
                path: FitNames.objectPath, interface: FitNames.interface, changed: ["Generation": .uint64(generation)])
            try connection.emitSignal(
                path: FitNames.objectPath, interface: FitNames.interface, member: FitNames.generationChanged,
                arguments: [.uint64(generation), .array(elementSignature: "s", reasons.map(DBusValue.string))])
        } catch {
            logger.warning("could not announce generation \(generation): \(error)")
        }
    }
}
