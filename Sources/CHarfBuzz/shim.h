#ifndef FIT_CHARFBUZZ_SHIM_H
#define FIT_CHARFBUZZ_SHIM_H
#include <hb.h>
#include <hb-ot.h>
#endif
