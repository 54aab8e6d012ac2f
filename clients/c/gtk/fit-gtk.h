/* libfitd-gtk: GTK 4 containers that take fitd's adaptive-layout decisions.
 *
 * FitViewThatFits shows the first of its children that fits (SwiftUI's ViewThatFits),
 * FitUniformGroup makes a list of them take one shape (seed 000), FitThresholdBox turns a row
 * into a column from a text-size category on (seed 002). Each describes its real widget
 * subtree to fitd, asks once per content change or generation, and switches locally. */
#ifndef FIT_GTK_H
#define FIT_GTK_H

#include "fit-view-that-fits.h"
#include "fit-uniform-group.h"
#include "fit-threshold-box.h"

#endif
