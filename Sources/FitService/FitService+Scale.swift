import Dispatch
import FitBus
import FitProtocol
import FitScale
import FitText

/// The text-scale part of org.fitd.Fit1 (protocol/org.fitd.Fit1.xml): the scale properties,
/// ResetTextScale, GetTextStyles, text styles in font strings, and publishing a change.
extension FitService {
    // MARK: wiring

    /// Hands the service the text-scale state that `TextScale` Set and `ResetTextScale` write
    /// through. The daemon calls it before taking the bus name.
    public func attach(textScaleState state: TextScaleState) {
        scaleBinding.values.withLock { $0.state = state }
    }

    /// The connection changes are announced on (PropertiesChanged, GenerationChanged).
    public func attach(connection: BusConnection?) {
        scaleBinding.values.withLock { $0.connection = connection }
    }

    /// The snapshot the scale properties report; nil before the daemon applied one.
    public var textScaleSnapshot: TextScaleSnapshot? { scaleBinding.snapshot }

    /// Makes `snapshot` the one in force: the factor every request is measured with and the
    /// values of the scale properties. A snapshot older than the one in force (a lower
    /// ``TextScaleSnapshot/generation``, from a reload that finished late) is ignored.
    /// Returns the properties whose values changed, with their new values.
    @discardableResult
    public func apply(_ snapshot: TextScaleSnapshot) -> [String: DBusValue] {
        let (old, accepted) = scaleBinding.values.withLock { values -> (TextScaleSnapshot?, Bool) in
            let old = values.snapshot
            if let old, old.generation > snapshot.generation { return (old, false) }
            values.snapshot = snapshot
            return (old, true)
        }
        guard accepted else { return [:] }
        // Measured clamped (UserRequestRules.clamped); the property keeps what the user asked for.
        setTextScale(UserRequestRules.clamped(snapshot.factor))
        let new = Self.propertyValues(snapshot)
        let before = old.map(Self.propertyValues) ?? Self.propertyValues(factor: 1, source: .default, category: .default,
            uiFont: TextScalePreference.fallbackUIFont, monospaceFont: TextScalePreference.fallbackMonospaceFont)
        return new.filter { before[$0.key] != $0.value }
    }

    /// Publishes a change: drops the engine's font state when fonts or their configuration
    /// changed, applies `snapshot`, and — when either happened — bumps the generation ONCE
    /// and announces it: PropertiesChanged for what changed (with Generation) and
    /// GenerationChanged with `reasons` (plus "text-scale" when a scale property changed).
    /// Returns the new generation, nil when nothing a client could see changed (a touched
    /// file with the same contents).
    @discardableResult
    public func publish(_ snapshot: TextScaleSnapshot, reasons: Set<GenerationReason>) async -> UInt64? {
        let fontsChanged = reasons.contains(.fonts) || reasons.contains(.fontconfig)
        if fontsChanged { await invalidateEngineCaches() }
        let previous = scaleBinding.snapshot
        let changed = apply(snapshot)
        // Values no property shows still change answers (GtkSettings a GTK line other than the
        // installed one reads, GTK 3's UI font): the reply and layout caches are keyed by the
        // generation, so any change of the snapshot's values is a new one.
        let measuresDifferently = previous.map { !$0.sameValues(as: snapshot) && $0.generation <= snapshot.generation }
            ?? (snapshot.gtk3UIFont != TextScalePreference.fallbackUIFont || !snapshot.gtkRendering.isUnset)
        guard fontsChanged || !changed.isEmpty || measuresDifferently else {
            logger.debug("text scale: \(reasons.sorted()) changed nothing a client sees")
            return nil
        }
        var all = reasons
        if !changed.isEmpty || measuresDifferently { all.insert(.textScale) }
        let generation = bumpGeneration()
        let names = all.sorted().map(\.rawValue)
        logger.info("generation \(generation) (\(names.joined(separator: ", "))): \(snapshot)")
        if let connection = scaleBinding.connection {
            if !changed.isEmpty {
                do throws(DBusError) {
                    try connection.emitPropertiesChanged(path: FitNames.objectPath, interface: FitNames.interface, changed: changed)
                } catch {
                    logger.warning("could not announce the text-scale properties: \(error)")
                }
            }
            announce(generation: generation, reasons: names, on: connection)
        }
        return generation
    }

    /// fontconfig reloads and font-directory scans block, so they run off Swift's pool. A
    /// configuration file that fontconfig would wait on (FontconfigGuard) keeps the engine's
    /// fonts as they are.
    private func invalidateEngineCaches() async {
        // TextScaleState.reload, just before, logged what the check found.
        if let check = scaleBinding.state?.fontconfigCheck, case .blocked = check.prepareForReload() {
            logger.warning("fonts: the text engine keeps the fonts it has: a fontconfig file is amiss (above)")
            return
        }
        let engine = self.engine
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global(qos: .utility).async {
                engine.invalidateCaches()
                continuation.resume()
            }
        }
    }

    /// Re-reads the sources for every report of `watcher` and publishes what changed, until
    /// the watcher stops. A flood of events is one report per debounce window (ChangeWatcher),
    /// so one re-read and at most one generation bump per window.
    public func follow(_ watcher: ChangeWatcher, state: TextScaleState) async {
        watcher.updateTargets(await state.watchTargets())
        for await change in watcher.changes {
            let snapshot = await state.reload(reasons: change.reasons)
            watcher.updateTargets(await state.watchTargets())
            await publish(snapshot, reasons: Set(change.reasons.map(GenerationReason.init)))
        }
    }

    // MARK: text styles in font strings

    /// The font string and text scale the engine gets for ResolveFont's font, by the user's
    /// rules (UserRequestRules.engineFont): a text style name ("body", "caption ax2") becomes
    /// its Pango description at the user's size category, measured at scale 1; anything else is
    /// a Pango description at the user's scale. A family whose first word is a style name is
    /// still reachable with a trailing comma ("Body, 12").
    func engineFont(_ font: String, rules: UserRequestRules) throws(DBusError) -> (font: String, textScale: Double) {
        do throws(UserRequestRules.Failure) {
            return try rules.engineFont(font, textScale: rules.textScale)
        } catch {
            throw DBusError(FitErrorName.invalidFont, error.description)
        }
    }

    /// Every style at `category` in the current UI font, as GetTextStyles returns them.
    public func textStyleRows(category: SizeCategory) -> [TextStyleRow] {
        let uiFont = scaleBinding.snapshot?.uiFont ?? TextScalePreference.fallbackUIFont
        return TextStyleFont.table(uiFont: uiFont, category: category).map { style in
            TextStyleRow(
                style: style.style.name, font: style.pangoDescription, pointSize: style.pointSize,
                lineHeight: (style.lineHeightPixels * 100).rounded() / 100)
        }
    }

    // MARK: the D-Bus members

    /// TextScale (read-write), TextScaleSource, SizeCategory, Dpi, UIFont, MonospaceFont.
    public func scaleProperties() throws(DBusError) -> [DBusProperty] {
        [
            try DBusProperty(
                TextScaleNames.textScale, signature: "d",
                doc: "The user's text-scale factor in (0, 4]. Setting it makes an explicit setting (persisted in $XDG_CONFIG_HOME/fitd/fitd.conf) that wins over fontconfig and the desktop; ResetTextScale removes it.",
                // publish() announces TextScale with everything that changed along with it
                // (source, category, Dpi, Generation): one PropertiesChanged, not two.
                setterAnnounces: true,
                get: { [self] in .double(scaleValues()[TextScaleNames.textScale] .flatMap(\.doubleValue) ?? currentTextScale) },
                set: { [self] value throws(DBusError) in
                    guard case .double(let factor) = value else { throw .invalidArgument("TextScale is a double (d)") }
                    try await changeExplicitScale(to: factor)
                }),
            try DBusProperty(
                TextScaleNames.textScaleSource, signature: "s",
                doc: "Where TextScale comes from: explicit, fontconfig, gnome, gsettings, kde, xresources or default.",
                get: { [self] in scaleValues()[TextScaleNames.textScaleSource]! }),
            try DBusProperty(
                TextScaleNames.sizeCategory, signature: "s",
                doc: "The Dynamic Type size category TextScale falls in: xSmall, small, medium, large (default), xLarge, xxLarge, xxxLarge, accessibilityMedium … accessibilityExtraExtraExtraLarge.",
                get: { [self] in scaleValues()[TextScaleNames.sizeCategory]! }),
            try DBusProperty(
                TextScaleNames.dpi, signature: "d", doc: "TextScale as a resolution: 96 × TextScale.",
                get: { [self] in scaleValues()[TextScaleNames.dpi]! }),
            try DBusProperty(
                TextScaleNames.uiFont, signature: "s",
                doc: "The font GTK draws a label with no font of its own in, a Pango description (XSETTINGS Gtk/FontName on X11, the desktop's font-name on Wayland, GTK's settings.ini, else GTK's Sans 10); measurements with no font use it, and body at the large category is its size.",
                get: { [self] in scaleValues()[TextScaleNames.uiFont]! }),
            try DBusProperty(
                TextScaleNames.uiFontSource, signature: "s",
                doc: "Where UIFont comes from: xsettings, settings.ini, gnome, gsettings, kde or default.",
                get: { [self] in scaleValues()[TextScaleNames.uiFontSource]! }),
            try DBusProperty(
                TextScaleNames.toolkit, signature: "s",
                doc: "The toolkit measurements reproduce when they name none: the GTK 4 installed where fitd runs, e.g. gtk-4.8.",
                constant: true, get: { .string(ToolkitProfile.gtk4.name) }),
            try DBusProperty(
                TextScaleNames.toolkitSettings, signature: "s",
                doc: "The user's GtkSettings that change how Toolkit measures (settings.ini gtk-hint-font-metrics, read by GTK 4.6 to 4.10), as gtk-hint-font-metrics=true; empty when none applies.",
                get: { [self] in scaleValues()[TextScaleNames.toolkitSettings]! }),
            try DBusProperty(
                TextScaleNames.monospaceFont, signature: "s",
                doc: "The user's monospace font as a Pango description (the desktop's, else fontconfig's monospace).",
                get: { [self] in scaleValues()[TextScaleNames.monospaceFont]! }),
        ]
    }

    /// ResetTextScale() and GetTextStyles(s category) → a(ssdd).
    public func scaleMethods() throws(DBusError) -> [DBusMethod] {
        [
            try DBusMethod(
                TextScaleNames.resetTextScale,
                doc: "Removes the explicit text scale (fitctl scale reset): fontconfig, the desktop or 1.0 decide again."
            ) { [self] _, _ throws(DBusError) in
                try await resetExplicitScale()
                return []
            },
            try DBusMethod(
                TextScaleNames.getTextStyles, in: "s", out: "a\(TextStyleRow.signature)", inNames: ["category"], outNames: ["styles"],
                doc: "Every text style at a size category (empty: the current one): style, Pango description, point size, line height in px."
            ) { [self] arguments, _ throws(DBusError) in
                guard case .string(let name)? = arguments.first else { throw .invalidArgument("GetTextStyles takes (s category)") }
                let category = try textStyleCategory(name)
                return [.array(elementSignature: TextStyleRow.signature, textStyleRows(category: category).map(\.dbusValue))]
            },
        ]
    }

    // MARK: helpers

    /// GetTextStyles' category argument: a name (SizeCategory(name:)), or empty for the current one.
    func textStyleCategory(_ name: String) throws(DBusError) -> SizeCategory {
        if name.isEmpty { return scaleBinding.snapshot?.category ?? SizeCategory(textScale: currentTextScale) }
        guard let category = SizeCategory(name: name) else {
            throw .invalidArgument("\(FitScaleError.unknownSizeCategory(name)), or an empty string for the current one")
        }
        return category
    }

    private func requireState() throws(DBusError) -> TextScaleState {
        guard let state = scaleBinding.state else {
            throw DBusError(.notSupported, "this fitd instance has no text-scale settings to change")
        }
        return state
    }

    /// `Set TextScale`: validated at once (a bad value is refused without waiting), then
    /// applied through ``TextScaleBinding/writes``, coalesced with the other writes of the
    /// same quarter second.
    func changeExplicitScale(to factor: Double) async throws(DBusError) {
        let state = try requireState()
        let scale: TextScale
        do throws(FitScaleError) {
            scale = try TextScale(factor)
        } catch {
            throw Self.dbusError(error)
        }
        try await writeExplicitScale(scale, state: state)
    }

    /// `ResetTextScale`, coalesced with the Sets around it: the last of them wins.
    func resetExplicitScale() async throws(DBusError) {
        try await writeExplicitScale(nil, state: try requireState())
    }

    private func writeExplicitScale(_ scale: TextScale?, state: TextScaleState) async throws(DBusError) {
        try await scaleBinding.writes.submit(scale) { [self] scale in
            let snapshot: TextScaleSnapshot
            do throws(FitScaleError) {
                if let scale {
                    snapshot = try await state.setExplicitScale(scale.factor)
                } else {
                    snapshot = try await state.resetExplicitScale()
                }
            } catch {
                return Self.dbusError(error)
            }
            await publish(snapshot, reasons: [.config])
            return nil
        }
    }

    static func dbusError(_ error: FitScaleError) -> DBusError {
        switch error {
        case .invalidScale, .unknownSizeCategory, .configValue:
            return .invalidArgument(error.description)
        default:
            return DBusError(FitErrorName.internal, "cannot save the text scale: \(error)")
        }
    }

    private func scaleValues() -> [String: DBusValue] {
        if let snapshot = scaleBinding.snapshot { return Self.propertyValues(snapshot) }
        let factor = currentTextScale
        return Self.propertyValues(
            factor: factor, source: .default, category: SizeCategory(textScale: factor),
            uiFont: TextScalePreference.fallbackUIFont, monospaceFont: TextScalePreference.fallbackMonospaceFont)
    }

    static func propertyValues(_ snapshot: TextScaleSnapshot) -> [String: DBusValue] {
        propertyValues(
            factor: snapshot.factor, source: snapshot.source, category: snapshot.category, uiFont: snapshot.uiFont,
            monospaceFont: snapshot.monospaceFont, gtkRendering: snapshot.gtkRendering)
    }

    static func propertyValues(
        factor: Double, source: TextScaleSource, category: SizeCategory, uiFont: UIFont, monospaceFont: UIFont,
        gtkRendering: GTKFontRenderingSettings = .unset
    ) -> [String: DBusValue] {
        [
            TextScaleNames.textScale: .double(factor),
            TextScaleNames.textScaleSource: .string(source.rawValue),
            TextScaleNames.sizeCategory: .string(category.name),
            TextScaleNames.dpi: .double(96 * factor),
            TextScaleNames.uiFont: .string(uiFont.pangoDescription),
            TextScaleNames.uiFontSource: .string(uiFont.source.rawValue),
            TextScaleNames.monospaceFont: .string(monospaceFont.pangoDescription),
            TextScaleNames.toolkitSettings: .string(gtkRendering.readByDefaultToolkit.description),
        ]
    }
}

extension GenerationReason {
    /// The reason a watcher report maps to.
    public init(_ reason: ChangeReason) {
        switch reason {
        case .fonts: self = .fonts
        case .fontconfig: self = .fontconfig
        case .fitdConfig: self = .config
        case .desktop: self = .desktop
        }
    }
}

extension DBusValue {
    fileprivate var doubleValue: Double? {
        if case .double(let value) = self { return value }
        return nil
    }
}
