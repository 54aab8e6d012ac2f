import FitTypes

/// The inputs of the text-scale decision, one per source, and the rule that combines them.
///
/// Precedence (README, docs/text-scale.md): 1) fitd's explicit setting, 2) fontconfig's
/// `dpi`/`scale` for a pattern, 3) the desktop (GNOME via the portal, else GSettings; or KDE;
/// then XSETTINGS and GTK's settings.ini), 4) X11's Xft.dpi, 5) 1.0. The UI font: where GTK
/// finds it (XSETTINGS on X11, the portal or GSettings on Wayland, settings.ini), else GTK's
/// `Sans 10`; the monospace font: the desktop's, else fontconfig's `monospace` match.
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

    /// Used when no desktop source names a UI font: GTK's own default for `gtk-font-name`,
    /// what an unstyled label is drawn in without settings (gtk/gtksettings.c,
    /// `DEFAULT_FONT_NAME` — and what GTK 4.8 was seen to draw under X11 with no settings
    /// daemon and no settings.ini: Tests/oracle/gtk_compare.py).
    public static let fallbackUIFont = UIFont(family: "Sans", pointSize: 10, source: .default)
    public static let fallbackMonospaceFont = UIFont(family: "monospace", pointSize: UIFont.fallbackPointSize, source: .default)

    /// The factor and the source it came from.
    public var resolvedScale: (scale: TextScale, source: TextScaleSource) {
        if let explicit { return (explicit, .explicit) }
        if let factor = fontconfig?.textScaleFactor, let scale = try? TextScale(factor) { return (scale, .fontconfig) }
        // The providers and LayeredSettingsProvider already pass over a desktop scale out of
        // range, with a warning; this keeps one from any other provider out as well.
        if let factor = desktop?.textScale, TextScale.desktopRange.contains(factor), let scale = try? TextScale(factor) {
            return (scale, desktop?.textScaleSource ?? desktopSource)
        }
        return (.identity, .default)
    }

    /// The desktop's UI font, in GTK's order of sources (``LayeredSettingsProvider``), else
    /// GTK's default. fontconfig's `system-ui` is not asked: GTK never does.
    public var resolvedUIFont: UIFont {
        desktop?.uiFont ?? TextScalePreference.fallbackUIFont
    }

    /// GTK 3's: the same sources, but its own settings.ini (``DesktopSettings/gtk3UIFont``).
    public var resolvedGTK3UIFont: UIFont {
        desktop?.gtk3UIFont ?? TextScalePreference.fallbackUIFont
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
    /// The UI font GTK 3 labels draw in: ``uiFont`` unless GTK 3's settings.ini names another.
    public var gtk3UIFont: UIFont
    public var monospaceFont: UIFont
    /// The user's GtkSettings that change how GTK 4 measures (``GTKFontRenderingSettings``).
    public var gtkRendering: GTKFontRenderingSettings
    /// Increments on every effective change (a different factor, source, category or font,
    /// or fonts installed / removed); results computed under an older generation are stale.
    public var generation: UInt64

    public var factor: Double { scale.factor }

    /// fontconfig-style dpi for this scale (96 × factor), for the `Dpi` property.
    public var dpi: Double { 96 * scale.factor }

    public var description: String {
        "scale \(scale) from \(source), category \(category), UI font \(uiFont.pangoDescription), monospace \(monospaceFont.pangoDescription)\(gtkRendering.isUnset ? "" : ", \(gtkRendering)"), generation \(generation)"
    }

    init(preference: TextScalePreference, generation: UInt64) {
        let (scale, source) = preference.resolvedScale
        self.scale = scale
        self.source = source
        category = scale.category
        uiFont = preference.resolvedUIFont
        gtk3UIFont = preference.resolvedGTK3UIFont
        monospaceFont = preference.resolvedMonospaceFont
        gtkRendering = preference.desktop?.gtkRendering ?? .unset
        self.generation = generation
    }

    /// Equal apart from the generation.
    public func sameValues(as other: TextScaleSnapshot) -> Bool {
        var copy = other
        copy.generation = generation
        return copy == self
    }
}

/// The UI fonts GTK 4 and GTK 3 draw a label with no font of its own in: the same desktop
/// sources, but each toolkit its own settings.ini. Every request path picks from here by the
/// request's toolkit.
public struct ToolkitUIFonts: Hashable, Sendable {
    public var gtk4: UIFont
    public var gtk3: UIFont

    /// The snapshot's, or GTK's built-in default before there is one.
    public init(_ snapshot: TextScaleSnapshot?) {
        gtk4 = snapshot?.uiFont ?? TextScalePreference.fallbackUIFont
        gtk3 = snapshot?.gtk3UIFont ?? TextScalePreference.fallbackUIFont
    }

    public func font(for toolkit: ToolkitProfile.Toolkit) -> UIFont {
        toolkit == .gtk3 ? gtk3 : gtk4
    }
}
