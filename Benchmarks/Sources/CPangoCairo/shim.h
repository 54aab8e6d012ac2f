#ifndef FIT_BENCH_CPANGOCAIRO_SHIM_H
#define FIT_BENCH_CPANGOCAIRO_SHIM_H
/*
 * Pango through PangoCairo, set up as a GTK 4 label measures (Tests/oracle/pango_measure.py),
 * plus the HarfBuzz that Pango shapes with (pango-font.h includes <hb.h>): the floor peer
 * calls it directly.
 */
#include <pango/pangocairo.h>
#include <hb.h>

/* gboolean's TRUE and FALSE are macros over an expression ((!FALSE)), which Swift does not
 * import. */
static inline gboolean fit_bench_true(void) { return TRUE; }
static inline gboolean fit_bench_false(void) { return FALSE; }

/* PANGO_SCALE imports, but as an Int32 macro; named here so the unit is explicit. */
static inline double fit_bench_pango_units_per_pixel(void) { return (double)PANGO_SCALE; }

#endif
