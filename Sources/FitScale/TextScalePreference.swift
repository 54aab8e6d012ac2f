/// The inputs of the text-scale decision, one per source, and the rule that combines them.
///
/// Precedence (issue 5, README, docs/text-scale.md): 1) fitd's explicit setting, 2) fontconfig's
/// `dpi`/`scale` for a pattern, 3) the desktop (GNOME via the portal, else GSettings; or KDE),
/// 4) X11's Xft.dpi, 5) 1.0. Fonts: the desktop's
/// UI / monospace font, else fontconfig's `system-ui` / `monospace` match, else DejaVu at
/// 11 pt — fitd's own setting and fontconfig's dpi do not name a UI font.
public struct TextScalePreference: Hashable, Sendable {
    public var explicit: TextScale?
    public var fontconfig: FontconfigSnapshot?
    public var desktop: DesktopSettings?
    /// The desktop's source (`.gnome` or `.kde`) for ``desktop``.
    public var desktopSource: TextScaleSource

    public init(explicit: TextScale? = nil, fontconfig: FontconfigSnapshot? = nil, desktop: DesktopSettings? = nil, desktopSource: TextScaleSource = .gnome) {
        self.explicit = explicit
        self.fontconfig = fontconfig
        self.desktop = desktop
        self.desktopSource = desktopSource
    }

    /// Used when neither the desktop nor fontconfig names a font.
    public static let fallbackUIFont = UIFont(family: "sans-serif", pointSize: UIFont.fallbackPointSize, source: .default)
    public static let fallbackMonospaceFont = UIFont(family: "monospace", pointSize: UIFont.fallbackPointSize, source: .default)

    /// The factor and the source it came from.
    public var resolvedScale: (scale: TextScale, source: TextScaleSource) {
        if let explicit { return (explicit, .explicit) }
        if let factor = fontconfig?.textScaleFactor, let scale = try? TextScale(factor) { return (scale, .fontconfig) }
        if let factor = desktop?.textScale, let scale = try? TextScale(factor) { return (scale, desktop?.textScaleSource ?? desktopSource) }
        return (.identity, .default)
    }

    public var resolvedUIFont: UIFont {
        desktop?.uiFont ?? fontconfig?.uiFont ?? TextScalePreference.fallbackUIFont
    }

    public var resolvedMonospaceFont: UIFont {
        desktop?.monospaceFont ?? fontconfig?.monospaceFont ?? TextScalePreference.fallbackMonospaceFont
    }
}

/// The text scale in force, as every client should see it.
public struct TextScaleSnapshot: Hashable, Sendable, CustomStringConvertible {
    public var scale: TextScale
    public var source: TextScaleSource
    public var category: SizeCategory
    public var uiFont: UIFont
    public var monospaceFont: UIFont
    /// Increments on every effective change (a different factor, source, category or font,
    /// or fonts installed / removed); results computed under an older generation are stale.
    public var generation: UInt64

    public var factor: Double { scale.factor }

    /// fontconfig-style dpi for this scale (96 × factor), for the `Dpi` property.
    public var dpi: Double { 96 * scale.factor }

    public var description: String {
        "scale \(scale) from \(source), category \(category), UI font \(uiFont.pangoDescription), monospace \(monospaceFont.pangoDescription), generation \(generation)"
    }

    init(preference: TextScalePreference, generation: UInt64) {
        let (scale, source) = preference.resolvedScale
        self.scale = scale
        self.source = source
        category = scale.category
        uiFont = preference.resolvedUIFont
        monospaceFont = preference.resolvedMonospaceFont
        self.generation = generation
    }

    /// Equal apart from the generation.
    func sameValues(as other: TextScaleSnapshot) -> Bool {
        var copy = other
        copy.generation = generation
        return copy == self
    }
}
