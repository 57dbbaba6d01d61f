/* convert.c - quaternion + half-float translation to 4x3 matrices. */
#include "convert.h"

#include <stdlib.h>

/* x86-64 with GCC or clang: the AVX2 converter is built beside the
 * generic one and chosen at run time (rtm_convert_avx2). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define RTM_CONVERT_AVX2 1
#include <immintrin.h>
#else
#define RTM_CONVERT_AVX2 0
#endif

/* Inline: each bone of each frame has three. */
static inline float half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 31, man = h & 1023;
    uint32_t bits;
    if (exp == 0) {
        float v = (float)man * 0x1p-24f; /* subnormal or zero: exact */
        memcpy(&bits, &v, 4);
        bits |= sign;
    } else if (exp == 31) {
        bits = sign | 0x7f800000u | (man << 13); /* inf, or NaN keeping its payload */
    } else {
        bits = sign | ((exp - 15 + 127) << 23) | (man << 13);
    }
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

float rtm_half_to_float(uint16_t h) { return half_to_float(h); }

/* The same value as a double, for the converter, which takes it so: a
 * normal half (exponent 1 to 30) has its bits placed in a double's, the
 * exponent rebased from 15 to 1023, which is its value exactly, as the
 * float was; a zero (half of all translations) keeps its sign alone.
 * Subnormals, infinities and NaNs go through the float as before (the
 * NaN's bits too). */
static inline double half_to_double(uint16_t h)
{
    uint32_t mag = h & 0x7fffu;
    uint64_t bits = (uint64_t)(h & 0x8000u) << 48;
    if (mag - 0x0400u < 0x7800u)        /* exponent 1 to 30 */
        bits |= ((uint64_t)mag << 42) + ((uint64_t)(1023 - 15) << 52);
    else if (mag != 0)
        return half_to_float(h);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* plan->order: the bones by rank (skeleton index, skel_n for a bone the
 * skeleton lacks), equal ranks in bone order.  A counting sort: ranks are
 * small, bone order is what a stable pass keeps, and qsort's merge sort
 * cost more than the rest of the plan.  count: skel_n + 2 zeroed slots. */
static void order_by_rank(const uint32_t *rank, uint32_t nbones, uint32_t skel_n,
                          uint32_t *count, uint32_t *order)
{
    for (uint32_t b = 0; b < nbones; b++)
        count[rank[b] + 1]++;
    for (uint32_t k = 1; k <= skel_n + 1; k++)
        count[k] += count[k - 1];
    for (uint32_t b = 0; b < nbones; b++)
        order[count[rank[b]]++] = b;
}

int rtm_plan_make(const struct rtm_skeleton *skel, const struct rtm_str *bones,
                  uint32_t nbones, struct rtm_plan *plan)
{
    static const struct rtm_skeleton no_skeleton = { 0 };
    if (!skel)
        skel = &no_skeleton;
    memset(plan, 0, sizeof *plan);
    size_t n = nbones ? nbones : 1;
    uint32_t *rank = malloc(n * sizeof *rank);
    int32_t *first = malloc((skel->nbones ? skel->nbones : 1) * sizeof *first);
    uint32_t *count = calloc((size_t)skel->nbones + 2, sizeof *count);
    plan->order = malloc(n * sizeof *plan->order);
    plan->parent = malloc(n * sizeof *plan->parent);
    if (!rank || !first || !count || !plan->order || !plan->parent) {
        free(rank);
        free(first);
        free(count);
        rtm_plan_free(plan);
        return -1;
    }
    plan->nbones = nbones;
    for (uint32_t s = 0; s < skel->nbones; s++)
        first[s] = -1;
    for (uint32_t b = 0; b < nbones; b++) {
        int32_t s = rtm_skeleton_find(skel, bones[b].s, bones[b].len);
        rank[b] = s >= 0 ? (uint32_t)s : skel->nbones;
        if (s >= 0 && first[s] < 0)
            first[s] = (int32_t)b;
    }
    /* Only a direct parent that is present counts (rtm(5), Composition). */
    for (uint32_t b = 0; b < nbones; b++) {
        int32_t p = rank[b] < skel->nbones ? skel->parent[rank[b]] : -1;
        plan->parent[b] = p >= 0 ? first[p] : -1;
        plan->composed += plan->parent[b] >= 0;
    }
    order_by_rank(rank, nbones, skel->nbones, count, plan->order);
    free(rank);
    free(first);
    free(count);
    return 0;
}

void rtm_plan_free(struct rtm_plan *plan)
{
    free(plan->order);
    free(plan->parent);
    memset(plan, 0, sizeof *plan);
}

static double q_of(const uint8_t *t, int i)
{
    int16_t v;
    memcpy(&v, t + 2 * i, 2);
    return v / 16384.0;
}

/* armaio rot_loc_to_matrix with the handedness flips; the expression shapes
 * are kept as the reference writes them so that signed zeros agree.  Only
 * the first three columns are kept: the fourth is (0, 0, 0, 1) for a local
 * matrix, and no output depends on the fourth column of a product.
 * Inlined into its caller, which then keeps m in registers for the
 * product (no call, no round trip through the stack). */
static inline __attribute__((always_inline)) void local_matrix(const uint8_t *t,
                                                               double m[12])
{
    double x = q_of(t, 0), y = q_of(t, 1), z = q_of(t, 2), w = q_of(t, 3);
    double tx = half_to_double(le_u16(t + 8));
    double ty = half_to_double(le_u16(t + 10));
    double tz = half_to_double(le_u16(t + 12));
    double r00 = 1 - 2 * y * y - 2 * z * z, r01 = 2 * x * y - 2 * z * w;
    double r02 = 2 * x * z + 2 * y * w, r10 = 2 * x * y + 2 * z * w;
    double r11 = 1 - 2 * x * x - 2 * z * z, r12 = 2 * y * z - 2 * x * w;
    double r20 = 2 * x * z - 2 * y * w, r21 = 2 * y * z + 2 * x * w;
    double r22 = 1 - 2 * x * x - 2 * y * y;
    m[0] = r00, m[1] = -r01, m[2] = r02;
    m[3] = -r10, m[4] = r11, m[5] = -r12;
    m[6] = r20, m[7] = -r21, m[8] = r22;
    m[9] = -tx, m[10] = ty, m[11] = -tz;
}

/* Two doubles, for lanes that SSE2 (every x86-64) computes two at a time:
 * each lane rounds exactly as the scalar expression would. */
typedef double v2d __attribute__((vector_size(16)));

static inline v2d load2(const double *p)
{
    v2d v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Row i of a x b (below): r is a's row, a3 its fourth column; bk is b's
 * row k, columns 0 and 1. */
static inline void mul_row(const double *r, double a3, const double b[12], v2d b0, v2d b1,
                           v2d b2, v2d b3, double *res)
{
    v2d lo = r[0] * b0 + r[1] * b1 + r[2] * b2 + a3 * b3;
    memcpy(res, &lo, sizeof lo);
    res[2] = r[0] * b[2] + r[1] * b[5] + r[2] * b[8] + a3 * b[11];
}

/* res = a x b for row-vector 4x4 matrices stored as their first three
 * columns.  Each sum runs left to right with every term kept, including
 * a[i][3] * b[3][j] with a[i][3] = 0: its sign can turn -0 into +0.
 * Columns 0 and 1 are done as the two lanes of a v2d, column 2 alone: the
 * same operations in the same order, half the instructions. */
static void mul4x3(const double a[12], const double b[12], double res[12])
{
    v2d b0 = load2(b), b1 = load2(b + 3), b2 = load2(b + 6), b3 = load2(b + 9);
    mul_row(a, 0.0, b, b0, b1, b2, b3, res);
    mul_row(a + 3, 0.0, b, b0, b1, b2, b3, res + 3);
    mul_row(a + 6, 0.0, b, b0, b1, b2, b3, res + 6);
    mul_row(a + 9, 1.0, b, b0, b1, b2, b3, res + 9);
}

/* Two floats, what SSE2 rounds two doubles to at once (cvtpd2ps): each
 * lane as (float) would round it. */
typedef float v2f __attribute__((vector_size(8)));

/* Doubles d[k], d[k + 1] as floats at out + k floats. */
static inline void put_pair(const double *d, int k, uint8_t *out)
{
    v2f f = __builtin_convertvector(load2(d + k), v2f);
    memcpy(out + (size_t)k * sizeof(float), &f, sizeof f);
}

/* A matrix's 12 doubles as floats at out, two at a time. */
static inline void put_floats(const double *d, uint8_t *out)
{
    put_pair(d, 0, out);
    put_pair(d, 2, out);
    put_pair(d, 4, out);
    put_pair(d, 6, out);
    put_pair(d, 8, out);
    put_pair(d, 10, out);
}

/* The converter on any x86-64 (SSE2), or anywhere. */
static void convert_generic(const struct rtm_plan *plan, const uint8_t *transforms,
                            double *scratch, uint8_t *out, size_t stride)
{
    for (uint32_t i = 0; i < plan->nbones; i++) {
        uint32_t b = plan->order[i];
        double *abs = scratch + (size_t)b * 12;
        int32_t p = plan->parent[b];
        if (p >= 0) {
            double local[12];
            local_matrix(transforms + (size_t)b * RTM_TRANSFORM_BYTES, local);
            mul4x3(local, scratch + (size_t)p * 12, abs);
        } else {
            local_matrix(transforms + (size_t)b * RTM_TRANSFORM_BYTES, abs);
        }
        put_floats(abs, out + (size_t)b * stride);
    }
}

#if RTM_CONVERT_AVX2
/* The same with AVX2, on a processor that has it: a product's row, three
 * columns (and a fourth, unused), is one 4-lane operation where SSE2
 * needs a pair and a single; the rest is the same code in VEX encoding.
 * Every lane rounds as the scalar expression would: the same operations
 * in the same order, and no FMA (-ffp-contract=off, and AVX2 has none). */

/* Row a[0..2] x b's rows, plus t (a's fourth column's term), left to right. */
__attribute__((target("avx2"))) static inline __m256d row4(const double *a, __m256d b0,
                                                           __m256d b1, __m256d b2, __m256d t)
{
    __m256d s = _mm256_mul_pd(_mm256_set1_pd(a[0]), b0);
    s = _mm256_add_pd(s, _mm256_mul_pd(_mm256_set1_pd(a[1]), b1));
    s = _mm256_add_pd(s, _mm256_mul_pd(_mm256_set1_pd(a[2]), b2));
    return _mm256_add_pd(s, t);
}

/* res = a x b as mul4x3 computes it, and res as floats at out.  Row k of
 * b is 4 doubles from b + 3k (the fourth is the next row's first); the
 * last row's load starts one earlier, so as not to read past b, and is
 * shifted down.  a's fourth column is (0, 0, 0, 1): rows 0 to 2 add
 * 0 * b's last row, kept as in mul4x3; row 3 adds b's last row itself,
 * as the compiler makes of 1 * it there.  The rows are stored in order,
 * each 4-lane store's extra lane overwritten by the next row; the last
 * row's three are copied, since its extra lane is another bone's. */
__attribute__((target("avx2"))) static void mul4x3_avx2(const double a[12],
                                                        const double b[12], double res[12],
                                                        uint8_t *out)
{
    __m256d b0 = _mm256_loadu_pd(b), b1 = _mm256_loadu_pd(b + 3);
    __m256d b2 = _mm256_loadu_pd(b + 6);
    __m256d b3 = _mm256_permute4x64_pd(_mm256_loadu_pd(b + 8), _MM_SHUFFLE(3, 3, 2, 1));
    __m256d zero = _mm256_mul_pd(_mm256_setzero_pd(), b3);
    __m256d r0 = row4(a, b0, b1, b2, zero), r1 = row4(a + 3, b0, b1, b2, zero);
    __m256d r2 = row4(a + 6, b0, b1, b2, zero), r3 = row4(a + 9, b0, b1, b2, b3);
    _mm256_storeu_pd(res, r0);
    _mm256_storeu_pd(res + 3, r1);
    _mm256_storeu_pd(res + 6, r2);
    _mm_storeu_pd(res + 9, _mm256_castpd256_pd128(r3));
    _mm_store_sd(res + 11, _mm256_extractf128_pd(r3, 1));
    __m128 f3 = _mm256_cvtpd_ps(r3);
    _mm_storeu_ps((float *)(void *)out, _mm256_cvtpd_ps(r0));
    _mm_storeu_ps((float *)(void *)(out + 12), _mm256_cvtpd_ps(r1));
    _mm_storeu_ps((float *)(void *)(out + 24), _mm256_cvtpd_ps(r2));
    float last[4];                      /* out is a byte stream: no aligned store */
    _mm_storeu_ps(last, f3);
    memcpy(out + 36, last, 3 * sizeof(float));
}

__attribute__((target("avx2"))) static void convert_avx2(const struct rtm_plan *plan,
                                                         const uint8_t *transforms,
                                                         double *scratch, uint8_t *out,
                                                         size_t stride)
{
    for (uint32_t i = 0; i < plan->nbones; i++) {
        uint32_t b = plan->order[i];
        double *abs = scratch + (size_t)b * 12;
        int32_t p = plan->parent[b];
        if (p >= 0) {
            double local[12];
            local_matrix(transforms + (size_t)b * RTM_TRANSFORM_BYTES, local);
            mul4x3_avx2(local, scratch + (size_t)p * 12, abs, out + (size_t)b * stride);
        } else {
            local_matrix(transforms + (size_t)b * RTM_TRANSFORM_BYTES, abs);
            put_floats(abs, out + (size_t)b * stride);
        }
    }
}
#endif

int rtm_convert_avx2(void)
{
#if RTM_CONVERT_AVX2
    return __builtin_cpu_supports("avx2") != 0;
#else
    return 0;
#endif
}

void rtm_convert_frame_with(int avx2, const struct rtm_plan *plan, const uint8_t *transforms,
                            double *scratch, uint8_t *out, size_t stride)
{
#if RTM_CONVERT_AVX2
    if (avx2) {
        convert_avx2(plan, transforms, scratch, out, stride);
        return;
    }
#endif
    (void)avx2;
    convert_generic(plan, transforms, scratch, out, stride);
}

void rtm_convert_frame_at(const struct rtm_plan *plan, const uint8_t *transforms,
                          double *scratch, uint8_t *out, size_t stride)
{
    rtm_convert_frame_with(rtm_convert_avx2(), plan, transforms, scratch, out, stride);
}

void rtm_convert_frame(const struct rtm_plan *plan, const uint8_t *transforms,
                       double *scratch, float *out)
{
    rtm_convert_frame_at(plan, transforms, scratch, (uint8_t *)out, 12 * sizeof(float));
}
