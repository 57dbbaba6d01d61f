/* test_bmtr.c - the BMTR reader (rtm(5), BMTR and CONVERSION), fed by the
 * project's writer (bmtr_write.h) and by hand-patched bytes.
 *
 * Matrices are checked bit for bit against the local-matrix formula of
 * rtm(5), Local matrix, computed here with an independent half-float decoder. */
#include "testutil.h"

#include <math.h>

#include "lzo.h"

static uint64_t lcg_state;
static uint32_t lcg_next(void)
{
    lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(lcg_state >> 32);
}

static double lcg_unit(void) { return (double)lcg_next() / 4294967296.0; }

/* ---- fixtures ---------------------------------------------------------- */

enum { MAX_BONES = 128, MAX_FRAMES = 300 };

/* The arrays a spec borrows, filled deterministically. */
struct fixture {
    char name_buf[MAX_BONES][16];
    const char *names[MAX_BONES];
    float phases[MAX_FRAMES];
    uint8_t *tr;
    uint32_t nf, nb;
};

static const char *const META[] = { "walkcycles=2", "" };
static const struct bmtr_keystone KEYS[] = {
    { -1, "Step", 0.25f, "Sound" },
    { 0, "", -0.0f, "" },
    { -1, "odd\x01\xff\"", 0.75f, "v\\al" },
};

static void fixture_init(struct fixture *fx, uint32_t nf, uint32_t nb, uint32_t seed)
{
    assert_true(nf <= MAX_FRAMES && nb <= MAX_BONES);
    memset(fx, 0, sizeof *fx);
    fx->nf = nf;
    fx->nb = nb;
    for (uint32_t b = 0; b < nb; b++) {
        snprintf(fx->name_buf[b], sizeof fx->name_buf[b], "bone%u", b);
        fx->names[b] = fx->name_buf[b];
    }
    for (uint32_t f = 0; f < nf; f++)
        fx->phases[f] = nf > 1 ? (float)f / (float)(nf - 1) : 0.0f;
    fx->tr = malloc((size_t)nf * nb * 14 + 1);
    assert_non_null(fx->tr);
    lcg_state = seed;
    for (size_t i = 0; i < (size_t)nf * nb; i++) {
        float q[4], t[3];
        for (int k = 0; k < 4; k++)
            q[k] = (float)(lcg_unit() * 2.0 - 1.0);
        for (int k = 0; k < 3; k++)
            t[k] = (float)(lcg_unit() * 4.0 - 2.0);
        rtm_pack_transform(fx->tr + i * 14, q, t);
    }
}

static void fixture_free(struct fixture *fx) { free(fx->tr); }

static struct bmtr_spec spec_of(const struct fixture *fx, uint32_t version)
{
    struct bmtr_spec s;
    memset(&s, 0, sizeof s);
    s.version = version;
    s.byte8 = 1;
    s.motion[0] = 1.0f;
    s.motion[1] = 3.0f;
    s.motion[2] = -2.0f;
    s.preload = 1;
    s.nbones = fx->nb;
    s.names = fx->names;
    s.nframes = fx->nf;
    s.phases = fx->phases;
    s.transforms = fx->tr;
    if (version >= 4) {
        s.nmeta = 2;
        s.meta = META;
        s.nprops = 3;
        s.props = KEYS;
    }
    s.compress = BMTR_COMPRESS_AUTO;
    return s;
}

static void write_spec(const struct bmtr_spec *s, struct rtm_buf *b)
{
    buf_init(b);
    assert_int_equal(rtm_write_bmtr(s, b), 0);
    assert_false(b->oom);
}

/* Offset of the phase array: header, names and (v4+) the property block. */
static size_t arrays_at(const struct bmtr_spec *s)
{
    size_t n = 37;
    for (uint32_t i = 0; i < s->nbones; i++)
        n += strlen(s->names[i]) + 1;
    if (s->version >= 4) {
        n += 4;
        for (uint32_t i = 0; i < s->nmeta; i++)
            n += strlen(s->meta[i]) + 1;
        n += 4;
        for (uint32_t i = 0; i < s->nprops; i++)
            n += 4 + strlen(s->props[i].name) + 1 + 4 + strlen(s->props[i].value) + 1;
    }
    return n;
}

static int parse_with(const struct rtm_buf *b, const char *skel, struct rtm_anim **a,
                      struct rtm_error *err)
{
    struct rtm_skeleton *s = NULL;
    assert_int_equal(rtm_skeleton_open(skel, &s, err), 0);
    memset(err, 0, sizeof *err);
    int rc = rtm_parse((const uint8_t *)b->p, b->len, s, a, err);
    rtm_skeleton_free(s);
    if (rc)
        assert_null(*a);
    return rc;
}

/* ---- the expected conversion (rtm(5), BMTR transforms and Local matrix) ---- */

static double half_value(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY)
                                                : ldexp(1024 + m, e - 25);
    return (h & 0x8000) ? -v : v;
}

static void expect_local(const uint8_t t[14], double m[12])
{
    int16_t qi[4];
    uint16_t hi[3];
    memcpy(qi, t, 8);
    memcpy(hi, t + 8, 6);
    double x = qi[0] / 16384.0, y = qi[1] / 16384.0, z = qi[2] / 16384.0, w = qi[3] / 16384.0;
    double r00 = 1 - 2 * y * y - 2 * z * z, r01 = 2 * x * y - 2 * z * w;
    double r02 = 2 * x * z + 2 * y * w, r10 = 2 * x * y + 2 * z * w;
    double r11 = 1 - 2 * x * x - 2 * z * z, r12 = 2 * y * z - 2 * x * w;
    double r20 = 2 * x * z - 2 * y * w, r21 = 2 * y * z + 2 * x * w;
    double r22 = 1 - 2 * x * x - 2 * y * y;
    double out[12] = { r00, -r01, r02, -r10, r11, -r12, r20, -r21, r22,
                       -half_value(hi[0]), half_value(hi[1]), -half_value(hi[2]) };
    memcpy(m, out, sizeof out);
}

static void to_floats(const double m[12], float f[12])
{
    for (int k = 0; k < 12; k++)
        f[k] = (float)m[k];
}

/* With no hierarchy every matrix is its bone's local matrix, bit for bit. */
static void check_local_matrices(const struct rtm_anim *a, const struct fixture *fx)
{
    for (uint32_t f = 0; f < fx->nf; f++)
        for (uint32_t b = 0; b < fx->nb; b++) {
            double m[12];
            float e[12];
            expect_local(fx->tr + ((size_t)f * fx->nb + b) * 14, m);
            to_floats(m, e);
            if (memcmp(rtm_matrix(a, f, b), e, sizeof e) != 0)
                fail_msg("frame %u bone %u: matrix differs from rtm(5), Local matrix", f, b);
        }
}

/* Everything the model keeps from the spec. */
static void check_model(const struct rtm_anim *a, const struct bmtr_spec *s,
                        const struct fixture *fx, size_t file_len)
{
    assert_int_equal(a->format, RTM_FORMAT_BMTR);
    assert_int_equal(a->version, s->version);
    assert_int_equal(a->bmtr_byte8, s->byte8);
    assert_int_equal(a->preload_count, s->preload);
    assert_memory_equal(a->motion, s->motion, sizeof a->motion);
    assert_int_equal(a->nframes, s->nframes);
    assert_int_equal(a->nbones, s->nbones);
    assert_int_equal(a->source_bytes, file_len);
    for (uint32_t b = 0; b < s->nbones; b++)
        assert_string_equal(a->bones[b].s, s->names[b]);
    if (s->nframes)
        assert_memory_equal(a->phases, s->phases, s->nframes * sizeof(float));
    assert_int_equal(a->nmeta, s->version >= 4 ? s->nmeta : 0);
    assert_int_equal(a->nprops, s->version >= 4 ? s->nprops : 0);
    for (uint32_t i = 0; i < a->nprops; i++) {
        assert_int_equal(a->props[i].type_id, s->props[i].type_id);
        assert_string_equal(a->props[i].name.s, s->props[i].name);
        assert_int_equal(a->props[i].name.len, strlen(s->props[i].name));
        assert_string_equal(a->props[i].value.s, s->props[i].value);
        assert_memory_equal(&a->props[i].phase, &s->props[i].phase, sizeof(float));
    }
    if (fx)
        check_local_matrices(a, fx);
}

/* Writes, parses with "none" and checks the whole model. */
static struct rtm_anim *round_trip(const struct bmtr_spec *s, const struct fixture *fx,
                                   struct rtm_buf *b)
{
    write_spec(s, b);
    struct rtm_anim *a = NULL;
    struct rtm_error err;
    if (parse_with(b, "none", &a, &err))
        fail_msg("v%u parse failed: %s (at byte %llu)", s->version, err.msg,
                 (unsigned long long)err.offset);
    check_model(a, s, fx, b->len);
    assert_string_equal(a->skeleton_name, "none");
    assert_int_equal(a->composed, 0);
    return a;
}

/* ---- versions and layouts --------------------------------------------- */

/* v3 has no flag byte: an array of 1024 bytes or more is LZO, smaller is
 * raw.  The layout is checked on the bytes, and a file that breaks the
 * rule in either direction is refused. */
static void v3_size_rule(void **state)
{
    (void)state;
    struct rtm_error err;
    struct rtm_anim *a = NULL;

    /* 256 phases = exactly 1024 bytes: LZO */
    struct fixture fx;
    fixture_init(&fx, 256, 1, 1);
    struct bmtr_spec s = spec_of(&fx, 3);
    struct rtm_buf b;
    a = round_trip(&s, &fx, &b);
    assert_int_equal(a->flag_bytes, 0);
    assert_int_equal(a->nprops, 0);
    rtm_free(a);
    size_t at = arrays_at(&s);
    assert_int_equal(le_u32((const uint8_t *)b.p + at), 256);
    const uint8_t *stream = (const uint8_t *)b.p + at + 4;
    assert_memory_not_equal(stream, fx.phases, 16);
    uint8_t dec[1024];
    size_t used = 0;
    assert_int_equal(rtm_lzo_decode(stream, b.len - at - 4, dec, 1024, &used), 0);
    assert_memory_equal(dec, fx.phases, 1024);
    /* the same file with the 1024 phase bytes stored raw is refused */
    struct rtm_buf raw;
    buf_init(&raw);
    buf_put(&raw, b.p, at + 4);
    buf_put(&raw, fx.phases, 1024);
    buf_put(&raw, stream + used, b.len - (at + 4 + used));
    assert_int_equal(parse_with(&raw, "none", &a, &err), -1);
    buf_free(&raw);
    buf_free(&b);
    fixture_free(&fx);

    /* 73 bones = 1022-byte frames: raw, so the file is the plain layout */
    fixture_init(&fx, 2, 73, 2);
    s = spec_of(&fx, 3);
    a = round_trip(&s, &fx, &b);
    rtm_free(a);
    at = arrays_at(&s);
    assert_int_equal(b.len, at + 4 + 8 + 2 * (4 + 1022));
    assert_memory_equal(b.p + at + 4, fx.phases, 8);
    assert_memory_equal(b.p + at + 12 + 4, fx.tr, 1022);
    assert_memory_equal(b.p + b.len - 1022, fx.tr + 1022, 1022);
    /* the same frames LZO-compressed are refused: 1022 bytes must be raw */
    buf_init(&raw);
    buf_put(&raw, b.p, at + 12);
    for (int f = 0; f < 2; f++) {
        buf_put_u32(&raw, 73);
        assert_int_equal(rtm_lzo_encode(fx.tr + f * 1022, 1022, &raw), 0);
    }
    assert_int_equal(parse_with(&raw, "none", &a, &err), -1);
    buf_free(&raw);
    buf_free(&b);
    fixture_free(&fx);

    /* 80 bones = 1120 bytes: LZO frames, and 128 bones (the Arma 2 size) */
    for (uint32_t nb = 80; nb <= 128; nb += 48) {
        fixture_init(&fx, 5, nb, nb);
        s = spec_of(&fx, 3);
        a = round_trip(&s, &fx, &b);
        rtm_free(a);
        /* 5 raw phases, then the first frame's count and its LZO stream */
        at = arrays_at(&s) + 4 + 20;
        assert_int_equal(le_u32((const uint8_t *)b.p + at), nb);
        uint8_t frame[128 * 14];
        assert_int_equal(rtm_lzo_decode((const uint8_t *)b.p + at + 4, b.len - at - 4,
                                        frame, nb * 14, &used), 0);
        assert_memory_equal(frame, fx.tr, nb * 14);
        buf_free(&b);
        fixture_free(&fx);
    }
}

/* v4 is read without flag bytes first; the metadata strings are counted
 * and the keystones kept. */
static void v4_without_flags(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, 6, 90, 3);   /* 1260-byte frames: LZO by the size rule */
    struct bmtr_spec s = spec_of(&fx, 4);
    struct rtm_buf b;
    struct rtm_anim *a = round_trip(&s, &fx, &b);
    assert_int_equal(a->flag_bytes, 0);
    assert_int_equal(a->nmeta, 2);
    assert_int_equal(a->nprops, 3);
    assert_int_equal(a->props[0].type_id, -1);
    assert_string_equal(a->props[0].name.s, "Step");
    assert_string_equal(a->props[0].value.s, "Sound");
    assert_true(a->props[0].phase == 0.25f);
    assert_int_equal(a->props[1].type_id, 0);
    assert_int_equal(a->props[1].name.len, 0);
    assert_true(signbit(a->props[1].phase));
    assert_memory_equal(a->props[2].name.s, "odd\x01\xff\"", 6);
    rtm_free(a);
    buf_free(&b);
    fixture_free(&fx);
}

/* v4 written with flag bytes (what armaio would write): the no-flag
 * reading fails and the reader falls back to flags. */
static void v4_with_flags(void **state)
{
    (void)state;
    static const enum bmtr_compress modes[] = { BMTR_COMPRESS_NONE, BMTR_COMPRESS_ALL,
                                                BMTR_COMPRESS_AUTO };
    for (size_t m = 0; m < 3; m++) {
        struct fixture fx;
        fixture_init(&fx, 7, 80, 4);
        struct bmtr_spec s = spec_of(&fx, 4);
        s.v4_flags = 1;
        s.compress = modes[m];
        struct rtm_buf b;
        struct rtm_anim *a = round_trip(&s, &fx, &b);
        assert_int_equal(a->flag_bytes, 1);
        /* the first flag byte sits right after the phase count */
        uint8_t flag = (uint8_t)b.p[arrays_at(&s) + 4];
        assert_int_equal(flag, modes[m] == BMTR_COMPRESS_ALL ? 2 : 0);
        rtm_free(a);
        buf_free(&b);
        fixture_free(&fx);
    }
}

/* v5: every array has its own flag, whatever its size. */
static void v5_raw_lzo_mixed(void **state)
{
    (void)state;
    static const enum bmtr_compress modes[] = { BMTR_COMPRESS_NONE, BMTR_COMPRESS_ALL,
                                                BMTR_COMPRESS_AUTO };
    for (size_t m = 0; m < 3; m++) {
        struct fixture fx;
        fixture_init(&fx, 4, 80, 5);  /* phases 16 bytes, frames 1120 bytes */
        struct bmtr_spec s = spec_of(&fx, 5);
        s.compress = modes[m];
        s.byte8 = 0;                  /* kept as read, not checked */
        s.preload = 7;
        struct rtm_buf b;
        struct rtm_anim *a = round_trip(&s, &fx, &b);
        assert_int_equal(a->flag_bytes, 1);
        size_t at = arrays_at(&s);
        uint8_t phase_flag = (uint8_t)b.p[at + 4];
        assert_int_equal(phase_flag, modes[m] == BMTR_COMPRESS_ALL ? 2 : 0);
        if (modes[m] != BMTR_COMPRESS_ALL) {
            /* raw phases, then the first frame's count and flag */
            assert_memory_equal(b.p + at + 5, fx.phases, 16);
            assert_int_equal(le_u32((const uint8_t *)b.p + at + 21), 80);
            assert_int_equal((uint8_t)b.p[at + 25], modes[m] == BMTR_COMPRESS_NONE ? 0 : 2);
        }
        if (modes[m] == BMTR_COMPRESS_NONE)
            assert_int_equal(b.len, at + 5 + 16 + 4 * (5 + 1120));
        rtm_free(a);
        buf_free(&b);
        fixture_free(&fx);
    }
    /* small arrays compressed (the corpus has LZO arrays below 1024 bytes) */
    struct fixture fx;
    fixture_init(&fx, 3, 2, 6);
    struct bmtr_spec s = spec_of(&fx, 5);
    s.compress = BMTR_COMPRESS_ALL;
    struct rtm_buf b;
    rtm_free(round_trip(&s, &fx, &b));
    buf_free(&b);
    fixture_free(&fx);
}

/* Empty arrays: with zero frames the phase array is empty, with zero bones
 * every frame array is; either may carry a flag byte or not. */
static void empty_arrays(void **state)
{
    (void)state;
    static const uint32_t shapes[][2] = { { 0, 5 }, { 3, 0 }, { 0, 0 } };
    for (size_t sh = 0; sh < 3; sh++)
        for (uint32_t version = 4; version <= 5; version++)
            for (int empty_flag = 0; empty_flag <= 1; empty_flag++)
                for (int v4_flags = 0; v4_flags <= (version == 4); v4_flags++) {
                    struct fixture fx;
                    fixture_init(&fx, shapes[sh][0], shapes[sh][1], 7);
                    struct bmtr_spec s = spec_of(&fx, version);
                    s.empty_flag = empty_flag;
                    s.v4_flags = v4_flags;
                    s.compress = BMTR_COMPRESS_ALL;
                    struct rtm_buf b;
                    struct rtm_anim *a = round_trip(&s, &fx, &b);
                    assert_int_equal(a->nframes, shapes[sh][0]);
                    assert_int_equal(a->nbones, shapes[sh][1]);
                    rtm_free(a);
                    buf_free(&b);
                    fixture_free(&fx);
                }
    /* and v3 with no frames / no bones */
    for (size_t sh = 0; sh < 3; sh++) {
        struct fixture fx;
        fixture_init(&fx, shapes[sh][0], shapes[sh][1], 8);
        struct bmtr_spec s = spec_of(&fx, 3);
        struct rtm_buf b;
        rtm_free(round_trip(&s, &fx, &b));
        buf_free(&b);
        fixture_free(&fx);
    }
}

/* ---- conversion values ------------------------------------------------- */

static void put_transform(uint8_t *t, int16_t qx, int16_t qy, int16_t qz, int16_t qw,
                          uint16_t hx, uint16_t hy, uint16_t hz)
{
    int16_t q[4] = { qx, qy, qz, qw };
    uint16_t h[3] = { hx, hy, hz };
    memcpy(t, q, 8);
    memcpy(t + 8, h, 6);
}

/* Writes a one-frame v5 file of the given bones and raw transforms. */
static void one_frame(const char *const *names, uint32_t nb, const uint8_t *tr,
                      struct rtm_buf *b)
{
    static const float phase0 = 0.0f;
    struct bmtr_spec s;
    memset(&s, 0, sizeof s);
    s.version = 5;
    s.byte8 = 1;
    s.nbones = nb;
    s.names = names;
    s.nframes = 1;
    s.phases = &phase0;
    s.transforms = tr;
    s.compress = BMTR_COMPRESS_NONE;
    write_spec(&s, b);
}

static struct rtm_anim *parse_skel(const struct rtm_buf *b, const char *skel)
{
    struct rtm_anim *a = NULL;
    struct rtm_error err;
    if (parse_with(b, skel, &a, &err))
        fail_msg("parse failed: %s", err.msg);
    return a;
}

static void assert_floats(const float *got, const float *want, int n, const char *what)
{
    if (memcmp(got, want, (size_t)n * sizeof(float)) == 0)
        return;
    for (int k = 0; k < n; k++)
        fprintf(stderr, "  [%d] got %g (0x%08x) want %g\n", k, (double)got[k],
                ((const uint32_t *)(const void *)got)[k], (double)want[k]);
    fail_msg("%s: matrix differs bit for bit", what);
}

/* rtm(5), Local matrix: identity quaternion and translation (1, 2, 3) give
 * 1,-0,0,-0,1,-0,0,-0,1,-1,2,-3 with exactly those zero signs. */
static void identity_signed_zeros(void **state)
{
    (void)state;
    static const char *const names[] = { "pelvis", "zz" };
    uint8_t tr[28];
    put_transform(tr, 0, 0, 0, 16384, 0x3c00, 0x4000, 0x4200);  /* halves 1, 2, 3 */
    put_transform(tr + 14, 16384, 0, 0, 0, 0x0000, 0x8000, 0xbc00); /* 180 deg about x */
    /* the packer gives the same bytes */
    uint8_t packed[14];
    rtm_pack_transform(packed, (const float[4]){ 0, 0, 0, 1 }, (const float[3]){ 1, 2, 3 });
    assert_memory_equal(packed, tr, 14);
    struct rtm_buf b;
    one_frame(names, 2, tr, &b);
    struct rtm_anim *a = parse_skel(&b, "none");
    static const float want0[12] = { 1, -0.0f, 0, -0.0f, 1, -0.0f, 0, -0.0f, 1, -1, 2, -3 };
    assert_floats(rtm_matrix(a, 0, 0), want0, 12, "identity");
    static const float want1[12] = { 1, -0.0f, 0, -0.0f, -1, -0.0f, 0, -0.0f, -1,
                                     -0.0f, -0.0f, 1 };
    assert_floats(rtm_matrix(a, 0, 1), want1, 12, "180 about x");
    rtm_free(a);
    buf_free(&b);
}

/* Random transforms in every version and compression give the 6.1 formula
 * bit for bit with "none". */
static void local_matrices_exact(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, 9, 100, 11);
    /* some exotic halves: subnormal, negative zero, the largest finite */
    put_transform(fx.tr, -32768, 32767, 1, -1, 0x0001, 0x8000, 0x7bff);
    for (uint32_t v = 3; v <= 5; v++) {
        struct bmtr_spec s = spec_of(&fx, v);
        struct rtm_buf b;
        rtm_free(round_trip(&s, &fx, &b));
        buf_free(&b);
    }
    fixture_free(&fx);
}

/* With ofp2 a child is composed with its parent (rtm(5), Composition), whatever
 * the file order; a bone whose direct parent is absent stays local. */
static void ofp2_composition(void **state)
{
    (void)state;
    /* file order puts children first; case does not matter */
    static const char *const names[] = { "spine", "SPINE1", "pelvis", "spine3",
                                         "zig_face", "leftarm" };
    enum { NB = 6 };
    uint8_t tr[NB * 14];
    put_transform(tr + 0 * 14, 0, 0, 0, 16384, 0, 0x3c00, 0);       /* spine: +y 1 */
    put_transform(tr + 1 * 14, 0, 0, 0, 16384, 0, 0, 0);            /* spine1: identity */
    put_transform(tr + 2 * 14, 16384, 0, 0, 0, 0x3c00, 0x4000, 0x4200); /* pelvis */
    put_transform(tr + 3 * 14, 0, 0, 0, 16384, 0x3800, 0, 0);       /* spine3: parent spine2 absent */
    put_transform(tr + 4 * 14, 0, 11585, 0, 11585, 0x3c00, 0x3c00, 0x3c00); /* unknown bone */
    put_transform(tr + 5 * 14, 0, 0, 11585, 11585, 0, 0x4000, 0);   /* parent leftshoulder absent */
    struct rtm_buf b;
    one_frame(names, NB, tr, &b);
    struct rtm_anim *none = parse_skel(&b, "none");
    struct rtm_anim *a = parse_skel(&b, "ofp2");
    assert_string_equal(a->skeleton_name, "ofp2");
    assert_int_equal(a->composed, 2); /* spine (pelvis) and spine1 (spine) */
    assert_int_equal(none->composed, 0);

    /* pelvis is a root: local either way */
    assert_floats(rtm_matrix(a, 0, 2), rtm_matrix(none, 0, 2), 12, "pelvis");
    /* spine = local(spine) x abs(pelvis): pelvis is rotated 180 degrees about
     * x and at (-1, 2, -3), so spine's +1 along y lands at y = 2 - 1 */
    const float *sp = rtm_matrix(a, 0, 0), *pe = rtm_matrix(a, 0, 2);
    for (int k = 0; k < 9; k++)
        assert_true(sp[k] == pe[k]);
    assert_true(sp[9] == -1.0f && sp[10] == 1.0f && sp[11] == -3.0f);
    /* spine1 is identity: it lands exactly on spine */
    const float *s1 = rtm_matrix(a, 0, 1);
    for (int k = 0; k < 12; k++)
        assert_true(s1[k] == sp[k]);
    /* absent parents and unknown bones stay local (no grandparent used) */
    for (uint32_t bone = 3; bone < NB; bone++)
        assert_floats(rtm_matrix(a, 0, bone), rtm_matrix(none, 0, bone), 12, names[bone]);
    /* and with "none" spine is just its own local matrix */
    static const float spine_local[12] = { 1, -0.0f, 0, -0.0f, 1, -0.0f, 0, -0.0f, 1,
                                           -0.0f, 1, -0.0f };
    assert_floats(rtm_matrix(none, 0, 0), spine_local, 12, "spine local");
    rtm_free(a);
    rtm_free(none);
    buf_free(&b);
}

/* A pelvis translated, spine identity: spine's translation is pelvis's
 * (the example of the brief), and composition matches a double-precision
 * product computed here for random transforms. */
static void ofp2_product(void **state)
{
    (void)state;
    static const char *const names[] = { "pelvis", "spine" };
    uint8_t tr[28];
    put_transform(tr, 0, 0, 0, 16384, 0x4400, 0xc200, 0x3555);  /* 4, -3, 0.333 */
    put_transform(tr + 14, 0, 0, 0, 16384, 0, 0, 0);
    struct rtm_buf b;
    one_frame(names, 2, tr, &b);
    struct rtm_anim *a = parse_skel(&b, "ofp2");
    assert_int_equal(a->composed, 1);
    const float *pe = rtm_matrix(a, 0, 0), *sp = rtm_matrix(a, 0, 1);
    assert_true(pe[9] == -4.0f && pe[10] == -3.0f);
    for (int k = 9; k < 12; k++)
        assert_true(sp[k] == pe[k]);
    rtm_free(a);
    buf_free(&b);

    lcg_state = 2024;
    for (int i = 0; i < 200; i++) {
        for (int k = 0; k < 2; k++) {
            int16_t q[4];
            for (int j = 0; j < 4; j++)
                q[j] = (int16_t)((int)(lcg_next() % 32768) - 16384);
            put_transform(tr + 14 * k, q[0], q[1], q[2], q[3],
                          (uint16_t)(lcg_next() % 0x4800), (uint16_t)(lcg_next() % 0x4800),
                          (uint16_t)(0x8000 | lcg_next() % 0x4800));
        }
        one_frame(names, 2, tr, &b);
        a = parse_skel(&b, "ofp2");
        double p[12], c[12], r[12];
        expect_local(tr, p);
        expect_local(tr + 14, c);
        /* row-vector product, 4th columns (0,0,0,1), every term kept */
        for (int row = 0; row < 4; row++)
            for (int j = 0; j < 3; j++)
                r[row * 3 + j] = c[row * 3] * p[j] + c[row * 3 + 1] * p[3 + j] +
                                 c[row * 3 + 2] * p[6 + j] + (row == 3 ? 1.0 : 0.0) * p[9 + j];
        float want[12];
        to_floats(r, want);
        assert_floats(rtm_matrix(a, 0, 1), want, 12, "random product");
        to_floats(p, want);
        assert_floats(rtm_matrix(a, 0, 0), want, 12, "random root");
        rtm_free(a);
        buf_free(&b);
    }
}

/* ---- errors ------------------------------------------------------------ */

/* Parses and expects failure with word in the message (and the offset
 * when off is not -1). */
static void expect_error(const struct rtm_buf *b, const char *word, long long off)
{
    struct rtm_anim *a = NULL;
    struct rtm_error err;
    if (parse_with(b, "ofp2", &a, &err) == 0) {
        rtm_free(a);
        fail_msg("parsed, but expected an error with \"%s\"", word);
    }
    if (!strstr(err.msg, word))
        fail_msg("message \"%s\" lacks \"%s\"", err.msg, word);
    if (off >= 0) {
        assert_true(err.has_offset);
        if (err.offset != (uint64_t)off)
            fail_msg("\"%s\" at byte %llu, expected %lld", err.msg,
                     (unsigned long long)err.offset, off);
    }
}

static void patch_u32(struct rtm_buf *b, size_t at, uint32_t v) { memcpy(b->p + at, &v, 4); }

static void header_errors(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, 3, 4, 12);
    struct bmtr_spec s = spec_of(&fx, 5);
    struct rtm_buf b;
    write_spec(&s, &b);
    for (uint32_t v = 0; v < 10; v++) {
        if (v >= 3 && v <= 5)
            continue;
        patch_u32(&b, 4, v);
        expect_error(&b, "version", 4);
    }
    patch_u32(&b, 4, 5);
    /* bone counts A != B */
    patch_u32(&b, 33, 5);
    expect_error(&b, "differ", 33);
    patch_u32(&b, 29, 5);
    /* both say 5: the fifth name runs into the property block and on */
    struct rtm_anim *a = NULL;
    struct rtm_error err;
    assert_int_equal(parse_with(&b, "none", &a, &err), -1);
    /* more bones than bytes */
    patch_u32(&b, 29, 0x7fffffff);
    patch_u32(&b, 33, 0x7fffffff);
    expect_error(&b, "bones", 29);
    buf_free(&b);

    /* a header cut short */
    buf_init(&b);
    buf_put(&b, "BMTR\x05\0\0\0\x01", 9);
    expect_error(&b, "motion", 9);
    buf_free(&b);
    buf_init(&b);
    buf_put(&b, "BMTR\x05\0", 6);
    expect_error(&b, "version", 4);
    buf_free(&b);
    fixture_free(&fx);
}

/* A name with no NUL before the end of the file. */
static void name_without_nul(void **state)
{
    (void)state;
    struct rtm_buf b;
    buf_init(&b);
    buf_put(&b, "BMTR", 4);
    buf_put_u32(&b, 3);
    buf_putc(&b, 1);
    for (int i = 0; i < 3; i++)
        buf_put_f32(&b, 0.0f);
    buf_put_u32(&b, 1);
    buf_put_u32(&b, 0);
    buf_put_u32(&b, 2);
    buf_put_u32(&b, 2);
    buf_put(&b, "pelvis\0spine", 12);
    expect_error(&b, "no NUL", 37 + 7);
    buf_free(&b);
}

/* Count mismatches, trailing bytes and a truncated LZO stream, for each
 * version. */
static void array_errors(void **state)
{
    (void)state;
    for (uint32_t v = 3; v <= 5; v++) {
        struct fixture fx;
        fixture_init(&fx, 3, 80, 13);   /* 1120-byte frames: LZO in every version */
        struct bmtr_spec s = spec_of(&fx, v);
        s.compress = BMTR_COMPRESS_ALL;
        struct rtm_buf b;
        write_spec(&s, &b);
        size_t at = arrays_at(&s);
        size_t frames_at = at + 4 + (v == 5 ? 1 : 0) + 12;
        if (v == 5) { /* phases are LZO too: find where they end */
            size_t used;
            float ph[3];
            assert_int_equal(rtm_lzo_decode((const uint8_t *)b.p + at + 5, b.len - at - 5,
                                            (uint8_t *)ph, 12, &used), 0);
            frames_at = at + 5 + used;
        }
        assert_int_equal(le_u32((const uint8_t *)b.p + frames_at), 80);

        /* phase count != nframes */
        patch_u32(&b, at, 2);
        expect_error(&b, "phase array holds 2", (long long)at);
        patch_u32(&b, at, 3);
        /* frame count != nbones */
        patch_u32(&b, frames_at, 79);
        expect_error(&b, "frame 0 holds 79", (long long)frames_at);
        patch_u32(&b, frames_at, 80);
        /* trailing bytes */
        buf_put(&b, "\0\0\0", 3);
        expect_error(&b, "3 bytes follow the last frame", (long long)(b.len - 3));
        b.len -= 3;
        /* truncated LZO stream in the last frame */
        b.len -= 5;
        expect_error(&b, "LZO", -1);
        expect_error(&b, "frame 2", -1);
        b.len += 5;
        /* intact again */
        struct rtm_anim *a = NULL;
        struct rtm_error err;
        assert_int_equal(parse_with(&b, "none", &a, &err), 0);
        rtm_free(a);
        buf_free(&b);
        fixture_free(&fx);
    }
}

/* A v4 file that neither reading can parse reports the preferred
 * (no-flag) reading's error. */
static void v4_unparseable(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, 2, 3, 14);
    struct bmtr_spec s = spec_of(&fx, 4);
    struct rtm_buf b;
    write_spec(&s, &b);
    buf_put(&b, "junk", 4);
    expect_error(&b, "follow the last frame", (long long)(b.len - 4));
    buf_free(&b);
    fixture_free(&fx);
}

/* Every cut of a valid file is an error, never a crash. */
static void every_cut_fails(void **state)
{
    (void)state;
    for (uint32_t v = 3; v <= 5; v++) {
        struct fixture fx;
        fixture_init(&fx, 3, 80, 15);
        struct bmtr_spec s = spec_of(&fx, v);
        struct rtm_buf b;
        write_spec(&s, &b);
        struct rtm_skeleton *none = NULL;
        struct rtm_error err;
        assert_int_equal(rtm_skeleton_open("none", &none, &err), 0);
        for (size_t cut = 0; cut < b.len; cut++) {
            uint8_t *p = malloc(cut ? cut : 1);
            assert_non_null(p);
            memcpy(p, b.p, cut);
            struct rtm_anim *a = NULL;
            if (rtm_parse(p, cut, none, &a, &err) == 0)
                fail_msg("v%u cut at %zu of %zu parsed", v, cut, b.len);
            assert_null(a);
            free(p);
        }
        rtm_skeleton_free(none);
        buf_free(&b);
        fixture_free(&fx);
    }
}

/* A NULL skeleton means no hierarchy, the same as "none". */
static void null_skeleton_is_none(void **state)
{
    (void)state;
    struct sample_opts o = { 4, 20, 7, 0 };
    struct rtm_buf b;
    buf_init(&b);
    assert_int_equal(rtm_sample_bmtr(&o, 5, BMTR_COMPRESS_ALL, &b), 0);
    struct rtm_anim *a = NULL, *none = parse_ok(&b, "none");
    struct rtm_error err;
    assert_int_equal(rtm_parse((const uint8_t *)b.p, b.len, NULL, &a, &err), 0);
    assert_string_equal(a->skeleton_name, "none");
    assert_int_equal(a->composed, 0);
    assert_memory_equal(a->matrices, none->matrices, (size_t)4 * 20 * 12 * sizeof(float));
    rtm_free(a);
    rtm_free(none);
    buf_free(&b);
}

/* RTM_PARSE_NO_TALLIES: the same matrices as a full parse, none
 * classified (random quaternions are not unit ones: scaled bones). */
static void no_tallies(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, 6, 5, 77);
    struct bmtr_spec s = spec_of(&fx, 5);
    struct rtm_buf b;
    write_spec(&s, &b);
    struct rtm_anim *full = parse_ok(&b, "none"), *bare = NULL;
    struct rtm_error err = { .msg = "" };
    assert_int_equal(rtm_parse_flags((const uint8_t *)b.p, b.len, NULL, RTM_PARSE_NO_TALLIES,
                                     &bare, &err), 0);
    assert_true(full->scaled_bones > 0);
    assert_int_equal(bare->scaled_bones, 0);
    assert_int_equal(bare->unusable, 0);
    assert_true(bare->has_matrices);
    assert_memory_equal(bare->matrices, full->matrices, (size_t)6 * 5 * 12 * sizeof(float));
    rtm_free(bare);
    rtm_free(full);
    buf_free(&b);
    fixture_free(&fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(null_skeleton_is_none),
        cmocka_unit_test(v3_size_rule),
        cmocka_unit_test(v4_without_flags),
        cmocka_unit_test(v4_with_flags),
        cmocka_unit_test(v5_raw_lzo_mixed),
        cmocka_unit_test(empty_arrays),
        cmocka_unit_test(identity_signed_zeros),
        cmocka_unit_test(local_matrices_exact),
        cmocka_unit_test(ofp2_composition),
        cmocka_unit_test(ofp2_product),
        cmocka_unit_test(header_errors),
        cmocka_unit_test(name_without_nul),
        cmocka_unit_test(array_errors),
        cmocka_unit_test(v4_unparseable),
        cmocka_unit_test(every_cut_fails),
        cmocka_unit_test(no_tallies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
