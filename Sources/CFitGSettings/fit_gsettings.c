// See include/fit_gsettings.h. GIO's types are opaque here (pointers only), so no GLib header
// is needed; the signatures are those of gio/gsettings.h, gio/gsettingsschema.h and
// glib/gvariant.h (GLib 2.74).
#include "fit_gsettings.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct FitGSettingsSchemaSource FitGSettingsSchemaSource;
typedef struct FitGSettingsSchema FitGSettingsSchema;
typedef struct FitGSettings FitGSettings;
typedef struct FitGVariant FitGVariant;

static struct {
    FitGSettingsSchemaSource *(*schema_source_get_default)(void);
    FitGSettingsSchema *(*schema_source_lookup)(FitGSettingsSchemaSource *, const char *, int);
    int (*schema_has_key)(FitGSettingsSchema *, const char *);
    void (*schema_unref)(FitGSettingsSchema *);
    FitGSettings *(*new_full)(FitGSettingsSchema *, void *backend, const char *path);
    FitGVariant *(*get_user_value)(FitGSettings *, const char *);
    int (*variant_is_of_type)(FitGVariant *, const char *type);
    double (*variant_get_double)(FitGVariant *);
    const char *(*variant_get_string)(FitGVariant *, size_t *length);
    void (*variant_unref)(FitGVariant *);
    void (*object_unref)(void *);
    int loaded;
} gio;

static pthread_once_t gio_once = PTHREAD_ONCE_INIT;

static void load_gio(void)
{
    // Once bound, the library stays loaded for the process's life (GIO cannot be unloaded
    // safely once used: it registers GTypes and may start threads). A GIO without one of
    // these symbols is let go at once, before any of it ran, and GSettings counts as absent.
    void *library = dlopen("libgio-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
#define FIT_BIND(field, symbol) \
    if ((*(void **)&gio.field = dlsym(library, symbol)) == NULL) goto missing;
    FIT_BIND(schema_source_get_default, "g_settings_schema_source_get_default")
    FIT_BIND(schema_source_lookup, "g_settings_schema_source_lookup")
    FIT_BIND(schema_has_key, "g_settings_schema_has_key")
    FIT_BIND(schema_unref, "g_settings_schema_unref")
    FIT_BIND(new_full, "g_settings_new_full")
    FIT_BIND(get_user_value, "g_settings_get_user_value")
    FIT_BIND(variant_is_of_type, "g_variant_is_of_type")
    FIT_BIND(variant_get_double, "g_variant_get_double")
    FIT_BIND(variant_get_string, "g_variant_get_string")
    FIT_BIND(variant_unref, "g_variant_unref")
    FIT_BIND(object_unref, "g_object_unref")
#undef FIT_BIND
    gio.loaded = 1;
    return;
missing:
    memset(&gio, 0, sizeof gio);
    dlclose(library);
}

static char *user_string(FitGSettings *settings, FitGSettingsSchema *schema, const char *key)
{
    if (!gio.schema_has_key(schema, key)) return NULL;
    FitGVariant *value = gio.get_user_value(settings, key);
    if (value == NULL) return NULL;
    char *copy = NULL;
    // A GVariantType is its type string ("s"), as G_VARIANT_TYPE_STRING casts it.
    if (gio.variant_is_of_type(value, "s")) {
        const char *text = gio.variant_get_string(value, NULL);
        if (text != NULL) copy = strdup(text);
    }
    gio.variant_unref(value);
    return copy;
}

int fit_gsettings_interface(double *scale, int *has_scale, char **font, char **monospace)
{
    *has_scale = 0;
    *font = NULL;
    *monospace = NULL;
    pthread_once(&gio_once, load_gio);
    if (!gio.loaded) return 0;
    FitGSettingsSchemaSource *source = gio.schema_source_get_default();
    if (source == NULL) return 0;
    // Looked up first: g_settings_new on a schema that is not installed aborts the process.
    FitGSettingsSchema *schema = gio.schema_source_lookup(source, "org.gnome.desktop.interface", 1);
    if (schema == NULL) return 0;
    FitGSettings *settings = gio.new_full(schema, NULL, NULL);
    if (settings == NULL) {
        gio.schema_unref(schema);
        return 0;
    }
    if (gio.schema_has_key(schema, "text-scaling-factor")) {
        FitGVariant *value = gio.get_user_value(settings, "text-scaling-factor");
        if (value != NULL) {
            if (gio.variant_is_of_type(value, "d")) {
                *scale = gio.variant_get_double(value);
                *has_scale = 1;
            }
            gio.variant_unref(value);
        }
    }
    *font = user_string(settings, schema, "font-name");
    *monospace = user_string(settings, schema, "monospace-font-name");
    gio.object_unref(settings);
    gio.schema_unref(schema);
    return 1;
}
