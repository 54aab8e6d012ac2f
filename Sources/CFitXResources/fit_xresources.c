// See include/fit_xresources.h.
#include "fit_xresources.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xcb/xcb.h>

// Xlib caps the resource string it reads the same way (XResourceManagerString reads the
// whole property); 1 MiB is far beyond any real resource database (a few KiB).
#define FIT_X_MAX_BYTES (1u << 20)

// One read: shared by the caller and the worker; whoever lets go last frees it.
struct fit_x_job {
    pthread_mutex_t lock;
    pthread_cond_t finished_cond;
    int references;
    int finished;
    fit_x_status status;
    char *resources;
    char *display_name;
};

// Set while a worker runs, so that a hung server ties up one thread, not one per read.
static atomic_int fit_x_worker_running;

static void fit_x_release(struct fit_x_job *job)
{
    pthread_mutex_lock(&job->lock);
    int left = --job->references;
    pthread_mutex_unlock(&job->lock);
    if (left > 0) return;
    pthread_mutex_destroy(&job->lock);
    pthread_cond_destroy(&job->finished_cond);
    free(job->resources);
    free(job->display_name);
    free(job);
}

static fit_x_status fit_x_read(const char *display_name, char **resources)
{
    *resources = NULL;
    xcb_connection_t *connection = xcb_connect(display_name, NULL);
    if (connection == NULL) return FIT_X_NO_DISPLAY;
    if (xcb_connection_has_error(connection)) {
        xcb_disconnect(connection);
        return FIT_X_NO_DISPLAY;
    }
    // Xlib reads RESOURCE_MANAGER from screen 0's root whatever the display's default
    // screen (libX11's Xrm.c, XrmGetDatabase's caller: GetWindowProperty(dpy, RootWindow(dpy, 0), XA_RESOURCE_MANAGER, …)); xrdb writes it there. Lengths are in 32-bit units.
    xcb_screen_iterator_t screens = xcb_setup_roots_iterator(xcb_get_setup(connection));
    if (screens.rem <= 0 || screens.data == NULL) {
        xcb_disconnect(connection);
        return FIT_X_NO_DISPLAY;
    }
    xcb_get_property_cookie_t cookie = xcb_get_property(
        connection, 0, screens.data->root, XCB_ATOM_RESOURCE_MANAGER, XCB_ATOM_STRING, 0, FIT_X_MAX_BYTES / 4);
    xcb_get_property_reply_t *reply = xcb_get_property_reply(connection, cookie, NULL);
    fit_x_status status = FIT_X_OK;
    if (reply != NULL) {
        int length = xcb_get_property_value_length(reply);
        // The value length is the server's own count; the bytes the reply holds after its
        // 32-byte header are reply->length 4-byte units: read no more than both say.
        if (length > 0 && (uint64_t)length > (uint64_t)reply->length * 4) length = 0;
        if (reply->type == XCB_ATOM_STRING && reply->format == 8 && length > 0) {
            const char *value = xcb_get_property_value(reply);
            // A database longer than FIT_X_MAX_BYTES arrives cut (bytes_after > 0): its last
            // line may be cut mid-value ("Xft.dpi:\t1" of "…\t144"), so it is dropped.
            if (reply->bytes_after > 0) {
                while (length > 0 && value[length - 1] != '\n') length--;
            }
            char *copy = malloc((size_t)length + 1);
            if (copy != NULL) {
                memcpy(copy, value, (size_t)length);
                copy[length] = '\0';
                *resources = copy;
            } else {
                status = FIT_X_FAILED;
            }
        }
        free(reply);
    } else if (xcb_connection_has_error(connection)) {
        status = FIT_X_NO_DISPLAY;
    }
    xcb_disconnect(connection);
    return status;
}

static void *fit_x_worker(void *argument)
{
    struct fit_x_job *job = argument;
    char *resources = NULL;
    fit_x_status status = fit_x_read(job->display_name, &resources);
    pthread_mutex_lock(&job->lock);
    job->status = status;
    job->resources = resources;
    job->finished = 1;
    pthread_cond_signal(&job->finished_cond);
    pthread_mutex_unlock(&job->lock);
    atomic_store(&fit_x_worker_running, 0);
    fit_x_release(job);
    return NULL;
}

fit_x_status fit_x_resource_manager(const char *display_name, int timeout_ms, char **resources)
{
    *resources = NULL;
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
        *resources = job->resources;
        job->resources = NULL;
    }
    pthread_mutex_unlock(&job->lock);
    fit_x_release(job);
    return status;
}
