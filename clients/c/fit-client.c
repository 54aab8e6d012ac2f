/* The hand-written part of libfitd-client: the error domain, the session-bus constructor and
 * the toolkit of the calling process. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "fit-client.h"

#include <dlfcn.h>

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

/* GTK 3 and GTK 4 both export these (gtk/gtkversion.c); whichever is loaded in the process
 * answers. */
typedef guint (*fit_gtk_version_fn) (void);

/**
 * fit_client_toolkit:
 *
 * The toolkit profile of the GTK this process draws with, as the `metrics` option names it:
 * "gtk-4.MINOR" for GTK 4 (its gtk_get_minor_version()), "gtk3" for GTK 3, or %NULL when no
 * GTK is loaded (then the daemon measures as the GTK installed where it runs). Found at run
 * time (dlsym() of gtk_get_major_version in the whole process), so the library links no GTK
 * and a Flatpak app gets its runtime's GTK, not the host's.
 *
 * Returns: (nullable) (transfer none): the profile's name, or %NULL
 */
const char *
fit_client_toolkit (void)
{
  char name[16];
  fit_gtk_version_fn major = (fit_gtk_version_fn) dlsym (RTLD_DEFAULT, "gtk_get_major_version");
  fit_gtk_version_fn minor = (fit_gtk_version_fn) dlsym (RTLD_DEFAULT, "gtk_get_minor_version");
  if (major == NULL || minor == NULL)
    return NULL;
  guint found_major = major ();
  if (found_major == 3)
    return "gtk3";
  if (found_major != 4)
    return NULL;
  /* The minor version of a loaded library: two digits at most, so the name fits. */
  g_snprintf (name, sizeof name, "gtk-4.%u", MIN (minor (), 99u));
  /* Interned: a string for the life of the process, whichever thread asks. */
  return g_intern_string (name);
}

/**
 * fit_client_default_options:
 *
 * Options for fit_client_call_measure() and the other calls that take them, with `metrics`
 * set to the toolkit this process draws with (fit_client_toolkit()) when GTK is loaded, so
 * that its labels and fitd's answers agree; an empty dictionary otherwise. Add your own with
 * a #GVariantDict over it.
 *
 * Returns: (transfer full): an `a{sv}` #GVariant
 */
GVariant *
fit_client_default_options (void)
{
  GVariantDict dict;
  g_variant_dict_init (&dict, NULL);
  const char *toolkit = fit_client_toolkit ();
  if (toolkit != NULL)
    g_variant_dict_insert (&dict, "metrics", "s", toolkit);
  return g_variant_ref_sink (g_variant_dict_end (&dict));
}
