// See include/fit_xwatch.h.
#include "fit_xwatch.h"
#include "fit_x_connect.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <xcb/xcb.h>
#include <xcb/xcbext.h>

struct fit_x_watch {
    int stop_read;   // the stop pipe: readable once fit_x_watch_stop was called
    int stop_write;
    xcb_connection_t *connection;
    int timeout_ms;
    fit_x_watch_ids ids;
};

// What the watch asks of a manager window and of the default screen's root window
// (gdk/x11/xsettings-client.c, check_manager_window: PropertyChangeMask | StructureNotifyMask;
// gdkscreen-x11.c selects StructureNotifyMask on the root, "also needed for XSettings").
static const uint32_t fit_x_watch_mask = XCB_EVENT_MASK_PROPERTY_CHANGE | XCB_EVENT_MASK_STRUCTURE_NOTIFY;

// A CARD32 of an event at `offset`, in host byte order as libxcb hands events over.
static uint32_t fit_x_card32(const uint8_t *event, size_t offset)
{
    uint32_t value;
    memcpy(&value, event + offset, sizeof value);
    return value;
}

unsigned fit_x_watch_classify(const uint8_t *event, size_t length, const fit_x_watch_ids *ids)
{
    // Every X event and error is 32 bytes (X11 protocol, "Events"; XGE events are longer,
    // and start the same way).
    if (event == NULL || ids == NULL || length < 32) return 0;
    // The top bit says the event came from SendEvent, as MANAGER messages do.
    switch (event[0] & 0x7f) {
    case 0: {
        // An error: BadWindow (3) for the manager's window means it went away between
        // GetSelectionOwner and the ChangeWindowAttributes that watches it: look again.
        uint8_t code = event[1];
        uint32_t resource = fit_x_card32(event, 4);
        if (code == XCB_WINDOW && ids->manager != 0 && resource == ids->manager)
            return FIT_X_CHANGED_SETTINGS | FIT_X_CHANGED_MANAGER;
        return 0;
    }
    case XCB_PROPERTY_NOTIFY: {
        // window at 4, atom at 8 (xcb_property_notify_event_t).
        uint32_t window = fit_x_card32(event, 4);
        uint32_t atom = fit_x_card32(event, 8);
        unsigned what = 0;
        if (window == ids->resource_root && atom == ids->resource_manager_atom && atom != 0) what |= FIT_X_CHANGED_RESOURCES;
        // The manager changes its settings by replacing _XSETTINGS_SETTINGS (xsettings-spec
        // 0.5, "Notification of changes"); GDK re-reads on any of its properties, fitd only on
        // that one: the others are not read.
        if (ids->manager != 0 && window == ids->manager && atom == ids->settings_atom && atom != 0) what |= FIT_X_CHANGED_SETTINGS;
        return what;
    }
    case XCB_DESTROY_NOTIFY: {
        // event at 4, window at 8 (xcb_destroy_notify_event_t): the manager exited; its
        // settings are gone, and a new manager may already own the selection.
        uint32_t window = fit_x_card32(event, 8);
        if (ids->manager != 0 && window == ids->manager) return FIT_X_CHANGED_SETTINGS | FIT_X_CHANGED_MANAGER;
        return 0;
    }
    case XCB_CLIENT_MESSAGE: {
        // format at 1, window at 4, type at 8, data at 12: MANAGER's data.l is timestamp,
        // selection, owner (ICCCM 2.8, "Manager Selections"; gdk_xsettings_root_window_filter
        // compares data.l[1] with the selection).
        uint8_t format = event[1];
        uint32_t type = fit_x_card32(event, 8);
        uint32_t selection = fit_x_card32(event, 16);
        if (format == 32 && ids->manager_atom != 0 && type == ids->manager_atom && ids->selection_atom != 0 &&
            selection == ids->selection_atom)
            return FIT_X_CHANGED_SETTINGS | FIT_X_CHANGED_MANAGER;
        return 0;
    }
    default:
        return 0;
    }
}

fit_x_watch *fit_x_watch_new(void)
{
    fit_x_watch *watch = calloc(1, sizeof *watch);
    if (watch == NULL) return NULL;
    int fds[2];
    if (pipe(fds) != 0) {
        free(watch);
        return NULL;
    }
    for (int i = 0; i < 2; i++) {
        fcntl(fds[i], F_SETFD, FD_CLOEXEC);
        fcntl(fds[i], F_SETFL, O_NONBLOCK);
    }
    watch->stop_read = fds[0];
    watch->stop_write = fds[1];
    return watch;
}

void fit_x_watch_stop(fit_x_watch *watch)
{
    if (watch == NULL) return;
    // One byte is enough and is never read: the pipe stays readable. A full pipe (it cannot
    // be: one byte per call, never drained, 64 KiB) is readable too.
    ssize_t written;
    do {
        written = write(watch->stop_write, "x", 1);
    } while (written < 0 && errno == EINTR);
}

void fit_x_watch_disconnect(fit_x_watch *watch)
{
    if (watch == NULL || watch->connection == NULL) return;
    xcb_disconnect(watch->connection);
    watch->connection = NULL;
    memset(&watch->ids, 0, sizeof watch->ids);
}

void fit_x_watch_free(fit_x_watch *watch)
{
    if (watch == NULL) return;
    fit_x_watch_disconnect(watch);
    close(watch->stop_read);
    close(watch->stop_write);
    free(watch);
}

static int64_t fit_x_now_ms(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

static int fit_x_stop_requested(fit_x_watch *watch)
{
    struct pollfd stop = {.fd = watch->stop_read, .events = POLLIN};
    return poll(&stop, 1, 0) > 0;
}

// Waits until the connection has something to read, the stop pipe is readable or
// `timeout_ms` (-1: no limit) has passed: READY, STOPPED or TIMED_OUT. An interrupted poll
// counts as READY: the caller looks again and waits again, within its own deadline.
static fit_x_watch_status fit_x_wait(fit_x_watch *watch, int timeout_ms)
{
    struct pollfd fds[2] = {
        {.fd = watch->stop_read, .events = POLLIN},
        {.fd = watch->connection != NULL ? xcb_get_file_descriptor(watch->connection) : -1, .events = POLLIN},
    };
    int ready = poll(fds, watch->connection != NULL ? 2 : 1, timeout_ms);
    if (ready < 0) return FIT_X_WATCH_READY;
    if (fds[0].revents != 0) return FIT_X_WATCH_STOPPED;
    if (ready == 0) return FIT_X_WATCH_TIMED_OUT;
    // POLLIN, or POLLHUP/POLLERR: libxcb's next read finds the end and marks the connection
    // broken (xcb_connection_has_error), so a dead socket is not polled again and again.
    return FIT_X_WATCH_READY;
}

fit_x_watch_status fit_x_watch_sleep(fit_x_watch *watch, int milliseconds)
{
    if (watch == NULL) return FIT_X_WATCH_FAILED;
    int64_t deadline = fit_x_now_ms() + (milliseconds > 0 ? milliseconds : 0);
    for (;;) {
        int64_t left = deadline - fit_x_now_ms();
        if (left <= 0) return fit_x_stop_requested(watch) ? FIT_X_WATCH_STOPPED : FIT_X_WATCH_TIMED_OUT;
        struct pollfd stop = {.fd = watch->stop_read, .events = POLLIN};
        int ready = poll(&stop, 1, left > INT32_MAX ? INT32_MAX : (int)left);
        if (ready > 0) return FIT_X_WATCH_STOPPED;
    }
}

// The reply (or error) to request `sequence`, waited for within the watch's deadline:
// READY with *reply (free(3) it; NULL when the server answered with an error), or STOPPED,
// TIMED_OUT, LOST. libxcb's xcb_poll_for_reply reads what the socket has without blocking,
// queueing the events that come before the reply for fit_x_watch_next.
static fit_x_watch_status fit_x_reply(fit_x_watch *watch, unsigned int sequence, void **reply)
{
    *reply = NULL;
    xcb_connection_t *connection = watch->connection;
    if (xcb_flush(connection) <= 0) return FIT_X_WATCH_LOST;
    int64_t deadline = fit_x_now_ms() + watch->timeout_ms;
    for (;;) {
        xcb_generic_error_t *error = NULL;
        int answered = xcb_poll_for_reply(connection, sequence, reply, &error);
        free(error);
        if (xcb_connection_has_error(connection)) {
            free(*reply);
            *reply = NULL;
            return FIT_X_WATCH_LOST;
        }
        if (answered) return FIT_X_WATCH_READY;
        int64_t left = deadline - fit_x_now_ms();
        if (left <= 0) return FIT_X_WATCH_TIMED_OUT;
        fit_x_watch_status status = fit_x_wait(watch, (int)left);
        if (status == FIT_X_WATCH_STOPPED) return status;
    }
}

// Looks up the owner of _XSETTINGS_S<screen> and watches its window, without a server grab
// (GDK grabs around the two requests): the owner may be destroyed between them, and the
// ChangeWindowAttributes then fails with BadWindow, which fit_x_watch_classify turns into
// another look; a new owner taking the selection after the look sends MANAGER to the root
// window, which is watched before the first look.
static fit_x_watch_status fit_x_find_manager(fit_x_watch *watch)
{
    watch->ids.manager = 0;
    xcb_get_selection_owner_cookie_t cookie = xcb_get_selection_owner(watch->connection, watch->ids.selection_atom);
    void *reply = NULL;
    fit_x_watch_status status = fit_x_reply(watch, cookie.sequence, &reply);
    if (status != FIT_X_WATCH_READY) return status;
    if (reply == NULL) return FIT_X_WATCH_READY;  // refused: no manager as far as fitd can tell
    xcb_window_t owner = ((xcb_get_selection_owner_reply_t *)reply)->owner;
    free(reply);
    if (owner == XCB_WINDOW_NONE) return FIT_X_WATCH_READY;
    watch->ids.manager = owner;
    xcb_change_window_attributes(watch->connection, owner, XCB_CW_EVENT_MASK, &fit_x_watch_mask);
    return xcb_flush(watch->connection) > 0 ? FIT_X_WATCH_READY : FIT_X_WATCH_LOST;
}

// An atom, interned if need be (the watch must know _XSETTINGS_S<n> before any manager
// has appeared, to recognise the first one's MANAGER message; GDK interns it the same way).
static fit_x_watch_status fit_x_atom(fit_x_watch *watch, const char *name, uint32_t *atom)
{
    *atom = 0;
    size_t length = strlen(name);
    xcb_intern_atom_cookie_t cookie = xcb_intern_atom(watch->connection, 0, (uint16_t)length, name);
    void *reply = NULL;
    fit_x_watch_status status = fit_x_reply(watch, cookie.sequence, &reply);
    if (status != FIT_X_WATCH_READY) return status;
    if (reply == NULL) return FIT_X_WATCH_FAILED;
    *atom = ((xcb_intern_atom_reply_t *)reply)->atom;
    free(reply);
    return FIT_X_WATCH_READY;
}

fit_x_watch_status fit_x_watch_connect(fit_x_watch *watch, const char *display_name, int timeout_ms)
{
    if (watch == NULL) return FIT_X_WATCH_FAILED;
    fit_x_watch_disconnect(watch);
    if (fit_x_stop_requested(watch)) return FIT_X_WATCH_STOPPED;
    watch->timeout_ms = timeout_ms > 0 ? timeout_ms : 1;
    int screen_number;
    xcb_connection_t *connection = fit_x_open(display_name, &screen_number);
    if (connection == NULL) return FIT_X_WATCH_NO_DISPLAY;
    watch->connection = connection;
    // Screen 0's root holds RESOURCE_MANAGER (libX11's Xrm.c reads it there; xrdb writes it
    // there); the default screen's root gets that screen's MANAGER messages.
    xcb_screen_iterator_t screens = xcb_setup_roots_iterator(xcb_get_setup(connection));
    if (screens.rem <= 0 || screens.data == NULL || screen_number < 0 || screen_number >= screens.rem) {
        fit_x_watch_disconnect(watch);
        return FIT_X_WATCH_NO_DISPLAY;
    }
    watch->ids.resource_root = screens.data->root;
    for (int i = 0; i < screen_number; i++) xcb_screen_next(&screens);
    watch->ids.settings_root = screens.data->root;
    watch->ids.resource_manager_atom = XCB_ATOM_RESOURCE_MANAGER;

    // The roots first, so that a manager appearing while the lookups below run is seen.
    if (watch->ids.resource_root == watch->ids.settings_root) {
        xcb_change_window_attributes(connection, watch->ids.resource_root, XCB_CW_EVENT_MASK, &fit_x_watch_mask);
    } else {
        const uint32_t property_mask = XCB_EVENT_MASK_PROPERTY_CHANGE;
        const uint32_t structure_mask = XCB_EVENT_MASK_STRUCTURE_NOTIFY;
        xcb_change_window_attributes(connection, watch->ids.resource_root, XCB_CW_EVENT_MASK, &property_mask);
        xcb_change_window_attributes(connection, watch->ids.settings_root, XCB_CW_EVENT_MASK, &structure_mask);
    }

    char selection_name[32];
    int selection_length = snprintf(selection_name, sizeof selection_name, "_XSETTINGS_S%d", screen_number);
    fit_x_watch_status status = FIT_X_WATCH_FAILED;
    if (selection_length > 0 && (size_t)selection_length < sizeof selection_name) {
        status = fit_x_atom(watch, selection_name, &watch->ids.selection_atom);
        if (status == FIT_X_WATCH_READY) status = fit_x_atom(watch, "_XSETTINGS_SETTINGS", &watch->ids.settings_atom);
        if (status == FIT_X_WATCH_READY) status = fit_x_atom(watch, "MANAGER", &watch->ids.manager_atom);
        if (status == FIT_X_WATCH_READY) status = fit_x_find_manager(watch);
    }
    if (status != FIT_X_WATCH_READY) fit_x_watch_disconnect(watch);
    return status;
}

fit_x_watch_status fit_x_watch_next(fit_x_watch *watch, unsigned *what)
{
    *what = 0;
    if (watch == NULL || watch->connection == NULL) return FIT_X_WATCH_FAILED;
    unsigned pending = 0;
    for (;;) {
        // Everything libxcb has already read first: those events do not make the socket
        // readable again.
        xcb_generic_event_t *event;
        unsigned drained = 0;
        while ((event = xcb_poll_for_event(watch->connection)) != NULL) {
            pending |= fit_x_watch_classify((const uint8_t *)event, 32, &watch->ids);
            free(event);
            // A server sending events without pause must not keep a stop waiting.
            if (++drained % 256 == 0 && fit_x_stop_requested(watch)) return FIT_X_WATCH_STOPPED;
        }
        if (xcb_connection_has_error(watch->connection)) return FIT_X_WATCH_LOST;
        if (pending & FIT_X_CHANGED_MANAGER) {
            pending &= ~(unsigned)FIT_X_CHANGED_MANAGER;
            fit_x_watch_status status = fit_x_find_manager(watch);
            if (status != FIT_X_WATCH_READY) return status;
            continue;  // the events that came while it looked
        }
        if (pending != 0) {
            *what = pending;
            return FIT_X_WATCH_CHANGED;
        }
        fit_x_watch_status status = fit_x_wait(watch, -1);
        if (status == FIT_X_WATCH_STOPPED) return status;
    }
}
