#ifndef FIT_CZLIB_SHIM_H
#define FIT_CZLIB_SHIM_H
#include <zlib.h>
#endif
