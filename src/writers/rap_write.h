/* rap_write.h - the project's rapify writer, for test fixtures, fuzz seeds
 * and benchmark trees: rap_write() (declared in config.h with the model)
 * writes what rap.c reads, laid out as BI's and HEMTT's tools lay it out:
 * each class body followed by the bodies of its classes, depth first, each
 * body ending with the offset just past its subtree, the enum table last.
 *
 * Contract: the model is borrowed for the call; bytes are appended to the
 * caller's buffer, which must be empty (offsets count from its start).
 * Returns -1 when out of memory, when a name or string holds a NUL byte
 * (asciiz cannot), or when the file would pass 4 GiB.  No global state.
 */
#ifndef RTM_RAP_WRITE_H
#define RTM_RAP_WRITE_H

#include "config.h"

/* The compressed count of the format: 7 bits a byte, low bits first. */
void rap_put_count(struct rtm_buf *b, uint32_t n);

#endif
