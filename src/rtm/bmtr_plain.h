/* bmtr_plain.h - plain.rtm of a BMTR file, written as it is converted.
 *
 * Contract:
 *  - rtm_bmtr_plain_each() writes the bytes rtm_write_plain_each() writes
 *    for the anim rtm_parse_opts(data, len, o) makes of a BMTR file (o's
 *    skeleton, or the one o->choose gives), handing them to flush a piece
 *    at a time as that function does.
 *  - It reads the file as a full parse does, with the same checks and
 *    errors, before anything is written: -1 with err when the file does
 *    not parse (or memory ran out reading it), flush never called.
 *  - Then it converts a frame at a time into the piece being written,
 *    never holding the matrices: 0, or -2 when out of memory or when
 *    flush stopped it (some pieces may then have been handed out).
 *  - Memory: the file's transforms (14 bytes a bone and frame, where the
 *    matrices are 48), a frame of doubles and about chunk bytes.  With
 *    o->give_source the caller hands data (malloc'd) over: it is freed
 *    once read, before the writing allocates, which then reuses its
 *    pages, and the caller never frees it, whatever is returned.
 */
#ifndef RTM_BMTR_PLAIN_H
#define RTM_BMTR_PLAIN_H

#include "rtm.h"

int rtm_bmtr_plain_each(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                        struct rtm_buf *out, size_t chunk, rtm_plain_flush_fn flush, void *ctx,
                        struct rtm_error *err);

#endif
