#ifndef FIT_RANDOM_H
#define FIT_RANDOM_H
/*
 * getrandom(2), which Swift's Glibc module does not import (<sys/random.h> is not in it): the
 * warm-start files' secret is drawn from the kernel's random source directly.
 */
#include <stddef.h>

/* Fills `length` bytes at `buffer` from getrandom(2), blocking until the kernel's pool is
 * initialised; returns 0, or the errno of the call that failed. */
int fit_getrandom(void *buffer, size_t length);

#endif
