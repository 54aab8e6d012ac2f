import FitBus
import FitScale
import FitService
import Logging

/// The daemon's text-scale machinery: the state (with the desktop provider), its first read,
/// the change watcher and the tasks that follow it. Created by ``BusDaemon`` once it has a
/// bus connection (the GNOME provider asks the portal over it) and BEFORE it takes the bus
/// name, so the first request is already measured at the user's scale.
struct TextScaleRuntime {
    let state: TextScaleState
    let watcher: ChangeWatcher?
    private let tasks: [Task<Void, Never>]

    /// Reads the preference, applies it to `service` (or, when the daemon stopped waiting for
    /// it, publishes it as a change: `gate`), starts watching.
    static func start(
        service: FitService, connection: BusConnection, environment: FitScaleEnvironment, fontconfigCheck: FontconfigGuard?,
        gate: StartGate, logger: Logger
    ) async -> TextScaleRuntime {
        let desktop = await chooseDesktop(connection: connection, environment: environment, logger: logger)
        let state = TextScaleState(environment: environment, desktop: desktop, logger: logger, fontconfigCheck: fontconfigCheck)
        service.attach(textScaleState: state)
        service.attach(connection: connection)
        let snapshot = await state.reload()
        if !gate.finish(inTime: { service.apply(snapshot) }) {
            // Clients may have measured at the default scale since the name was taken: a new
            // generation tells them to measure again.
            await service.publish(snapshot, reasons: [.config, .desktop])
        }
        logger.info("text scale: \(snapshot)")

        let watcher = ChangeWatcher(targets: await state.watchTargets(), logger: logger)
        do throws(FitScaleError) {
            try watcher.start()
        } catch {
            // Measuring works without it; only live updates are lost.
            logger.warning("text scale: not watching for changes (\(error)); restart fitd after changing fonts or settings")
            return TextScaleRuntime(state: state, watcher: nil, tasks: [])
        }
        var tasks = [Task { await service.follow(watcher, state: state) }]
        if let desktop {
            // The portal's SettingChanged and the X display's watch (XSettingsProvider) go
            // through the same debounce as file events.
            tasks.append(Task {
                for await _ in desktop.changes() { watcher.notify(.desktop) }
            })
        }
        return TextScaleRuntime(state: state, watcher: watcher, tasks: tasks)
    }

    func stop() {
        watcher?.stop()
        for task in tasks { task.cancel() }
    }

    /// Layered with GSettings (GNOME without a portal) and Xft.dpi (docs/text-scale.md,
    /// "Precedence"). GNOME's portal when it is on the bus (running or activatable); KDE's files when they
    /// exist and the portal is not there or the session is Plasma (whose portal backend does
    /// not serve org.gnome.desktop.interface); else the portal provider anyway, which reports
    /// nothing until a portal appears on the bus (it follows NameOwnerChanged).
    static func chooseDesktop(connection: BusConnection, environment: FitScaleEnvironment, logger: Logger) async -> (any DesktopSettingsProvider)? {
        let kdeFiles = KDESettingsProvider(environment: environment).filesExist
        let plasma = (ProcessEnvironment.value("XDG_CURRENT_DESKTOP") ?? "").uppercased().split(separator: ":").contains("KDE")
        let portal = await PortalSettingsProvider.isAvailable(on: connection)
        // Then XSETTINGS, GTK's settings.ini and Xft.dpi (LayeredSettingsProvider.desktopSources):
        // GNOME on X11 and KDE write their own settings into them, and desktops without a
        // settings daemon set only them.
        if kdeFiles && (plasma || !portal) {
            logger.debug("desktop settings: KDE (\(environment.kdeGlobalsPath), \(environment.kcmFontsPath)), then XSETTINGS, settings.ini, Xft.dpi")
            return LayeredSettingsProvider.desktopSources([KDESettingsProvider(environment: environment)], gnome: false, environment: environment, logger: logger)
        }
        logger.debug("desktop settings: GNOME through \(PortalSettingsProvider.busName)\(portal ? "" : " (not on the bus yet)"), then GSettings, XSETTINGS, settings.ini, Xft.dpi")
        return LayeredSettingsProvider.desktopSources(
            [PortalSettingsProvider(connection: connection, logger: logger), GSettingsProvider(environment: environment)],
            gnome: true, environment: environment, logger: logger)
    }
}
