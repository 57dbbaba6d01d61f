/* make check: long (started first: tests/run.sh) */
/* test_badinput.c - the parser on hostile input: valid files broken every
 * way a program can enumerate.
 *
 * The contract (rtm.h): rtm_parse() returns 0 with a valid anim, or -1 with
 * *out NULL and a message; it never reads outside the buffer and never
 * allocates what the bytes present cannot justify.  Every parse here goes
 * through parse_check (badinput_testutil.h): a private heap copy of exactly
 * the bytes, so ASan sees any over-read, and every successful parse renders
 * every view (plain.rtm must parse again).
 *
 * Inputs: the writer's samples, hand-made layouts and a few small real
 * files; every truncation of them, deterministic random byte flips
 * (RTMFS_MUTANTS per file, default 2000), deleted byte ranges inside LZO
 * streams, and counts patched to huge values (under a 1 GiB address-space
 * limit, or ASan's max_allocation_size_mb in the sanitizer build).  The
 * hand-made shapes (names without a NUL, zero frames and bones, hostile
 * LZO, odd headers): test_badinput_shapes. */
#include "testutil.h"
#include "badinput_testutil.h"

#include <sys/resource.h>

enum { MUTANTS = 2000 };

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
    rtm_buf_init(&i->b);
    return &i->b;
}

static void free_inputs(struct inputs *in)
{
    for (size_t i = 0; i < in->n; i++)
        rtm_buf_free(&in->v[i].b);
    in->n = 0;
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
        rtm_buf_put(add_input(in, files[i]), d, len);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(inputs_parse),
        cmocka_unit_test(huge_counts),
        cmocka_unit_test(truncations),
        cmocka_unit_test(deletions),
        cmocka_unit_test(byte_flips),
    };
    return run_test_cases(tests, badinput_setup, badinput_teardown);
}
