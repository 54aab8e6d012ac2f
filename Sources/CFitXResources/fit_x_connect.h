// Shared by fit_xresources.c and fit_xwatch.c (not part of the module's interface).
#ifndef FIT_X_CONNECT_H
#define FIT_X_CONNECT_H

#include <stddef.h>
#include <xcb/xcb.h>

// xcb_connect for `display_name` (NULL: $DISPLAY), with its default screen in *screen_number;
// NULL when no connection could be made (libxcb hands back an error object then, which is
// disconnected here).
static inline xcb_connection_t *fit_x_open(const char *display_name, int *screen_number)
{
    *screen_number = 0;
    xcb_connection_t *connection = xcb_connect(display_name, screen_number);
    if (connection == NULL) return NULL;
    if (xcb_connection_has_error(connection)) {
        xcb_disconnect(connection);
        return NULL;
    }
    return connection;
}

#endif
