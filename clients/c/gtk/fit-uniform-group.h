/* FitUniformGroup: one decision for a whole list of FitViewThatFits (seed 000). */
#ifndef FIT_UNIFORM_GROUP_H
#define FIT_UNIFORM_GROUP_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct _FitViewThatFits FitViewThatFits;

#define FIT_TYPE_UNIFORM_GROUP (fit_uniform_group_get_type ())
G_DECLARE_FINAL_TYPE (FitUniformGroup, fit_uniform_group, FIT, UNIFORM_GROUP, GObject)

FitUniformGroup *fit_uniform_group_new (void);
void fit_uniform_group_add (FitUniformGroup *self, FitViewThatFits *view);
void fit_uniform_group_remove (FitUniformGroup *self, FitViewThatFits *view);
gboolean fit_uniform_group_get_answered (FitUniformGroup *self);
gboolean fit_uniform_group_get_flip (FitUniformGroup *self, guint index, double *width, int *candidate);
guint fit_uniform_group_get_n_flips (FitUniformGroup *self);

G_END_DECLS

#endif
