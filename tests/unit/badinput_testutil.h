/* badinput_testutil.h - what the parser's bad-input tests share
 * (test_badinput, test_badinput_shapes): the contract check every parse
 * goes through (a private heap copy of exactly the bytes, so that ASan sees
 * any over-read; a failure is -1, *out NULL and a message; a success renders
 * every view and its plain.rtm parses again), hand-written files that may
 * break the writers' rules (make_bmtr, make_plain), a deterministic random
 * source, and the group setup: both skeletons, LZO, and an alarm so that a
 * hang fails the run instead of stalling it. */
#ifndef RTM_BADINPUT_TESTUTIL_H
#define RTM_BADINPUT_TESTUTIL_H

#include <time.h>
#include <unistd.h>

#include "testutil.h"
#include "lzo.h"

#if defined(__SANITIZE_ADDRESS__)
#define RTM_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RTM_TEST_ASAN 1
#endif
#endif

#ifdef RTM_TEST_ASAN
/* An allocation above 1.1 GiB is a failure of the "no huge allocation" rule:
 * ASan reports it and stops the test.  (Defined here, not static: ASan looks
 * it up by name; each test program is one file, so it is defined once.) */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "max_allocation_size_mb=1100"; }
#endif

enum { HANG_SECONDS = 600 };

static struct rtm_skeleton *skels[2]; /* ofp2, none */

/* ---- helpers ----------------------------------------------------------- */

static uint64_t rng_state;

static inline uint64_t rng(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline void render_all(const struct rtm_anim *a, int skel);

/* A failed parse of data[0..len): the head parse of the whole file
 * fails as it does (the same message and byte), or reads (the damage lies
 * past the head).  One text an animation's error.txt, whichever parse
 * found the damage first. */
static inline void head_agrees(const uint8_t *data, size_t len, int skel,
                               const struct rtm_error *full)
{
    struct rtm_parse_opts o = { .skel = skels[skel] };
    struct rtm_anim *h = NULL;
    struct rtm_error err;
    uint64_t need = 0;
    memset(&err, 0, sizeof err);
    int rc = rtm_parse_head(data, len, len, &o, &h, &need, &err);
    rtm_free(h);
    if (rc == -1 && (strcmp(err.msg, full->msg) || err.offset != full->offset))
        fail_msg("head parse: '%s' (at byte %llu), full parse: '%s' (at byte %llu)", err.msg,
                 (unsigned long long)err.offset, full->msg, (unsigned long long)full->offset);
}

/* Parses a private copy of data[0..len).  Checks the failure contract; a
 * success renders every view.  Returns 0 or -1 like rtm_parse(). */
static inline int parse_check(const uint8_t *data, size_t len, int skel, struct rtm_error *err)
{
    uint8_t *copy = malloc(len ? len : 1);
    assert_non_null(copy);
    if (len)
        memcpy(copy, data, len);
    struct rtm_anim *a = (struct rtm_anim *)&skels; /* must be overwritten */
    memset(err, 0, sizeof *err);
    int rc = rtm_parse(copy, len, skels[skel], &a, err);
    if (rc)
        head_agrees(copy, len, skel, err);
    free(copy); /* the anim must not point into the source */
    if (rc) {
        assert_int_equal(rc, -1);
        assert_null(a);
        if (!err->msg[0])
            fail_msg("parse of %zu bytes failed without a message", len);
        assert_non_null(memchr(err->msg, 0, sizeof err->msg));
        return -1;
    }
    assert_non_null(a);
    assert_true(a->source_bytes == len);
    render_all(a, skel);
    rtm_free(a);
    return 0;
}

static inline void render_all(const struct rtm_anim *a, int skel)
{
    struct rtm_buf b;
    char path[RTM_VIEW_PATH_MAX];
    buf_init(&b);
    assert_int_equal(rtm_view_count(a), rtm_view_nfixed(a) + (a->pivot ? 2 : 1) * (size_t)a->nframes +
                                            a->nbones);
    for (size_t i = 0; i < rtm_view_count(a); i++) {
        struct rtm_view v = rtm_view_at(a, i), back;
        b.len = 0;
        assert_int_equal(rtm_view_render(a, v, &b), 0);
        assert_false(b.oom);
        rtm_view_path(a, v, path);
        assert_true(strlen(path) < sizeof path);
        assert_int_equal(rtm_view_lookup(a, path, &back), 0);
        assert_int_equal(back.kind, v.kind);
        if (v.kind == RTM_VIEW_FRAME)
            assert_int_equal(back.frame, v.frame);
        if (v.kind == RTM_VIEW_PLAIN) {
            /* plain.rtm is a plain RTM of the same shape */
            struct rtm_anim *p = NULL;
            struct rtm_error err;
            if (rtm_parse((const uint8_t *)b.p, b.len, skels[skel], &p, &err))
                fail_msg("plain.rtm does not parse: %s (at byte %llu)", err.msg,
                         (unsigned long long)err.offset);
            assert_int_equal(p->nframes, a->nframes);
            assert_int_equal(p->nbones, a->nbones);
            assert_int_equal(p->nprops, a->nprops);
            rtm_free(p);
        }
    }
    buf_free(&b);
}

/* A valid parse, returned (caller frees). */
static inline struct rtm_anim *parse_must(const uint8_t *data, size_t len, int skel)
{
    struct rtm_anim *a = NULL;
    struct rtm_error err;
    if (rtm_parse(data, len, skels[skel], &a, &err))
        fail_msg("parse failed: %s (at byte %llu)", err.msg, (unsigned long long)err.offset);
    return a;
}

static inline void parse_fail(const uint8_t *data, size_t len, const char *why)
{
    struct rtm_error err;
    if (parse_check(data, len, 0, &err) == 0)
        fail_msg("%s: parsed, expected an error", why);
}

static inline const char *bone_name(uint32_t b, char tmp[32])
{
    if (b < skels[0]->nbones)
        return skels[0]->bone[b];
    snprintf(tmp, 32, "extra_%u", b);
    return tmp;
}

/* A BMTR with full control over the layout (bmtr_write.h). */
struct gen_bmtr {
    uint32_t version, nframes, nbones, nmeta, nprops;
    enum bmtr_compress compress;
    int v4_flags, empty_flag;
    uint32_t seed;
};

static inline void make_bmtr(const struct gen_bmtr *g, struct rtm_buf *out)
{
    char (*store)[32] = calloc(g->nbones + 1, sizeof *store);
    const char **names = calloc(g->nbones + 1, sizeof *names);
    float *phases = calloc(g->nframes + 1, sizeof *phases);
    uint8_t *tr = malloc((size_t)g->nframes * g->nbones * 14 + 1);
    const char **meta = calloc(g->nmeta + 1, sizeof *meta);
    struct bmtr_keystone *props = calloc(g->nprops + 1, sizeof *props);
    assert_true(store && names && phases && tr && meta && props);
    rng_state = g->seed;
    for (uint32_t b = 0; b < g->nbones; b++)
        names[b] = bone_name(b, store[b]);
    for (uint32_t f = 0; f < g->nframes; f++) {
        phases[f] = g->nframes > 1 ? (float)f / (float)(g->nframes - 1) : 0;
        for (uint32_t b = 0; b < g->nbones; b++) {
            float q[4], t[3];
            for (int i = 0; i < 4; i++)
                q[i] = (float)((double)(rng() % 2001) / 1000.0 - 1.0);
            for (int i = 0; i < 3; i++)
                t[i] = (float)((double)(rng() % 2001) / 4000.0 - 0.25);
            rtm_pack_transform(tr + ((size_t)f * g->nbones + b) * 14, q, t);
        }
    }
    for (uint32_t i = 0; i < g->nmeta; i++)
        meta[i] = i % 2 ? "AMDAnimLength" : "";
    for (uint32_t i = 0; i < g->nprops; i++)
        props[i] = (struct bmtr_keystone){ -1, i % 2 ? "Step" : "StepSound",
                                           (float)(g->nprops - i) / (float)(g->nprops + 1),
                                           i % 2 ? "Sound" : "" };
    struct bmtr_spec s = {
        .version = g->version, .byte8 = 1, .motion = { 0.5f, -0.0f, 1.25f },
        .preload = 1, .nbones = g->nbones, .names = names, .nframes = g->nframes,
        .phases = phases, .transforms = tr, .nmeta = g->nmeta, .meta = meta,
        .nprops = g->version >= 4 ? g->nprops : 0, .props = props,
        .compress = g->compress, .v4_flags = g->v4_flags, .empty_flag = g->empty_flag,
    };
    assert_int_equal(rtm_write_bmtr(&s, out), 0);
    free(store);
    free(names);
    free(phases);
    free(tr);
    free(meta);
    free(props);
}

/* A plain RTM written by hand, so that it can break the writer's rules. */
struct gen_plain {
    uint32_t nframes, nbones, nprops;
    int no_nul;             /* header and frame names fill all 32 bytes */
    size_t trailing;        /* junk bytes after the last frame */
    uint32_t seed;
};

static inline void make_plain(const struct gen_plain *g, struct rtm_buf *out)
{
    rng_state = g->seed;
    if (g->nprops) {
        buf_put(out, "RTM_MDAT", 8);
        buf_put_u32(out, 0);
        buf_put_u32(out, g->nprops);
        for (uint32_t i = 0; i < g->nprops; i++) {
            char value[256];
            uint8_t n = (uint8_t)(i == 0 ? 255 : i * 7);
            for (int k = 0; k < n; k++)
                value[k] = (char)(k % 5 == 0 ? '"' : k % 7 == 0 ? '\\' : 'a' + k % 26);
            buf_put_f32(out, (float)i / (float)g->nprops);
            buf_putc(out, 4);
            buf_put(out, i % 2 ? "Step" : "Te\x01t", 4);
            buf_putc(out, (char)n);
            buf_put(out, value, n);
        }
    }
    buf_put(out, "RTM_0101", 8);
    float motion[3] = { 0, 0.25f, -1 };
    buf_put(out, motion, sizeof motion);
    buf_put_u32(out, g->nframes);
    buf_put_u32(out, g->nbones);
    uint8_t (*field)[32] = calloc(g->nbones + 1, 32);
    assert_non_null(field);
    for (uint32_t b = 0; b < g->nbones; b++) {
        char tmp[32];
        const char *n = bone_name(b, tmp);
        if (g->no_nul) {
            memset(field[b], 'A' + (int)(b % 26), 32);
            memcpy(field[b], n, strlen(n) < 32 ? strlen(n) : 32);
        } else {
            memcpy(field[b], n, strlen(n));
            if (strlen(n) + 2 < 32)
                memcpy(field[b] + strlen(n) + 1, "junk", strlen(n) + 6 < 32 ? 5 : 1);
        }
        buf_put(out, field[b], 32);
    }
    for (uint32_t f = 0; f < g->nframes; f++) {
        buf_put_f32(out, g->nframes > 1 ? (float)(g->nframes - 1 - f) / (float)g->nframes : 0);
        for (uint32_t b = 0; b < g->nbones; b++) {
            float m[12] = { 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0 };
            for (int i = 9; i < 12; i++)
                m[i] = (float)((double)(rng() % 1001) / 1000.0);
            buf_put(out, field[b], 32);
            buf_put(out, m, sizeof m);
        }
    }
    for (size_t i = 0; i < g->trailing; i++)
        buf_putc(out, (char)rng());
    free(field);
    assert_false(out->oom);
}

static inline void put_u32_at(uint8_t *d, size_t at, uint32_t v) { memcpy(d + at, &v, 4); }

static inline int badinput_setup(void **state)
{
    (void)state;
    struct rtm_error err;
    alarm(HANG_SECONDS); /* a hang fails the run instead of stalling it */
    if (rtm_skeleton_open("ofp2", &skels[0], &err) ||
        rtm_skeleton_open("none", &skels[1], &err))
        return -1;
    return rtm_lzo_init();
}

static inline int badinput_teardown(void **state)
{
    (void)state;
    rtm_skeleton_free(skels[0]);
    rtm_skeleton_free(skels[1]);
    return 0;
}

#endif
