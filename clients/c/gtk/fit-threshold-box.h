/* FitThresholdBox: a row that becomes a column from a text-size category on (seed 002). */
#ifndef FIT_THRESHOLD_BOX_H
#define FIT_THRESHOLD_BOX_H

#include <gtk/gtk.h>
#include "fit-view-that-fits.h"

G_BEGIN_DECLS

#define FIT_TYPE_THRESHOLD_BOX (fit_threshold_box_get_type ())
G_DECLARE_FINAL_TYPE (FitThresholdBox, fit_threshold_box, FIT, THRESHOLD_BOX, GtkWidget)

GtkWidget *fit_threshold_box_new (const char *category);
void fit_threshold_box_append (FitThresholdBox *self, GtkWidget *child);
const char *fit_threshold_box_get_category (FitThresholdBox *self);
void fit_threshold_box_set_category (FitThresholdBox *self, const char *category);
int fit_threshold_box_get_spacing (FitThresholdBox *self);
void fit_threshold_box_set_spacing (FitThresholdBox *self, int spacing);
GtkOrientation fit_threshold_box_get_orientation (FitThresholdBox *self);
FitDecisionSource fit_threshold_box_get_decision_source (FitThresholdBox *self);

G_END_DECLS

#endif
