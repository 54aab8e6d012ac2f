#ifndef FIT_CTHAI_SHIM_H
#define FIT_CTHAI_SHIM_H
/* libthai's dictionary word breaker: where Pango 1.50 takes Thai line breaks from
 * (break-thai.c: th_brk_new, th_brk_find_breaks, th_uni2tis). */
#include <thai/thbrk.h>
#include <thai/thwchar.h>
#endif
