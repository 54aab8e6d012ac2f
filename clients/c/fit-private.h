/* What libfitd-client's own files share and do not export. */
#ifndef FIT_PRIVATE_H
#define FIT_PRIVATE_H

#include "fit-client.h"

G_BEGIN_DECLS

/* LayoutLimits.maxDepth (Sources/FitLayout): levels of nodes below the root. */
#define FIT_MAX_DEPTH 128
/* fitctl's DocumentInput.depthLimit: JSON nesting of two levels (an object, its children)
 * per level of the tree. */
#define FIT_MAX_JSON_DEPTH (2 * FIT_MAX_DEPTH + 8)

G_GNUC_INTERNAL gboolean fit_json_check (const char *json, gsize length, GError **error);
G_GNUC_INTERNAL void fit_json_position (const char *json, gsize offset, guint *line, guint *column);

G_END_DECLS

#endif
