/* test_bmtr_convert.c - the values a BMTR file's transforms convert to
 * (rtm(5), CONVERSION): matrices checked bit for bit against the
 * local-matrix formula of rtm(5), Local matrix, computed with an
 * independent half-float decoder (bmtr_testutil.h): the zero signs of the
 * identity, random transforms in every version and compression, the ofp2
 * skeleton's composition of child with parent against a double-precision
 * product, and a NULL skeleton as "none"; every half, and the AVX2
 * converter against the generic one.
 * The layouts and errors of the reader: test_bmtr. */
#include "testutil.h"
#include "bmtr_testutil.h"
#include "convert.h"
#include "skeleton.h"

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
    rtm_buf_free(&b);
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
        rtm_buf_free(&b);
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
    rtm_buf_free(&b);
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
    rtm_buf_free(&b);

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
        rtm_buf_free(&b);
    }
}

/* The plan converts parents first: the bones in skeleton order (a name
 * the skeleton has twice in the file, in file order), those it lacks
 * last in file order; each composes with the first bone of its parent's
 * name. */
static void plan_order(void **state)
{
    (void)state;
    static const char *const names[] = { "zig", "spine1", "Spine", "pelvis", "spine",
                                         "zag", "leftarm" };
    enum { NB = 7 };
    struct rtm_str bones[NB];
    for (uint32_t b = 0; b < NB; b++)
        bones[b] = (struct rtm_str){ names[b], (uint32_t)strlen(names[b]) };
    struct rtm_skeleton *ofp2;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_builtin("ofp2", &ofp2, &err), 0);
    struct rtm_plan plan;
    assert_int_equal(rtm_plan_make(ofp2, bones, NB, &plan), 0);
    static const uint32_t order[NB] = { 3, 2, 4, 1, 6, 0, 5 };
    static const int32_t parent[NB] = { -1, 2, 3, -1, 3, -1, -1 };
    assert_memory_equal(plan.order, order, sizeof order);
    assert_memory_equal(plan.parent, parent, sizeof parent);
    assert_int_equal(plan.composed, 3);
    rtm_plan_free(&plan);
    /* without a skeleton: file order, nothing composed */
    assert_int_equal(rtm_plan_make(NULL, bones, NB, &plan), 0);
    for (uint32_t b = 0; b < NB; b++) {
        assert_int_equal(plan.order[b], b);
        assert_int_equal(plan.parent[b], -1);
    }
    rtm_plan_free(&plan);
    rtm_skeleton_free(ofp2);
}

/* Every half converts to the value rtm_half_to_float gives it, bit for
 * bit once written as a float: zeros, subnormals, infinities and NaNs
 * (their payloads) included, in the translation row of a local matrix. */
static void every_half_exact(void **state)
{
    (void)state;
    const struct rtm_str bone = { "b", 1 };
    struct rtm_plan plan;
    assert_int_equal(rtm_plan_make(NULL, &bone, 1, &plan), 0);
    double scratch[12];
    for (uint32_t h = 0; h <= 0xffff; h++) {
        uint8_t t[14];
        put_transform(t, 0, 0, 0, 16384, (uint16_t)h, (uint16_t)h, (uint16_t)h);
        float m[12];
        rtm_convert_frame(&plan, t, scratch, m);
        /* volatile: through a double, as the converter goes (a NaN's quiet
         * bit set), not folded back to the float */
        volatile double v = rtm_half_to_float((uint16_t)h);
        float want[3] = { (float)-v, (float)v, (float)-v };
        if (memcmp(m + 9, want, sizeof want) != 0)
            fail_msg("half 0x%04x: got 0x%08x, want 0x%08x", h,
                     ((const uint32_t *)(const void *)m)[10],
                     ((const uint32_t *)(const void *)want)[1]);
    }
    rtm_plan_free(&plan);
}

/* A random transform: any quaternion integers (the extremes often), and
 * halves of every class (zeros of both signs, subnormals, infinities,
 * and with nans NaNs) among random ones. */
static void random_transform(uint8_t t[14], int nans)
{
    static const int16_t q_odd[] = { 0, -32768, 32767, 16384, -16384, 1, -1 };
    static const uint16_t h_odd[] = { 0x0000, 0x8000, 0x0001, 0x83ff, 0x7c00, 0xfc00, 0x7e00,
                                      0xfd55, 0x7bff, 0x0400 };
    int16_t q[4];
    uint16_t h[3];
    for (int k = 0; k < 4; k++)
        q[k] = lcg_next() % 4 == 0 ? q_odd[lcg_next() % 7] : (int16_t)(lcg_next() & 0xffff);
    for (int k = 0; k < 3; k++) {
        h[k] = lcg_next() % 4 == 0 ? h_odd[lcg_next() % 10] : (uint16_t)(lcg_next() & 0xffff);
        if (!nans && (h[k] & 0x7fff) > 0x7c00)
            h[k] = 0x7c00;              /* infinity: its NaNs are all the default one */
    }
    put_transform(t, q[0], q[1], q[2], q[3], h[0], h[1], h[2]);
}

/* The same bits; with nans, two NaNs also pass.  A sum of two NaNs (two
 * NaN translations meeting, a broken file's) is one of them, and which
 * one C leaves to the compiler, who may swap an addition's operands: no
 * converter can promise it, the generic one included.  Without NaNs in
 * the file every NaN is the default one (infinity times zero), and every
 * value is compared bit for bit. */
static int same_value(double a, double b, int nans)
{
    return memcmp(&a, &b, sizeof a) == 0 || (nans && isnan(a) && isnan(b));
}

static int same_float(const uint8_t *a, const uint8_t *b, int nans)
{
    float fa, fb;
    memcpy(&fa, a, sizeof fa);
    memcpy(&fb, b, sizeof fb);
    return memcmp(&fa, &fb, sizeof fa) == 0 || (nans && isnan(fa) && isnan(fb));
}

/* Where the processor has AVX2, its converter gives the generic one's
 * bytes, and the same doubles to compose children with: every bone of
 * ofp2's hierarchy (and unknown ones) over random frames. */
static void avx2_same_as_generic(void **state)
{
    (void)state;
    if (!rtm_convert_avx2())
        skip_because("no AVX2 here");
    enum { NB = 110, FRAMES = 400 };
    struct rtm_skeleton *ofp2;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_builtin("ofp2", &ofp2, &err), 0);
    struct rtm_str bones[NB];
    char extra[NB][16];
    for (uint32_t b = 0; b < NB; b++) {
        snprintf(extra[b], sizeof extra[b], "extra_%u", b);
        const char *n = b < ofp2->nbones ? ofp2->bone[ofp2->nbones - 1 - b] : extra[b];
        bones[b] = (struct rtm_str){ n, (uint32_t)strlen(n) };
    }
    struct rtm_plan plan;
    assert_int_equal(rtm_plan_make(ofp2, bones, NB, &plan), 0);
    assert_true(plan.composed > 90);
    static uint8_t t[NB * 14], f_gen[NB * 48], f_avx[NB * 48];
    static double s_gen[NB * 12], s_avx[NB * 12];
    lcg_state = 7;
    for (int f = 0; f < FRAMES; f++) {
        int nans = f % 2;
        for (uint32_t b = 0; b < NB; b++)
            random_transform(t + 14 * b, nans);
        rtm_convert_frame_with(0, &plan, t, s_gen, f_gen, 48);
        rtm_convert_frame_with(1, &plan, t, s_avx, f_avx, 48);
        for (uint32_t k = 0; k < NB * 12; k++)
            if (!same_value(s_gen[k], s_avx[k], nans) ||
                !same_float(f_gen + 4 * k, f_avx + 4 * k, nans))
                fail_msg("frame %d, bone %u, [%u]: the AVX2 converter gives %g, the generic "
                         "one %g", f, k / 12, k % 12, s_avx[k], s_gen[k]);
    }
    rtm_plan_free(&plan);
    rtm_skeleton_free(ofp2);
}

/* ---- skeletons and parse flags ----------------------------------------- */

/* A NULL skeleton means no hierarchy, the same as "none". */
static void null_skeleton_is_none(void **state)
{
    (void)state;
    struct sample_opts o = { 4, 20, 7, 0 };
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_sample_bmtr(&o, 5, BMTR_COMPRESS_ALL, &b), 0);
    struct rtm_anim *a = NULL, *none = parse_ok(&b, "none");
    struct rtm_error err;
    assert_int_equal(rtm_parse((const uint8_t *)b.p, b.len, NULL, &a, &err), 0);
    assert_string_equal(a->skeleton_name, "none");
    assert_int_equal(a->composed, 0);
    assert_memory_equal(a->matrices, none->matrices, (size_t)4 * 20 * 12 * sizeof(float));
    rtm_free(a);
    rtm_free(none);
    rtm_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(null_skeleton_is_none),
        cmocka_unit_test(identity_signed_zeros),
        cmocka_unit_test(local_matrices_exact),
        cmocka_unit_test(ofp2_composition),
        cmocka_unit_test(ofp2_product),
        cmocka_unit_test(plan_order),
        cmocka_unit_test(every_half_exact),
        cmocka_unit_test(avx2_same_as_generic),
    };
    return run_test_cases(tests, NULL, NULL);
}
