// See include/fit_xresources.h.
#include "fit_xresources.h"
#include "fit_x_connect.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xcb/xcb.h>

// Xlib caps the resource string it reads the same way (XResourceManagerString reads the
// whole property); 1 MiB is far beyond any real resource database (a few KiB) or XSETTINGS
// property (xsettingsd's for ten settings is 320 bytes).
#define FIT_X_MAX_BYTES (1u << 20)

// What a read hands back: a malloc'd buffer and the count of its bytes (NULL, 0: nothing).
struct fit_x_bytes {
    unsigned char *data;
    size_t length;
};

// One kind of read, on an open connection whose default screen is `screen_number` (as
// xcb_connect reports it). On FIT_X_OK it may leave a buffer in *result; on any other
// status the runner frees whatever it left.
typedef fit_x_status (*fit_x_reader)(xcb_connection_t *connection, int screen_number, struct fit_x_bytes *result);

// One read: shared by the caller and the worker; whoever lets go last frees it.
struct fit_x_job {
    pthread_mutex_t lock;
    pthread_cond_t finished_cond;
    int references;
    int finished;
    fit_x_status status;
    struct fit_x_bytes result;
    fit_x_reader reader;
    char *display_name;
};

// Set while a worker runs, so that a hung server ties up one thread, not one per read
// (whichever of the reads it was).
static atomic_int fit_x_worker_running;

static void fit_x_release(struct fit_x_job *job)
{
    pthread_mutex_lock(&job->lock);
    int left = --job->references;
    pthread_mutex_unlock(&job->lock);
    if (left > 0) return;
    pthread_mutex_destroy(&job->lock);
    pthread_cond_destroy(&job->finished_cond);
    free(job->result.data);
    free(job->display_name);
    free(job);
}

// The status for a request that brought no reply: the connection is gone, or the server
// refused the request (an X error, which libxcb hands back and this frees).
static fit_x_status fit_x_no_reply(xcb_connection_t *connection, xcb_generic_error_t *error, fit_x_status on_x_error)
{
    free(error);
    return xcb_connection_has_error(connection) ? FIT_X_NO_DISPLAY : on_x_error;
}

// `property` of `window` when it is of `type` and format 8, at most FIT_X_MAX_BYTES: *value
// and *length are the bytes in the server's reply *reply (free(3) it whatever the status;
// NULL when none came). *value is NULL and *length 0 when the property is unset or of
// another type or format, or when the window is gone (the server's BadWindow). *cut is set
// when the value is longer than FIT_X_MAX_BYTES and only its start came.
static fit_x_status fit_x_get_property(
    xcb_connection_t *connection, xcb_window_t window, xcb_atom_t property, xcb_atom_t type,
    xcb_get_property_reply_t **reply, const unsigned char **value, size_t *length, int *cut)
{
    *value = NULL;
    *length = 0;
    *cut = 0;
    xcb_generic_error_t *error = NULL;
    xcb_get_property_cookie_t cookie = xcb_get_property(connection, 0, window, property, type, 0, FIT_X_MAX_BYTES / 4);
    *reply = xcb_get_property_reply(connection, cookie, &error);
    if (*reply == NULL) return fit_x_no_reply(connection, error, FIT_X_OK);
    free(error);
    int count = xcb_get_property_value_length(*reply);
    // The value length is the server's own count; the bytes the reply holds after its
    // 32-byte header are reply->length 4-byte units: read no more than both say.
    if (count > 0 && (uint64_t)count > (uint64_t)(*reply)->length * 4) count = 0;
    if ((*reply)->type == type && (*reply)->format == 8 && count > 0) {
        *value = xcb_get_property_value(*reply);
        *length = (size_t)count;
        *cut = (*reply)->bytes_after > 0;
    }
    return FIT_X_OK;
}

// RESOURCE_MANAGER, as a NUL-terminated string (the length leaves the NUL out).
// A malloc'd copy of a property's value, NUL-terminated (the resource database is read as C
// text; the settings' bytes are read by their length), kept in *result until the caller takes it.
static fit_x_status fit_x_keep(const unsigned char *value, size_t length, struct fit_x_bytes *result)
{
    unsigned char *copy = malloc(length + 1);
    if (copy == NULL) return FIT_X_FAILED;
    memcpy(copy, value, length);
    copy[length] = '\0';
    result->data = copy;
    result->length = length;
    return FIT_X_OK;
}

static fit_x_status fit_x_read_resource_manager(xcb_connection_t *connection, int screen_number, struct fit_x_bytes *result)
{
    (void)screen_number;
    // Xlib reads RESOURCE_MANAGER from screen 0's root whatever the display's default
    // screen (libX11's Xrm.c, XrmGetDatabase's caller: GetWindowProperty(dpy, RootWindow(dpy, 0), XA_RESOURCE_MANAGER, …)); xrdb writes it there.
    xcb_screen_iterator_t screens = xcb_setup_roots_iterator(xcb_get_setup(connection));
    if (screens.rem <= 0 || screens.data == NULL) return FIT_X_NO_DISPLAY;
    xcb_get_property_reply_t *reply;
    const unsigned char *value;
    size_t length;
    int cut;
    fit_x_status status = fit_x_get_property(
        connection, screens.data->root, XCB_ATOM_RESOURCE_MANAGER, XCB_ATOM_STRING, &reply, &value, &length, &cut);
    if (status == FIT_X_OK && value != NULL) {
        // A database longer than FIT_X_MAX_BYTES arrives cut (bytes_after > 0): its last
        // line may be cut mid-value ("Xft.dpi:\t1" of "…\t144"), so it is dropped.
        if (cut) {
            while (length > 0 && value[length - 1] != '\n') length--;
        }
        status = fit_x_keep(value, length, result);
    }
    free(reply);
    return status;
}

// _XSETTINGS_SETTINGS of the owner of _XSETTINGS_S<screen_number>, as GTK finds it
// (gdk/x11/xsettings-client.c: check_manager_window, read_settings).
static fit_x_status fit_x_read_settings(xcb_connection_t *connection, int screen_number, struct fit_x_bytes *result)
{
    // A screen the server does not have: libxcb (1.11 and later) already refuses it at
    // connect (XCB_CONN_CLOSED_INVALID_SCREEN), as Xlib's XOpenDisplay does; checked again
    // here, since the selection's name is made from it.
    xcb_screen_iterator_t screens = xcb_setup_roots_iterator(xcb_get_setup(connection));
    if (screen_number < 0 || screen_number >= screens.rem) return FIT_X_NO_DISPLAY;
    char selection_name[32];
    int selection_length = snprintf(selection_name, sizeof selection_name, "_XSETTINGS_S%d", screen_number);
    if (selection_length <= 0 || (size_t)selection_length >= sizeof selection_name) return FIT_X_FAILED;
    static const char settings_name[] = "_XSETTINGS_SETTINGS";
    // only_if_exists: an atom nobody has interned has no owner and names no property, and a
    // read must not add atoms to the server. Both requests go out before either reply is
    // awaited: one round trip.
    xcb_intern_atom_cookie_t selection_cookie =
        xcb_intern_atom(connection, 1, (uint16_t)selection_length, selection_name);
    xcb_intern_atom_cookie_t settings_cookie =
        xcb_intern_atom(connection, 1, (uint16_t)(sizeof settings_name - 1), settings_name);
    xcb_generic_error_t *error = NULL;
    xcb_intern_atom_reply_t *selection_reply = xcb_intern_atom_reply(connection, selection_cookie, &error);
    if (selection_reply == NULL) {
        // Collect the other reply, so the connection holds nothing unread when it closes.
        free(xcb_intern_atom_reply(connection, settings_cookie, NULL));
        return fit_x_no_reply(connection, error, FIT_X_FAILED);
    }
    free(error);
    error = NULL;
    xcb_intern_atom_reply_t *settings_reply = xcb_intern_atom_reply(connection, settings_cookie, &error);
    if (settings_reply == NULL) {
        free(selection_reply);
        return fit_x_no_reply(connection, error, FIT_X_FAILED);
    }
    free(error);
    error = NULL;
    xcb_atom_t selection = selection_reply->atom;
    xcb_atom_t settings = settings_reply->atom;
    free(selection_reply);
    free(settings_reply);
    if (selection == XCB_ATOM_NONE || settings == XCB_ATOM_NONE) return FIT_X_OK;

    xcb_get_selection_owner_cookie_t owner_cookie = xcb_get_selection_owner(connection, selection);
    xcb_get_selection_owner_reply_t *owner_reply = xcb_get_selection_owner_reply(connection, owner_cookie, &error);
    if (owner_reply == NULL) return fit_x_no_reply(connection, error, FIT_X_FAILED);
    free(error);
    xcb_window_t owner = owner_reply->owner;
    free(owner_reply);
    if (owner == XCB_WINDOW_NONE) return FIT_X_OK;

    // The owner may go away before this request arrives: BadWindow, no settings (GTK too
    // reads nothing then, and waits for the next manager's MANAGER message).
    xcb_get_property_reply_t *reply;
    const unsigned char *value;
    size_t length;
    int cut;
    fit_x_status status = fit_x_get_property(connection, owner, settings, settings, &reply, &value, &length, &cut);
    if (status == FIT_X_OK && value != NULL) {
        status = fit_x_keep(value, length, result);
    }
    free(reply);
    return status;
}

// Connects, reads with `reader`, disconnects: all of it on the worker's thread.
static fit_x_status fit_x_connect_and_read(const char *display_name, fit_x_reader reader, struct fit_x_bytes *result)
{
    int screen_number;
    xcb_connection_t *connection = fit_x_open(display_name, &screen_number);
    if (connection == NULL) return FIT_X_NO_DISPLAY;
    fit_x_status status = reader(connection, screen_number, result);
    if (status != FIT_X_OK) {
        free(result->data);
        result->data = NULL;
        result->length = 0;
    }
    xcb_disconnect(connection);
    return status;
}

static void *fit_x_worker(void *argument)
{
    struct fit_x_job *job = argument;
    struct fit_x_bytes result = {NULL, 0};
    fit_x_status status = fit_x_connect_and_read(job->display_name, job->reader, &result);
    // The server is done with: another read may start. Cleared before `finished` is set, so
    // that a caller that has its answer and reads again at once (RESOURCE_MANAGER right after
    // XSETTINGS) is not told FIT_X_BUSY by this worker's last few instructions.
    atomic_store(&fit_x_worker_running, 0);
    pthread_mutex_lock(&job->lock);
    job->status = status;
    job->result = result;
    job->finished = 1;
    pthread_cond_signal(&job->finished_cond);
    pthread_mutex_unlock(&job->lock);
    fit_x_release(job);
    return NULL;
}

// Runs `reader` on a worker thread of its own and waits for it at most `timeout_ms`; a
// result that comes later is freed by the worker. One worker at a time (FIT_X_BUSY).
static fit_x_status fit_x_run(const char *display_name, int timeout_ms, fit_x_reader reader, struct fit_x_bytes *result)
{
    result->data = NULL;
    result->length = 0;
    int expected = 0;
    if (!atomic_compare_exchange_strong(&fit_x_worker_running, &expected, 1)) return FIT_X_BUSY;
    struct fit_x_job *job = calloc(1, sizeof *job);
    if (job == NULL) {
        atomic_store(&fit_x_worker_running, 0);
        return FIT_X_FAILED;
    }
    pthread_mutex_init(&job->lock, NULL);
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&job->finished_cond, &attributes);
    pthread_condattr_destroy(&attributes);
    job->references = 2;
    job->reader = reader;
    if (display_name != NULL && (job->display_name = strdup(display_name)) == NULL) {
        job->references = 1;
        fit_x_release(job);
        atomic_store(&fit_x_worker_running, 0);
        return FIT_X_FAILED;
    }
    pthread_t thread;
    pthread_attr_t thread_attributes;
    pthread_attr_init(&thread_attributes);
    pthread_attr_setdetachstate(&thread_attributes, PTHREAD_CREATE_DETACHED);
    int started = pthread_create(&thread, &thread_attributes, fit_x_worker, job);
    pthread_attr_destroy(&thread_attributes);
    if (started != 0) {
        job->references = 1;
        fit_x_release(job);
        atomic_store(&fit_x_worker_running, 0);
        return FIT_X_FAILED;
    }
    if (timeout_ms < 0) timeout_ms = 0;
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += timeout_ms / 1000;
    deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec += 1;
        deadline.tv_nsec -= 1000000000L;
    }
    fit_x_status status = FIT_X_TIMED_OUT;
    pthread_mutex_lock(&job->lock);
    while (!job->finished) {
        // ETIMEDOUT, or EINVAL for a deadline the clock cannot hold: stop waiting either way
        // (0 is a wake-up, spurious or not, and the loop looks again).
        if (pthread_cond_timedwait(&job->finished_cond, &job->lock, &deadline) != 0) break;
    }
    if (job->finished) {
        status = job->status;
        *result = job->result;
        job->result.data = NULL;
        job->result.length = 0;
    }
    pthread_mutex_unlock(&job->lock);
    fit_x_release(job);
    return status;
}

fit_x_status fit_x_resource_manager(const char *display_name, int timeout_ms, char **resources)
{
    struct fit_x_bytes result;
    fit_x_status status = fit_x_run(display_name, timeout_ms, fit_x_read_resource_manager, &result);
    *resources = (char *)result.data;
    return status;
}

fit_x_status fit_x_settings_property(const char *display_name, int timeout_ms, unsigned char **bytes, size_t *length)
{
    struct fit_x_bytes result;
    fit_x_status status = fit_x_run(display_name, timeout_ms, fit_x_read_settings, &result);
    *bytes = result.data;
    *length = result.length;
    return status;
}
