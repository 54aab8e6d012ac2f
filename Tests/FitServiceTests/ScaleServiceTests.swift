import FitBus
import FitProtocol
import FitScale
import FitText
import Foundation
import Logging
import Testing

@testable import FitService

/// A desktop that names DejaVu Sans 11 as the UI font and no scale, so the fontconfig and
/// explicit sources decide the factor and the styles scale from 11 pt.
struct FixedDesktop: DesktopSettingsProvider {
    var settings: DesktopSettings
    var source: TextScaleSource { .gnome }
    func currentSettings() async throws(FitScaleError) -> DesktopSettings? { settings }
}

/// A service over the real engine with a text-scale state in a temporary $XDG_CONFIG_HOME.
/// FONTCONFIG_FILE is whatever the test run has (scripts/test: Tests/fonts/fonts.conf).
final class ScaleFixture: Sendable {
    let directory: String
    let service: FitService
    let state: TextScaleState

    init(uiFontSize: Double = 11) throws {
        directory = NSTemporaryDirectory() + "/fitd-scale-service-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let logger = Logger(label: "test")
        service = FitService(engine: try TextEngine(), limits: ServiceLimits(), logger: logger)
        let desktop = FixedDesktop(settings: DesktopSettings(uiFont: UIFont(family: "DejaVu Sans", pointSize: uiFontSize, source: .gnome)))
        state = TextScaleState(environment: FitScaleEnvironment(configHome: directory), desktop: desktop, logger: logger)
        service.attach(textScaleState: state)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    func start() async {
        service.apply(await state.reload())
    }

    func width(_ text: String, _ font: String) throws -> Double {
        try service.measure(service.prepareMeasure(text: text, font: font, options: OptionDictionary())).metrics.width
    }

    func engineWidth(_ text: String, _ font: String, textScale: Double) throws -> Double {
        try service.engine.measure(MeasureRequest(text: text, font: font, textScale: textScale)).width
    }

    func property(_ name: String) async throws -> DBusValue {
        let properties = try service.scaleProperties()
        return try await properties.first { $0.name == name }!.get()
    }
}

@Suite("Text scale in the service")
struct ScaleServiceTests {
    let text = "Hello, world"

    @Test("body at large with an 11 pt UI font measures as the 11 pt UI font")
    func bodyAtLarge() async throws {
        let fixture = try ScaleFixture()
        await fixture.start()
        #expect(fixture.service.currentTextScale == 1)
        #expect(try fixture.width(text, "body") == fixture.engineWidth(text, "DejaVu Sans 11", textScale: 1))
        #expect(try fixture.width(text, "BODY") == fixture.engineWidth(text, "DejaVu Sans 11", textScale: 1))
    }

    @Test("at 1.25 a style measures at its table size × UI/17 (not × the scale again); a description at pt × scale")
    func noDoubleScale() async throws {
        let fixture = try ScaleFixture()
        await fixture.start()
        await fixture.service.publish(try await fixture.state.setExplicitScale(1.25), reasons: [.config])
        #expect(fixture.service.currentTextScale == 1.25)
        // 1.25 → xxLarge (body 21 pt on Apple's table); 21 × 11/17 = 13.59 pt.
        #expect(try fixture.width(text, "body") == fixture.engineWidth(text, "DejaVu Sans 13.59", textScale: 1))
        #expect(try fixture.width(text, "body") != fixture.engineWidth(text, "DejaVu Sans 13.59", textScale: 1.25))
        // headline: 21 pt semibold at xxLarge.
        #expect(try fixture.width(text, "headline") == fixture.engineWidth(text, "DejaVu Sans Semi-Bold 13.59", textScale: 1))
        // A plain description: 11 pt × 1.25.
        #expect(try fixture.width(text, "DejaVu Sans 11") == fixture.engineWidth(text, "DejaVu Sans 11", textScale: 1.25))
    }

    @Test("a style with a category, case-insensitive, through ResolveFont")
    func styleWithCategory() async throws {
        let fixture = try ScaleFixture()
        await fixture.start()
        let reply = try fixture.service.resolveFont([.string("Title1 AccessibilityLarge")])
        let font = try FontCodec.decode(reply[0])
        // title ("Title1", UIKit's spelling) at AX2 is 43 pt; × 11/17 = 27.82 pt = 37.09 px.
        #expect(abs(font.pixelSize - 27.82 * 96 / 72) < 0.01)
        #expect(font.family == "DejaVu Sans")
    }

    @Test("the text_scale option picks the category of a style")
    func optionPicksCategory() async throws {
        let fixture = try ScaleFixture()
        await fixture.start()
        let options = OptionDictionary(["text_scale": .double(1.25)])
        let width = try fixture.service.measure(fixture.service.prepareMeasure(text: text, font: "body", options: options)).metrics.width
        #expect(width == (try fixture.engineWidth(text, "DejaVu Sans 13.59", textScale: 1)))
    }

    @Test("a style followed by a non-category is InvalidFont; a family with a comma is a family")
    func badStyle() async throws {
        let fixture = try ScaleFixture()
        await fixture.start()
        #expect(throws: DBusError.self) { try fixture.width(text, "body huge") }
        do {
            _ = try fixture.width(text, "body huge")
        } catch let error as DBusError {
            #expect(error.name == FitErrorName.invalidFont)
            #expect(error.message.contains("accessibilityMedium"))
        }
        #expect(try fixture.width(text, "Body, 12") == fixture.engineWidth(text, "Body, 12", textScale: 1))
    }

    @Test("TextScale Set of 0, -1, NaN, ∞ and 5 is InvalidArgument naming the range; nothing changes")
    func invalidSet() async throws {
        let fixture = try ScaleFixture()
        await fixture.start()
        let generation = fixture.service.currentGeneration
        for bad in [0, -1, Double.nan, .infinity, 5] {
            do {
                try await fixture.service.changeExplicitScale(to: bad)
                Issue.record("\(bad) was accepted")
            } catch {
                #expect(error.name == FitErrorName.invalidArgument)
                #expect(error.message.contains("(0, 4]"))
            }
        }
        #expect(fixture.service.currentGeneration == generation)
        #expect(try await fixture.property("TextScale") == .double(1))
    }

    @Test("Set, then reset: properties, persistence, one generation bump each")
    func setAndReset() async throws {
        let fixture = try ScaleFixture()
        await fixture.start()
        let generation = fixture.service.currentGeneration
        try await fixture.service.changeExplicitScale(to: 1.5)
        #expect(fixture.service.currentGeneration == generation + 1)
        #expect(try await fixture.property("TextScale") == .double(1.5))
        #expect(try await fixture.property("TextScaleSource") == .string("explicit"))
        #expect(try await fixture.property("SizeCategory") == .string("accessibilityMedium"))
        #expect(try await fixture.property("Dpi") == .double(144))
        #expect(try await fixture.property("UIFont") == .string("DejaVu Sans 11"))
        let file = try String(contentsOfFile: fixture.directory + "/fitd/fitd.conf", encoding: .utf8)
        #expect(file.contains("scale = 1.5"))
        // The same value again changes nothing a client sees: no bump.
        try await fixture.service.changeExplicitScale(to: 1.5)
        #expect(fixture.service.currentGeneration == generation + 1)
        try await fixture.service.resetExplicitScale()
        #expect(fixture.service.currentGeneration == generation + 2)
        #expect(try await fixture.property("TextScaleSource") == .string("default"))
        #expect(fixture.service.currentTextScale == 1)
    }

    @Test("publish: fonts bump without a value change; a touched config without one does not; older snapshots are ignored")
    func publishRules() async throws {
        let fixture = try ScaleFixture()
        await fixture.start()
        let generation = fixture.service.currentGeneration
        let same = await fixture.state.reload(reasons: [.fitdConfig])
        #expect(await fixture.service.publish(same, reasons: [.config]) == nil)
        #expect(await fixture.service.publish(same, reasons: [.fonts]) == generation + 1)
        let newer = try await fixture.state.setExplicitScale(2)
        let older = same
        fixture.service.apply(newer)
        #expect(fixture.service.apply(older).isEmpty)
        #expect(fixture.service.currentTextScale == 2)
    }

    @Test("GetTextStyles: 11 rows at a category; unknown category is InvalidArgument")
    func textStyles() async throws {
        let fixture = try ScaleFixture()
        await fixture.start()
        let method = try fixture.service.scaleMethods().first { $0.name == "GetTextStyles" }!
        let rows = fixture.service.textStyleRows(category: .large)
        #expect(rows.count == 11)
        #expect(rows.map(\.style).first == "largeTitle")
        let body = rows.first { $0.style == "body" }!
        #expect(body.font == "DejaVu Sans 11")
        #expect(body.pointSize == 11)
        // Leading 22 pt × 11/17 = 14.24 pt = 18.99 px (rounded to 1/100 pt first).
        #expect(abs(body.lineHeight - 14.24 * 96 / 72) < 0.01)
        #expect(fixture.service.textStyleRows(category: .accessibilityExtraExtraExtraLarge).first { $0.style == "body" }!.pointSize == 34.29)
        #expect(try fixture.service.textStyleCategory("") == .large)
        #expect(try fixture.service.textStyleCategory("ax2") == .accessibilityLarge)
        #expect(throws: DBusError.self) { try fixture.service.textStyleCategory("huge") }
        #expect(method.inSignature.rawValue == "s")
        #expect(method.outSignature.rawValue == "a(ssdd)")
    }
}
