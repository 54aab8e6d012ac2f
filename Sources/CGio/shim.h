// GSettings' C API for org.gnome.desktop.interface (FitScale's GSettingsProvider).
// The schema is looked up through g_settings_schema_source_lookup first: g_settings_new on a
// schema that is not installed aborts the process, so it is never called blindly.
#include <gio/gio.h>

/// Reads the user's own values (g_settings_get_user_value: NULL when the user never set the
/// key, so a schema default is not mistaken for a desktop setting) of text-scaling-factor,
/// font-name and monospace-font-name. Returns 0 when the schema is not installed, else 1 with
/// each *has_* flag telling whether that key was set; strings are g_malloc'd (fit_g_free).
static inline int fit_gsettings_interface(
    double *scale, int *has_scale, char **font, char **monospace)
{
    *has_scale = 0;
    *font = NULL;
    *monospace = NULL;
    GSettingsSchemaSource *source = g_settings_schema_source_get_default();
    if (source == NULL) return 0;
    GSettingsSchema *schema = g_settings_schema_source_lookup(source, "org.gnome.desktop.interface", TRUE);
    if (schema == NULL) return 0;
    GSettings *settings = g_settings_new_full(schema, NULL, NULL);
    if (g_settings_schema_has_key(schema, "text-scaling-factor")) {
        GVariant *value = g_settings_get_user_value(settings, "text-scaling-factor");
        if (value != NULL) {
            if (g_variant_is_of_type(value, G_VARIANT_TYPE_DOUBLE)) {
                *scale = g_variant_get_double(value);
                *has_scale = 1;
            }
            g_variant_unref(value);
        }
    }
    const char *keys[2] = {"font-name", "monospace-font-name"};
    char **outputs[2] = {font, monospace};
    for (int i = 0; i < 2; i++) {
        if (!g_settings_schema_has_key(schema, keys[i])) continue;
        GVariant *value = g_settings_get_user_value(settings, keys[i]);
        if (value == NULL) continue;
        if (g_variant_is_of_type(value, G_VARIANT_TYPE_STRING)) *outputs[i] = g_variant_dup_string(value, NULL);
        g_variant_unref(value);
    }
    g_object_unref(settings);
    g_settings_schema_unref(schema);
    return 1;
}

static inline void fit_g_free(char *pointer) { g_free(pointer); }
