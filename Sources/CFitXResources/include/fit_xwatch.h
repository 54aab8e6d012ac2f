// A live watch of the X display's settings, as GDK's X11 backend follows them
// (gdk/x11/xsettings-client.c: check_manager_window, gdk_xsettings_root_window_filter,
// gdk_xsettings_manager_window_filter): the XSETTINGS manager's _XSETTINGS_SETTINGS, a new
// manager taking the _XSETTINGS_S<screen> selection (its MANAGER message on the root window),
// the manager going away, and the root window's RESOURCE_MANAGER (Xft.dpi). It only says
// that something changed; fit_xresources.h's readers read the values.
//
// One connection, used from one thread: fit_x_watch_connect, fit_x_watch_next,
// fit_x_watch_sleep and fit_x_watch_disconnect all on that thread; fit_x_watch_stop from
// any thread. Every wait polls the connection together with a stop pipe, so that
// fit_x_watch_stop ends it at once, except xcb_connect's own (libxcb reads the server's
// setup reply with a blocking poll of its own): a server that accepts and never answers
// holds the watching thread there until it answers or goes away.
#ifndef FIT_XWATCH_H
#define FIT_XWATCH_H

#include <stddef.h>
#include <stdint.h>

/// What a step of the watch came to.
typedef enum {
    FIT_X_WATCH_CHANGED = 0,     ///< fit_x_watch_next: something changed (*what says what)
    FIT_X_WATCH_STOPPED = 1,     ///< fit_x_watch_stop was called
    FIT_X_WATCH_LOST = 2,        ///< the connection broke: the server went away or closed it
    FIT_X_WATCH_NO_DISPLAY = 3,  ///< fit_x_watch_connect could not open the display
    FIT_X_WATCH_TIMED_OUT = 4,   ///< the server did not answer a request within the deadline
    FIT_X_WATCH_FAILED = 5,      ///< out of memory, or not connected
    FIT_X_WATCH_READY = 6,       ///< fit_x_watch_connect: connected and watching
} fit_x_watch_status;

/// What changed (bits of fit_x_watch_next's *what, and of fit_x_watch_classify).
enum {
    FIT_X_CHANGED_RESOURCES = 1u,  ///< the root window's RESOURCE_MANAGER (xrdb)
    FIT_X_CHANGED_SETTINGS = 2u,   ///< the XSETTINGS manager's settings, or which manager there is
    FIT_X_CHANGED_MANAGER = 4u,    ///< the manager may have changed: find it again (with SETTINGS)
};

/// The windows and atoms an event is judged by (fit_x_watch_classify). 0: none.
typedef struct {
    uint32_t resource_root;   ///< screen 0's root window, whose RESOURCE_MANAGER xrdb writes
    uint32_t settings_root;   ///< the default screen's root window, where MANAGER messages arrive
    uint32_t manager;         ///< the current XSETTINGS manager's window (0: none)
    uint32_t resource_manager_atom;
    uint32_t settings_atom;   ///< _XSETTINGS_SETTINGS
    uint32_t selection_atom;  ///< _XSETTINGS_S<screen>
    uint32_t manager_atom;    ///< MANAGER
} fit_x_watch_ids;

typedef struct fit_x_watch fit_x_watch;

/// A watch, not yet connected (its stop pipe made). NULL when out of memory or descriptors.
fit_x_watch *fit_x_watch_new(void);

/// Ends any wait of the watch at once and every later one; async-signal-safe (one write(2)).
void fit_x_watch_stop(fit_x_watch *watch);

/// Disconnects and frees; only once no thread uses the watch any more.
void fit_x_watch_free(fit_x_watch *watch);

/// Connects to `display_name` (NULL: $DISPLAY), selects PropertyChangeMask on screen 0's root
/// window and PropertyChangeMask | StructureNotifyMask on the default screen's root (the
/// MANAGER messages, ICCCM 2.8, are sent with StructureNotifyMask) and on the current
/// XSETTINGS manager's window. Each reply is waited for at most `timeout_ms`.
/// FIT_X_WATCH_READY when watching; otherwise the connection is closed again.
fit_x_watch_status fit_x_watch_connect(fit_x_watch *watch, const char *display_name, int timeout_ms);

/// Waits for the next change and sets *what (FIT_X_CHANGED_RESOURCES and/or _SETTINGS);
/// the events that arrived together are one answer. A new manager is looked up (and
/// watched) before the answer. FIT_X_WATCH_LOST when the connection broke (then
/// fit_x_watch_disconnect and connect again, or give up).
fit_x_watch_status fit_x_watch_next(fit_x_watch *watch, unsigned *what);

/// Closes the connection, if any.
void fit_x_watch_disconnect(fit_x_watch *watch);

/// Waits `milliseconds` or until fit_x_watch_stop: FIT_X_WATCH_STOPPED, or
/// FIT_X_WATCH_TIMED_OUT when the time has passed.
fit_x_watch_status fit_x_watch_sleep(fit_x_watch *watch, int milliseconds);

/// What one event from the server means for the watch (FIT_X_CHANGED_* bits, 0: nothing):
/// `event` is the event's bytes as libxcb hands them (host byte order), `length` how many
/// there are (an X event or error is 32 bytes; fewer: 0). Pure: reads only those bytes.
unsigned fit_x_watch_classify(const uint8_t *event, size_t length, const fit_x_watch_ids *ids);

#endif
