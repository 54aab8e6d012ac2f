import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@testable import FitScale

/// A layer with a fixed answer and source, or a failure (DesktopScaleRangeTests too).
struct Layer: DesktopSettingsProvider {
    var settings: DesktopSettings?
    var source: TextScaleSource
    var failure: FitScaleError?
    func currentSettings() async throws(FitScaleError) -> DesktopSettings? {
        if let failure { throw failure }
        return settings
    }
}

/// A layer whose failure a test switches on between reads, as a server that stops answering.
private final class SwitchableLayer: DesktopSettingsProvider, @unchecked Sendable {
    let source: TextScaleSource
    private let lock = NSLock()
    private var _failure: FitScaleError?
    private var _settings: DesktopSettings?
    var failure: FitScaleError? {
        get { lock.withLock { _failure } }
        set { lock.withLock { _failure = newValue } }
    }
    var settings: DesktopSettings? {
        get { lock.withLock { _settings } }
        set { lock.withLock { _settings = newValue } }
    }
    init(settings: DesktopSettings?, source: TextScaleSource) {
        _settings = settings
        self.source = source
    }
    func currentSettings() async throws(FitScaleError) -> DesktopSettings? {
        if let failure { throw failure }
        return settings
    }
}

@Suite struct DesktopSourcesTests {
    @Test func xftDpiIsReadFromTheResourceStringAsXrdbPrintsIt() {
        let resources = "Xcursor.size:\t24\nXft.antialias:\t1\nXft.dpi:\t120\nXft.hinting:\t1\n"
        #expect(XResourcesProvider.xftDPI(resources: resources) == 120)
    }

    @Test func xftDpiPrefersTheExactNameOverWildcards() {
        #expect(XResourcesProvider.xftDPI(resources: "*dpi: 144\nXft*dpi: 108\n") == 108)
        #expect(XResourcesProvider.xftDPI(resources: "*dpi: 144\nXft.dpi:  96 \nXft*dpi: 108\n") == 96)
        #expect(XResourcesProvider.xftDPI(resources: "*dpi:\t144") == 144)
    }

    @Test func xftDpiAbsentOrUnusableIsNil() {
        #expect(XResourcesProvider.xftDPI(resources: "") == nil)
        #expect(XResourcesProvider.xftDPI(resources: "Xft.antialias: 1\n! Xft.dpi: 120\n") == nil)
        #expect(XResourcesProvider.xftDPI(resources: "Xft.dpi: big\n") == nil)
        #expect(XResourcesProvider.xftDPI(resources: "Xft.dpi: -96\nXft.dpi: 0\n") == nil)
        #expect(XResourcesProvider.xftDPI(resources: "Xft.dpi: nan\n") == nil)
        #expect(XResourcesProvider.xftDPI(resources: "Xft.dpix: 120\nXXft.dpi: 120\n") == nil)
    }

    @Test func noDisplayReadsNothing() throws {
        #expect(try XResourcesProvider(display: nil).read() == nil)
    }

    @Test func aDisplayThatIsGoneIsNoX11Session() throws {
        #expect(try XResourcesProvider(display: ":9987").read() == nil)
    }

    /// A server that accepts and never answers must not stall fitd. A listening
    /// socket that never accepts is such a server: the kernel completes the connection, and
    /// the setup reply never comes. The read gives up at its deadline, the next one does not
    /// start a second stuck thread, and once the server goes away reads work again.
    @Test(.timeLimit(.minutes(1))) func anXServerThatNeverAnswersCostsTheDeadlineAndNoMore() throws {
        let number = 4000 + Int.random(in: 0..<2000)
        let path = "/tmp/.X11-unix/X\(number)"
        mkdir("/tmp/.X11-unix", 0o1777)
        unlink(path)
        let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(server >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(server, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        defer { unlink(path) }
        try #require(listen(server, 4) == 0)

        let provider = XResourcesProvider(display: ":\(number)", timeoutMilliseconds: 200)
        let clock = ContinuousClock()
        var first: XResourcesProvider.ResourceRead = .failed
        let waited = clock.measure { first = provider.fetchResources(display: ":\(number)") }
        #expect(first == .timedOut)
        #expect(waited >= .milliseconds(150) && waited < .seconds(3), "waited \(waited)")
        #expect(provider.fetchResources(display: ":\(number)") == .busy)
        // Through the provider: "not answering", which keeps the last good scale, not nil,
        // which would fall through to a lower layer's.
        #expect(throws: FitScaleError.desktopNotAnswering(source: .xresources, reason: "an earlier read still waits for the X server at :\(number)")) {
            try provider.read()
        }

        // The server goes away: the stuck connection fails, its thread ends, reads resume.
        close(server)
        var after: XResourcesProvider.ResourceRead = .busy
        for _ in 0..<100 {
            after = provider.fetchResources(display: ":\(number)")
            if after != .busy { break }
            usleep(20_000)
        }
        #expect(after == .noDisplay)
    }

    @Test func gsettingsWithoutDconfOrABackendIsNotAsked() throws {
        let environment = FitScaleEnvironment(configHome: "/nonexistent/fitd-test")
        #expect(!GSettingsProvider(environment: environment).inUse)
        #expect(try GSettingsProvider(environment: environment).read() == nil)
        #expect(GSettingsProvider(environment: environment).watchedFiles == [
            "/nonexistent/fitd-test/dconf/user", "/nonexistent/fitd-test/glib-2.0/settings/keyfile",
        ])
    }

    @Test func layersDecideFieldByFieldAndTheScaleNamesItsLayer() async throws {
        let portal = Layer(settings: DesktopSettings(uiFont: UIFont(family: "Cantarell", pointSize: 11, source: .gnome)), source: .gnome)
        let gsettings = Layer(settings: nil, source: .gsettings)
        let xft = Layer(settings: DesktopSettings(textScale: 1.25), source: .xresources)
        let merged = try #require(try await LayeredSettingsProvider([portal, gsettings, xft]).currentSettings())
        #expect(merged.uiFont?.family == "Cantarell")
        #expect(merged.textScale == 1.25 && merged.textScaleSource == .xresources)

        let first = Layer(settings: DesktopSettings(textScale: 1.5), source: .gsettings)
        let both = try #require(try await LayeredSettingsProvider([first, xft]).currentSettings())
        #expect(both.textScale == 1.5 && both.textScaleSource == .gsettings)
    }

    @Test func theResolvedScaleReportsTheLayerThatGaveIt() {
        let preference = TextScalePreference(desktop: DesktopSettings(textScale: 1.25, textScaleSource: .xresources), desktopSource: .gnome)
        #expect(preference.resolvedScale.source == .xresources)
        #expect(preference.resolvedScale.scale.factor == 1.25)
    }

    @Test func aFailingLayerDoesNotHideTheOthersButAloneItThrows() async throws {
        let broken = Layer(settings: nil, source: .gnome, failure: .desktopSettings(source: .gnome, reason: "portal error"))
        let xft = Layer(settings: DesktopSettings(textScale: 1.25), source: .xresources)
        let merged = try await LayeredSettingsProvider([broken, xft]).currentSettings()
        #expect(merged?.textScaleSource == .xresources)
        await #expect(throws: FitScaleError.self) {
            _ = try await LayeredSettingsProvider([broken, Layer(settings: nil, source: .xresources)]).currentSettings()
        }
        #expect(try await LayeredSettingsProvider([]).currentSettings() == nil)
    }

    @Test func anUnansweredXServerKeepsTheLastScaleUnlessAHigherLayerSetIt() async throws {
        let hung = Layer(settings: nil, source: .xresources, failure: .desktopNotAnswering(source: .xresources, reason: "no answer"))
        let fonts = Layer(settings: DesktopSettings(uiFont: UIFont(family: "Cantarell", pointSize: 11, source: .gnome)), source: .gnome)
        // Xft.dpi would have decided the scale: the read says so, and still gives the font.
        let waiting = try #require(try await LayeredSettingsProvider([fonts, hung]).currentSettings())
        #expect(waiting.textScaleNotAnswering == .desktopNotAnswering(source: .xresources, reason: "no answer"))
        #expect(waiting.textScale == nil && waiting.uiFont?.family == "Cantarell")
        // No layer below the one that did not answer sets the scale in its place.
        let below = Layer(settings: DesktopSettings(textScale: 2), source: .xresources)
        let still = try #require(try await LayeredSettingsProvider([fonts, hung, below]).currentSettings())
        #expect(still.textScale == nil && still.textScaleNotAnswering != nil)
        // A higher layer set the scale already: Xft.dpi could change nothing; the read stands.
        let scaled = Layer(settings: DesktopSettings(textScale: 1.5), source: .gsettings)
        let merged = try await LayeredSettingsProvider([scaled, hung]).currentSettings()
        #expect(merged?.textScale == 1.5 && merged?.textScaleNotAnswering == nil)
    }

    @Test func aHungXServerKeepsTheScaleButNotTheOldFonts() async throws {
        let sandbox = try Sandbox()
        try sandbox.writeFontconfig()
        let portal = SwitchableLayer(settings: DesktopSettings(uiFont: UIFont(family: "Cantarell", pointSize: 11, source: .gnome)), source: .gnome)
        let xft = SwitchableLayer(settings: DesktopSettings(textScale: 1.25), source: .xresources)
        let state = TextScaleState(environment: sandbox.environment, desktop: LayeredSettingsProvider([portal, xft]), logger: LogCapture().logger)
        #expect(await state.reload().scale.factor == 1.25)
        // The X server hangs, and meanwhile the portal's font changes: the scale stays, the
        // new font applies.
        xft.failure = .desktopNotAnswering(source: .xresources, reason: "no answer")
        portal.settings = DesktopSettings(uiFont: UIFont(family: "Inter", pointSize: 12, source: .gnome))
        let snapshot = await state.reload()
        #expect(snapshot.scale.factor == 1.25 && snapshot.source == .xresources)
        #expect(snapshot.uiFont.family == "Inter")
    }

    @Test func anUnansweredReadKeepsTheLastGoodDesktopScaleInTheState() async throws {
        let store = SwitchableLayer(settings: DesktopSettings(textScale: 1.25), source: .xresources)
        let sandbox = try Sandbox()
        try sandbox.writeFontconfig()
        let state = TextScaleState(environment: sandbox.environment, desktop: store, logger: LogCapture().logger)
        #expect(await state.reload().scale.factor == 1.25)
        store.failure = .desktopNotAnswering(source: .xresources, reason: "no answer")
        #expect(await state.reload().scale.factor == 1.25)
    }
}
