#ifndef FIT_CFONTCONFIG_SHIM_H
#define FIT_CFONTCONFIG_SHIM_H
#include <fontconfig/fontconfig.h>
#endif
