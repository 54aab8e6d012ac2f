#include "fit_random.h"

#include <errno.h>
#include <sys/random.h>

int fit_getrandom(void *buffer, size_t length) {
    unsigned char *at = buffer;
    size_t done = 0;
    while (done < length) {
        /* getrandom(2): requests of up to 256 bytes are never interrupted once the pool is
         * ready, but a signal may interrupt the wait for it; longer ones may return short. */
        ssize_t n = getrandom(at + done, length - done, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        done += (size_t)n;
    }
    return 0;
}
