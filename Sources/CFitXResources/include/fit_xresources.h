// The X server's resource database (the string `xrdb -query` prints) and the XSETTINGS
// manager's settings, read through libxcb with a deadline, for FitScale's X11 sources.
#ifndef FIT_XRESOURCES_H
#define FIT_XRESOURCES_H

#include <stddef.h>

/// What a read (fit_x_resource_manager, fit_x_settings_property) found.
typedef enum {
    FIT_X_OK = 0,          ///< the result is the property's value (NULL: the property is not set)
    FIT_X_NO_DISPLAY = 1,  ///< the display could not be opened (no server, refused, bad name)
    FIT_X_TIMED_OUT = 2,   ///< the server did not answer within the deadline
    FIT_X_BUSY = 3,        ///< an earlier read is still waiting for a server that hangs
    FIT_X_FAILED = 4,      ///< out of memory or threads
} fit_x_status;

/// Reads the RESOURCE_MANAGER property of the screen's root window on `display_name` (NULL:
/// $DISPLAY) and gives a malloc'd, NUL-terminated copy in *resources (free(3) it), at most
/// 1 MiB. The connection is made on a thread of its own, so a server that accepts and never
/// answers costs the caller `timeout_ms` and no more; that thread finishes on its own when
/// the server answers or goes away, and until then further reads (of either function here)
/// return FIT_X_BUSY instead of starting more threads. libxcb reports errors as values and
/// prints nothing (Xlib writes "No protocol specified" and the like to stderr, and exits the
/// process on an I/O error).
fit_x_status fit_x_resource_manager(const char *display_name, int timeout_ms, char **resources);

/// Reads the XSETTINGS manager's settings (freedesktop.org xsettings-spec 0.5) of the
/// display's default screen N (the screen of `display_name`, NULL: $DISPLAY, as xcb_connect
/// reports it; ":0.1" is screen 1): the _XSETTINGS_SETTINGS property (type
/// _XSETTINGS_SETTINGS, format 8) of the window that owns the selection _XSETTINGS_S<N>,
/// as GTK's gdk/x11/xsettings-client.c reads it. Gives a malloc'd copy of its bytes in
/// *bytes (free(3) it) and their count in *length, at most 1 MiB (a longer property arrives
/// cut, and a parser finds it truncated). FIT_X_OK with *bytes NULL and *length 0 when no
/// client owns the selection (no XSETTINGS daemon), when the owner has no such property (or
/// one of another type or format), or when the owner went away between the two requests.
/// The bytes are not interpreted here (FitScale's XSettings parses them). Deadline, thread
/// and FIT_X_BUSY as for fit_x_resource_manager, with which it shares its one worker.
fit_x_status fit_x_settings_property(const char *display_name, int timeout_ms, unsigned char **bytes, size_t *length);

#endif
