/* badinput_testutil.c - what badinput_testutil.h declares, compiled once into librtmtest.a. */
#include "badinput_testutil.h"


#ifdef RTM_TEST_ASAN
const char *__asan_default_options(void) { return "max_allocation_size_mb=1100"; }
#endif

struct rtm_skeleton *skels[2];

uint64_t rng_state;

uint64_t rng(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A failed parse of data[0..len): the head parse of the whole file
 * fails as it does (the same message and byte), or reads (the damage lies
 * past the head).  One text an animation's error.txt, whichever parse
 * found the damage first. */
static void head_agrees(const uint8_t *data, size_t len, int skel,
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
int parse_check(const uint8_t *data, size_t len, int skel, struct rtm_error *err)
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

void render_all(const struct rtm_anim *a, int skel)
{
    struct rtm_buf b;
    char path[RTM_VIEW_PATH_MAX];
    rtm_buf_init(&b);
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
    rtm_buf_free(&b);
}

/* A valid parse, returned (caller frees). */
struct rtm_anim *parse_must(const uint8_t *data, size_t len, int skel)
{
    struct rtm_anim *a = NULL;
    struct rtm_error err;
    if (rtm_parse(data, len, skels[skel], &a, &err))
        fail_msg("parse failed: %s (at byte %llu)", err.msg, (unsigned long long)err.offset);
    return a;
}

void parse_fail(const uint8_t *data, size_t len, const char *why)
{
    struct rtm_error err;
    if (parse_check(data, len, 0, &err) == 0)
        fail_msg("%s: parsed, expected an error", why);
}

static const char *bone_name(uint32_t b, char tmp[32])
{
    if (b < skels[0]->nbones)
        return skels[0]->bone[b];
    snprintf(tmp, 32, "extra_%u", b);
    return tmp;
}

void make_bmtr(const struct gen_bmtr *g, struct rtm_buf *out)
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

void make_plain(const struct gen_plain *g, struct rtm_buf *out)
{
    rng_state = g->seed;
    if (g->nprops) {
        rtm_buf_put(out, "RTM_MDAT", 8);
        rtm_buf_put_u32(out, 0);
        rtm_buf_put_u32(out, g->nprops);
        for (uint32_t i = 0; i < g->nprops; i++) {
            char value[256];
            uint8_t n = (uint8_t)(i == 0 ? 255 : i * 7);
            for (int k = 0; k < n; k++)
                value[k] = (char)(k % 5 == 0 ? '"' : k % 7 == 0 ? '\\' : 'a' + k % 26);
            rtm_buf_put_f32(out, (float)i / (float)g->nprops);
            rtm_buf_putc(out, 4);
            rtm_buf_put(out, i % 2 ? "Step" : "Te\x01t", 4);
            rtm_buf_putc(out, (char)n);
            rtm_buf_put(out, value, n);
        }
    }
    rtm_buf_put(out, "RTM_0101", 8);
    float motion[3] = { 0, 0.25f, -1 };
    rtm_buf_put(out, motion, sizeof motion);
    rtm_buf_put_u32(out, g->nframes);
    rtm_buf_put_u32(out, g->nbones);
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
        rtm_buf_put(out, field[b], 32);
    }
    for (uint32_t f = 0; f < g->nframes; f++) {
        rtm_buf_put_f32(out, g->nframes > 1 ? (float)(g->nframes - 1 - f) / (float)g->nframes : 0);
        for (uint32_t b = 0; b < g->nbones; b++) {
            float m[12] = { 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0 };
            for (int i = 9; i < 12; i++)
                m[i] = (float)((double)(rng() % 1001) / 1000.0);
            rtm_buf_put(out, field[b], 32);
            rtm_buf_put(out, m, sizeof m);
        }
    }
    for (size_t i = 0; i < g->trailing; i++)
        rtm_buf_putc(out, (char)rng());
    free(field);
    assert_false(out->oom);
}

void put_u32_at(uint8_t *d, size_t at, uint32_t v) { memcpy(d + at, &v, 4); }

int badinput_setup(void **state)
{
    (void)state;
    struct rtm_error err;
    alarm(HANG_SECONDS); /* a hang fails the run instead of stalling it */
    if (rtm_skeleton_open("ofp2", &skels[0], &err) ||
        rtm_skeleton_open("none", &skels[1], &err))
        return -1;
    return rtm_lzo_init();
}

int badinput_teardown(void **state)
{
    (void)state;
    rtm_skeleton_free(skels[0]);
    rtm_skeleton_free(skels[1]);
    return 0;
}
