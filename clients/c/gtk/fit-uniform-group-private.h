/* Between FitViewThatFits and the FitUniformGroup it belongs to. */
#ifndef FIT_UNIFORM_GROUP_PRIVATE_H
#define FIT_UNIFORM_GROUP_PRIVATE_H

#include "fit-uniform-group.h"
#include "fit-view-that-fits.h"

G_BEGIN_DECLS

/* A member's candidates changed: the group describes the list again (once, when idle). */
void _fit_uniform_group_member_changed (FitUniformGroup *self);
/* The list's position at @width, when fitd has answered for the list as it is. */
gboolean _fit_uniform_group_candidate_at (FitUniformGroup *self, int width, int *candidate);
void _fit_view_that_fits_set_group (FitViewThatFits *self, FitUniformGroup *group);
GVariant *_fit_view_that_fits_get_document (FitViewThatFits *self);

G_END_DECLS

#endif
