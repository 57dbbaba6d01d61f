/* test_badinput.c - the parser on hostile and odd input.
 *
 * The contract (rtm.h): rtm_parse() returns 0 with a valid anim, or -1 with
 * *out NULL and a message; it never reads outside the buffer and never
 * allocates what the bytes present cannot justify.  Every parse here gets a
 * private heap copy of exactly the bytes, so ASan sees any over-read, and
 * every successful parse renders every view (plain.rtm must parse again).
 *
 * Inputs: every truncation of generated files and of a few small real files,
 * deterministic random byte flips (RTMFS_MUTANTS per file, default 2000),
 * deleted byte ranges inside LZO streams, counts patched to huge values
 * (under a 1 GiB address-space limit, or ASan's max_allocation_size_mb in
 * the sanitizer build), names without a NUL, zero frames and zero bones, and
 * a handful of hand-made oddities.
 *
 * Regression: zero frames or zero bones made bmtr.c read_array() call
 * memcpy(NULL, src, 0) (UBSan nonnull-attribute); see zero_frames_and_bones.
 */
#include "testutil.h"

#include <math.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

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
 * ASan reports it and stops the test. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "max_allocation_size_mb=1100"; }
#endif

enum { MUTANTS = 2000, HANG_SECONDS = 600 };

static struct rtm_skeleton *skels[2]; /* ofp2, none */

/* ---- helpers ----------------------------------------------------------- */

static uint64_t rng_state;

static uint64_t rng(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void render_all(const struct rtm_anim *a, int skel);

/* Parses a private copy of data[0..len).  Checks the failure contract; a
 * success renders every view.  Returns 0 or -1 like rtm_parse(). */
static int parse_check(const uint8_t *data, size_t len, int skel, struct rtm_error *err)
{
    uint8_t *copy = malloc(len ? len : 1);
    assert_non_null(copy);
    if (len)
        memcpy(copy, data, len);
    struct rtm_anim *a = (struct rtm_anim *)&skels; /* must be overwritten */
    memset(err, 0, sizeof *err);
    int rc = rtm_parse(copy, len, skels[skel], &a, err);
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

static void render_all(const struct rtm_anim *a, int skel)
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
static struct rtm_anim *parse_must(const uint8_t *data, size_t len, int skel)
{
    struct rtm_anim *a = NULL;
    struct rtm_error err;
    if (rtm_parse(data, len, skels[skel], &a, &err))
        fail_msg("parse failed: %s (at byte %llu)", err.msg, (unsigned long long)err.offset);
    return a;
}

static void parse_fail(const uint8_t *data, size_t len, const char *why)
{
    struct rtm_error err;
    if (parse_check(data, len, 0, &err) == 0)
        fail_msg("%s: parsed, expected an error", why);
}

/* ---- inputs ------------------------------------------------------------ */

struct input {
    char name[64];
    struct rtm_buf b;
};

struct inputs {
    struct input v[32];
    size_t n;
};

static struct rtm_buf *add_input(struct inputs *in, const char *name)
{
    assert_true(in->n < sizeof in->v / sizeof in->v[0]);
    struct input *i = &in->v[in->n++];
    snprintf(i->name, sizeof i->name, "%s", name);
    buf_init(&i->b);
    return &i->b;
}

static void free_inputs(struct inputs *in)
{
    for (size_t i = 0; i < in->n; i++)
        buf_free(&in->v[i].b);
    in->n = 0;
}

static const char *bone_name(uint32_t b, char tmp[32])
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

static void make_bmtr(const struct gen_bmtr *g, struct rtm_buf *out)
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

static void make_plain(const struct gen_plain *g, struct rtm_buf *out)
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

/* The generated set: the samples of samples.h and hand-made layouts. */
static void generated_inputs(struct inputs *in)
{
    struct sample_opts p = { 3, 20, 1, 0 }, pm = { 2, 12, 2, 2 }, small = { 3, 20, 3, 2 },
                       wide = { 2, 80, 4, 2 };
    assert_int_equal(rtm_sample_plain(&p, add_input(in, "sample plain")), 0);
    assert_int_equal(rtm_sample_plain(&pm, add_input(in, "sample plain+MDAT")), 0);
    assert_int_equal(rtm_sample_bmtr(&small, 3, BMTR_COMPRESS_AUTO,
                                     add_input(in, "sample v3 raw")), 0);
    assert_int_equal(rtm_sample_bmtr(&wide, 3, BMTR_COMPRESS_AUTO,
                                     add_input(in, "sample v3 LZO")), 0);
    assert_int_equal(rtm_sample_bmtr(&small, 4, BMTR_COMPRESS_AUTO,
                                     add_input(in, "sample v4 raw")), 0);
    assert_int_equal(rtm_sample_bmtr(&wide, 4, BMTR_COMPRESS_AUTO,
                                     add_input(in, "sample v4 LZO")), 0);
    assert_int_equal(rtm_sample_bmtr(&small, 5, BMTR_COMPRESS_NONE,
                                     add_input(in, "sample v5 raw")), 0);
    assert_int_equal(rtm_sample_bmtr(&small, 5, BMTR_COMPRESS_ALL,
                                     add_input(in, "sample v5 LZO")), 0);
    struct gen_bmtr v4f = { 4, 2, 30, 2, 2, BMTR_COMPRESS_ALL, 1, 0, 11 };
    make_bmtr(&v4f, add_input(in, "v4 with flag bytes, metadata"));
    struct gen_bmtr v5m = { 5, 3, 70, 3, 1, BMTR_COMPRESS_AUTO, 0, 0, 12 };
    make_bmtr(&v5m, add_input(in, "v5 mixed, metadata"));
    struct gen_plain nonul = { 2, 10, 1, 1, 5, 13 };
    make_plain(&nonul, add_input(in, "plain names without NUL"));
}

/* A few small real files, when the corpus is there. */
static void corpus_inputs(struct inputs *in)
{
    static const char *const files[] = {
        "uscg/anim_stretcher.rtm",        /* plain, 1 frame */
        "dsr/m4a3/propergrip.rtm",        /* v3, raw frames */
        "uksf/griffin/KIA_cargo_01.rtm",  /* v3, LZO frames */
        "socomd/handpose_VFG.rtm",        /* v5, LZO frames */
        "armaio/animation_bmtr.rtm",      /* v5 with properties */
    };
    static int absent = -1; /* say it once */
    const char *dir = absent == 1 ? NULL : shared_dir();
    if (!dir) {
        if (absent != 1)
            printf("note: no corpus: real files left out, generated files only\n");
        absent = 1;
        return;
    }
    absent = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[4200];
        uint8_t *d;
        size_t len;
        snprintf(path, sizeof path, "%.4000s/corpus/%s", dir, files[i]);
        if (rtm_slurp(path, &d, &len)) {
            printf("note: %s not found\n", path);
            continue;
        }
        buf_put(add_input(in, files[i]), d, len);
        free(d);
    }
}

static void all_inputs(struct inputs *in)
{
    in->n = 0;
    generated_inputs(in);
    corpus_inputs(in);
}

/* Bytes a parse needs: the whole file, less a plain file's tolerated tail. */
static size_t needed_bytes(const struct rtm_buf *b)
{
    struct rtm_anim *a = parse_must((const uint8_t *)b->p, b->len, 0);
    size_t need = b->len - (size_t)a->trailing_bytes;
    rtm_free(a);
    return need;
}

/* ---- tests ------------------------------------------------------------- */

static void inputs_parse(void **state)
{
    (void)state;
    struct inputs in;
    all_inputs(&in);
    for (size_t i = 0; i < in.n; i++)
        for (int k = 0; k < 2; k++) {
            struct rtm_error err;
            if (parse_check((const uint8_t *)in.v[i].b.p, in.v[i].b.len, k, &err))
                fail_msg("%s: %s (at byte %llu)", in.v[i].name, err.msg,
                         (unsigned long long)err.offset);
        }
    free_inputs(&in);
}

static void truncations(void **state)
{
    (void)state;
    struct inputs in;
    all_inputs(&in);
    size_t cuts = 0;
    for (size_t i = 0; i < in.n; i++) {
        const uint8_t *d = (const uint8_t *)in.v[i].b.p;
        size_t len = in.v[i].b.len, need = needed_bytes(&in.v[i].b);
        for (size_t cut = 0; cut < len; cut++, cuts++) {
            struct rtm_error err;
            int rc = parse_check(d, cut, (int)(cut & 1), &err);
            if (cut >= need) {
                if (rc)
                    fail_msg("%s cut to %zu bytes (%zu needed): %s", in.v[i].name, cut,
                             need, err.msg);
                continue;
            }
            if (!rc)
                fail_msg("%s cut to %zu of %zu bytes parsed", in.v[i].name, cut, len);
            if (!err.has_offset || err.offset > cut)
                fail_msg("%s cut to %zu bytes: error '%s' has no offset within the "
                         "file (%d, %llu)", in.v[i].name, cut, err.msg, err.has_offset,
                         (unsigned long long)err.offset);
        }
    }
    printf("truncations: %zu cut files of %zu inputs, all rejected with an offset\n",
           cuts, in.n);
    free_inputs(&in);
}

static void byte_flips(void **state)
{
    (void)state;
    struct inputs in;
    all_inputs(&in);
    size_t ok = 0, total = 0;
    const char *env = getenv("RTMFS_MUTANTS"); /* more for a longer fuzz run */
    long mutants = env ? strtol(env, NULL, 10) : MUTANTS;
    for (size_t i = 0; i < in.n; i++) {
        size_t len = in.v[i].b.len;
        uint8_t *m = malloc(len);
        assert_non_null(m);
        rng_state = 0x5eed0000 + i + (env ? (uint64_t)mutants << 32 : 0);
        for (long n = 0; n < mutants; n++, total++) {
            memcpy(m, in.v[i].b.p, len);
            int flips = 1 + (int)(rng() % 4);
            for (int k = 0; k < flips; k++) {
                /* half the flips in the header and names, where counts live */
                size_t span = rng() % 2 ? len : (len < 256 ? len : 256);
                m[rng() % span] ^= (uint8_t)(1 + rng() % 255);
            }
            struct rtm_error err;
            ok += parse_check(m, len, n & 1, &err) == 0;
        }
        free(m);
    }
    printf("byte flips: %zu mutants, %zu parsed and rendered, the rest rejected\n",
           total, ok);
    free_inputs(&in);
}

/* Deletes ranges inside the files: LZO streams that stop short and run on
 * into the next array, counts that end up inside names. */
static void deletions(void **state)
{
    (void)state;
    struct inputs in;
    in.n = 0;
    generated_inputs(&in);
    for (size_t i = 0; i < in.n; i++) {
        const uint8_t *d = (const uint8_t *)in.v[i].b.p;
        size_t len = in.v[i].b.len;
        uint8_t *m = malloc(len);
        assert_non_null(m);
        for (size_t at = 0; at < len; at += 1 + at / 64) {
            for (size_t k = 1; k <= 3 && at + k <= len; k++) {
                memcpy(m, d, at);
                memcpy(m + at, d + at + k, len - at - k);
                struct rtm_error err;
                parse_check(m, len - k, (int)(k & 1), &err);
            }
        }
        free(m);
    }
    free_inputs(&in);
}

/* ---- counts that do not fit -------------------------------------------- */

struct fields {
    size_t at[8];
    const char *what[8];
    size_t n;
};

static void field(struct fields *f, size_t at, const char *what)
{
    f->at[f->n] = at;
    f->what[f->n++] = what;
}

static size_t skip_asciiz(const uint8_t *d, size_t pos, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        pos += strlen((const char *)d + pos) + 1;
    return pos;
}

/* Where the counts are in a valid file. */
static void count_fields(const struct rtm_buf *b, struct fields *f)
{
    const uint8_t *d = (const uint8_t *)b->p;
    f->n = 0;
    if (memcmp(d, "BMTR", 4) != 0) {
        const uint8_t *p = memmem(d, b->len, "RTM_0101", 8);
        assert_non_null(p);
        if (p != d)
            field(f, 12, "the MDAT property count");
        field(f, (size_t)(p - d) + 20, "nFrames");
        field(f, (size_t)(p - d) + 24, "nBones");
        return;
    }
    uint32_t version = le_u32(d + 4), nframes = le_u32(d + 21), nbones = le_u32(d + 29);
    field(f, 21, "nFrames");
    field(f, 29, "nBones A");
    field(f, 33, "nBones B");
    size_t pos = skip_asciiz(d, 37, nbones);
    if (version >= 4) {
        uint32_t nmeta = le_u32(d + pos);
        field(f, pos, "the metadata count");
        pos = skip_asciiz(d, pos + 4, nmeta);
        uint32_t nprops = le_u32(d + pos);
        field(f, pos, "the property count");
        pos += 4;
        for (uint32_t i = 0; i < nprops; i++)
            pos = skip_asciiz(d, skip_asciiz(d, pos + 4, 1) + 4, 1);
    }
    field(f, pos, "the phase count");
    /* the first frame's count, when the phase array is raw (v4 may or may
     * not have flag bytes: left out) */
    int flag = version >= 5;
    if (nframes && version != 4 && (flag ? d[pos + 4] == 0 : nframes * 4 < 1024))
        field(f, pos + 4 + (size_t)flag + 4 * (size_t)nframes, "the first frame's count");
}

static void put_u32_at(uint8_t *d, size_t at, uint32_t v) { memcpy(d + at, &v, 4); }

static void huge_counts(void **state)
{
    (void)state;
    static const uint32_t huge[] = { 0xFFFFFFFFu, 0x7FFFFFFFu, 1000000u, 0x10000000u,
                                     0x80000000u, 0x15555556u };
    static const uint32_t small[] = { 0, 1, 2 };
#ifndef RTM_TEST_ASAN
    struct rlimit old, lim;
    assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
    lim = old;
    lim.rlim_cur = (rlim_t)1 << 30;
    if (old.rlim_max != RLIM_INFINITY && old.rlim_max < lim.rlim_cur)
        lim.rlim_cur = old.rlim_max;
    assert_int_equal(setrlimit(RLIMIT_AS, &lim), 0);
#endif
    struct inputs in;
    all_inputs(&in);
    double slowest = 0;
    size_t tries = 0;
    for (size_t i = 0; i < in.n; i++) {
        struct fields f;
        count_fields(&in.v[i].b, &f);
        size_t len = in.v[i].b.len;
        uint8_t *m = malloc(len);
        assert_non_null(m);
        for (size_t k = 0; k < f.n; k++) {
            for (size_t h = 0; h < sizeof huge / sizeof huge[0]; h++, tries++) {
                memcpy(m, in.v[i].b.p, len);
                put_u32_at(m, f.at[k], huge[h]);
                int both = strcmp(f.what[k], "nBones A") == 0;
                if (both) /* the two counts agree */
                    put_u32_at(m, f.at[k] + 4, huge[h]);
                struct rtm_error err;
                double t0 = now();
                int rc = parse_check(m, len, 0, &err);
                double dt = now() - t0;
                slowest = dt > slowest ? dt : slowest;
                if (rc == 0)
                    fail_msg("%s with %s = %u parsed", in.v[i].name, f.what[k], huge[h]);
                if (strstr(err.msg, "out of memory") || !err.has_offset)
                    fail_msg("%s with %s = %u: '%s' (should be refused for the "
                             "file's size, before allocating)", in.v[i].name, f.what[k],
                             huge[h], err.msg);
                if (dt > 2.0)
                    fail_msg("%s with %s = %u took %.1f s", in.v[i].name, f.what[k],
                             huge[h], dt);
            }
            for (size_t s = 0; s < sizeof small / sizeof small[0]; s++, tries++) {
                memcpy(m, in.v[i].b.p, len);
                put_u32_at(m, f.at[k], small[s]);
                struct rtm_error err;
                parse_check(m, len, 1, &err);
            }
        }
        free(m);
    }
#ifndef RTM_TEST_ASAN
    assert_int_equal(setrlimit(RLIMIT_AS, &old), 0);
#endif
    printf("counts: %zu patched files, slowest parse %.3f s\n", tries, slowest);
    free_inputs(&in);
}

/* ---- hand-made shapes -------------------------------------------------- */

static void plain_names_without_nul(void **state)
{
    (void)state;
    struct rtm_buf b;
    buf_init(&b);
    struct gen_plain g = { 3, 40, 0, 1, 0, 21 };
    make_plain(&g, &b);
    struct rtm_anim *a = parse_must((const uint8_t *)b.p, b.len, 0);
    assert_int_equal(a->nbones, 40);
    for (uint32_t i = 0; i < a->nbones; i++) {
        assert_int_equal(a->bones[i].len, 32);
        assert_int_equal(strlen(a->bones[i].s), 32);
    }
    assert_memory_equal(a->bones[0].s, "Pelvis", 6);
    render_all(a, 0);
    /* plain.rtm keeps all 32 bytes: the same file comes back */
    struct rtm_buf p;
    buf_init(&p);
    assert_int_equal(rtm_view_render(a, (struct rtm_view){ .kind = RTM_VIEW_PLAIN, .frame = 0 }, &p), 0);
    struct rtm_anim *again = parse_must((const uint8_t *)p.p, p.len, 0);
    for (uint32_t i = 0; i < a->nbones; i++)
        assert_memory_equal(again->bones[i].s, a->bones[i].s, 32);
    rtm_free(again);
    buf_free(&p);
    rtm_free(a);
    /* 32 bytes without NUL in the frames only, and one name of 31 + NUL */
    buf_free(&b);
    struct gen_plain g2 = { 2, 3, 0, 0, 0, 22 };
    make_plain(&g2, &b);
    memset(b.p + 28 + 64, 'x', 31);
    b.p[28 + 64 + 31] = 0;
    memset(b.p + 28 + 96 + 4, 'y', 32);
    a = parse_must((const uint8_t *)b.p, b.len, 1);
    assert_int_equal(a->bones[2].len, 31);
    render_all(a, 1);
    rtm_free(a);
    buf_free(&b);
}

static void zero_frames_and_bones(void **state)
{
    (void)state;
    static const uint32_t shapes[][2] = { { 0, 5 }, { 4, 0 }, { 0, 0 }, { 1, 1 } };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        uint32_t nf = shapes[s][0], nb = shapes[s][1];
        for (uint32_t props = 0; props <= 2; props += 2) {
            struct rtm_buf b;
            buf_init(&b);
            struct gen_plain g = { nf, nb, props, 0, 0, 30 };
            make_plain(&g, &b);
            struct rtm_anim *a = parse_must((const uint8_t *)b.p, b.len, 0);
            assert_int_equal(a->nframes, nf);
            assert_int_equal(a->nbones, nb);
            assert_int_equal(a->nprops, props);
            assert_int_equal(a->trailing_bytes, 0);
            render_all(a, 0);
            rtm_free(a);
            buf_free(&b);
        }
        static const struct { uint32_t v; int v4_flags, empty_flag; enum bmtr_compress c; }
            layouts[] = {
                { 3, 0, 0, BMTR_COMPRESS_AUTO }, { 4, 0, 0, BMTR_COMPRESS_AUTO },
                { 4, 1, 0, BMTR_COMPRESS_ALL },  { 4, 1, 1, BMTR_COMPRESS_ALL },
                { 5, 0, 0, BMTR_COMPRESS_ALL },  { 5, 0, 1, BMTR_COMPRESS_ALL },
                { 5, 0, 1, BMTR_COMPRESS_NONE },
            };
        for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++) {
            struct rtm_buf b;
            buf_init(&b);
            struct gen_bmtr g = { layouts[l].v, nf, nb, 1, 2, layouts[l].c,
                                  layouts[l].v4_flags, layouts[l].empty_flag, 31 };
            make_bmtr(&g, &b);
            for (int k = 0; k < 2; k++) {
                struct rtm_anim *a = parse_must((const uint8_t *)b.p, b.len, k);
                assert_int_equal(a->nframes, nf);
                assert_int_equal(a->nbones, nb);
                assert_int_equal(a->nprops, layouts[l].v >= 4 ? 2 : 0);
                render_all(a, k);
                rtm_free(a);
            }
            /* a cut fails, except that cutting the flag bytes of empty arrays
             * leaves the other valid reading of the same animation */
            for (size_t cut = 0; cut < b.len; cut++) {
                struct rtm_error err;
                if (parse_check((const uint8_t *)b.p, cut, 0, &err) == 0) {
                    if (!layouts[l].empty_flag)
                        fail_msg("v%u (%u frames, %u bones) cut to %zu bytes parsed",
                                 layouts[l].v, nf, nb, cut);
                    struct rtm_anim *a = parse_must((const uint8_t *)b.p, cut, 0);
                    assert_int_equal(a->nframes, nf);
                    assert_int_equal(a->nbones, nb);
                    rtm_free(a);
                } else if (!err.has_offset || err.offset > cut) {
                    fail_msg("cut BMTR: '%s' has no offset in the file", err.msg);
                }
            }
            buf_free(&b);
        }
    }
}

/* An LZO payload, wrapped as the only frame of a v5 file with 1 bone. */
static void v5_one_frame(struct rtm_buf *b, uint32_t nbones, const uint8_t *payload,
                         size_t n)
{
    buf_put(b, "BMTR", 4);
    buf_put_u32(b, 5);
    buf_putc(b, 1);
    float motion[3] = { 0, 0, 0 };
    buf_put(b, motion, sizeof motion);
    buf_put_u32(b, 1);
    buf_put_u32(b, 0);
    buf_put_u32(b, nbones);
    buf_put_u32(b, nbones);
    for (uint32_t i = 0; i < nbones; i++)
        buf_put(b, "b", 2);
    buf_put_u32(b, 0);  /* metadata */
    buf_put_u32(b, 0);  /* properties */
    buf_put_u32(b, 1);  /* phases: raw */
    buf_putc(b, 0);
    buf_put_f32(b, 0);
    buf_put_u32(b, nbones);
    buf_putc(b, 2);
    buf_put(b, payload, n);
}

static void lzo_hostile(void **state)
{
    (void)state;
    enum { BIG = 1 << 16 };
    uint8_t *p = malloc(BIG);
    assert_non_null(p);
    struct rtm_buf b;
    /* nothing but end markers: each try is a short stream */
    for (size_t i = 0; i + 3 <= BIG; i += 3)
        memcpy(p + i, "\x11\x00\x00", 3);
    buf_init(&b);
    v5_one_frame(&b, 1000, p, BIG / 3 * 3);
    double t0 = now();
    parse_fail((const uint8_t *)b.p, b.len, "LZO markers only");
    buf_free(&b);
    /* a literal run, then markers: a valid stream decodes to too few bytes */
    p[0] = 17 + 4;
    memcpy(p + 1, "abcd", 4);
    buf_init(&b);
    v5_one_frame(&b, 1, p, BIG / 3 * 3);
    parse_fail((const uint8_t *)b.p, b.len, "LZO short output");
    buf_free(&b);
    /* a long run of zero length bytes (extended lengths), no end */
    memset(p, 0, BIG);
    p[0] = 17 + 3;
    memcpy(p + 1, "abc", 3);
    buf_init(&b);
    v5_one_frame(&b, 3000, p, BIG);
    parse_fail((const uint8_t *)b.p, b.len, "LZO zero run");
    buf_free(&b);
    /* random bytes with markers sprinkled in */
    rng_state = 77;
    for (size_t i = 0; i < BIG; i++)
        p[i] = (uint8_t)rng();
    for (size_t i = 0; i + 3 < BIG; i += 1 + rng() % 200)
        memcpy(p + i, "\x11\x00\x00", 3);
    for (uint32_t nb = 1; nb < 5000; nb = nb * 3 + 1) {
        buf_init(&b);
        v5_one_frame(&b, nb, p, BIG);
        struct rtm_error err;
        parse_check((const uint8_t *)b.p, b.len, 0, &err);
        buf_free(&b);
    }
    /* an empty stream where 14 bytes are due, and a cut one */
    buf_init(&b);
    v5_one_frame(&b, 1, (const uint8_t *)"\x11\x00\x00", 3);
    parse_fail((const uint8_t *)b.p, b.len, "empty LZO stream");
    buf_free(&b);
    /* a real stream with its end marker cut off, more bytes following */
    uint8_t raw[14 * 100];
    for (size_t i = 0; i < sizeof raw; i++)
        raw[i] = (uint8_t)(i % 37);
    struct rtm_buf z;
    buf_init(&z);
    assert_int_equal(rtm_lzo_encode(raw, sizeof raw, &z), 0);
    assert_true(z.len > 3);
    memcpy(p, z.p, z.len - 3);
    memset(p + z.len - 3, 0xAA, 64);
    buf_init(&b);
    v5_one_frame(&b, 100, p, z.len - 3 + 64);
    parse_fail((const uint8_t *)b.p, b.len, "LZO end marker replaced");
    buf_free(&b);
    buf_init(&b); /* and the intact stream parses */
    v5_one_frame(&b, 100, (const uint8_t *)z.p, z.len);
    struct rtm_anim *a = parse_must((const uint8_t *)b.p, b.len, 0);
    render_all(a, 0);
    rtm_free(a);
    buf_free(&b);
    buf_free(&z);
    free(p);
    double dt = now() - t0;
    printf("hostile LZO: %.3f s\n", dt);
    assert_true(dt < 30);
}

static void odd_headers(void **state)
{
    (void)state;
    static const char *const stubs[] = { "", "B", "BMTR", "BMTR\x05", "RTM_", "RTM_0101",
                                         "RTM_MDAT", "RTM_0102", "RTM_MDAT\0\0\0\0\0\0\0\0",
                                         "RTM_MDAT\0\0\0\0\0\0\0\0RTM_0100" };
    static const size_t stub_len[] = { 0, 1, 4, 5, 4, 8, 8, 8, 16, 24 };
    for (size_t i = 0; i < sizeof stubs / sizeof stubs[0]; i++)
        parse_fail((const uint8_t *)stubs[i], stub_len[i], stubs[i]);

    struct rtm_buf b;
    struct sample_opts o = { 2, 10, 5, 1 };
    static const uint32_t versions[] = { 0, 1, 2, 6, 0xFFFFFFFFu };
    for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
        buf_init(&b);
        assert_int_equal(rtm_sample_bmtr(&o, 5, BMTR_COMPRESS_NONE, &b), 0);
        put_u32_at((uint8_t *)b.p, 4, versions[i]);
        parse_fail((const uint8_t *)b.p, b.len, "unknown version");
        buf_free(&b);
    }
    /* the two bone counts differ */
    buf_init(&b);
    assert_int_equal(rtm_sample_bmtr(&o, 3, BMTR_COMPRESS_AUTO, &b), 0);
    put_u32_at((uint8_t *)b.p, 33, 9);
    parse_fail((const uint8_t *)b.p, b.len, "bone counts differ");
    buf_free(&b);
    /* a bone name of 1024 bytes is taken, 1025 is refused */
    for (size_t n = 1024; n <= 1025; n++) {
        char *name = malloc(n + 1);
        assert_non_null(name);
        memset(name, 'n', n);
        name[n] = 0;
        const char *names[2] = { "pelvis", name };
        float phases[1] = { 0 };
        uint8_t tr[28] = { 0 };
        struct bmtr_spec s = { .version = 3, .byte8 = 1, .nbones = 2, .names = names,
                               .nframes = 1, .phases = phases, .transforms = tr };
        buf_init(&b);
        assert_int_equal(rtm_write_bmtr(&s, &b), 0);
        struct rtm_error err;
        int rc = parse_check((const uint8_t *)b.p, b.len, 0, &err);
        assert_int_equal(rc, n == 1024 ? 0 : -1);
        buf_free(&b);
        free(name);
    }
    /* NaN, infinities and extreme values everywhere */
    {
        const char *names[3] = { "pelvis", "spine", "\x01\xff\"\\,odd" };
        float phases[3] = { NAN, -INFINITY, 0.5f };
        uint8_t tr[3 * 3 * 14];
        for (size_t i = 0; i < sizeof tr; i++)
            tr[i] = (uint8_t)(i % 3 == 0 ? 0xFF : i % 3 == 1 ? 0x7C : 0x80);
        struct bmtr_keystone props[2] = { { 7, "a,\"b\"", NAN, "\x7f\x01" },
                                          { -1, "", INFINITY, "" } };
        const char *meta[1] = { "m" };
        struct bmtr_spec s = { .version = 5, .byte8 = 0, .motion = { NAN, INFINITY, -0.0f },
                               .preload = 0xFFFFFFFFu, .nbones = 3, .names = names,
                               .nframes = 3, .phases = phases, .transforms = tr,
                               .nmeta = 1, .meta = meta, .nprops = 2, .props = props,
                               .compress = BMTR_COMPRESS_ALL };
        buf_init(&b);
        assert_int_equal(rtm_write_bmtr(&s, &b), 0);
        for (int k = 0; k < 2; k++) {
            struct rtm_anim *a = parse_must((const uint8_t *)b.p, b.len, k);
            render_all(a, k);
            rtm_free(a);
        }
        buf_free(&b);
    }
    /* a plain file with trailing junk parses; its plain.rtm is the source */
    buf_init(&b);
    struct gen_plain g = { 3, 4, 1, 0, 100, 40 };
    make_plain(&g, &b);
    struct rtm_anim *a = parse_must((const uint8_t *)b.p, b.len, 0);
    assert_int_equal(a->trailing_bytes, 100);
    render_all(a, 0);
    rtm_free(a);
    buf_free(&b);
}

static int setup(void **state)
{
    (void)state;
    struct rtm_error err;
    alarm(HANG_SECONDS); /* a hang fails the run instead of stalling it */
    if (rtm_skeleton_open("ofp2", &skels[0], &err) ||
        rtm_skeleton_open("none", &skels[1], &err))
        return -1;
    return rtm_lzo_init();
}

static int teardown(void **state)
{
    (void)state;
    rtm_skeleton_free(skels[0]);
    rtm_skeleton_free(skels[1]);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(inputs_parse),
        cmocka_unit_test(plain_names_without_nul),
        cmocka_unit_test(zero_frames_and_bones),
        cmocka_unit_test(odd_headers),
        cmocka_unit_test(lzo_hostile),
        cmocka_unit_test(huge_counts),
        cmocka_unit_test(truncations),
        cmocka_unit_test(deletions),
        cmocka_unit_test(byte_flips),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
