/* libfitd-client: a GObject client of org.fitd.Fit1 (protocol/org.fitd.Fit1.xml).
 *
 * FitClient, FitClientProxy and every fit_client_call_*() / fit_client_get_*() function come
 * from gdbus-codegen at build time (fit-client-generated.h); this header adds the error
 * domain, a constructor for the session bus, the toolkit profile of the GTK the calling
 * process draws with (fit_client_toolkit(), fit_client_default_options()) and the width
 * profile of its terminal (fit_client_terminal_profile()), layout documents from JSON
 * (fit_document_from_json()), and the typed calls (fit_client_layout_json(),
 * fit_client_measure()…) whose results fit-results.h declares; fit-check.h adds the
 * translation check (fit_check_run_sync(): `fitctl check`, its report typed). */
#ifndef FIT_CLIENT_H
#define FIT_CLIENT_H

#include <gio/gio.h>
#include "fit-client-generated.h"
#include "fit-results.h"
#include "fit-check.h"

G_BEGIN_DECLS

/**
 * FIT_ERROR:
 *
 * The error domain of the daemon's errors: a D-Bus error reply named
 * org.fitd.Fit1.Error.NAME arrives as a #GError in this domain with the #FitError code for
 * NAME. Other failures keep their own domains (G_DBUS_ERROR, G_IO_ERROR: no bus, the
 * daemon could not be started, a timeout).
 */
#define FIT_ERROR (fit_error_quark ())

/**
 * FitError:
 * @FIT_ERROR_INVALID_ARGUMENT: org.fitd.Fit1.Error.InvalidArgument: an argument or option value is out of range or of the wrong type.
 * @FIT_ERROR_INVALID_FONT: org.fitd.Fit1.Error.InvalidFont: a font description that cannot be parsed, or a size that is zero, negative, not finite or too large.
 * @FIT_ERROR_UNKNOWN_OPTION: org.fitd.Fit1.Error.UnknownOption: an option key the method does not know.
 * @FIT_ERROR_TOO_LARGE: org.fitd.Fit1.Error.TooLarge: a request over the daemon's limits.
 * @FIT_ERROR_NO_FONTS: org.fitd.Fit1.Error.NoFonts: fontconfig found no fonts at all.
 * @FIT_ERROR_INVALID_DOCUMENT: org.fitd.Fit1.Error.InvalidDocument: a layout document that is not valid.
 * @FIT_ERROR_INTERNAL: org.fitd.Fit1.Error.Internal: a failure inside the daemon.
 *
 * The codes of #FIT_ERROR, one per org.fitd.Fit1.Error.* name (protocol/README.md, "Errors").
 */
typedef enum {
  FIT_ERROR_INVALID_ARGUMENT,
  FIT_ERROR_INVALID_FONT,
  FIT_ERROR_UNKNOWN_OPTION,
  FIT_ERROR_TOO_LARGE,
  FIT_ERROR_NO_FONTS,
  FIT_ERROR_INVALID_DOCUMENT,
  FIT_ERROR_INTERNAL,
} FitError;

GQuark fit_error_quark (void);

/**
 * FIT_BUS_NAME:
 *
 * The daemon's well-known name on the session bus.
 */
#define FIT_BUS_NAME "org.fitd.Fit1"

/**
 * FIT_OBJECT_PATH:
 *
 * The daemon's object.
 */
#define FIT_OBJECT_PATH "/org/fitd/Fit1"

FitClient *fit_client_new_sync (GCancellable *cancellable, GError **error);

const char *fit_client_toolkit (void);

GVariant *fit_client_default_options (void);

const char *fit_client_terminal_profile (const char **reason);

/**
 * FIT_IDEAL:
 *
 * A proposed width or height of nothing: the typed layout calls lay out at the ideal
 * length on an axis proposed this (any negative number; SwiftUI's nil, `has_width` false on
 * the wire). 0 is the minimum and `INFINITY` the maximum. An integer, not -1.0:
 * g-ir-scanner (gobject-introspection 1.74) drops the sign of a negative floating-point
 * constant, so GJS, PyGObject and Vala would read 1.0 (Tests/EndToEnd/c_client_layout.sh
 * checks the GIR's value).
 */
#define FIT_IDEAL (-1)

GVariant *fit_document_from_json (const char *json, GError **error);
GVariant *fit_document_from_file (GFile *file, GCancellable *cancellable, GError **error);

FitLayoutResult *fit_client_layout (FitClient *client, GVariant *nodes, double width, double height,
                                    GVariant *options, GCancellable *cancellable, GError **error);
void fit_client_layout_async (FitClient *client, GVariant *nodes, double width, double height,
                              GVariant *options, GCancellable *cancellable,
                              GAsyncReadyCallback callback, gpointer user_data);
FitLayoutResult *fit_client_layout_finish (FitClient *client, GAsyncResult *result, GError **error);

FitLayoutResult *fit_client_layout_json (FitClient *client, const char *json, double width,
                                         double height, GVariant *options,
                                         GCancellable *cancellable, GError **error);
void fit_client_layout_json_async (FitClient *client, const char *json, double width, double height,
                                   GVariant *options, GCancellable *cancellable,
                                   GAsyncReadyCallback callback, gpointer user_data);
FitLayoutResult *fit_client_layout_json_finish (FitClient *client, GAsyncResult *result,
                                                GError **error);

FitLayoutResult *fit_client_layout_file (FitClient *client, GFile *file, double width,
                                         double height, GVariant *options,
                                         GCancellable *cancellable, GError **error);
void fit_client_layout_file_async (FitClient *client, GFile *file, double width, double height,
                                   GVariant *options, GCancellable *cancellable,
                                   GAsyncReadyCallback callback, gpointer user_data);
FitLayoutResult *fit_client_layout_file_finish (FitClient *client, GAsyncResult *result,
                                                GError **error);

FitMetrics *fit_client_measure (FitClient *client, const char *text, const char *font,
                                GVariant *options, GCancellable *cancellable, GError **error);
void fit_client_measure_async (FitClient *client, const char *text, const char *font,
                               GVariant *options, GCancellable *cancellable,
                               GAsyncReadyCallback callback, gpointer user_data);
FitMetrics *fit_client_measure_finish (FitClient *client, GAsyncResult *result, GError **error);

G_END_DECLS

#endif
