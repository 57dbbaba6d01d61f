/* bmtr.c - the binarised RTM reader (rtm(5), BMTR).
 *
 * The layout has two open questions the file itself cannot answer up front:
 * whether v4 arrays carry a compression flag byte, and whether an empty
 * array carries one.  Each reading is tried in the order that rtm(5),
 * BMTR readings, gives; the first that walks the file exactly to its end
 * wins, and when none does the error of the preferred reading is reported.
 */
#include "array.h"
#include "convert.h"
#include "formats.h"
#include "lzo.h"
#include "motion.h"
#include "names.h"

#include <stdio.h>
#include <stdlib.h>

enum { NAME_MAX_BYTES = 1024, LZO_MAX_RATIO = 256, LZO_SLACK = 64 };

struct reading {
    int flag_bytes;     /* a flag byte in front of each non-empty array */
    int empty_flag;     /* ... and in front of empty arrays too */
};

struct bmtr_head {
    uint32_t version, nframes, preload, nbones, nmeta, nprops;
    uint8_t byte8;
    float motion[3];
    size_t names_at, props_at, arrays_at;
    size_t string_bytes;
};

static int read_header(struct rtm_cursor *c, struct bmtr_head *h)
{
    uint32_t nb2;
    c->pos = 4;
    if (rtm_cur_u32(c, &h->version, "the BMTR version"))
        return -1;
    if (h->version < 3 || h->version > 5) {
        rtm_err_set(c->err, 4, "unsupported BMTR version %u (known: 3, 4, 5)", h->version);
        return -1;
    }
    if (rtm_cur_u8(c, &h->byte8, "the BMTR header") ||
        rtm_cur_f32(c, &h->motion[0], "the motion vector") ||
        rtm_cur_f32(c, &h->motion[1], "the motion vector") ||
        rtm_cur_f32(c, &h->motion[2], "the motion vector") ||
        rtm_cur_u32(c, &h->nframes, "the frame count") ||
        rtm_cur_u32(c, &h->preload, "the BMTR header") ||
        rtm_cur_u32(c, &h->nbones, "the bone count") || rtm_cur_u32(c, &nb2, "the bone count"))
        return -1;
    if (h->nbones != nb2) {
        rtm_err_set(c->err, 33, "the two bone counts differ (%u and %u)", h->nbones, nb2);
        return -1;
    }
    if (h->nbones > rtm_cur_left(c)) {
        rtm_err_set(c->err, 29, "header claims %u bones, more names than the %zu "
                    "bytes left can hold", h->nbones, rtm_cur_left(c));
        return -1;
    }
    return 0;
}

static int skip_strings(struct rtm_cursor *c, uint32_t n, const char *what, size_t *bytes)
{
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *s;
        uint32_t len;
        if (rtm_cur_asciiz(c, &s, &len, NAME_MAX_BYTES, what))
            return -1;
        *bytes += (size_t)len + 1;
    }
    return 0;
}

/* v4+: metadata strings, then keystones (i32 type, asciiz, f32, asciiz). */
static int read_props_block(struct rtm_cursor *c, struct bmtr_head *h)
{
    size_t meta_bytes = 0;
    if (rtm_cur_u32(c, &h->nmeta, "the metadata count"))
        return -1;
    if (h->nmeta > rtm_cur_left(c)) {
        rtm_err_set(c->err, c->pos - 4, "metadata count %u is larger than the %zu "
                    "bytes left", h->nmeta, rtm_cur_left(c));
        return -1;
    }
    if (skip_strings(c, h->nmeta, "a metadata string", &meta_bytes) ||
        rtm_cur_u32(c, &h->nprops, "the property count"))
        return -1;
    if ((uint64_t)h->nprops * 10 > rtm_cur_left(c)) {
        rtm_err_set(c->err, c->pos - 4, "property count %u is larger than the %zu "
                    "bytes left can hold", h->nprops, rtm_cur_left(c));
        return -1;
    }
    h->props_at = c->pos;
    for (uint32_t i = 0; i < h->nprops; i++) {
        if (rtm_cur_need(c, 4, "a property type") )
            return -1;
        c->pos += 4;
        if (skip_strings(c, 1, "a property name", &h->string_bytes) ||
            rtm_cur_need(c, 4, "a property phase"))
            return -1;
        c->pos += 4;
        if (skip_strings(c, 1, "a property value", &h->string_bytes))
            return -1;
    }
    return 0;
}

static int scan_layout(struct rtm_cursor *c, struct bmtr_head *h)
{
    if (read_header(c, h))
        return -1;
    h->names_at = c->pos;
    if (skip_strings(c, h->nbones, "a bone name", &h->string_bytes))
        return -1;
    if (h->version >= 4 && read_props_block(c, h))
        return -1;
    h->arrays_at = c->pos;
    return 0;
}

static void fill_strings(const uint8_t *data, const struct bmtr_head *h, struct rtm_anim *a)
{
    const uint8_t *p = data + h->names_at;
    for (uint32_t b = 0; b < h->nbones; b++) {
        uint32_t len = (uint32_t)strlen((const char *)p);
        a->bones[b] = rtm_anim_str(a, p, len);
        p += len + 1;
    }
    p = data + h->props_at;
    for (uint32_t i = 0; i < h->nprops; i++) {
        struct rtm_prop *pr = &a->props[i];
        memcpy(&pr->type_id, p, 4);
        p += 4;
        uint32_t len = (uint32_t)strlen((const char *)p);
        pr->name = rtm_anim_str(a, p, len);
        p += len + 1;
        pr->phase = le_f32(p);
        p += 4;
        len = (uint32_t)strlen((const char *)p);
        pr->value = rtm_anim_str(a, p, len);
        p += len + 1;
    }
}

/* Where one compressed array (rtm(5), BMTR arrays) lies: its bytes once
 * decoded, and whether LZO holds them. */
struct array_at {
    size_t at;          /* its count's offset, for messages */
    uint64_t size;
    int lzo;
};

/* The head of an array of exactly expect elements of elem bytes: its
 * count and flag are read and its size checked against the bytes left. */
static int array_head(struct rtm_cursor *c, const struct bmtr_head *h,
                      const struct reading *rd, uint32_t expect, size_t elem,
                      struct array_at *a, const char *what)
{
    uint32_t count;
    a->at = c->pos;
    if (rtm_cur_u32(c, &count, what))
        return -1;
    if (count != expect) {
        rtm_err_set(c->err, a->at, "%s holds %u entries, expected %u", what, count, expect);
        return -1;
    }
    a->size = (uint64_t)count * elem;
    if (h->version >= 5 || rd->flag_bytes) {
        uint8_t flag = 0;
        if ((a->size > 0 || rd->empty_flag) && rtm_cur_u8(c, &flag, what))
            return -1;
        a->lzo = flag != 0 && a->size > 0;
    } else {
        a->lzo = a->size >= 1024;
    }
    uint64_t limit = a->lzo ? (uint64_t)rtm_cur_left(c) * LZO_MAX_RATIO + LZO_SLACK
                            : rtm_cur_left(c);
    if (a->size > limit) {
        rtm_err_set(c->err, a->at, "%s of %u entries (%llu bytes) cannot fit in the "
                    "%zu bytes left", what, count, (unsigned long long)a->size,
                    rtm_cur_left(c));
        return -1;
    }
    return 0;
}

/* The array's bytes into dst, room for a->size of them. */
static int array_body(struct rtm_cursor *c, const struct array_at *a, uint8_t *dst,
                      const char *what)
{
    if (!a->lzo) {
        if (a->size) /* dst may be NULL for an empty array */
            memcpy(dst, c->data + c->pos, a->size);
        c->pos += a->size;
        return 0;
    }
    size_t used = 0;
    int rc = rtm_lzo_decode(c->data + c->pos, rtm_cur_left(c), dst, a->size, &used);
    if (rc) {
        rtm_err_set(c->err, c->pos, "%s: %s", what, rtm_lzo_strerror(rc));
        return -1;
    }
    c->pos += used;
    return 0;
}

/* One array decoded into *buf (grown as needed, owned by the caller). */
static int read_array(struct rtm_cursor *c, const struct bmtr_head *h,
                      const struct reading *rd, uint32_t expect, size_t elem,
                      uint8_t **buf, size_t *cap, const char *what)
{
    struct array_at a;
    if (array_head(c, h, rd, expect, elem, &a, what))
        return -1;
    if (a.size > *cap) {
        uint8_t *nb = realloc(*buf, a.size);
        if (!nb) {
            rtm_err_oom(c->err, "out of memory for %s", what);
            return -1;
        }
        *buf = nb;
        *cap = a.size;
    }
    return array_body(c, &a, *buf, what);
}

struct attempt {
    float *phases;
    float *matrices;       /* grows frame by frame: memory follows decoded data */
    size_t mat_frames_cap;
    uint8_t *scratch;
    size_t scratch_cap;
    uint8_t *raw;          /* with keep_raw, every frame's transforms, grown */
    size_t raw_frames_cap; /* as matrices is */
    int keep_raw;          /* the transforms are kept, not converted */
    int keep;              /* matrices are kept (no RTM_PARSE_NO_MATRICES) */
    double *abs;
    uint64_t unusable;     /* matrices not usable (motion.h) */
    uint8_t *scaled;       /* per bone: a usable matrix was not a rotation */
};

static void attempt_free(struct attempt *t)
{
    free(t->phases);
    free(t->matrices);
    free(t->scratch);
    free(t->raw);
    free(t->abs);
    free(t->scaled);
    memset(t, 0, sizeof *t);
}

/* Room for frame's matrices: frames double, up to nframes (with no bones
 * the block is one byte, never NULL). */
static int grow_matrices(struct attempt *t, uint32_t frame, uint32_t nframes,
                         uint32_t nbones, struct rtm_error *err)
{
    void *m = t->matrices;
    if (rtm_array_grow_max(&m, &t->mat_frames_cap, (size_t)frame + 1,
                           (size_t)nbones * 12 * sizeof(float), 1, nframes)) {
        rtm_err_oom(err, "out of memory at frame %u", frame);
        return -1;
    }
    t->matrices = m;
    return 0;
}

/* "frame N" for error messages; snprintf would cost more than the frame. */
static void frame_label(char out[24], uint32_t f)
{
    char digits[12];
    int n = 0;
    do
        digits[n++] = (char)('0' + f % 10);
    while ((f /= 10) != 0);
    memcpy(out, "frame ", 6);
    for (int i = 0; i < n; i++)
        out[6 + i] = digits[n - 1 - i];
    out[6 + n] = 0;
}

/* Frame f's transforms decoded straight into their place in t->raw,
 * which grows as frames come: memory follows the decoded data. */
static int read_raw_frame(struct rtm_cursor *c, const struct bmtr_head *h,
                          const struct reading *rd, uint32_t f, struct attempt *t,
                          const char *what)
{
    struct array_at a;
    size_t frame_bytes = (size_t)h->nbones * RTM_TRANSFORM_BYTES;
    if (array_head(c, h, rd, h->nbones, RTM_TRANSFORM_BYTES, &a, what))
        return -1;
    void *raw = t->raw;
    if (rtm_array_grow_max(&raw, &t->raw_frames_cap, (size_t)f + 1, frame_bytes, 1,
                           h->nframes)) {
        rtm_err_oom(c->err, "out of memory at frame %u", f);
        return -1;
    }
    t->raw = raw;
    return array_body(c, &a, t->raw + (size_t)f * frame_bytes, what);
}

/* Walks every array (which checks the file); with matrices kept, converts
 * every frame and tallies the unusable and scaled ones (rtm.h); with
 * keep_raw, keeps every frame's transforms instead. */
static int read_frames(struct rtm_cursor *c, const struct bmtr_head *h,
                       const struct reading *rd, const struct rtm_plan *plan,
                       struct attempt *t)
{
    char what[24];
    size_t phase_cap = 0;
    uint8_t *phase_bytes = NULL;
    int rc = read_array(c, h, rd, h->nframes, 4, &phase_bytes, &phase_cap,
                        "the phase array");
    t->phases = (float *)phase_bytes;
    if (rc)
        return -1;
    if (t->keep && h->nframes && h->nbones &&
        (!(t->abs = malloc((size_t)h->nbones * 12 * sizeof(double))) ||
         !(t->scaled = calloc(h->nbones, 1)))) {
        rtm_err_oom(c->err, "out of memory for %u bones", h->nbones);
        return -1;
    }
    for (uint32_t f = 0; f < h->nframes; f++) {
        frame_label(what, f);
        if (t->keep_raw) {
            if (read_raw_frame(c, h, rd, f, t, what))
                return -1;
            continue;
        }
        if (read_array(c, h, rd, h->nbones, RTM_TRANSFORM_BYTES, &t->scratch,
                       &t->scratch_cap, what))
            return -1;
        if (!t->keep)
            continue;
        if (grow_matrices(t, f, h->nframes, h->nbones, c->err))
            return -1;
        float *m = t->matrices + (size_t)f * h->nbones * 12;
        rtm_convert_frame(plan, t->scratch, t->abs, m);
        for (uint32_t b = 0; b < h->nbones; b++) {
            enum rtm_matrix_kind k = rtm_matrix_kind(m + (size_t)b * 12);
            t->unusable += k == RTM_MATRIX_UNUSABLE;
            t->scaled[b] |= k == RTM_MATRIX_SCALED;
        }
    }
    if (rtm_cur_left(c)) {
        rtm_err_set(c->err, c->pos, "%zu bytes follow the last frame", rtm_cur_left(c));
        return -1;
    }
    return 0;
}

static struct rtm_anim *build_anim(const uint8_t *data, size_t len,
                                   const struct bmtr_head *h, const struct rtm_plan *plan,
                                   const struct rtm_skeleton *skel, struct attempt *t,
                                   const struct reading *rd, enum rtm_depth depth)
{
    struct rtm_anim *a = rtm_anim_alloc(RTM_FORMAT_BMTR, 0, h->nbones, h->nprops,
                                        h->string_bytes, depth);
    if (!a || !(a->skeleton_name = strdup(skel ? skel->name : "none"))) {
        rtm_free(a);
        return NULL;
    }
    fill_strings(data, h, a);
    free(a->phases);
    free(a->matrices);
    a->phases = t->phases ? t->phases : calloc(1, sizeof(float));
    a->matrices = t->matrices ? t->matrices : calloc(1, sizeof(float));
    t->phases = NULL;
    t->matrices = NULL;
    a->nframes = h->nframes;
    a->version = h->version;
    memcpy(a->motion, h->motion, sizeof a->motion);
    a->source_bytes = len;
    a->bmtr_byte8 = h->byte8;
    a->preload_count = h->preload;
    a->nmeta = h->nmeta;
    a->flag_bytes = h->version >= 5 || rd->flag_bytes;
    a->composed = plan->composed;
    a->unusable = t->unusable;
    for (uint32_t b = 0; t->scaled && b < h->nbones; b++)
        a->scaled_bones += t->scaled[b];
    if (!a->phases || !a->matrices) {
        rtm_free(a);
        return NULL;
    }
    return a;
}

/* The conversion plan for the bones' names, with the skeleton o gives for
 * them, in *skel. */
static int plan_for(const uint8_t *data, const struct bmtr_head *h,
                    const struct rtm_parse_opts *o, const struct rtm_skeleton **skel,
                    struct rtm_plan *plan)
{
    struct rtm_str *names = malloc((h->nbones ? h->nbones : 1) * sizeof *names);
    if (!names)
        return -1;
    const char *p = (const char *)data + h->names_at;
    for (uint32_t b = 0; b < h->nbones; b++) {
        names[b].s = p;
        names[b].len = (uint32_t)strlen(p);
        p += names[b].len + 1;
    }
    *skel = rtm_parse_skeleton(o, names, h->nbones);
    int rc = rtm_plan_make(*skel, names, h->nbones, plan);
    free(names);
    return rc;
}

/* What a parse holds at its peak: the anim, one frame's decoded array,
 * and with matrices the matrices, one frame of doubles and the tallies. */
static uint64_t parsed_bytes(const struct bmtr_head *h, int keep)
{
    uint64_t n = sizeof(struct rtm_anim) + (uint64_t)h->nbones * sizeof(struct rtm_str) +
                 (uint64_t)h->nframes * sizeof(float) + h->string_bytes +
                 (uint64_t)h->nprops * sizeof(struct rtm_prop) +
                 (uint64_t)h->nbones * (RTM_TRANSFORM_BYTES + RTM_SKEL_BYTES_PER_BONE) +
                 rtm_names_bytes_max(h->nbones, h->string_bytes);
    if (keep)
        n += (uint64_t)h->nframes * h->nbones * 12 * sizeof(float) +
             (uint64_t)h->nbones * (12 * sizeof(double) + 4 * sizeof(uint32_t) + 1);
    return n;
}

/* a->source: data itself when the caller gives it, else a copy. */
static int keep_source(struct rtm_anim *a, const uint8_t *data, size_t len, int given)
{
    a->source = given ? (uint8_t *)data : malloc(len ? len : 1);
    if (!a->source)
        return -1;
    if (!given)
        memcpy(a->source, data, len);
    return 0;
}

/* Whether h's frames can fit in the file_size bytes of its file: the
 * phases are justified by the bytes after the names, as read_array will
 * see.  The head parse checks it without the arrays, and the full parse
 * first, so that both name the same damage (an animation's error.txt is
 * one text whichever parse found it). */
static int frames_fit(const struct bmtr_head *h, uint64_t file_size, struct rtm_error *err)
{
    uint64_t left = file_size > h->arrays_at ? file_size - h->arrays_at : 0;
    if ((uint64_t)h->nframes * sizeof(float) <= left * LZO_MAX_RATIO + LZO_SLACK)
        return 0;
    rtm_err_set(err, 21, "%u frames cannot fit in the %llu bytes after the names",
                h->nframes, (unsigned long long)left);
    return -1;
}

/* Walks the arrays in each reading h's version allows, in rtm(5)'s order,
 * until one reaches the file's end exactly: 0 with *t that walk's (made
 * with the keep flags *t came in with) and *won its reading; or -1 with
 * err the preferred reading's error. */
static int walk_readings(const uint8_t *data, size_t len, const struct bmtr_head *h,
                         const struct rtm_plan *plan, struct attempt *t,
                         const struct reading **won, struct rtm_error *err)
{
    static const struct reading v3[] = { { 0, 0 } };
    static const struct reading v4[] = { { 0, 0 }, { 1, 0 }, { 1, 1 } };
    static const struct reading v5[] = { { 1, 0 }, { 1, 1 } };
    const struct reading *rd = h->version == 3 ? v3 : h->version == 4 ? v4 : v5;
    size_t n = h->version == 3 ? 1 : h->version == 4 ? 3 : 2;
    int has_empty = h->nframes == 0 || h->nbones == 0;
    const struct attempt flags = *t;
    for (size_t i = 0; i < n; i++) {
        if (rd[i].empty_flag && !has_empty)
            continue;
        struct rtm_error ignored; /* only the preferred reading's error is told */
        struct rtm_cursor ac = { data, len, h->arrays_at, i == 0 ? err : &ignored };
        *t = flags;
        if (read_frames(&ac, h, &rd[i], plan, t) == 0) {
            *won = &rd[i];
            return 0;
        }
        attempt_free(t);
    }
    return -1;
}

/* What a parse holds beside the anim's head: the matrices and the
 * source's copy (a full parse), nothing more (a light one), or every
 * frame's transforms (rtm_read_bmtr_raw). */
enum holding { HOLD_LIGHT, HOLD_FULL, HOLD_RAW };

/* The head read and checked, the bytes the parse will hold reserved and
 * the plan made: what every parse does before the arrays. */
static int prepare(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                   enum holding hold, struct bmtr_head *h, const struct rtm_skeleton **skel,
                   struct rtm_plan *plan, struct rtm_error *err)
{
    memset(h, 0, sizeof *h);
    *skel = NULL;
    struct rtm_cursor c = { data, len, 0, err };
    if (scan_layout(&c, h) || frames_fit(h, len, err))
        return -1;
    /* a full parse keeps the source too: bmtr.rtm is its bytes */
    uint64_t copy = o->give_source ? 0 : len;
    uint64_t raw = (uint64_t)h->nframes * h->nbones * RTM_TRANSFORM_BYTES;
    uint64_t bytes = hold == HOLD_FULL  ? parsed_bytes(h, 1) + copy
                     : hold == HOLD_RAW ? parsed_bytes(h, 0) + raw
                                        : parsed_bytes(h, 0);
    if (rtm_reserve(o, bytes, parsed_bytes(h, 1) + copy, err))
        return -1;
    if (plan_for(data, h, o, skel, plan)) {
        rtm_err_oom(err, "out of memory for %u bones", h->nbones);
        return -1;
    }
    return 0;
}

int rtm_read_bmtr(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                  struct rtm_anim **out, struct rtm_error *err)
{
    const struct rtm_skeleton *skel;
    int full = !(o->flags & RTM_PARSE_NO_MATRICES);
    struct bmtr_head h;
    struct rtm_plan plan;
    if (prepare(data, len, o, full ? HOLD_FULL : HOLD_LIGHT, &h, &skel, &plan, err))
        return -1;
    struct attempt t;
    memset(&t, 0, sizeof t);
    t.keep = full;
    const struct reading *rd;
    if (walk_readings(data, len, &h, &plan, &t, &rd, err)) {
        rtm_plan_free(&plan);
        return -1;
    }
    *out = build_anim(data, len, &h, &plan, skel, &t, rd,
                      full ? RTM_DEPTH_FULL : RTM_DEPTH_LIGHT);
    attempt_free(&t);
    rtm_plan_free(&plan);
    if (*out && full && keep_source(*out, data, len, o->give_source)) {
        rtm_free(*out);
        *out = NULL;
    }
    if (!*out) {
        rtm_err_oom(err, "out of memory");
        return -1;
    }
    return 0;
}

int rtm_read_bmtr_raw(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                      struct rtm_bmtr_raw *out, struct rtm_error *err)
{
    memset(out, 0, sizeof *out);
    if (rtm_lzo_init()) {
        rtm_err_nooff(err, "liblzo2 failed to initialise");
        return -1;
    }
    const struct rtm_skeleton *skel;
    struct bmtr_head h;
    if (prepare(data, len, o, HOLD_RAW, &h, &skel, &out->plan, err))
        return -1;
    struct attempt t;
    memset(&t, 0, sizeof t);
    t.keep_raw = 1;
    const struct reading *rd;
    if (walk_readings(data, len, &h, &out->plan, &t, &rd, err)) {
        rtm_plan_free(&out->plan);
        return -1;
    }
    out->anim = build_anim(data, len, &h, &out->plan, skel, &t, rd, RTM_DEPTH_LIGHT);
    out->transforms = t.raw;
    t.raw = NULL;
    attempt_free(&t);
    if (!out->anim) {
        rtm_bmtr_raw_free(out);
        rtm_err_oom(err, "out of memory");
        return -1;
    }
    return 0;
}

void rtm_bmtr_raw_free(struct rtm_bmtr_raw *r)
{
    rtm_free(r->anim);
    free(r->transforms);
    rtm_plan_free(&r->plan);
    memset(r, 0, sizeof *r);
}

int rtm_head_bmtr(const uint8_t *data, size_t len, uint64_t file_size,
                  const struct rtm_parse_opts *o, struct rtm_anim **out, uint64_t *need,
                  struct rtm_error *err)
{
    (void)need;                         /* names end where their NULs say: grow and see */
    struct bmtr_head h;
    memset(&h, 0, sizeof h);
    struct rtm_cursor c = { data, len, 0, err };
    if (scan_layout(&c, &h))
        return len < file_size ? RTM_PARSE_NEED_MORE : -1;
    if (frames_fit(&h, file_size, err))
        return -1;
    /* refused when a full load (the file's bytes, then the parse) never fits */
    if (rtm_reserve(o, parsed_bytes(&h, 0), parsed_bytes(&h, 1) + file_size, err))
        return -1;
    struct rtm_plan plan;
    const struct rtm_skeleton *skel = NULL;
    if (plan_for(data, &h, o, &skel, &plan)) {
        rtm_err_oom(err, "out of memory for %u bones", h.nbones);
        return -1;
    }
    static const struct reading unread = { 0, 0 };   /* the arrays are not read */
    struct attempt t;
    memset(&t, 0, sizeof t);
    t.phases = calloc(h.nframes ? h.nframes : 1, sizeof *t.phases);
    /* phases of 0, the arrays unread: only a shape */
    *out = t.phases ? build_anim(data, len, &h, &plan, skel, &t, &unread, RTM_DEPTH_SHAPE)
                    : NULL;
    attempt_free(&t);
    rtm_plan_free(&plan);
    if (!*out) {
        rtm_err_oom(err, "out of memory");
        return -1;
    }
    (*out)->source_bytes = file_size;
    return 0;
}
