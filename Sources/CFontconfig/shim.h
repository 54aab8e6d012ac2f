#ifndef FIT_CFONTCONFIG_SHIM_H
#define FIT_CFONTCONFIG_SHIM_H
#include <stddef.h>
#include <fontconfig/fontconfig.h>

/// fontconfig's own configuration (FONTCONFIG_FILE, else fonts.conf) with its fonts, as
/// FcInitLoadConfigAndFonts loads it, less the parse of the template directory that follows
/// (fontconfig 2.14, src/fcinit.c, FcInitLoadOwnConfig: FcConfigParseOnly(FC_TEMPLATEDIR),
/// which only collects rule descriptions for fc-conflist). Through Debian's
/// /usr/share/fontconfig/conf.avail/50-user.conf that parse opens the user's fonts.conf and
/// conf.d even when FONTCONFIG_FILE names a configuration that leaves them out, and a FIFO
/// there blocks it for good (FitScale's FontconfigGuard). A configuration that fails to parse
/// or names no <cachedir> goes to FcInitLoadConfigAndFonts, whose fallbacks (built-in font
/// directories, a cache directory of the user's) fitd keeps.
static inline FcConfig *fit_fc_load_config_and_fonts(void)
{
    FcConfig *config = FcConfigCreate();
    if (config == NULL) return NULL;
    if (FcConfigParseAndLoad(config, NULL, FcTrue)) {
        FcStrList *caches = FcConfigGetCacheDirs(config);
        int hasCache = caches != NULL && FcStrListNext(caches) != NULL;
        if (caches != NULL) FcStrListDone(caches);
        if (hasCache && FcConfigBuildFonts(config)) return config;
    }
    FcConfigDestroy(config);
    return FcInitLoadConfigAndFonts();
}
#endif
