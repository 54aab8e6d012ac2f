import CHarfBuzz
import Synchronization

/// Shaped runs and words a daemon saved before it stopped (`shapes.bin`, TextEngine+Persistence),
/// consulted when the shaped-run cache misses: a new string made of words shaped before the
/// restart is not shaped again. Shared by every measurement (PixelTypesetter.Resources).
final class PersistedShapes: Sendable {
    let table = Mutex<PersistedResultTable?>(nil)

    /// The run for `key` from the file read at start, kept in `cache` from now on; nil when there is
    /// no file or it does not hold the run.
    func run(_ key: ShapeKey, font: Font, features: [hb_feature_t], cache: ByteBoundedCache<ShapeKey, ShapedRun>) -> ShapedRun? {
        guard let table = table.withLock({ $0 }) else { return nil }
        let bytes = PersistedShapeCoding.key(
            key, font: font.identity, language: PersistedShapeCoding.languageTag(key.language), features: features)
        let units = Int(key.count)
        guard let run = table.value(for: bytes, { PersistedShapeCoding.run($0, units: units) }) else { return nil }
        cache.insert(run, for: key, bytes: key.byteCount + run.byteCount)
        return run
    }
}
