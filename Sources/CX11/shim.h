// The X server's resource database as `xrdb -query` shows it: the RESOURCE_MANAGER property
// of the first screen's root window, which Xlib reads when it opens the display.
#include <X11/Xlib.h>
#include <stdlib.h>
#include <string.h>

/// Opens `display_name` (NULL: $DISPLAY), copies its resource string (malloc'd, free(3) it;
/// NULL when the property is not set) and closes the display at once, so Xlib's fatal I/O
/// error handler has no open connection to exit the process over. *opened is 0 when the
/// display could not be opened.
static inline char *fit_x_resource_manager(const char *display_name, int *opened)
{
    Display *display = XOpenDisplay(display_name);
    if (display == NULL) { *opened = 0; return NULL; }
    *opened = 1;
    const char *resources = XResourceManagerString(display);
    char *copy = resources != NULL ? strdup(resources) : NULL;
    XCloseDisplay(display);
    return copy;
}
