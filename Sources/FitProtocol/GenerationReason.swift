/// Why the generation changed, as GenerationChanged's `reasons` spell it.
public enum GenerationReason: String, CaseIterable, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// A font was installed or removed (a watched font directory changed).
    case fonts
    /// fontconfig's configuration changed (a file, a config directory, the user's directory).
    case fontconfig
    /// The text scale, size category, UI or monospace font in force changed.
    case textScale = "text-scale"
    /// fitd's own config file ($XDG_CONFIG_HOME/fitd/fitd.conf) changed.
    case config
    /// The desktop's settings changed (the portal's SettingChanged, KDE's files).
    case desktop

    public var description: String { rawValue }

    public static func < (lhs: GenerationReason, rhs: GenerationReason) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }
}
