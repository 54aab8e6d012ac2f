import CFontconfig
import Foundation
import Logging
import Synchronization
import Testing

@testable import FitScale

/// A desktop provider standing in for the daemon's portal client.
struct FakeDesktop: DesktopSettingsProvider {
    var settings: DesktopSettings?
    var source: TextScaleSource { .gnome }
    func currentSettings() async throws(FitScaleError) -> DesktopSettings? { settings }
}

/// A desktop whose read waits until the test lets it go: a portal slow to answer.
final class HeldDesktop: DesktopSettingsProvider, @unchecked Sendable {
    var source: TextScaleSource { .gnome }
    private let entered = AsyncStream<Void>.makeStream()
    private let release = AsyncStream<Void>.makeStream()

    func currentSettings() async throws(FitScaleError) -> DesktopSettings? {
        entered.continuation.yield()
        for await _ in release.stream { break }
        return DesktopSettings(textScale: 1.25)
    }

    func waitUntilReading() async { for await _ in entered.stream { break } }
    func letGo() { release.continuation.yield() }
}

@Suite struct TextScaleStateTests {
    /// The state is an actor, so a Set runs while a reload awaits a slow source; the reload
    /// must not then commit the explicit scale it saw before the Set (a Get after the Set's
    /// reply would read the old scale).
    @Test func aSetDuringAReloadIsNotUndoneByIt() async throws {
        let sandbox = try Sandbox()
        try sandbox.writeFontconfig()
        let desktop = HeldDesktop()
        let state = TextScaleState(environment: sandbox.environment, desktop: desktop, logger: LogCapture().logger)
        let reload = Task { await state.reload() }
        await desktop.waitUntilReading()
        let set = try await state.setExplicitScale(2)
        #expect(set.factor == 2)
        desktop.letGo()
        let reloaded = await reload.value
        #expect(reloaded.factor == 2)
        #expect(reloaded.source == .explicit)
        #expect(await state.snapshot.factor == 2)
    }

    @Test func fontconfigWithoutDpiSetsNothing() throws {
        let sandbox = try Sandbox()
        try sandbox.writeFontconfig()
        let snapshot = try FontconfigReader.readNow(configFile: sandbox.fontconfigFile)
        #expect(snapshot.dpi == nil)
        #expect(snapshot.textScaleFactor == nil)
        #expect(snapshot.uiFont?.family == "DejaVu Sans")
        #expect(snapshot.monospaceFont?.family == "DejaVu Sans Mono")
        #expect(snapshot.configFiles.contains(Sandbox.pinnedFontsConf))
        #expect(snapshot.fontDirectories.contains("/usr/share/fonts/truetype/dejavu"))
    }

    /// A configuration the process loaded a moment before (the text engine's, fitctl --local)
    /// reads as one loaded afresh, for the first reload only: a file written since counts
    /// at the next.
    @Test func aConfigurationLoadedBeforeIsReadOnceAsIfLoadedAfresh() async throws {
        let sandbox = try Sandbox()
        try sandbox.writeFontconfig(dpi: 120)
        let fresh = try FontconfigReader.readNow(configFile: sandbox.fontconfigFile)
        let config = try #require(FcConfigCreate())
        defer { FcConfigDestroy(config) }
        #expect(FcConfigParseAndLoad(config, sandbox.fontconfigFile, FcTrue) == FcTrue)
        #expect(FcConfigBuildFonts(config) == FcTrue)
        let address = UInt(bitPattern: Int(bitPattern: config))
        let given = Mutex(0)
        let state = TextScaleState(
            environment: sandbox.environment, logger: LogCapture().logger,
            loadedFontconfig: {
                given.withLock { $0 += 1 }
                return OpaquePointer(bitPattern: address).flatMap { FcConfigReference($0) }
            })
        let first = await state.reload()
        // The UI font is GTK's (no desktop source here: its Sans 10), never fontconfig's.
        #expect(first.uiFont == TextScalePreference.fallbackUIFont)
        #expect(fresh.monospaceFont == first.monospaceFont)
        #expect(fresh.textScaleFactor == 1.25 && first.factor == 1.25)
        // The next reload loads the file as it is now.
        try sandbox.writeFontconfig(dpi: 144)
        let second = await state.reload(reasons: [.fontconfig])
        #expect(second.factor == 1.5)
        #expect(given.withLock { $0 } == 1)
    }

    @Test func fontconfigDpi120IsScale125AndMovesCategoryAndEveryStyle() async throws {
        let sandbox = try Sandbox()
        try sandbox.writeFontconfig()
        let state = TextScaleState(environment: sandbox.environment, logger: LogCapture().logger)
        let before = await state.reload()
        #expect(before.factor == 1)
        #expect(before.source == .default)
        #expect(before.category == .large)
        #expect(before.uiFont.family == "Sans")

        try sandbox.writeFontconfig(dpi: 120)
        let after = await state.reload(reasons: [.fontconfig])
        #expect(after.factor == 1.25)
        #expect(after.source == .fontconfig)
        #expect(after.dpi == 120)
        #expect(after.category == .xxLarge)
        #expect(after.generation == before.generation + 1)
        let old = TextStyleFont.table(uiFont: before.uiFont, category: before.category)
        let new = TextStyleFont.table(uiFont: after.uiFont, category: after.category)
        for (a, b) in zip(old, new) {
            #expect(b.pointSize > a.pointSize, "\(a.style)")
            #expect(b.lineHeight > a.lineHeight, "\(a.style)")
        }
        #expect(try TextStyleFont.resolve("body", in: after)?.pointSize == (21 * after.uiFont.pointSize / 17 * 100).rounded() / 100)
    }

    @Test func explicitSettingWinsOverFontconfigAndSurvivesRestart() async throws {
        let sandbox = try Sandbox()
        try sandbox.writeFontconfig(dpi: 120)
        let first = TextScaleState(environment: sandbox.environment, logger: LogCapture().logger)
        #expect(await first.reload().source == .fontconfig)
        let set = try await first.setExplicitScale(1.5)
        #expect(set.factor == 1.5 && set.source == .explicit && set.category == .accessibilityMedium)

        let restarted = TextScaleState(environment: sandbox.environment, logger: LogCapture().logger)
        let again = await restarted.reload()
        #expect(again.factor == 1.5)
        #expect(again.source == .explicit)

        await #expect(throws: FitScaleError.invalidScale(0)) { try await restarted.setExplicitScale(0) }
        #expect(await restarted.snapshot.factor == 1.5)

        let reset = try await restarted.resetExplicitScale()
        #expect(reset.factor == 1.25 && reset.source == .fontconfig)
    }

    @Test func corruptConfigKeepsTheLastGoodValueAndSaysWhy() async throws {
        let sandbox = try Sandbox()
        try sandbox.writeFontconfig()
        let capture = LogCapture()
        let state = TextScaleState(environment: sandbox.environment, logger: capture.logger)
        try await state.setExplicitScale(1.25)
        let good = await state.reload()
        #expect(good.factor == 1.25 && good.source == .explicit)

        try sandbox.write(sandbox.environment.fitdConfigPath, "\u{1}\u{2}garbage garbage\n[[[\n")
        let kept = await state.reload(reasons: [.fitdConfig])
        #expect(kept.factor == 1.25 && kept.source == .explicit)
        #expect(kept.generation == good.generation)
        let problems = await state.problems
        #expect(problems.count == 1)
        #expect(problems.first?.path == sandbox.environment.fitdConfigPath)
        #expect(capture.contains(level: .warning, "keeping the last good explicit setting"))

        // 100 MB of it: the same, without reading it.
        let fd = open(sandbox.environment.fitdConfigPath, O_WRONLY | O_TRUNC)
        #expect(ftruncate(fd, 100 * 1024 * 1024) == 0)
        close(fd)
        let still = await state.reload(reasons: [.fitdConfig])
        #expect(still.factor == 1.25)
        #expect(await state.problems.first == .configTooLarge(path: sandbox.environment.fitdConfigPath, bytes: 100 * 1024 * 1024, limit: ConfigFile.maximumBytes))

        // Fixed: the problem goes away.
        try sandbox.write(sandbox.environment.fitdConfigPath, "[text]\nscale = 2\n")
        let fixed = await state.reload(reasons: [.fitdConfig])
        #expect(fixed.factor == 2 && fixed.category == .accessibilityLarge)
        #expect(await state.problems.isEmpty)
    }

    @Test func kdeForceFontDpiWhenFontconfigSetsNone() async throws {
        let sandbox = try Sandbox()
        try sandbox.writeFontconfig()
        try sandbox.write(sandbox.environment.kcmFontsPath, "[General]\nforceFontDPI=120\n")
        try sandbox.write(sandbox.environment.kdeGlobalsPath, "[General]\nfont=Noto Sans,10,-1,5,50,0,0,0,0,0\nfixed=Hack,9,-1,5,50,0,0,0,0,0\nnonsense line\n[KDE]\nLookAndFeelPackage=org.kde.breeze\n")
        let kde = KDESettingsProvider(environment: sandbox.environment)
        let state = TextScaleState(environment: sandbox.environment, desktop: kde, logger: LogCapture().logger)
        let snapshot = await state.reload()
        #expect(snapshot.factor == 1.25)
        #expect(snapshot.source == .kde)
        #expect(snapshot.uiFont == UIFont(family: "Noto Sans", pointSize: 10, source: .kde))
        #expect(snapshot.monospaceFont.family == "Hack")
        #expect(await state.watchTargets().contains(WatchTarget(path: sandbox.environment.kcmFontsPath, kind: .file, reason: .desktop)))

        // fontconfig's dpi outranks the desktop.
        try sandbox.writeFontconfig(dpi: 144)
        let fc = await state.reload()
        #expect(fc.factor == 1.5 && fc.source == .fontconfig)
        #expect(fc.uiFont.family == "Noto Sans")  // the desktop still names the UI font
    }

    @Test func gnomeSettingsThroughTheProviderSeam() async throws {
        let sandbox = try Sandbox()
        try sandbox.writeFontconfig()
        let (settings, problems) = DesktopSettings.gnomeInterface(textScalingFactor: 1.5, fontName: "Cantarell 11", monospaceFontName: "Source Code Pro 10")
        #expect(problems.isEmpty)
        let state = TextScaleState(environment: sandbox.environment, desktop: FakeDesktop(settings: settings), logger: LogCapture().logger)
        let snapshot = await state.reload()
        #expect(snapshot.factor == 1.5 && snapshot.source == .gnome)
        #expect(snapshot.uiFont.pangoDescription == "Cantarell 11")
        #expect(try TextStyleFont.resolve("headline", in: snapshot)?.pangoDescription == "Cantarell Semi-Bold 18.12")  // AX1: 28 × 11/17

        let bad = DesktopSettings.gnomeInterface(textScalingFactor: 9, fontName: nil, monospaceFontName: nil)
        #expect(bad.settings.textScale == nil)
        #expect(bad.problems.count == 1)
    }

    @Test func generationCountsEffectiveChangesOnly() async throws {
        let sandbox = try Sandbox()
        try sandbox.writeFontconfig()
        let state = TextScaleState(environment: sandbox.environment, logger: LogCapture().logger)
        let first = await state.reload()
        #expect(first.generation == 1)
        #expect(await state.reload(reasons: [.fontconfig]).generation == 1)
        #expect(await state.reload(reasons: [.fonts]).generation == 2)  // the font set may differ
        try await state.setExplicitScale(1.1)
        #expect(await state.snapshot.generation == 3)
        try await state.setExplicitScale(1.1)
        #expect(await state.snapshot.generation == 3)
    }
}
