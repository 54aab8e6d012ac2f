import FitDBusClient
import FitScale
import FitService
import FitServiceTestSupport
import FitText
import Testing

/// FitDBusClient, the client without the engine, against FitService on a private bus: every
/// call applies the user's text size unless told not to, and errors arrive by name.
@Suite struct DBusClientTests {
    static let label = MeasureRequest(text: "Save changes", font: "DejaVu Sans 12")

    /// A served FitService at the user's text scale `factor`, and a FitDBusClient talking to it.
    func withLeanClient(userTextScale factor: Double, _ body: (ServiceHarness, FitDBusClient) async throws -> Void) async throws {
        let harness = try await ServiceHarness.start()
        defer { harness.stop() }
        harness.service.setTextScale(factor)
        try await body(harness, try await FitDBusClient.connect(address: harness.bus.address, timeout: .seconds(10)))
    }

    @Test func measureAppliesTheUsersTextScaleByDefault() async throws {
        try await withLeanClient(userTextScale: 2) { (harness, fit) async throws in
            let atUserScale = try SharedEngine.engine().measure(MeasureRequest(text: Self.label.text, font: Self.label.font, textScale: 2))
            let atOne = try SharedEngine.engine().measure(Self.label)
            #expect(atUserScale.width > atOne.width * 1.8)
            #expect(try await fit.measure(Self.label).metrics == atUserScale)
            // The request's own factor only when asked: the preview of another scale.
            #expect(try await fit.measure(Self.label, userTextScale: false).metrics == atOne)
            #expect(try await fit.measure(Self.label).generation == harness.service.currentGeneration)
        }
    }

    @Test func batchesApplyTheUsersTextScaleByDefaultEntryByEntry() async throws {
        try await withLeanClient(userTextScale: 2) { (_, fit) async throws in
            let atUserScale = try SharedEngine.engine().measure(MeasureRequest(text: Self.label.text, font: Self.label.font, textScale: 2))
            let atOne = try SharedEngine.engine().measure(Self.label)
            let defaults = try await fit.measureBatch([Self.label, Self.label])
            #expect(try defaults.map { try $0.get().metrics } == [atUserScale, atUserScale])
            let mixed = try await fit.measureBatch(entries: [
                FitDBusClient.BatchEntry(Self.label), FitDBusClient.BatchEntry(Self.label, userTextScale: false),
            ])
            #expect(try mixed.map { try $0.get().metrics } == [atUserScale, atOne])
        }
    }

    @Test func fontsAndTextStylesFollowTheUsersTextSize() async throws {
        try await withLeanClient(userTextScale: 2) { (harness, fit) async throws in
            // DejaVu Sans 12 pt is 16 px at 96 dpi; the user's 2.0 makes it 32.
            #expect(try await fit.resolveFont("DejaVu Sans 12").pixelSize == 32)
            let user = try await fit.textStyles()
            let large = try await fit.textStyles(category: .large)
            // No category asked: the user's, from their 2.0 (accessibilityLarge), not large.
            #expect(user.first?.style == "largeTitle")
            #expect(user == harness.service.textStyleRows(category: SizeCategory(textScale: 2)))
            #expect(large == harness.service.textStyleRows(category: .large))
            #expect(user != large)
        }
    }

    @Test func aRefusedRequestArrivesByItsErrorName() async throws {
        try await withLeanClient(userTextScale: 1) { (_, fit) async throws in
            var request = Self.label
            request.maxWidth = -1
            await #expect(throws: FitClientError.self) { try await fit.measure(request) }
            do {
                _ = try await fit.measure(request)
            } catch {
                guard case .rejected(let name, let message)? = error as? FitClientError else { Issue.record("\(error)"); return }
                #expect(name == FitErrorName.invalidArgument.rawValue)
                #expect(message.contains("max_width"))
            }
        }
    }
}
