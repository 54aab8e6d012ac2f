#ifndef FIT_CCAIRO_SHIM_H
#define FIT_CCAIRO_SHIM_H
#include <cairo.h>
// Glyphs drawn as GTK and pango-view draw them: rasterized by FreeType through cairo's
// fontconfig/FreeType font backend (cairo_ft_font_face_create_for_pattern).
#include <cairo-ft.h>
#endif
