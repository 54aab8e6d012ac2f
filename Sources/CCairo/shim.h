#ifndef FIT_CCAIRO_SHIM_H
#define FIT_CCAIRO_SHIM_H
#include <cairo.h>
#endif
