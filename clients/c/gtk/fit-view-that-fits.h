/* FitViewThatFits: SwiftUI's ViewThatFits for GTK 4, decided by fitd. */
#ifndef FIT_VIEW_THAT_FITS_H
#define FIT_VIEW_THAT_FITS_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define FIT_TYPE_VIEW_THAT_FITS (fit_view_that_fits_get_type ())
G_DECLARE_FINAL_TYPE (FitViewThatFits, fit_view_that_fits, FIT, VIEW_THAT_FITS, GtkWidget)

/**
 * FitDecisionSource:
 * @FIT_DECISION_SOURCE_GTK: fitd has not answered (yet, or no daemon answers): the first
 *   candidate whose natural width GTK measures within the allocation is shown.
 * @FIT_DECISION_SOURCE_FITD: the candidate comes from fitd's exact breakpoints.
 *
 * What the shown candidate was chosen from.
 */
typedef enum {
  FIT_DECISION_SOURCE_GTK,
  FIT_DECISION_SOURCE_FITD,
} FitDecisionSource;

GType fit_decision_source_get_type (void);
#define FIT_TYPE_DECISION_SOURCE (fit_decision_source_get_type ())

GtkWidget *fit_view_that_fits_new (void);
void fit_view_that_fits_append (FitViewThatFits *self, GtkWidget *candidate);
void fit_view_that_fits_remove (FitViewThatFits *self, GtkWidget *candidate);
GtkWidget *fit_view_that_fits_get_visible_candidate (FitViewThatFits *self);
int fit_view_that_fits_get_candidate_index (FitViewThatFits *self);
FitDecisionSource fit_view_that_fits_get_decision_source (FitViewThatFits *self);
gboolean fit_view_that_fits_get_flip (FitViewThatFits *self, guint index, double *width, int *candidate);
guint fit_view_that_fits_get_n_flips (FitViewThatFits *self);
GVariant *fit_view_that_fits_describe (FitViewThatFits *self);

G_END_DECLS

#endif
