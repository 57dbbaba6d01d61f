/* lzo.c - finding the end of an LZO1X stream with liblzo2.
 *
 * lzo1x_decompress_safe() succeeds only when src_len is exactly the stream
 * length: shorter gives INPUT_OVERRUN (or another error from reading past the
 * cut), longer gives INPUT_NOT_CONSUMED.  Every stream ends with the marker
 * 11 00 00, so the first few markers are tried in order (nearly always the
 * first one is the end); after that a binary search over the length, which
 * is monotonic, keeps hostile inputs full of markers at O(log n) passes.
 */
#include "lzo.h"

#include <lzo/lzo1x.h>
#include <stdlib.h>

enum { MARKER_TRIES = 4 };

int rtm_lzo_init(void) { return lzo_init() == LZO_E_OK ? 0 : -1; }

const char *rtm_lzo_strerror(int code)
{
    switch (code) {
    case LZO_E_INPUT_OVERRUN: return "LZO stream cut short";
    case LZO_E_OUTPUT_OVERRUN: return "LZO stream decodes to more bytes than expected";
    case LZO_E_LOOKBEHIND_OVERRUN: return "LZO stream refers before its start";
    case LZO_E_EOF_NOT_FOUND: return "LZO stream has no end marker";
    case LZO_E_INPUT_NOT_CONSUMED: return "LZO stream ends early";
    case RTM_LZO_SHORT: return "LZO stream decodes to fewer bytes than expected";
    default: return "LZO stream is corrupt";
    }
}

enum { FITS = 0, TOO_LONG = 1, SHORT_OUTPUT = 2 };

/* FITS when src_len is exactly the stream; TOO_LONG when the stream ends
 * before src_len; SHORT_OUTPUT when it ends exactly there but decodes to too
 * few bytes; otherwise the liblzo2 error code. */
static int try_len(const uint8_t *src, size_t src_len, uint8_t *out, size_t out_len)
{
    lzo_uint dst_len = out_len;
    int rc = lzo1x_decompress_safe(src, src_len, out, &dst_len, NULL);
    if (rc == LZO_E_OK)
        return dst_len == out_len ? FITS : SHORT_OUTPUT;
    return rc == LZO_E_INPUT_NOT_CONSUMED ? TOO_LONG : rc;
}

/* A cut before the end shows as a read past the input. */
static int too_short(int rc)
{
    return rc == LZO_E_INPUT_OVERRUN || rc == LZO_E_EOF_NOT_FOUND;
}

static const uint8_t *next_marker(const uint8_t *src, size_t len, size_t pos)
{
    while (pos + 3 <= len) {
        const uint8_t *m = memchr(src + pos, 0x11, len - pos - 2);
        if (!m)
            return NULL;
        if (m[1] == 0 && m[2] == 0)
            return m;
        pos = (size_t)(m - src) + 1;
    }
    return NULL;
}

int rtm_lzo_decode(const uint8_t *src, size_t src_len, uint8_t *out, size_t out_len,
                   size_t *used)
{
    size_t lo = 0; /* a length known to be too short */
    for (int tries = 0; tries < MARKER_TRIES; tries++) {
        const uint8_t *m = next_marker(src, src_len, lo);
        if (!m)
            return LZO_E_EOF_NOT_FOUND;
        size_t end = (size_t)(m - src) + 3;
        int rc = try_len(src, end, out, out_len);
        if (rc == FITS) {
            *used = end;
            return 0;
        }
        if (rc == SHORT_OUTPUT)
            return RTM_LZO_SHORT;
        if (!too_short(rc))
            return rc == TOO_LONG ? LZO_E_ERROR : rc;
        lo = end - 2; /* the next marker may overlap this one */
    }
    int rc = try_len(src, src_len, out, out_len);
    if (rc != FITS && rc != TOO_LONG)
        return too_short(rc) ? rc : rc == SHORT_OUTPUT ? RTM_LZO_SHORT : rc;
    size_t hi = src_len; /* long enough */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        rc = try_len(src, mid, out, out_len);
        if (rc == FITS || rc == TOO_LONG || rc == SHORT_OUTPUT)
            hi = mid;
        else
            lo = mid;
    }
    rc = try_len(src, hi, out, out_len);
    if (rc != FITS)
        return rc == SHORT_OUTPUT ? RTM_LZO_SHORT : LZO_E_ERROR;
    *used = hi;
    return 0;
}

int rtm_lzo_decode_exact(const uint8_t *src, size_t src_len, uint8_t *out, size_t out_len)
{
    int rc = try_len(src, src_len, out, out_len);
    if (rc == TOO_LONG)
        return LZO_E_INPUT_NOT_CONSUMED;
    return rc == FITS ? 0 : rc == SHORT_OUTPUT ? RTM_LZO_SHORT : rc;
}

int rtm_lzo_encode(const uint8_t *src, size_t len, struct rtm_buf *out)
{
    void *wrk = malloc(LZO1X_1_MEM_COMPRESS);
    size_t bound = len + len / 16 + 64 + 3;
    if (!wrk || rtm_buf_reserve(out, bound)) {
        free(wrk);
        return -1;
    }
    lzo_uint n = 0;
    int rc = lzo1x_1_compress(src, len, (uint8_t *)out->p + out->len, &n, wrk);
    free(wrk);
    if (rc != LZO_E_OK)
        return -1;
    out->len += n;
    return 0;
}
