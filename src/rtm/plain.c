/* plain.c - the plain RTM format (rtm(5), PLAIN RTM): reader and writer. */
#include "formats.h"
#include "motion.h"
#include "names.h"

#include <math.h>
#include <stdlib.h>

enum { NAME_FIELD = 32, MATRIX_BYTES = 48, BONE_BYTES = NAME_FIELD + MATRIX_BYTES };

/* A 32-byte name field runs to its first NUL; junk after it is ignored and a
 * field without a NUL is taken whole. */
static uint32_t field_len(const uint8_t *f)
{
    const uint8_t *nul = memchr(f, 0, NAME_FIELD);
    return nul ? (uint32_t)(nul - f) : NAME_FIELD;
}

struct mdat {
    size_t start;          /* offset of the first property */
    uint32_t count;
    uint64_t string_bytes;
};

static int lascii(struct rtm_cursor *c, const char *what)
{
    uint8_t n;
    if (rtm_cur_u8(c, &n, what) || rtm_cur_need(c, n, what))
        return -1;
    c->pos += n;
    return n;
}

/* Walks the MDAT block once to validate it and size the string arena. */
static int scan_mdat(struct rtm_cursor *c, struct mdat *m)
{
    uint32_t reserved;
    c->pos = 8;
    if (rtm_cur_u32(c, &reserved, "RTM_MDAT header") ||
        rtm_cur_u32(c, &m->count, "RTM_MDAT header"))
        return -1;
    if ((uint64_t)m->count * 6 > rtm_cur_left(c)) {
        rtm_err_set(c->err, c->pos - 4, "RTM_MDAT claims %u properties, more than "
                    "the %zu bytes left can hold", m->count, rtm_cur_left(c));
        return -1;
    }
    m->start = c->pos;
    for (uint32_t i = 0; i < m->count; i++) {
        int n1, n2;
        if (rtm_cur_need(c, 4, "a property phase"))
            return -1;
        c->pos += 4;
        if ((n1 = lascii(c, "a property name")) < 0 ||
            (n2 = lascii(c, "a property value")) < 0)
            return -1;
        m->string_bytes += (uint64_t)n1 + n2 + 2;
    }
    return 0;
}

static void read_mdat(const uint8_t *data, const struct mdat *m, struct rtm_anim *a)
{
    size_t pos = m->start;
    for (uint32_t i = 0; i < m->count; i++) {
        struct rtm_prop *p = &a->props[i];
        p->phase = le_f32(data + pos);
        p->type_id = -1;
        pos += 4;
        p->name = rtm_anim_str(a, data + pos + 1, data[pos]);
        pos += 1 + data[pos];
        p->value = rtm_anim_str(a, data + pos + 1, data[pos]);
        pos += 1 + data[pos];
    }
}

/* Checks 32*nb + nf*(4 + 80*nb) <= left without overflowing. */
static int check_sizes(struct rtm_cursor *c, uint32_t nf, uint32_t nb)
{
    uint64_t names = (uint64_t)NAME_FIELD * nb;
    uint64_t frame = 4 + (uint64_t)BONE_BYTES * nb;
    uint64_t left = rtm_cur_left(c);
    if (names > left) {
        rtm_err_set(c->err, c->pos - 4, "header claims %u bones, but the %llu bytes "
                    "left cannot hold their names", nb, (unsigned long long)left);
        return -1;
    }
    if (nf > (left - names) / frame) {
        rtm_err_set(c->err, c->pos - 8, "header claims %u frames of %u bones "
                    "(%llu bytes each), but only %llu bytes follow the names",
                    nf, nb, (unsigned long long)frame,
                    (unsigned long long)(left - names));
        return -1;
    }
    return 0;
}

/* With matrices kept, tallies the unusable and scaled ones (rtm.h).
 * scaled: nbones bytes of scratch. */
static void read_frames(const uint8_t *p, struct rtm_anim *a, uint8_t *scaled)
{
    size_t frame_bytes = 4 + (size_t)BONE_BYTES * a->nbones;
    memset(scaled, 0, a->nbones);
    for (uint32_t f = 0; f < a->nframes; f++, p += frame_bytes) {
        a->phases[f] = le_f32(p);
        float *m = a->matrices + (size_t)f * a->nbones * 12;
        for (uint32_t b = 0; a->depth == RTM_DEPTH_FULL && b < a->nbones; b++, m += 12) {
            memcpy(m, p + 4 + (size_t)b * BONE_BYTES + NAME_FIELD, MATRIX_BYTES);
            enum rtm_matrix_kind k = rtm_matrix_kind(m);
            a->unusable += k == RTM_MATRIX_UNUSABLE;
            scaled[b] |= k == RTM_MATRIX_SCALED;
        }
    }
    for (uint32_t b = 0; b < a->nbones; b++)
        a->scaled_bones += scaled[b];
}

/* What the anim will hold, the source excepted. */
static uint64_t parsed_bytes(uint32_t nf, uint32_t nb, uint32_t nprops, size_t strings, int full)
{
    uint64_t n = sizeof(struct rtm_anim) + (uint64_t)nb * sizeof(struct rtm_str) +
                 (uint64_t)nf * sizeof(float) + (uint64_t)nprops * sizeof(struct rtm_prop) +
                 strings + (uint64_t)nb * RTM_SKEL_BYTES_PER_BONE +
                 rtm_names_bytes_max(nb, (uint64_t)nb * NAME_FIELD) + nb;
    return full ? n + (uint64_t)nf * nb * 12 * sizeof(float) : n;
}

/* What precedes the names: the MDAT block, the signature, the header. */
struct plain_head {
    struct mdat m;
    int has_mdat;
    float motion[3];
    uint32_t nf, nb;
};

/* Reads the head up to the bone names (c->pos is then at them). */
static int read_head(struct rtm_cursor *c, struct plain_head *h)
{
    const uint8_t *data = c->data;
    h->has_mdat = memcmp(data, "RTM_MDAT", 8) == 0;
    if (h->has_mdat && scan_mdat(c, &h->m))
        return -1;
    if (rtm_cur_need(c, 8, "the RTM_0101 signature"))
        return -1;
    if (memcmp(data + c->pos, "RTM_0101", 8) != 0) {
        rtm_err_set(c->err, c->pos, "RTM_MDAT block is not followed by RTM_0101");
        return -1;
    }
    c->pos += 8;
    return rtm_cur_f32(c, &h->motion[0], "the motion vector") ||
                   rtm_cur_f32(c, &h->motion[1], "the motion vector") ||
                   rtm_cur_f32(c, &h->motion[2], "the motion vector") ||
                   rtm_cur_u32(c, &h->nf, "the frame count") ||
                   rtm_cur_u32(c, &h->nb, "the bone count")
               ? -1
               : 0;
}

static size_t string_bytes(const struct plain_head *h)
{
    return (size_t)h->nb * (NAME_FIELD + 1) + (size_t)h->m.string_bytes;
}

/* A new anim of depth with the head's fields and the names at data +
 * names_at; NULL when out of memory. */
static struct rtm_anim *head_anim(const uint8_t *data, const struct plain_head *h,
                                  size_t names_at, enum rtm_depth depth)
{
    struct rtm_anim *a = rtm_anim_alloc(RTM_FORMAT_PLAIN, h->nf, h->nb, h->m.count,
                                        string_bytes(h), depth);
    if (!a)
        return NULL;
    a->has_mdat = h->has_mdat;
    memcpy(a->motion, h->motion, sizeof a->motion);
    read_mdat(data, &h->m, a);
    for (uint32_t b = 0; b < h->nb; b++, names_at += NAME_FIELD)
        a->bones[b] = rtm_anim_str(a, data + names_at, field_len(data + names_at));
    return a;
}

int rtm_read_plain(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                   struct rtm_anim **out, struct rtm_error *err)
{
    struct rtm_cursor c = { data, len, 0, err };
    struct plain_head h = { { 0, 0, 0 }, 0, { 0 }, 0, 0 };
    if (read_head(&c, &h) || check_sizes(&c, h.nf, h.nb))
        return -1;
    uint32_t nf = h.nf, nb = h.nb;
    int full = !(o->flags & RTM_PARSE_NO_MATRICES), adopt = full && o->give_source;
    uint64_t copy = o->give_source ? 0 : len;
    uint64_t need = parsed_bytes(nf, nb, h.m.count, string_bytes(&h), full) + (full ? copy : 0);
    if (rtm_reserve(o, need, parsed_bytes(nf, nb, h.m.count, string_bytes(&h), 1) + copy, err))
        return -1;
    struct rtm_anim *a = head_anim(data, &h, c.pos, full ? RTM_DEPTH_FULL : RTM_DEPTH_LIGHT);
    uint8_t *source = !full ? NULL : adopt ? (uint8_t *)data : malloc(len ? len : 1);
    uint8_t *scaled = malloc(nb ? nb : 1);
    if (!a || (full && !source) || !scaled) {
        if (!adopt)
            free(source);               /* an adopted source is still the caller's */
        free(scaled);
        rtm_free(a);
        rtm_err_oom(err, "out of memory for %u frames of %u bones", nf, nb);
        return -1;
    }
    if (full && !adopt)
        memcpy(source, data, len);
    a->source = source;
    a->source_bytes = len;
    c.pos += (size_t)NAME_FIELD * nb;
    read_frames(data + c.pos, a, scaled);
    free(scaled);
    c.pos += (size_t)nf * (4 + (size_t)BONE_BYTES * nb);
    a->trailing_bytes = rtm_cur_left(&c);
    *out = a;
    return 0;
}

int rtm_head_plain(const uint8_t *data, size_t len, uint64_t file_size,
                   const struct rtm_parse_opts *o, struct rtm_anim **out, uint64_t *need,
                   struct rtm_error *err)
{
    struct rtm_cursor c = { data, len, 0, err };
    struct plain_head h = { { 0, 0, 0 }, 0, { 0 }, 0, 0 };
    if (read_head(&c, &h))
        return len < file_size ? RTM_PARSE_NEED_MORE : -1;
    /* the counts against the whole file, whose bytes past len are not read */
    struct rtm_cursor whole = { data, file_size > SIZE_MAX ? SIZE_MAX : (size_t)file_size,
                                c.pos, err };
    if (check_sizes(&whole, h.nf, h.nb))
        return -1;
    uint64_t names_end = c.pos + (uint64_t)NAME_FIELD * h.nb;
    if (names_end > len) {
        *need = names_end;
        return RTM_PARSE_NEED_MORE;
    }
    /* refused when a full load (the file's bytes, then the parse) never fits */
    if (rtm_reserve(o, parsed_bytes(h.nf, h.nb, h.m.count, string_bytes(&h), 0),
                    parsed_bytes(h.nf, h.nb, h.m.count, string_bytes(&h), 1) + file_size, err))
        return -1;
    /* the frames are not read: phases stay 0, so this is only a shape */
    struct rtm_anim *a = head_anim(data, &h, c.pos, RTM_DEPTH_SHAPE);
    if (!a) {
        rtm_err_oom(err, "out of memory for %u bones", h.nb);
        return -1;
    }
    a->source_bytes = file_size;
    *out = a;
    return 0;
}

/* ---- writer ---------------------------------------------------------- */

static void put_lascii(struct rtm_buf *out, struct rtm_str s)
{
    uint8_t n = s.len > 255 ? 255 : (uint8_t)s.len;
    rtm_buf_putc(out, (char)n);
    rtm_buf_put(out, s.s, n);
}

static int write_mdat(const struct rtm_anim *a, struct rtm_buf *out)
{
    uint32_t *k = rtm_prop_order(a);
    if (!k)
        return -1;
    rtm_buf_put(out, "RTM_MDAT", 8);
    rtm_buf_put_u32(out, 0);
    rtm_buf_put_u32(out, a->nprops);
    for (uint32_t i = 0; i < a->nprops; i++) {
        const struct rtm_prop *p = &a->props[k[i]];
        rtm_buf_put_f32(out, p->phase);
        put_lascii(out, p->name);
        put_lascii(out, p->value);
    }
    free(k);
    return 0;
}

/* The bones a writer puts, in the order it puts them: bone[i] of the anim
 * named name[i] (bone NULL: every bone; name NULL: the anim's names). */
struct pick {
    uint32_t n;
    const uint32_t *bone;
    const struct rtm_str *name;
    rtm_plain_frame_fn make;    /* NULL: the matrices are the anim's */
    void *make_ctx;
};

static uint32_t picked(const struct pick *p, uint32_t i)
{
    return p->bone ? p->bone[i] : i;
}

static struct rtm_str picked_name(const struct rtm_anim *a, const struct pick *p, uint32_t i)
{
    return p->name ? p->name[i] : a->bones[picked(p, i)];
}

/* The bones' names as the frames repeat them: p->n fields of 32 bytes,
 * NUL-padded; NULL when out of memory. */
static uint8_t *name_fields(const struct rtm_anim *a, const struct pick *p)
{
    uint8_t *f = calloc(p->n ? p->n : 1, NAME_FIELD);
    for (uint32_t b = 0; f && b < p->n; b++) {
        struct rtm_str s = picked_name(a, p, b);
        memcpy(f + (size_t)b * NAME_FIELD, s.s, s.len < NAME_FIELD ? s.len : NAME_FIELD);
    }
    return f;
}

/* Frame f in place at the end of out (frame_bytes reserved there). */
static void put_frame(const struct rtm_anim *a, const struct pick *p, uint32_t f,
                      const uint8_t *names, struct rtm_buf *out)
{
    char *o = out->p + out->len;
    memcpy(o, &a->phases[f], 4);
    o += 4;
    for (uint32_t b = 0; b < p->n; b++) {
        memcpy(o + (size_t)b * BONE_BYTES, names + (size_t)b * NAME_FIELD, NAME_FIELD);
        if (!p->make)
            memcpy(o + (size_t)b * BONE_BYTES + NAME_FIELD, rtm_matrix(a, f, picked(p, b)),
                   MATRIX_BYTES);
    }
    if (p->make)        /* every bone, in place between the names */
        p->make(p->make_ctx, f, (uint8_t *)o + NAME_FIELD, BONE_BYTES);
    out->len += 4 + (size_t)BONE_BYTES * p->n;
}

/* The head and the frames after the MDAT block, handing out to flush
 * whenever it holds chunk bytes or more (flush NULL: never).  A frame at a
 * time is reserved, so that a counting buffer holds one frame, not the
 * file; a plain buffer is sized whole first, for one allocation. */
static int write_frames(const struct rtm_anim *a, const struct pick *p, const uint32_t *order,
                        const uint8_t *names, struct rtm_buf *out, size_t chunk,
                        rtm_plain_flush_fn flush, void *ctx)
{
    size_t frame_bytes = 4 + (size_t)BONE_BYTES * p->n;
    uint64_t total = 28 + (uint64_t)NAME_FIELD * p->n + (uint64_t)a->nframes * frame_bytes;
    if (!flush && !out->window && (total > SIZE_MAX || rtm_buf_reserve(out, (size_t)total)))
        return -1;
    rtm_buf_put(out, "RTM_0101", 8);
    rtm_buf_put(out, a->motion, sizeof a->motion);
    rtm_buf_put_u32(out, a->nframes);
    rtm_buf_put_u32(out, p->n);
    rtm_buf_put(out, names, (size_t)NAME_FIELD * p->n);
    for (uint32_t i = 0; i < a->nframes; i++) {
        if (rtm_buf_reserve(out, frame_bytes))
            return -1;
        put_frame(a, p, order[i], names, out);
        if (flush && out->len >= chunk && flush(ctx, out))
            return -1;
    }
    return out->oom || (flush && out->len && flush(ctx, out)) ? -1 : 0;
}

static int write_picked(const struct rtm_anim *a, const struct pick *p, struct rtm_buf *out,
                        size_t chunk, rtm_plain_flush_fn flush, void *ctx)
{
    if (a->nprops && write_mdat(a, out))
        return -1;
    uint32_t *order = rtm_phase_order(a);
    uint8_t *names = order ? name_fields(a, p) : NULL;
    int rc = names ? write_frames(a, p, order, names, out, chunk, flush, ctx) : -1;
    free(order);
    free(names);
    return rc;
}

int rtm_write_plain_each(const struct rtm_anim *a, struct rtm_buf *out, size_t chunk,
                         rtm_plain_flush_fn flush, void *ctx)
{
    struct pick all = { a->nbones, NULL, NULL, NULL, NULL };
    return write_picked(a, &all, out, chunk, flush, ctx);
}

int rtm_write_plain_made(const struct rtm_anim *a, rtm_plain_frame_fn make, void *make_ctx,
                         struct rtm_buf *out, size_t chunk, rtm_plain_flush_fn flush, void *ctx)
{
    struct pick all = { a->nbones, NULL, NULL, make, make_ctx };
    return write_picked(a, &all, out, chunk, flush, ctx);
}

int rtm_write_plain(const struct rtm_anim *a, struct rtm_buf *out)
{
    return rtm_write_plain_each(a, out, SIZE_MAX, NULL, NULL);
}

/* ---- some bones of a plain file, from its own bytes ---- */

/* A 32-byte field for bone i of the pick: the source's own (at field)
 * when the name is the file's, so that a bone kept as it is keeps every
 * byte; else the new name, NUL-padded. */
static void put_field(const struct rtm_anim *a, const struct pick *p, uint32_t i,
                      const uint8_t *field, struct rtm_buf *out)
{
    struct rtm_str s = picked_name(a, p, i), own = a->bones[picked(p, i)];
    if (s.len == own.len && memcmp(s.s, own.s, s.len) == 0) {
        rtm_buf_put(out, field, NAME_FIELD);
        return;
    }
    char f[NAME_FIELD] = { 0 };
    memcpy(f, s.s, s.len < NAME_FIELD ? s.len : NAME_FIELD);
    rtm_buf_put(out, f, NAME_FIELD);
}

/* The source with only the picked bones: its MDAT block, header, frames
 * in file order and trailing bytes as they are, the count, names and
 * bones of each frame as picked. */
static int copy_picked(const struct rtm_anim *a, const struct pick *p, struct rtm_buf *out)
{
    uint64_t frame_bytes = 4 + (uint64_t)BONE_BYTES * a->nbones;
    uint64_t body = 28 + (uint64_t)NAME_FIELD * a->nbones + a->nframes * frame_bytes;
    if (a->source_bytes < body + a->trailing_bytes)
        return -1;                          /* cannot happen: the parse measured it */
    const uint8_t *src = a->source, *head = src + (a->source_bytes - a->trailing_bytes - body);
    uint64_t keep = 28 + (uint64_t)NAME_FIELD * p->n +
                    a->nframes * (4 + (uint64_t)BONE_BYTES * p->n);
    uint64_t total = (uint64_t)(head - src) + keep + a->trailing_bytes;
    if (!out->window && (total > SIZE_MAX || rtm_buf_reserve(out, (size_t)total)))
        return -1;
    rtm_buf_put(out, src, (size_t)(head - src) + 24);       /* MDAT, RTM_0101, motion, frames */
    rtm_buf_put_u32(out, p->n);
    const uint8_t *names = head + 28, *frame = names + (size_t)NAME_FIELD * a->nbones;
    for (uint32_t i = 0; i < p->n; i++)
        put_field(a, p, i, names + (size_t)picked(p, i) * NAME_FIELD, out);
    for (uint32_t f = 0; f < a->nframes; f++, frame += frame_bytes) {
        rtm_buf_put(out, frame, 4);
        for (uint32_t i = 0; i < p->n; i++) {
            const uint8_t *bone = frame + 4 + (size_t)picked(p, i) * BONE_BYTES;
            put_field(a, p, i, bone, out);
            rtm_buf_put(out, bone + NAME_FIELD, MATRIX_BYTES);
        }
    }
    rtm_buf_put(out, src + a->source_bytes - a->trailing_bytes, (size_t)a->trailing_bytes);
    return out->oom ? -1 : 0;
}

int rtm_write_plain_bones(const struct rtm_anim *a, const uint32_t *bone,
                          const struct rtm_str *name, uint32_t n, struct rtm_buf *out)
{
    struct pick p = { n, bone, name, NULL, NULL };
    if (a->format == RTM_FORMAT_PLAIN && a->source)
        return copy_picked(a, &p, out);
    return write_picked(a, &p, out, SIZE_MAX, NULL, NULL);
}
