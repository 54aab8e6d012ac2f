// The X server's resource database (the string `xrdb -query` prints) read through libxcb,
// with a deadline, for FitScale's Xft.dpi source.
#ifndef FIT_XRESOURCES_H
#define FIT_XRESOURCES_H

/// What fit_x_resource_manager found.
typedef enum {
    FIT_X_OK = 0,          ///< *resources is the property's text (NULL: the property is not set)
    FIT_X_NO_DISPLAY = 1,  ///< the display could not be opened (no server, refused, bad name)
    FIT_X_TIMED_OUT = 2,   ///< the server did not answer within the deadline
    FIT_X_BUSY = 3,        ///< an earlier read is still waiting for a server that hangs
    FIT_X_FAILED = 4,      ///< out of memory or threads
} fit_x_status;

/// Reads the RESOURCE_MANAGER property of the screen's root window on `display_name` (NULL:
/// $DISPLAY) and gives a malloc'd, NUL-terminated copy in *resources (free(3) it), at most
/// 1 MiB. The connection is made on a thread of its own, so a server that accepts and never
/// answers costs the caller `timeout_ms` and no more; that thread finishes on its own when
/// the server answers or goes away, and until then further reads return FIT_X_BUSY instead
/// of starting more threads. libxcb reports errors as values and prints nothing (Xlib writes
/// "No protocol specified" and the like to stderr, and exits the process on an I/O error).
fit_x_status fit_x_resource_manager(const char *display_name, int timeout_ms, char **resources);

#endif
