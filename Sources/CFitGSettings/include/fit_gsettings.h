// GSettings' org.gnome.desktop.interface for FitScale's GSettingsProvider, through GIO loaded
// at the first read (dlopen), not linked: fitd on a desktop without GNOME's settings never
// maps GIO (about 1 MB of its idle memory, which README.md keeps under 20 MB), and the binary
// does not require it.
#ifndef FIT_GSETTINGS_H
#define FIT_GSETTINGS_H

/// Reads the user's own values (g_settings_get_user_value: NULL when the user never set the
/// key, so a schema default is not mistaken for a desktop setting) of text-scaling-factor,
/// font-name and monospace-font-name. Returns 0 when GIO cannot be loaded or the schema is
/// not installed, else 1 with *has_scale telling whether the scale was set; the strings are
/// malloc'd copies (free(3) them) or NULL.
int fit_gsettings_interface(double *scale, int *has_scale, char **font, char **monospace);

#endif
