/* lzo.h - LZO1X arrays as BMTR stores them, on top of Debian's liblzo2.
 *
 * Contract:
 *  - rtm_lzo_decode() decodes one LZO1X stream that starts at src and must
 *    produce exactly out_len bytes into out (caller-owned).  BMTR does not
 *    store the compressed length, so it finds where the stream ends
 *    (rtm(5), LZO streams) and reports the bytes used in *used.
 *    rtm_lzo_decode_exact() decodes a stream of known length in one pass.
 *  - rtm_lzo_encode() compresses for the project's own BMTR writer; it
 *    appends to the caller's buffer.
 *  - Both are reentrant; rtm_lzo_init() must have succeeded once (it is
 *    idempotent and cheap).
 */
#ifndef RTM_LZO_H
#define RTM_LZO_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* Returned when a stream ends before producing out_len bytes. */
#define RTM_LZO_SHORT (-100)

int rtm_lzo_init(void);
/* Returns 0, or a liblzo2 error code (< 0) describing the first failure. */
int rtm_lzo_decode(const uint8_t *src, size_t src_len, uint8_t *out, size_t out_len,
                   size_t *used);
/* The same for a stream whose length is known: src_len bytes exactly (as
 * the project's own records store it), decoded in one pass where
 * rtm_lzo_decode() may decode again at every candidate end (a few passes,
 * or a binary search of O(log n) of them over data that holds markers).
 * 0, or a liblzo2 error code (< 0; RTM_LZO_SHORT: fewer bytes). */
int rtm_lzo_decode_exact(const uint8_t *src, size_t src_len, uint8_t *out, size_t out_len);
const char *rtm_lzo_strerror(int code);
int rtm_lzo_encode(const uint8_t *src, size_t len, struct rtm_buf *out);

#endif
