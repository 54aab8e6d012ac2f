#ifndef FIT_MALLOC_H
#define FIT_MALLOC_H
/*
 * glibc's allocator figures (mallinfo2(3)), which Swift's Glibc module does not import
 * (<malloc.h> is not in it): what caches really cost is measured with them.
 */
#include <stddef.h>

/* Bytes handed out by malloc and not yet freed: arena blocks in use plus mmapped blocks
 * (mallinfo2's uordblks + hblkhd); 0 where mallinfo2 is missing. */
size_t fit_malloc_bytes_in_use(void);

#endif
