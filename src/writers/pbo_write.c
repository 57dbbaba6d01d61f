/* pbo_write.c - PBO archives and LZSS streams for the tests, and SHA-1. */
#include "pbo_write.h"

#include <stdlib.h>

#include "pbo.h"

/* ---- LZSS ---------------------------------------------------------------- */

enum {
    LZ_WINDOW = 4095,   /* the largest rpos */
    LZ_MIN = 3,
    LZ_MAX = 18,        /* (0x0F) + 3 */
    LZ_HASH = 1 << 13,
    LZ_DEPTH = 128,     /* candidates tried per position: enough for fixtures */
};

static size_t lz_hash(const uint8_t *s)
{
    return ((size_t)s[0] * 506832829u ^ (size_t)s[1] * 2654435761u ^ s[2]) & (LZ_HASH - 1);
}

/* The longest earlier match for src[pos..] within the window.  Matches may
 * overlap the bytes they produce, as the decoder copies byte by byte. */
static size_t lz_match(const uint8_t *src, size_t len, size_t pos, const size_t *head,
                       const size_t *prev, size_t *dist)
{
    size_t best = 0, max = len - pos < LZ_MAX ? len - pos : LZ_MAX;
    if (max < LZ_MIN)
        return 0;
    size_t cand = head[lz_hash(src + pos)];
    for (int depth = 0; depth < LZ_DEPTH && cand != SIZE_MAX && cand < pos &&
                        pos - cand <= LZ_WINDOW; depth++) {
        size_t m = 0;
        while (m < max && src[cand + m] == src[pos + m])
            m++;
        if (m > best) {
            best = m;
            *dist = pos - cand;
            if (m == max)
                break;
        }
        size_t next = prev[cand];
        if (next == SIZE_MAX || next >= cand)   /* chains only go back */
            break;
        cand = next;
    }
    return best >= LZ_MIN ? best : 0;
}

static void lz_insert(const uint8_t *src, size_t len, size_t pos, size_t *head, size_t *prev)
{
    if (len - pos < LZ_MIN)
        return;
    size_t h = lz_hash(src + pos);
    prev[pos] = head[h];
    head[h] = pos;
}

int pbo_lzss_encode(const uint8_t *src, size_t len, struct rtm_buf *out)
{
    size_t *head = malloc(LZ_HASH * sizeof *head);
    size_t *prev = malloc((len ? len : 1) * sizeof *prev);
    if (!head || !prev) {
        free(head);
        free(prev);
        return -1;
    }
    for (size_t i = 0; i < LZ_HASH; i++)
        head[i] = SIZE_MAX;
    uint32_t sum = 0;
    size_t pos = 0;
    while (pos < len) {
        size_t flag_at = out->len;
        uint8_t flags = 0;
        rtm_buf_putc(out, 0);
        for (int bit = 0; bit < 8 && pos < len; bit++) {
            size_t dist = 0, m = lz_match(src, len, pos, head, prev, &dist);
            if (m) {
                rtm_buf_putc(out, (char)(dist & 0xFF));
                rtm_buf_putc(out, (char)(((dist >> 4) & 0xF0) | (m - LZ_MIN)));
            } else {
                flags |= (uint8_t)(1u << bit);
                rtm_buf_putc(out, (char)src[pos]);
                m = 1;
            }
            for (size_t k = 0; k < m; k++, pos++) {
                sum += src[pos];
                lz_insert(src, len, pos, head, prev);
            }
        }
        if (!out->oom)
            out->p[flag_at] = (char)flags;
    }
    rtm_buf_put_u32(out, sum);
    free(head);
    free(prev);
    return out->oom ? -1 : 0;
}

/* ---- SHA-1 --------------------------------------------------------------- */

static uint32_t rol(uint32_t x, int n) { return x << n | x >> (32 - n); }

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void sha1_block(uint32_t h[5], const uint8_t *b)
{
    uint32_t w[80];
    for (int i = 0; i < 16; i++)
        w[i] = be32(b + 4 * i);
    for (int i = 16; i < 80; i++)
        w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h[0], bb = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; i++) {
        uint32_t f, k;
        if (i < 20) {
            f = (bb & c) | (~bb & d);
            k = 0x5A827999;
        } else if (i < 40) {
            f = bb ^ c ^ d;
            k = 0x6ED9EBA1;
        } else if (i < 60) {
            f = (bb & c) | (bb & d) | (c & d);
            k = 0x8F1BBCDC;
        } else {
            f = bb ^ c ^ d;
            k = 0xCA62C1D6;
        }
        uint32_t t = rol(a, 5) + f + e + k + w[i];
        e = d;
        d = c;
        c = rol(bb, 30);
        bb = a;
        a = t;
    }
    h[0] += a;
    h[1] += bb;
    h[2] += c;
    h[3] += d;
    h[4] += e;
}

void pbo_sha1(const uint8_t *data, size_t len, uint8_t digest[20])
{
    uint32_t h[5] = { 0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0 };
    size_t i = 0;
    for (; len - i >= 64; i += 64)
        sha1_block(h, data + i);
    uint8_t last[128] = { 0 };
    size_t rest = len - i;
    if (rest)
        memcpy(last, data + i, rest);
    last[rest] = 0x80;
    size_t blocks = rest + 9 <= 64 ? 1 : 2;
    uint64_t bits = (uint64_t)len * 8;
    for (int k = 0; k < 8; k++)
        last[blocks * 64 - 1 - k] = (uint8_t)(bits >> (8 * k));
    for (size_t k = 0; k < blocks; k++)
        sha1_block(h, last + 64 * k);
    for (int k = 0; k < 5; k++) {
        digest[4 * k] = (uint8_t)(h[k] >> 24);
        digest[4 * k + 1] = (uint8_t)(h[k] >> 16);
        digest[4 * k + 2] = (uint8_t)(h[k] >> 8);
        digest[4 * k + 3] = (uint8_t)h[k];
    }
}

/* ---- archive ------------------------------------------------------------- */

static void put_header(struct rtm_buf *b, const char *name, uint32_t method,
                       uint32_t original, uint32_t timestamp, uint32_t size)
{
    rtm_buf_put(b, name, strlen(name) + 1);
    rtm_buf_put_u32(b, method);
    rtm_buf_put_u32(b, original);
    rtm_buf_put_u32(b, 0);
    rtm_buf_put_u32(b, timestamp);
    rtm_buf_put_u32(b, size);
}

/* Method 0 with an original size is LZSS only when the sizes differ, so an
 * OFP-style entry that did not shrink (or is empty) is written stored. */
static int stored(const struct pbo_write_entry *e, const struct rtm_buf *packed)
{
    return e->pack == PBO_PACK_STORE ||
           (e->pack == PBO_PACK_OFP && (e->len == 0 || packed->len == e->len));
}

static int str_ok(const char *s) { return s && strlen(s) <= PBO_NAME_MAX; }

int pbo_write(const struct pbo_write_entry *entries, size_t n,
              const struct pbo_write_prop *props, size_t nprops,
              unsigned flags, struct rtm_buf *out)
{
    size_t start = out->len;
    /* Compressed blobs first: the table needs their sizes. */
    struct rtm_buf *packed = calloc(n ? n : 1, sizeof *packed);
    if (!packed)
        return -1;
    int rc = -1;
    for (size_t i = 0; i < n; i++) {
        const struct pbo_write_entry *e = &entries[i];
        if (!str_ok(e->name) || !e->name[0] || e->len > UINT32_MAX)
            goto done;
        rtm_buf_init(&packed[i]);
        if (e->pack != PBO_PACK_STORE &&
            (pbo_lzss_encode(e->data, e->len, &packed[i]) || packed[i].len > UINT32_MAX))
            goto done;
    }
    if (!(flags & PBO_WRITE_NO_VERS)) {
        put_header(out, "", PBO_METHOD_VERS, 0, 0, 0);
        for (size_t i = 0; i < nprops; i++) {
            if (!str_ok(props[i].key) || !props[i].key[0] || !str_ok(props[i].value))
                goto done;
            rtm_buf_put(out, props[i].key, strlen(props[i].key) + 1);
            rtm_buf_put(out, props[i].value, strlen(props[i].value) + 1);
        }
        rtm_buf_putc(out, 0);
    }
    for (size_t i = 0; i < n; i++) {
        const struct pbo_write_entry *e = &entries[i];
        uint32_t len = (uint32_t)e->len;
        if (stored(e, &packed[i]))
            put_header(out, e->name, PBO_METHOD_STORED, 0, e->timestamp, len);
        else
            put_header(out, e->name, e->pack == PBO_PACK_CPRS ? PBO_METHOD_CPRS : 0,
                       len, e->timestamp, (uint32_t)packed[i].len);
    }
    put_header(out, "", 0, 0, 0, 0);
    for (size_t i = 0; i < n; i++) {
        if (stored(&entries[i], &packed[i]))
            rtm_buf_put(out, entries[i].data, entries[i].len);
        else
            rtm_buf_put(out, packed[i].p, packed[i].len);
    }
    if (!(flags & PBO_WRITE_NO_TRAILER) && !out->oom) {
        uint8_t d[20];
        pbo_sha1((const uint8_t *)out->p + start, out->len - start, d);
        rtm_buf_putc(out, 0);
        rtm_buf_put(out, d, sizeof d);
    }
    rc = out->oom ? -1 : 0;
done:
    for (size_t i = 0; i < n; i++)
        rtm_buf_free(&packed[i]);
    free(packed);
    return rc;
}
