/* damaged_rtm.c - damaged animations (damaged.h, damaged_int.h): a sample
 * is mapped into its parts by walking the bytes its writer laid out, then
 * cut, flipped or rewritten in one of them; and classified by the parser
 * itself. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "damaged_int.h"
#include "lzo.h"
#include "rtm.h"
#include "samples.h"

/* The kinds of part a cut or a flip hits. */
enum part_cls { P_MDAT, P_HEADER, P_NAMES, P_PROPS, P_TIMES, P_MATRICES, P_SIZES, P_ARRAY, P_LZO,
                P_CLASSES };
static const char *const CLS_NAME[P_CLASSES] = {
    "the RTM_MDAT block", "the header", "the bone names", "the properties", "a frame time",
    "a frame's matrices", "an array's size", "an array", "an LZO stream",
};

enum { MAX_PARTS = 4 + 2 * 1100 };
struct part {
    enum part_cls cls;
    int frame;                  /* -1: none; 0 for the phases array, else frame + 1 */
    size_t start, end;
};
struct layout {
    int bmtr, version, has_mdat;
    size_t header;              /* where RTM_0101 or BMTR begins */
    size_t nparts;
    struct part part[MAX_PARTS];
};

static uint32_t get_u32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static void set_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> 8 * i);
}

static void add(struct layout *l, enum part_cls cls, int frame, size_t start, size_t end)
{
    if (l->nparts < MAX_PARTS && end > start)
        l->part[l->nparts++] = (struct part){ cls, frame, start, end };
}

/* The end of the asciiz string at pos (len when it has none). */
static size_t asciiz_end(const uint8_t *p, size_t len, size_t pos)
{
    const uint8_t *z = pos < len ? memchr(p + pos, 0, len - pos) : NULL;
    return z ? (size_t)(z - p) + 1 : len;
}

static void map_plain(const uint8_t *p, size_t len, struct layout *l)
{
    size_t h = 0;
    if (len >= 16 && !memcmp(p, "RTM_MDAT", 8)) {
        uint32_t n = get_u32(p + 12);
        h = 16;
        for (uint32_t i = 0; i < n && h + 6 <= len; i++) {
            h += 4;
            h += 1 + p[h];
            h += h < len ? 1 + p[h] : 0;
        }
        h = h < len ? h : len;
        l->has_mdat = 1;
        add(l, P_MDAT, -1, 0, h);
    }
    l->header = h;
    if (h + 28 > len)
        return;
    uint32_t nf = get_u32(p + h + 20), nb = get_u32(p + h + 24);
    add(l, P_HEADER, -1, h, h + 28);
    size_t pos = h + 28 + (size_t)32 * nb;
    add(l, P_NAMES, -1, h + 28, pos < len ? pos : len);
    for (uint32_t f = 0; f < nf && pos + 4 + (size_t)80 * nb <= len; f++) {
        add(l, P_TIMES, (int)f + 1, pos, pos + 4);
        add(l, P_MATRICES, (int)f + 1, pos + 4, pos + 4 + (size_t)80 * nb);
        pos += 4 + (size_t)80 * nb;
    }
}

/* Past the v4+ metadata and properties; len when they run off the end. */
static size_t skip_props(const uint8_t *p, size_t len, size_t pos)
{
    if (pos + 4 > len)
        return len;
    uint32_t nmeta = get_u32(p + pos);
    pos += 4;
    for (uint32_t i = 0; i < nmeta && pos < len; i++)
        pos = asciiz_end(p, len, pos);
    if (pos + 4 > len)
        return len;
    uint32_t nprops = get_u32(p + pos);
    pos += 4;
    for (uint32_t i = 0; i < nprops && pos < len; i++)
        pos = asciiz_end(p, len, asciiz_end(p, len, pos + 4) + 4);
    return pos;
}

/* The arrays as rtm_write_bmtr() lays them out: the phases, then a frame
 * each; a count, a flag byte (v5), then the bytes raw or an LZO stream. */
static int map_arrays(const uint8_t *p, size_t len, size_t pos, struct layout *l)
{
    uint32_t nf = get_u32(p + 21), nb = get_u32(p + 29);
    size_t most = (size_t)nb * 14 > (size_t)nf * 4 ? (size_t)nb * 14 : (size_t)nf * 4;
    uint8_t *tmp = malloc(most ? most : 1);
    if (!tmp)
        return -1;
    for (uint32_t a = 0; a <= nf && pos + 4 <= len; a++) {
        uint32_t count = get_u32(p + pos);
        size_t size = (size_t)count * (a ? 14 : 4), at = pos;
        int lzo = size >= 1024;
        pos += 4;
        if (l->version >= 5 && size > 0 && pos < len)
            lzo = p[pos++] == 2;
        add(l, P_SIZES, (int)a, at, pos);
        size_t used = size;
        if (lzo && (size > most || rtm_lzo_decode(p + pos, len - pos, tmp, size, &used)))
            break;
        if (pos + used > len)
            break;
        add(l, lzo ? P_LZO : P_ARRAY, (int)a, pos, pos + used);
        pos += used;
    }
    free(tmp);
    return 0;
}

static int map_bmtr(const uint8_t *p, size_t len, struct layout *l)
{
    l->bmtr = 1;
    if (len < 37)
        return 0;
    l->version = (int)get_u32(p + 4);
    add(l, P_HEADER, -1, 0, 37);
    size_t pos = 37;
    for (uint32_t i = 0, nb = get_u32(p + 29); i < nb && pos < len; i++)
        pos = asciiz_end(p, len, pos);
    add(l, P_NAMES, -1, 37, pos);
    if (l->version >= 4) {
        size_t end = skip_props(p, len, pos);
        add(l, P_PROPS, -1, pos, end);
        pos = end;
    }
    return map_arrays(p, len, pos, l);
}

static int map_parts(const uint8_t *p, size_t len, struct layout *l)
{
    memset(l, 0, offsetof(struct layout, part));
    return len >= 4 && !memcmp(p, "BMTR", 4) ? map_bmtr(p, len, l) : (map_plain(p, len, l), 0);
}

/* "frame 3's LZO stream (bytes 120-300)" */
static void part_name(const struct part *t, char *out, size_t n)
{
    if (t->frame < 0)
        snprintf(out, n, "%s (bytes %zu-%zu)", CLS_NAME[t->cls], t->start, t->end);
    else if (t->frame == 0 && t->cls >= P_SIZES)
        snprintf(out, n, "%s of the phases (bytes %zu-%zu)", CLS_NAME[t->cls], t->start, t->end);
    else
        snprintf(out, n, "%s of frame %d (bytes %zu-%zu)", CLS_NAME[t->cls], t->frame - 1, t->start,
                 t->end);
}

/* A part (r-th, wrapped) of the hint-th class present, so that a count
 * given as hint hits each class in turn; only >= 0: of that class alone. */
static const struct part *pick(const struct layout *l, unsigned hint, uint64_t r, int only)
{
    unsigned have[P_CLASSES] = { 0 }, classes = 0, want;
    for (size_t i = 0; i < l->nparts; i++)
        if (only < 0 || (int)l->part[i].cls == only)
            classes += !have[l->part[i].cls]++;
    if (!classes)
        return NULL;
    want = hint % classes;
    for (int c = 0; c < P_CLASSES; c++) {
        if (!have[c] || want--)
            continue;
        unsigned k = (unsigned)(r % have[c]);
        for (size_t i = 0; i < l->nparts; i++)
            if (l->part[i].cls == (enum part_cls)c && !k--)
                return &l->part[i];
    }
    return NULL;
}

static void cut(struct dmg_gen *g, const struct layout *l, unsigned hint, struct rtm_buf *b,
                char *what, size_t n)
{
    const struct part *t = pick(l, hint, rng_next(&g->rng), -1);
    char where[96];
    size_t at = t ? t->start + rng_next(&g->rng) % (t->end - t->start) : b->len / 2;
    if (t)
        part_name(t, where, sizeof where);
    else
        snprintf(where, sizeof where, "the middle");
    snprintf(what, n, "cut: at byte %zu of %zu, %s %s", at, b->len, t && at == t->start ? "where begins" : "in",
             where);
    b->len = at;
}

static void flip(struct dmg_gen *g, const struct layout *l, unsigned hint, struct rtm_buf *b,
                 char *what, size_t n)
{
    const struct part *t = pick(l, hint, rng_next(&g->rng), -1);
    unsigned k = rng_range(&g->rng, 1, 4);
    size_t lo = t ? t->start : 0, span = t ? t->end - t->start : b->len;
    char where[96];
    if (t)
        part_name(t, where, sizeof where);
    else
        snprintf(where, sizeof where, "the file");
    int w = snprintf(what, n, "flip: %u byte(s) in %s, at", k, where);
    for (unsigned i = 0; i < k && span; i++) {
        size_t at = lo + rng_next(&g->rng) % span;
        b->p[at] ^= (char)rng_range(&g->rng, 1, 255);
        if (w > 0 && (size_t)w < n)
            w += snprintf(what + w, n - (size_t)w, " %zu", at);
    }
}

/* A count rewritten: one more or less, none, double, huge, or any. */
static uint32_t new_count(struct dmg_gen *g, uint32_t old)
{
    switch (rng_range(&g->rng, 0, 6)) {
    case 0: return old + 1;
    case 1: return old - 1;
    case 2: return 0;
    case 3: return old * 2 + 1;
    case 4: return 0xffffffffu;
    case 5: return 0x7fffffffu;
    default: return (uint32_t)rng_next(&g->rng);
    }
}

static void rewrite(struct dmg_gen *g, struct rtm_buf *b, size_t at, const char *tag,
                    const char *field, char *what, size_t n)
{
    uint8_t *p = (uint8_t *)b->p;
    uint32_t old = get_u32(p + at), v = new_count(g, old);
    v = v == old ? old + 1 : v;
    set_u32(p + at, v);
    snprintf(what, n, "%s: %s %u rewritten to %u (byte %zu)", tag, field, old, v, at);
}

/* LZO broken: its end marker overwritten, a byte of its first half
 * changed, bytes taken out of it, or its flag byte (v5) changed. */
static void break_lzo(struct dmg_gen *g, const struct part *t, int flagged, struct rtm_buf *b,
                      char *what, size_t n)
{
    char where[96];
    uint8_t *p = (uint8_t *)b->p;
    size_t span = t->end - t->start;
    part_name(t, where, sizeof where);
    switch (rng_range(&g->rng, 0, flagged ? 3 : 2)) {
    case 0:
        memset(p + t->end - 3, 0xff, 3);
        snprintf(what, n, "lzo: the end marker of %s overwritten", where);
        break;
    case 1: {
        size_t at = t->start + rng_next(&g->rng) % (span / 2 + 1);
        p[at] = (uint8_t)rng_next(&g->rng);
        snprintf(what, n, "lzo: byte %zu of %s set to %u", at, where, p[at]);
        break;
    }
    case 2: {
        size_t at = t->start + rng_next(&g->rng) % span, k = rng_range(&g->rng, 1, 16);
        k = k > t->end - at ? t->end - at : k;
        memmove(p + at, p + at + k, b->len - at - k);
        b->len -= k;
        snprintf(what, n, "lzo: %zu byte(s) taken out of %s at %zu", k, where, at);
        break;
    }
    default:
        p[t->start - 1] = (uint8_t)(p[t->start - 1] == 2 ? rng_range(&g->rng, 0, 1) * 3 : 2);
        snprintf(what, n, "lzo: the flag byte before %s set to %u", where, p[t->start - 1]);
        break;
    }
}

/* A v5 array stored raw whose flag byte now says LZO. */
static void raw_as_lzo(const struct part *t, struct rtm_buf *b, char *what, size_t n)
{
    char where[96];
    part_name(t, where, sizeof where);
    b->p[t->start - 1] = 2;
    snprintf(what, n, "lzo: the flag byte before %s set to 2 (LZO)", where);
}

int dmg_animation(struct dmg_gen *g, enum dmg_op op, unsigned hint, struct rtm_buf *b,
                  char *what, size_t n)
{
    struct layout *l = malloc(sizeof *l);
    if (!l || map_parts((const uint8_t *)b->p, b->len, l)) {
        free(l);
        return -1;
    }
    size_t h = l->header;
    uint64_t r = rng_next(&g->rng);
    const struct part *lzo = pick(l, 0, r, P_LZO), *raw = pick(l, 0, r, P_ARRAY),
                      *size = pick(l, 0, r, P_SIZES);
    if (op == OP_LZO && !lzo && !(raw && l->version >= 5))
        op = OP_CUT;                    /* no LZO and no flag byte: cut instead */
    if (op == OP_ARRAY && !size && !l->has_mdat)
        op = OP_FRAMES;
    if ((op == OP_FRAMES || op == OP_BONES) && (l->bmtr ? b->len < 37 : h + 28 > b->len))
        op = OP_CUT;                    /* no whole header to rewrite */
    if (op == OP_CUT)
        cut(g, l, hint, b, what, n);
    else if (op == OP_FLIP)
        flip(g, l, hint, b, what, n);
    else if (op == OP_FRAMES)
        rewrite(g, b, l->bmtr ? 21 : h + 20, "frames", "the frame count", what, n);
    else if (op == OP_BONES)
        rewrite(g, b, l->bmtr ? (hint & 1 ? 33 : 29) : h + 24, "bones", "the bone count", what, n);
    else if (op == OP_ARRAY && size)
        rewrite(g, b, size->start, "array", size->frame ? "a frame's transform count" : "the phase count",
                what, n);
    else if (op == OP_ARRAY)
        rewrite(g, b, 12, "array", "the RTM_MDAT property count", what, n);
    else if (lzo)
        break_lzo(g, lzo, l->version >= 5, b, what, n);
    else
        raw_as_lzo(raw, b, what, n);
    free(l);
    return 0;
}

int dmg_sample(struct dmg_gen *g, enum dmg_fmt fmt, struct rtm_buf *b, char *desc, size_t n)
{
    static const char *const NAME[F_FMTS] = { "plain", "plain+MDAT", "v3", "v4", "v5 raw", "v5 lzo" };
    static const struct damaged_mix SMALL[] = { { 5, 41, 67 }, { 0, 2, 67 }, { 3, 2, 128 },
                                                { 4, 30, 67 }, { 5, 10, 67 }, { 0, 39, 72 } };
    const struct damaged_mix *mix = g->mix ? g->mix : SMALL;
    struct damaged_mix d = mix[rng_next(&g->rng) % (g->mix ? g->nmix : sizeof SMALL / sizeof *SMALL)];
    if (fmt == F_FMTS)
        fmt = d.version == 0 ? (rng_next(&g->rng) % 3 ? F_PLAIN : F_MDAT)
            : d.version == 3 ? F_V3 : d.version == 4 ? F_V4
            : rng_next(&g->rng) % 4 ? F_V5_LZO : F_V5_RAW;
    struct sample_opts o = { d.frames > g->max_frames ? g->max_frames : d.frames ? d.frames : 1,
                             d.bones ? d.bones : 1, (uint32_t)rng_next(&g->rng),
                             fmt == F_MDAT || fmt == F_V4 ? rng_range(&g->rng, 1, 4) : 0 };
    snprintf(desc, n, "%s, %u frames, %u bones", NAME[fmt], o.nframes, o.nbones);
    switch (fmt) {
    case F_PLAIN:
    case F_MDAT: return rtm_sample_plain(&o, b);
    case F_V3: return rtm_sample_bmtr(&o, 3, BMTR_COMPRESS_AUTO, b);
    case F_V4: return rtm_sample_bmtr(&o, 4, BMTR_COMPRESS_AUTO, b);
    case F_V5_RAW: return rtm_sample_bmtr(&o, 5, BMTR_COMPRESS_NONE, b);
    default: return rtm_sample_bmtr(&o, 5, BMTR_COMPRESS_ALL, b);
    }
}

enum damaged_kind dmg_classify(const struct dmg_gen *g, const uint8_t *p, size_t len, char *why,
                               size_t n)
{
    struct rtm_parse_opts o = { .skel = g->skel };
    struct rtm_anim *a = NULL;
    struct rtm_error err;
    uint64_t need = 0;
    enum damaged_kind k = DMG_PARSES;
    memset(&err, 0, sizeof err);
    why[0] = 0;
    if (rtm_parse_head(p, len, len, &o, &a, &need, &err) != 0)
        k = DMG_HEAD_FAILS;
    rtm_free(a);
    a = NULL;
    if (k == DMG_PARSES && rtm_parse_opts(p, len, &o, &a, &err))
        k = DMG_FULL_FAILS;
    rtm_free(a);
    if (k != DMG_PARSES)
        rtm_err_format(&err, why, n);
    return k;
}
