/* pbo_tricks.h - archives whose tables play the tricks of rtm(5) PBO
 * paths, one trick an archive: the same path twice and thrice, twice but
 * for case, a file that is also a folder, a part over 255 bytes, '..' and
 * a leading '\\', a device name and control bytes.  The fuzz seeds
 * (tests/fuzz/fuzz_seeds.c, which tests/mount/tricks.sh mounts) and
 * rtmgen's damaged trees (damaged.h) write them.
 *
 * Contract: the entries' bytes are borrowed for the call; the archive is
 * appended to the caller's buffer; -1 only when out of memory.  No global
 * state. */
#ifndef RTM_PBO_TRICKS_H
#define RTM_PBO_TRICKS_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

enum {
    PBO_TRICKS = 4,             /* archives, one a trick */
    PBO_TRICK_ENTRIES = 3,      /* the most entries one holds */
};

/* How many entries trick t's archive holds (0 when t >= PBO_TRICKS). */
size_t pbo_trick_entries(unsigned t);
/* Trick t's archive, stored entries, entry i holding data[i] (len[i]
 * bytes) for i below pbo_trick_entries(t). */
int pbo_write_trick(unsigned t, const uint8_t *const data[PBO_TRICK_ENTRIES],
                    const size_t len[PBO_TRICK_ENTRIES], struct rtm_buf *out);

#endif
