/// fitd's explicit text-scale setting, persisted in `$XDG_CONFIG_HOME/fitd/fitd.conf`:
///
///     [text]
///     scale = 1.25
///
/// No file, or no `scale` key: no explicit setting. Other sections and keys are kept when
/// the file is rewritten.
public struct ExplicitScaleStore: Sendable {
    public static let section = "text"
    public static let key = "scale"

    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The explicit scale, nil when none is set. Throws for an unreadable, oversized or
    /// malformed file and for a scale outside (0, 4].
    public func load() throws(FitScaleError) -> TextScale? {
        guard let file = try ConfigFile.load(path: path),
            let text = file.value(section: ExplicitScaleStore.section, key: ExplicitScaleStore.key)
        else { return nil }
        guard let value = Double(text) else {
            throw .configValue(path: path, key: "[text] scale", value: String(text.prefix(40)), reason: "not a number; the range is (0, \(TextScale.maximum.formatted)]")
        }
        do throws(FitScaleError) {
            return try TextScale(value)
        } catch {
            throw .configValue(path: path, key: "[text] scale", value: text, reason: "\(error)")
        }
    }

    /// Writes `scale` (nil removes the setting) atomically, keeping the file's other keys.
    /// A file that cannot be parsed is replaced (it is reported by ``load()`` meanwhile).
    public func save(_ scale: TextScale?) throws(FitScaleError) {
        var file = (try? ConfigFile.load(path: path)) ?? nil ?? ConfigFile()
        file.setValue(scale.map(\.factor.formatted), section: ExplicitScaleStore.section, key: ExplicitScaleStore.key)
        try file.save(path: path, header: "fitd settings (fitctl scale set / reset writes this file).")
    }
}
