/* shape.c - an animation's shape and an archive's table as index records
 * (see shape.h).
 *
 * A record is a tag byte and unsigned LEB128 numbers ("varints"): sizes
 * are mostly a few kB, so a number takes two or three bytes, not eight.
 *   'A' format nframes nbones pivots nnames {len bytes}... nsizes {size+1}...
 *       [nclips clip {len bytes}...]   (a source of several clips only)
 *   'E' the message's bytes
 *   'T' head_len head tail_len tail
 */
#include "shape.h"

#include <stdlib.h>
#include <string.h>

#include "format_table.h"
#include "names.h"
#include "pbo.h"
#include "views.h"

enum { TAG_ANIM = 'A', TAG_ERROR = 'E', TAG_TABLE = 'T' };

static void put_varint(struct rtm_buf *b, uint64_t v)
{
    uint8_t out[10];
    size_t n = 0;
    do {
        out[n++] = (uint8_t)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
        v >>= 7;
    } while (v);
    rtm_buf_put(b, out, n);
}

/* The n views' sizes + 1 (0: not known), written in place after one
 * reservation: a record holds a size a frame, track and joint, and a put
 * each was a fifth of a grep -r's work of remembering an animation. */
static void put_sizes(struct rtm_buf *b, const uint64_t *sizes, size_t n)
{
    if (n > SIZE_MAX / 10)
        b->oom = 1;
    if (b->oom || rtm_buf_reserve(b, 10 * n))   /* 10 bytes: any uint64_t's */
        return;
    uint8_t *o = (uint8_t *)b->p + b->len;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = !sizes || sizes[i] == UINT64_MAX ? 0 : sizes[i] + 1;
        for (; v >= 0x80; v >>= 7)
            *o++ = (uint8_t)(v | 0x80);
        *o++ = (uint8_t)v;
    }
    b->len = (size_t)(o - (uint8_t *)b->p);
}

/* Reading: a cursor that fails (and stays failed) past its end. */
struct cur {
    const uint8_t *p, *end;
    int bad;
};

static uint64_t get_varint(struct cur *c)
{
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        if (c->p >= c->end)
            break;
        uint8_t byte = *c->p++;
        v |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return v;
    }
    c->bad = 1;
    return 0;
}

/* A count of items of at least min_bytes each that the rest can carry. */
static uint64_t get_count(struct cur *c, uint64_t min_bytes)
{
    uint64_t n = get_varint(c);
    if (n > (uint64_t)(c->end - c->p) / min_bytes)
        c->bad = 1;
    return c->bad ? 0 : n;
}

static const uint8_t *get_bytes(struct cur *c, uint64_t n)
{
    if (c->bad || n > (uint64_t)(c->end - c->p)) {
        c->bad = 1;
        return NULL;
    }
    const uint8_t *p = c->p;
    c->p += n;
    return p;
}

int rtm_shape_encode(const struct rtm_anim *a, const uint64_t *sizes, const char *error,
                     struct rtm_buf *out)
{
    if (!a) {
        rtm_buf_putc(out, TAG_ERROR);
        rtm_buf_puts(out, error);
        return out->oom ? -1 : 0;
    }
    rtm_buf_putc(out, TAG_ANIM);
    put_varint(out, rtm_format_of(a)->id);
    put_varint(out, a->nframes);
    put_varint(out, a->nbones);
    put_varint(out, a->pivot != NULL);
    for (uint32_t i = 0; i < a->nbones; i++) {
        put_varint(out, a->bones[i].len);
        rtm_buf_put(out, a->bones[i].s, a->bones[i].len);
    }
    size_t n = rtm_view_count(a);
    put_varint(out, n);
    put_sizes(out, sizes, n);
    if (a->nclips) {
        put_varint(out, a->nclips);
        put_varint(out, a->clip);
        for (uint32_t i = 0; i < a->nclips; i++) {
            put_varint(out, a->clip_names[i].len);
            rtm_buf_put(out, a->clip_names[i].s, a->clip_names[i].len);
        }
    }
    return out->oom ? -1 : 0;
}

/* The clips' part of a record, when there is one (c after the sizes). */
static int decode_clips(struct cur *c, struct rtm_anim *a)
{
    if (c->p == c->end)
        return 0;
    uint64_t n = get_count(c, 1), clip = get_varint(c);
    struct rtm_str *names = n ? malloc(n * sizeof *names) : NULL;
    for (uint64_t i = 0; names && i < n; i++) {
        uint64_t len = get_varint(c);
        const uint8_t *s = get_bytes(c, len);
        names[i] = (struct rtm_str){ s ? (const char *)s : "", s ? (uint32_t)len : 0 };
    }
    int rc = !names || c->bad || c->p != c->end || clip >= n ||
             rtm_anim_set_clips(a, (uint32_t)clip, (uint32_t)n, names) ? -1 : 0;
    free(names);
    return rc;
}

/* The anim of a shape record's counts and names (c after the tag). */
static struct rtm_anim *decode_anim(struct cur *c)
{
    uint64_t format = get_varint(c), nframes = get_varint(c);
    uint64_t nbones = get_count(c, 1), pivots = get_varint(c);
    const struct rtm_format_row *f = rtm_format_by_id(format);
    if (c->bad || !f || nframes > UINT32_MAX || pivots > 1)
        return NULL;
    /* the names' bytes are all left at most; nframes costs one float each */
    struct rtm_anim *a = rtm_anim_alloc(f->id, (uint32_t)nframes,
                                        (uint32_t)nbones, 0, (size_t)(c->end - c->p) + nbones,
                                        RTM_DEPTH_SHAPE);
    if (a && pivots)
        a->pivot = calloc(nbones ? nbones : 1, sizeof *a->pivot);
    for (uint32_t i = 0; a && i < nbones && !c->bad; i++) {
        uint64_t len = get_varint(c);
        const uint8_t *s = get_bytes(c, len);
        if (s)
            a->bones[i] = rtm_anim_str(a, s, (uint32_t)len);
    }
    if (a && !c->bad && (!pivots || a->pivot) &&
        (a->tracks = rtm_names_make(a->bones, a->nbones, &RTM_NAMES_FILE)))
        return a;
    rtm_free(a);
    return NULL;
}

int rtm_shape_decode(const void *p, size_t len, struct rtm_anim **a, uint64_t **sizes,
                     char *error, size_t n)
{
    struct cur c = { p, (const uint8_t *)p + len, 0 };
    *a = NULL;
    *sizes = NULL;
    if (len > 0 && c.p[0] == TAG_ERROR) {
        size_t m = len - 1 < n - 1 ? len - 1 : n - 1;
        memcpy(error, c.p + 1, m);
        error[m] = 0;
        return m > 0 && !memchr(error, 0, m) ? 0 : -1;
    }
    if (len == 0 || *c.p++ != TAG_ANIM || !(*a = decode_anim(&c)))
        return -1;
    uint64_t count = get_count(&c, 1);
    if (c.bad || count != rtm_view_count(*a) || !(*sizes = malloc((count + 1) * sizeof **sizes)))
        goto bad;
    for (uint64_t i = 0; i < count; i++)
        (*sizes)[i] = get_varint(&c) - 1;   /* 0 (not known) wraps to UINT64_MAX */
    if (!c.bad && decode_clips(&c, *a) == 0)
        return 0;
bad:
    rtm_free(*a);
    free(*sizes);
    *a = NULL;
    *sizes = NULL;
    return -1;
}

int rtm_shape_encode_table(const uint8_t *head, size_t head_len, const uint8_t *tail,
                           size_t tail_len, struct rtm_buf *out)
{
    rtm_buf_putc(out, TAG_TABLE);
    put_varint(out, head_len);
    rtm_buf_put(out, head, head_len);
    put_varint(out, tail_len);
    rtm_buf_put(out, tail, tail_len);
    return out->oom ? -1 : 0;
}

int rtm_shape_decode_table(const void *rec, size_t len, uint64_t file_size, struct pbo **p)
{
    struct cur c = { rec, (const uint8_t *)rec + len, 0 };
    *p = NULL;
    if (len == 0 || *c.p++ != TAG_TABLE)
        return -1;
    uint64_t head_len = get_varint(&c);
    const uint8_t *head = get_bytes(&c, head_len);
    uint64_t tail_len = get_varint(&c);
    const uint8_t *tail = get_bytes(&c, tail_len);
    struct rtm_error err = { .msg = "" };
    if (c.bad || c.p != c.end || tail_len > 21 || head_len > file_size ||
        pbo_read_table(head, (size_t)head_len, file_size, p, &err) != 0 || !*p) {
        pbo_free(*p);
        *p = NULL;
        return -1;
    }
    if ((*p)->trailer == PBO_TRAILER_UNKNOWN && tail_len)
        pbo_set_trailer(*p, tail, (size_t)tail_len);
    return 0;
}
