import Foundation
import Testing

@testable import FitText

/// Every cached result is tied to the fonts it was measured with: a change of fonts
/// (``TextEngine/invalidateCaches()``) starts a new epoch, and nothing measured under an
/// earlier one is served or saved after it — not even what a measurement that straddled the
/// change stores once the caches were emptied.
@Suite struct FontEpochTests {
    static let request = MeasureRequest(text: "Hello, world", font: "DejaVu Sans 12")
    static let secret = PersistenceSecret(bytes: Array(0..<32))

    /// What a measurement that began before the change stores after it: the old fonts'
    /// width, under the epoch it read when it began.
    private func storeLate(_ metrics: TextMetrics, in engine: TextEngine, epoch: UInt64) {
        let key = Prehashed(Self.request)
        engine.resultCache.insert(
            TextEngine.EpochMetrics(metrics: metrics, epoch: epoch), for: key, bytes: TextEngine.resultBytes(key, metrics))
    }

    private func wrong(_ metrics: TextMetrics) -> TextMetrics {
        var wrong = metrics
        wrong.width += 13.5
        return wrong
    }

    @Test func aResultStoredAfterAChangeOfFontsUnderTheEpochBeforeItIsNotServed() throws {
        let engine = try TestEngine.fresh()
        let before = engine.fontEpoch.load(ordering: .relaxed)
        let truth = try engine.measure(Self.request)
        engine.invalidateCaches()
        #expect(engine.fontEpoch.load(ordering: .relaxed) == before + 1)
        storeLate(wrong(truth), in: engine, epoch: before)
        #expect(engine.cachedMeasurement(Self.request) == nil)
        #expect(try engine.measure(Self.request) == truth)
        // Measured again under the new epoch: that one is served.
        #expect(engine.cachedMeasurement(Self.request) == truth)
    }

    @Test func aSaveWritesOnlyWhatWasMeasuredUnderItsStampsFonts() throws {
        let engine = try TestEngine.fresh()
        let truth = try engine.measure(Self.request)
        let old = engine.fontEpoch.load(ordering: .relaxed)
        let oldStamp = engine.stamp(fingerprint: 7)
        engine.invalidateCaches()
        storeLate(wrong(truth), in: engine, epoch: old)
        // A stamp taken before the change no longer writes anything.
        let secret = try #require(Self.secret)
        #expect(engine.persistedFile(stamp: oldStamp, secret: secret, byteLimit: 1 << 20) == nil)
        // The new epoch's file has no entry of the old one.
        let file = try #require(engine.persistedFile(stamp: engine.stamp(fingerprint: 7), secret: secret, byteLimit: 1 << 20))
        #expect(file.entries == 0)
        _ = try engine.measure(MeasureRequest(text: "after", font: "DejaVu Sans 12"))
        #expect(engine.persistedFile(stamp: engine.stamp(fingerprint: 7), secret: secret, byteLimit: 1 << 20)?.entries == 1)
    }

    @Test func aNewResolverNeverReusesAnOldResolversFontIDs() throws {
        let engine = try TestEngine.fresh()
        _ = try engine.measure(MeasureRequest(text: "words", font: "DejaVu Sans 9"))
        let old = Set(engine.resolver.loadedFonts().map(\.id))
        #expect(!old.isEmpty)
        engine.invalidateCaches()
        _ = try engine.measure(MeasureRequest(text: "words", font: "DejaVu Sans 30"))
        let new = Set(engine.resolver.loadedFonts().map(\.id))
        #expect(!new.isEmpty)
        #expect(old.isDisjoint(with: new), "old \(old.sorted()), new \(new.sorted())")
        // And another engine's fonts are others still.
        let other = try TestEngine.fresh()
        _ = try other.measure(MeasureRequest(text: "words", font: "DejaVu Sans 9"))
        #expect(Set(other.resolver.loadedFonts().map(\.id)).isDisjoint(with: old.union(new)))
    }

    @Test func aStampedEngineKeepsTheStampItsFontsWereMadeWith() throws {
        _ = try TestEngine.fresh()
        var configuration = TextEngine.Configuration()
        configuration.language = "en-us"
        configuration.preferredLanguages = []
        configuration.stampsFontSet = true
        let engine = try TextEngine(configuration: configuration)
        let stamp = engine.persistenceStamp(version: "1")
        #expect(engine.persistenceStamp(version: "1") == stamp)
        engine.invalidateCaches()
        let next = engine.persistenceStamp(version: "1")
        // Same files, so the same fingerprint; another epoch, so another stamp.
        #expect(next.fingerprint == stamp.fingerprint)
        #expect(next != stamp)
    }
}
