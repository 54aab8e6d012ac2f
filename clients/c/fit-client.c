/* The hand-written part of libfitd-client: the error domain and the session-bus constructor. */
#include "fit-client.h"

/* One entry per org.fitd.Fit1.Error.* name, in FitError order (Sources/FitProtocol/FitNames.swift
 * declares the same names; Tests/EndToEnd/c_client.sh checks both lists agree). */
static const GDBusErrorEntry fit_error_entries[] = {
  { FIT_ERROR_INVALID_ARGUMENT, "org.fitd.Fit1.Error.InvalidArgument" },
  { FIT_ERROR_INVALID_FONT, "org.fitd.Fit1.Error.InvalidFont" },
  { FIT_ERROR_UNKNOWN_OPTION, "org.fitd.Fit1.Error.UnknownOption" },
  { FIT_ERROR_TOO_LARGE, "org.fitd.Fit1.Error.TooLarge" },
  { FIT_ERROR_NO_FONTS, "org.fitd.Fit1.Error.NoFonts" },
  { FIT_ERROR_INVALID_DOCUMENT, "org.fitd.Fit1.Error.InvalidDocument" },
  { FIT_ERROR_INTERNAL, "org.fitd.Fit1.Error.Internal" },
};

G_STATIC_ASSERT (G_N_ELEMENTS (fit_error_entries) == FIT_ERROR_INTERNAL + 1);

/**
 * fit_error_quark:
 *
 * The #FIT_ERROR domain. The first call registers the org.fitd.Fit1.Error.* names with
 * GDBus (g_dbus_error_register_error_domain()), so that error replies become #FIT_ERROR
 * errors; loading the library does that already.
 *
 * Returns: the error domain's quark
 */
GQuark
fit_error_quark (void)
{
  /* "fit-error-quark": the name GObject Introspection derives from fit_error_quark(), so
   * GJS and PyGObject map the domain back to Fitd.Error. */
  static gsize quark = 0;
  g_dbus_error_register_error_domain ("fit-error-quark", &quark, fit_error_entries,
                                      G_N_ELEMENTS (fit_error_entries));
  return (GQuark) quark;
}

/* Registered when the library is loaded, so a proxy made with fit_client_proxy_new*() — as
 * GJS and PyGObject programs often do — maps errors too, even before anyone asks for the
 * quark. (GCC and Clang; GLib's own G_DEFINE_CONSTRUCTOR is not public API.) */
__attribute__ ((constructor)) static void
fit_error_register (void)
{
  fit_error_quark ();
}

/**
 * fit_client_new_sync:
 * @cancellable: (nullable): a #GCancellable, or %NULL
 * @error: return location for a #GError
 *
 * A proxy for org.fitd.Fit1 on the session bus, with its properties loaded (the call
 * that loads them starts the daemon by D-Bus activation when it is not running).
 *
 * Returns: (transfer full): the proxy (a #FitClientProxy), or %NULL with @error set
 */
FitClient *
fit_client_new_sync (GCancellable *cancellable, GError **error)
{
  fit_error_quark ();
  return fit_client_proxy_new_for_bus_sync (G_BUS_TYPE_SESSION, G_DBUS_PROXY_FLAGS_NONE,
                                            FIT_BUS_NAME, FIT_OBJECT_PATH, cancellable, error);
}
