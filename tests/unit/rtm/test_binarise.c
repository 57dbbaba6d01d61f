/* test_binarise.c - bmtr.rtm's encoder (binarise.h, bmtr_write.h's
 * quantisers): the quantisers at their edges (a step, half a step, -0,
 * below the smallest normal half, past the largest, NaN), the rotation's
 * sign rule, a matrix that is no rotation, a parent without an inverse,
 * bones the skeleton lacks, properties, raw arrays and the exact size; a
 * round trip through the reader; and the two shared pairs of an author's
 * plain file and binarise's output (../shared/binarise), value for value. */
#include "testutil.h"

#include <math.h>

#include "binarise.h"
#include "lzo.h"

/* ---- what a BMTR v5 file stores, read raw ---- */

struct raw {
    uint32_t nbones, nframes, nprops;
    float motion[3];
    char names[128][64];
    float phases[64];
    int flags[65];                      /* phases, then each frame */
    int16_t q[64][128][4];
    uint16_t t[64][128][3];
};

static uint32_t get_u32(const uint8_t *d, size_t *p)
{
    uint32_t v;
    memcpy(&v, d + *p, 4);
    *p += 4;
    return v;
}

static void get_array(const uint8_t *d, size_t len, size_t *p, size_t elem, uint8_t *out,
                      uint32_t *count, int *flag)
{
    *count = get_u32(d, p);
    size_t n = *count * elem, used;
    *flag = n ? d[(*p)++] : 0;
    if (!*flag) {
        memcpy(out, d + *p, n);
        *p += n;
        return;
    }
    assert_int_equal(rtm_lzo_decode(d + *p, len - *p, out, n, &used), 0);
    *p += used;
}

static void read_raw(const uint8_t *d, size_t len, struct raw *r)
{
    size_t p = 9;
    assert_memory_equal(d, "BMTR\5\0\0\0", 8);
    memcpy(r->motion, d + p, 12);
    p += 12;
    r->nframes = get_u32(d, &p);
    p += 4;
    r->nbones = get_u32(d, &p);
    assert_int_equal(get_u32(d, &p), r->nbones);
    assert_true(r->nbones <= 128 && r->nframes <= 64);
    for (uint32_t b = 0; b < r->nbones; b++) {
        snprintf(r->names[b], sizeof r->names[b], "%s", (const char *)d + p);
        p += strlen((const char *)d + p) + 1;
    }
    assert_int_equal(get_u32(d, &p), 0);           /* metadata */
    r->nprops = get_u32(d, &p);
    for (uint32_t k = 0; k < r->nprops; k++) {
        p += 4;
        p += strlen((const char *)d + p) + 1 + 4;
        p += strlen((const char *)d + p) + 1;
    }
    uint8_t buf[128 * 14];
    uint32_t n;
    get_array(d, len, &p, 4, (uint8_t *)r->phases, &n, &r->flags[0]);
    assert_int_equal(n, r->nframes);
    for (uint32_t f = 0; f < r->nframes; f++) {
        get_array(d, len, &p, 14, buf, &n, &r->flags[1 + f]);
        assert_int_equal(n, r->nbones);
        for (uint32_t b = 0; b < n; b++) {
            memcpy(r->q[f][b], buf + 14 * b, 8);
            memcpy(r->t[f][b], buf + 14 * b + 8, 6);
        }
    }
    assert_int_equal(p, len);
}

/* A plain sample with properties, 30 bones of ofp2 and 8 frames. */
static struct rtm_buf plain_sample_with_props(void)
{
    struct rtm_buf b;
    buf_init(&b);
    struct sample_opts o = { .nframes = 8, .nbones = 30, .seed = 3, .nprops = 2 };
    assert_int_equal(rtm_sample_plain(&o, &b), 0);
    return b;
}

/* a binarised: its bytes, checked against its size. */
static struct rtm_buf binarised(const struct rtm_anim *a)
{
    struct rtm_buf b;
    buf_init(&b);
    assert_int_equal(rtm_binarise(a, &b), 0);
    assert_int_equal(b.len, rtm_binarise_size(a));
    return b;
}

/* ---- the quantisers ---- */

static void half_edges(void **state)
{
    (void)state;
    assert_int_equal(rtm_bmtr_half(1.0), 0x3c00);
    assert_int_equal(rtm_bmtr_half(-2.0), 0xc000);
    assert_int_equal(rtm_bmtr_half(1.0 + 0x1p-11), 0x3c00);             /* half a step: cut */
    assert_int_equal(rtm_bmtr_half(1.0 + 0x1p-10 - 0x1p-20), 0x3c00);   /* just below a step */
    assert_int_equal(rtm_bmtr_half(1.0 + 0x1p-10 - 0x1p-30), 0x3c01);   /* float32 rounds up */
    assert_int_equal(rtm_bmtr_half(-(1.0 + 0x1p-11)), 0xbc00);          /* toward zero */
    assert_int_equal(rtm_bmtr_half(-0.0), 0);                           /* no -0 */
    assert_int_equal(rtm_bmtr_half(0x1p-14), 0x0400);                   /* smallest normal */
    assert_int_equal(rtm_bmtr_half(0x1p-14 * 0.999), 0);                /* no subnormals */
    assert_int_equal(rtm_bmtr_half(-0x1p-15), 0);
    assert_int_equal(rtm_bmtr_half(65504.0), 0x7bff);
    assert_int_equal(rtm_bmtr_half(65535.0), 0x7bff);                   /* cut, not inf */
    assert_int_equal(rtm_bmtr_half(1e9), 0x7bff);
    assert_int_equal(rtm_bmtr_half(-INFINITY), 0xfbff);
    assert_int_equal(rtm_bmtr_half(NAN), 0);
}

static void quat_edges(void **state)
{
    (void)state;
    assert_int_equal(rtm_bmtr_quat_q(1.0), 16384);
    assert_int_equal(rtm_bmtr_quat_q(-1.0), -16384);
    assert_int_equal(rtm_bmtr_quat_q(0.5 / 16384), 0);                  /* a tie: to even */
    assert_int_equal(rtm_bmtr_quat_q(1.5 / 16384), 2);
    assert_int_equal(rtm_bmtr_quat_q(0.49 / 16384), 0);
    assert_int_equal(rtm_bmtr_quat_q(0.51 / 16384), 1);
    assert_int_equal(rtm_bmtr_quat_q(-0.51 / 16384), -1);
    assert_int_equal(rtm_bmtr_quat_q(3.0), 32767);
    assert_int_equal(rtm_bmtr_quat_q(-3.0), -32768);
    assert_int_equal(rtm_bmtr_quat_q(NAN), 0);
}

/* ---- one transform ---- */

/* The stored transform of the model-space matrix m (no parent). */
static void stored(const float m[12], int16_t q[4], uint16_t t[3])
{
    uint8_t out[14];
    rtm_binarise_transform(m, NULL, out);
    memcpy(q, out, 8);
    memcpy(t, out + 8, 6);
}

/* The row-vector matrix the reader makes of the unit quaternion q and
 * translation t (rtm(5), CONVERSION: the handedness flips). */
static void reader_matrix(const double q[4], const double t[3], float m[12])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double r[9] = { 1 - 2 * y * y - 2 * z * z, 2 * x * y - 2 * z * w, 2 * x * z + 2 * y * w,
                    2 * x * y + 2 * z * w, 1 - 2 * x * x - 2 * z * z, 2 * y * z - 2 * x * w,
                    2 * x * z - 2 * y * w, 2 * y * z + 2 * x * w, 1 - 2 * x * x - 2 * y * y };
    const float flip[9] = { 1, -1, 1, -1, 1, -1, 1, -1, 1 };
    for (int k = 0; k < 9; k++)
        m[k] = (float)(flip[k] * r[k]);
    m[9] = (float)-t[0], m[10] = (float)t[1], m[11] = (float)-t[2];
}

static void sign_rule(void **state)
{
    (void)state;
    /* 0.8 y, -0.6 w: the same rotation as its negation, stored with w >= 0 */
    float m[12];
    int16_t q[4];
    uint16_t t[3];
    reader_matrix((const double[4]){ 0, 0.8, 0, -0.6 }, (const double[3]){ 1, 2, 3 }, m);
    stored(m, q, t);
    assert_int_equal(q[0], 0);
    assert_int_equal(q[1], -13107);                     /* -0.8 * 16384 */
    assert_int_equal(q[2], 0);
    assert_int_equal(q[3], 9830);                       /* 0.6 * 16384 */
    assert_int_equal(t[0], 0x3c00);
    assert_int_equal(t[1], 0x4000);
    assert_int_equal(t[2], 0x4200);
    /* a half turn about x: w is 0, the sign as the extraction gives it */
    reader_matrix((const double[4]){ 1, 0, 0, 0 }, (const double[3]){ 0, 0, 0 }, m);
    stored(m, q, t);
    assert_int_equal(abs(q[0]), 16384);
    assert_int_equal(q[1] | q[2] | q[3], 0);
}

static void not_a_rotation(void **state)
{
    (void)state;
    /* twice the identity, turned a quarter about z: the rotation is kept,
     * the scale is lost (BMTR stores none) */
    float m[12];
    int16_t q[4];
    uint16_t t[3];
    double h = sqrt(0.5);
    reader_matrix((const double[4]){ 0, 0, h, h }, (const double[3]){ 0, 0, 0 }, m);
    for (int k = 0; k < 9; k++)
        m[k] *= 2;
    stored(m, q, t);
    assert_int_equal(q[0], 0);
    assert_int_equal(q[1], 0);
    assert_int_equal(q[2], 11585);
    assert_int_equal(q[3], 11585);
    /* NaN everywhere: the identity and no translation */
    for (int k = 0; k < 12; k++)
        m[k] = NAN;
    stored(m, q, t);
    assert_int_equal(q[0] | q[1] | q[2], 0);
    assert_int_equal(q[3], 16384);
    assert_int_equal(t[0] | t[1] | t[2], 0);
}

static void parent_without_inverse(void **state)
{
    (void)state;
    float m[12] = { 1, 0, 0, 0, 1, 0, 0, 0, 1, -1, 2, -3 }, p[12] = { 0 };
    uint8_t rooted[14], with[14];
    rtm_binarise_transform(m, NULL, rooted);
    rtm_binarise_transform(m, p, with);
    assert_memory_equal(rooted, with, 14);
    /* an invertible parent: the identity relative to itself */
    rtm_binarise_transform(m, m, with);
    int16_t q[4];
    uint16_t t[3];
    memcpy(q, with, 8);
    memcpy(t, with + 8, 6);
    assert_int_equal(q[3], 16384);
    assert_int_equal(q[0] | q[1] | q[2] | t[0] | t[1] | t[2], 0);
}

/* ---- whole files ---- */

/* The sample with properties, binarised with ofp2: version 5, raw arrays,
 * lower-case names, properties as keystones, and read back the same
 * animation to the quantisation. */
static void round_trip(void **state)
{
    (void)state;
    struct rtm_buf src = plain_sample_with_props();
    struct rtm_anim *a = parse_ok(&src, "ofp2");
    struct rtm_buf b = binarised(a);
    struct rtm_anim *back = parse_ok(&b, "ofp2");
    assert_int_equal(back->format, RTM_FORMAT_BMTR);
    assert_int_equal(back->version, 5);
    assert_int_equal(back->flag_bytes, 1);
    assert_int_equal(back->nframes, a->nframes);
    assert_int_equal(back->nbones, a->nbones);
    assert_memory_equal(back->motion, a->motion, sizeof a->motion);
    for (uint32_t i = 0; i < a->nbones; i++) {
        assert_int_equal(back->bones[i].len, a->bones[i].len);
        for (uint32_t k = 0; k < a->bones[i].len; k++)
            assert_int_equal(back->bones[i].s[k], rtm_ascii_lower((unsigned char)a->bones[i].s[k]));
    }
    assert_memory_equal(back->phases, a->phases, a->nframes * sizeof(float));
    assert_true(a->nprops > 0);
    assert_int_equal(back->nprops, a->nprops);
    for (uint32_t k = 0; k < a->nprops; k++) {
        assert_true(back->props[k].phase == a->props[k].phase);
        assert_string_equal(back->props[k].name.s, a->props[k].name.s);
        assert_string_equal(back->props[k].value.s, a->props[k].value.s);
        assert_int_equal(back->props[k].type_id, -1);
    }
    double worst = 0;
    for (size_t i = 0; i < (size_t)a->nframes * a->nbones * 12; i++)
        worst = fmax(worst, fabs(back->matrices[i] - a->matrices[i]));
    printf("# sample round trip: largest matrix difference %.2g\n", worst);
    assert_true(worst < 2e-3);
    /* every array raw: the bytes after the header hold no LZO stream */
    struct raw *r = calloc(1, sizeof *r);
    read_raw((const uint8_t *)b.p, b.len, r);
    for (uint32_t f = 0; f <= a->nframes; f++)
        assert_int_equal(r->flags[f], 0);
    free(r);
    rtm_free(back);
    rtm_free(a);
    buf_free(&b);
    buf_free(&src);
}

/* A skeleton that lacks a bone of the animation: that bone is stored as a
 * root, and reads back as the same animation with the same skeleton. */
static void bones_the_skeleton_lacks(void **state)
{
    (void)state;
    const char text[] = "Pelvis -\nSpine Pelvis\nSpine1 Spine\n";  /* of the sample's 30 */
    struct rtm_buf src = plain_sample_with_props();
    struct rtm_anim *a = parse_with_skeleton(&src, text, "three");
    uint32_t roots = 0;
    for (uint32_t i = 0; i < a->nbones; i++)
        roots += a->skel_parent[i] < 0;
    assert_true(roots > 1);
    struct rtm_buf b = binarised(a);
    struct rtm_anim *back = parse_with_skeleton(&b, text, "three");
    double worst = 0;
    for (size_t i = 0; i < (size_t)a->nframes * a->nbones * 12; i++)
        worst = fmax(worst, fabs(back->matrices[i] - a->matrices[i]));
    assert_true(worst < 2e-3);
    rtm_free(back);
    rtm_free(a);
    buf_free(&b);
    buf_free(&src);
}

/* ---- binarise's own output ---- */

struct tally {
    unsigned values, quat_off, trans_off;
};

/* One pair: NAME.plain.rtm binarised with ofp2 against NAME.binarise.rtm. */
static void pair(const char *dir, const char *name, struct tally *tl)
{
    char path[4200];
    uint8_t *plain, *theirs;
    size_t plen, tlen;
    snprintf(path, sizeof path, "%s/binarise/%s.plain.rtm", dir, name);
    assert_int_equal(rtm_slurp(path, &plain, &plen), 0);
    snprintf(path, sizeof path, "%s/binarise/%s.binarise.rtm", dir, name);
    assert_int_equal(rtm_slurp(path, &theirs, &tlen), 0);
    struct rtm_buf pb = { .p = (char *)plain, .len = plen };
    struct rtm_anim *a = parse_ok(&pb, "ofp2");
    struct rtm_buf b = binarised(a);
    struct raw *ours = calloc(1, sizeof *ours), *bi = calloc(1, sizeof *bi);
    read_raw((const uint8_t *)b.p, b.len, ours);
    read_raw(theirs, tlen, bi);
    assert_int_equal(ours->nbones, bi->nbones);
    assert_int_equal(ours->nframes, bi->nframes);
    assert_memory_equal(ours->motion, bi->motion, sizeof bi->motion);
    assert_memory_equal(ours->phases, bi->phases, bi->nframes * sizeof(float));
    for (uint32_t i = 0; i < bi->nbones; i++)
        assert_string_equal(ours->names[i], bi->names[i]);
    for (uint32_t f = 0; f < bi->nframes; f++)
        for (uint32_t i = 0; i < bi->nbones; i++) {
            tl->values += 7;
            for (int k = 0; k < 4; k++) {
                int d = ours->q[f][i][k] - bi->q[f][i][k];
                assert_true(abs(d) <= 1);
                tl->quat_off += d != 0;
            }
            for (int k = 0; k < 3; k++) {
                uint16_t x = ours->t[f][i][k], y = bi->t[f][i][k];
                if (x == y)
                    continue;
                /* one step apart, the same sign: the arithmetic's last bit */
                assert_int_equal(abs((int)x - (int)y), 1);
                tl->trans_off++;
            }
        }
    printf("# %s: %u values, %u quaternion and %u translation values one step off binarise's\n",
           name, ours->nframes * ours->nbones * 7, tl->quat_off, tl->trans_off);
    free(ours);
    free(bi);
    rtm_free(a);
    buf_free(&b);
    free(plain);
    free(theirs);
}

static void binarise_pairs(void **state)
{
    (void)state;
    const char *dir = shared_dir();
    if (!dir)
        skip_because("no ../shared");
    /* the rules were read off ace_hold and confirmed on ace_point */
    struct tally hold = { 0 }, point = { 0 };
    pair(dir, "ace_hold", &hold);
    pair(dir, "ace_point", &point);
    /* as measured: binarise computes in float32, this encoder in double,
     * and the last bit of 11 of 6,930 values differs */
    assert_true(hold.quat_off == 0 && hold.trans_off <= 8);
    assert_true(point.quat_off <= 2 && point.trans_off <= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(half_edges),
        cmocka_unit_test(quat_edges),
        cmocka_unit_test(sign_rule),
        cmocka_unit_test(not_a_rotation),
        cmocka_unit_test(parent_without_inverse),
        cmocka_unit_test(round_trip),
        cmocka_unit_test(bones_the_skeleton_lacks),
        cmocka_unit_test(binarise_pairs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
