/* floatlen_avx2.c - rtm_float_len and rtm_fixed_len (numfmt.h) of four
 * numbers at once, with AVX2 where the processor has it (numfmt_simd.h).
 *
 * Sizing a first mount's frames/ and tracks/ measures every number of
 * every matrix: a quarter of a first-mount du's CPU was rtm_nums_len.
 * Each lane makes the decisions numfmt.c's shortest_fast and float_len
 * make, in the same integers, so the lengths are the scalar ones; `make
 * float-exhaustive` compares the two on every float32, and test_numfmt
 * on a million.  A group with an infinity or a NaN (or, which no float
 * has, a shift that would not keep a product within 96 bits) is left to
 * the scalar code. */
#include "numfmt_simd.h"

#if RTM_FLOATLEN_AVX2
#include <immintrin.h>

#include "pow10_table.h"

#define AVX2 __attribute__((target("avx2")))

static inline AVX2 __m256i k64(long long v) { return _mm256_set1_epi64x(v); }

/* round_to_odd(g, cp) of each lane, for cp < 2^32: g = gh 2^32 + gl, so
 * g cp >> 32 is t = gh cp + (gl cp >> 32) (gh cp < 2^62: no carry out),
 * whose top half is the product's top 64 bits and whose bottom half is
 * the product's bits 32..63. */
static inline AVX2 __m256i rto4(__m256i g_hi, __m256i g, __m256i cp)
{
    __m256i t = _mm256_add_epi64(_mm256_mul_epu32(g_hi, cp),
                                 _mm256_srli_epi64(_mm256_mul_epu32(g, cp), 32));
    __m256i low = _mm256_and_si256(t, k64(0xffffffff));
    __m256i sticky = _mm256_and_si256(_mm256_cmpgt_epi64(low, k64(1)), k64(1));
    return _mm256_or_si256(_mm256_srli_epi64(t, 32), sticky);
}

/* d / 10 floored, for integers 0 <= d < 2^47 in doubles: d / 10 is
 * q + r/10 (r 0 to 9), and d 0.1 + 0.05 (0.1's error, two roundings) lies
 * within 2^-54 d, under 0.01, of q + r/10 + 0.05: strictly between q and
 * q + 1.  A multiplication: a division's latency was a fifth of these
 * lengths. */
static inline AVX2 __m256d tenth_pd(__m256d d)
{
    return _mm256_floor_pd(_mm256_add_pd(_mm256_mul_pd(d, _mm256_set1_pd(0.1)),
                                         _mm256_set1_pd(0.05)));
}

/* x / 10, floored, for 0 <= x < 2^47: in doubles, where x is exact. */
static inline AVX2 __m256i div10(__m256i x)
{
    const __m256d two52 = _mm256_set1_pd(0x1p52);
    __m256d d = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(x, _mm256_castpd_si256(two52))),
                              two52);
    return _mm256_xor_si256(_mm256_castpd_si256(_mm256_add_pd(tenth_pd(d), two52)),
                            _mm256_castpd_si256(two52));
}

static inline AVX2 __m256i times10(__m256i x)
{
    return _mm256_add_epi64(_mm256_slli_epi64(x, 3), _mm256_slli_epi64(x, 1));
}

/* a <= b, lane by lane (all below 2^63): all ones or zero. */
static inline AVX2 __m256i le64(__m256i a, __m256i b)
{
    return _mm256_xor_si256(_mm256_cmpgt_epi64(a, b), k64(-1));
}

/* The decimal digits and exponent of four floats' shortest forms. */
struct four {
    __m256i digits, exp10;
};

/* Four floats' value and rounding interval's bounds scaled to quarter
 * units of 10^k (vb, lower, upper; k in 32-bit lanes), as shortest_fast
 * computes them from the floats' bits (finite, non-zero); -1 where a
 * shift would take a product past 96 bits, which no float's does. */
struct scaled {
    __m256i vb, lower, upper;
    __m128i k;
};

static inline AVX2 int scale4(__m128i bits, struct scaled *x)
{
    __m128i ef = _mm_and_si128(_mm_srli_epi32(bits, 23), _mm_set1_epi32(0xff));
    __m128i mf = _mm_and_si128(bits, _mm_set1_epi32(0x7fffff));
    __m128i sub = _mm_cmpeq_epi32(ef, _mm_setzero_si128());     /* subnormal */
    __m128i c = _mm_or_si128(mf, _mm_andnot_si128(sub, _mm_set1_epi32(1 << 23)));
    __m128i q = _mm_blendv_epi8(_mm_sub_epi32(ef, _mm_set1_epi32(150)), _mm_set1_epi32(-149),
                                sub);
    __m128i closer = _mm_and_si128(_mm_cmpeq_epi32(mf, _mm_setzero_si128()),
                                   _mm_cmpgt_epi32(ef, _mm_set1_epi32(1)));
    __m128i k_near = _mm_srai_epi32(
        _mm_sub_epi32(_mm_mullo_epi32(q, _mm_set1_epi32(1262611)), _mm_set1_epi32(524031)), 22);
    __m128i k_even = _mm_srai_epi32(_mm_mullo_epi32(q, _mm_set1_epi32(78913)), 18);
    __m128i k = _mm_blendv_epi8(k_even, k_near, closer);
    __m128i minus_k = _mm_sub_epi32(_mm_setzero_si128(), k);
    __m128i h = _mm_add_epi32(
        _mm_add_epi32(q, _mm_srai_epi32(_mm_mullo_epi32(minus_k, _mm_set1_epi32(1741647)), 19)),
        _mm_set1_epi32(1));
    /* (4c + 2) << h must stay below 2^32: no float's h is above 5 */
    if (_mm_movemask_epi8(_mm_or_si128(_mm_cmpgt_epi32(h, _mm_set1_epi32(5)),
                                       _mm_cmplt_epi32(h, _mm_setzero_si128()))))
        return -1;
    __m256i g = _mm256_i32gather_epi64((const long long *)POW10_G,
                                       _mm_sub_epi32(_mm_set1_epi32(31), k), 8);
    __m256i g_hi = _mm256_srli_epi64(g, 32);
    __m256i c64 = _mm256_cvtepu32_epi64(c), h64 = _mm256_cvtepu32_epi64(h);
    __m256i c4 = _mm256_slli_epi64(c64, 2), odd = _mm256_and_si256(c64, k64(1));
    __m256i cl = _mm256_and_si256(_mm256_cvtepi32_epi64(closer), k64(1));
    __m256i below = _mm256_add_epi64(_mm256_sub_epi64(c4, k64(2)), cl);
    x->vb = rto4(g_hi, g, _mm256_sllv_epi64(c4, h64));
    x->lower = _mm256_add_epi64(rto4(g_hi, g, _mm256_sllv_epi64(below, h64)), odd);
    x->upper = _mm256_sub_epi64(
        rto4(g_hi, g, _mm256_sllv_epi64(_mm256_add_epi64(c4, k64(2)), h64)), odd);
    x->k = k;
    return 0;
}

/* shortest_fast's choice in the interval: one digit fewer where exactly
 * one of its two candidates is inside, else the nearer of s and s + 1
 * inside (at the middle, the even). */
static inline AVX2 struct four choose4(struct scaled x)
{
    __m256i s = _mm256_srli_epi64(x.vb, 2), sp = div10(s);
    __m256i sp40 = _mm256_slli_epi64(times10(sp), 2);
    __m256i up1 = le64(x.lower, sp40), wp1 = le64(_mm256_add_epi64(sp40, k64(40)), x.upper);
    __m256i fewer = _mm256_and_si256(_mm256_cmpgt_epi64(s, k64(9)), _mm256_xor_si256(up1, wp1));
    __m256i s4 = _mm256_slli_epi64(s, 2), mid = _mm256_add_epi64(s4, k64(2));
    __m256i u = le64(x.lower, s4), w = le64(_mm256_add_epi64(s4, k64(4)), x.upper);
    __m256i nearer = _mm256_or_si256(
        _mm256_cmpgt_epi64(x.vb, mid),
        _mm256_and_si256(_mm256_cmpeq_epi64(x.vb, mid),
                         _mm256_cmpeq_epi64(_mm256_and_si256(s, k64(1)), k64(1))));
    __m256i up2 = _mm256_blendv_epi8(w, nearer, _mm256_and_si256(u, w));
    /* masks are -1: subtracting one adds 1 */
    return (struct four){ _mm256_blendv_epi8(_mm256_sub_epi64(s, up2), _mm256_sub_epi64(sp, wp1),
                                             fewer),
                          _mm256_sub_epi64(_mm256_cvtepi32_epi64(x.k), fewer) };
}

/* float_len's length from the digits and exponent of four floats, and
 * their signs (0 or 1 a lane). */
static inline AVX2 __m256i length4(struct four f, __m256i neg)
{
    __m256i m = f.digits, e = f.exp10;
    for (;;) {                          /* trailing zeros go */
        __m256i q = div10(m);
        __m256i zero = _mm256_and_si256(_mm256_cmpgt_epi64(m, k64(9)),
                                        _mm256_cmpeq_epi64(m, times10(q)));
        if (!_mm256_movemask_epi8(zero))
            break;
        m = _mm256_blendv_epi8(m, q, zero);
        e = _mm256_sub_epi64(e, zero);
    }
    __m256i n = k64(1);                 /* digits: m < 10^10 */
    long long p = 9;
    for (int i = 1; i <= 9; i++, p = p * 10 + 9)
        n = _mm256_sub_epi64(n, _mm256_cmpgt_epi64(m, k64(p)));
    __m256i x = _mm256_add_epi64(e, _mm256_sub_epi64(n, k64(1)));   /* d.dd 10^x */
    __m256i small = _mm256_and_si256(_mm256_cmpgt_epi64(x, k64(-6)),
                                     _mm256_cmpgt_epi64(k64(0), x));
    __m256i plain = _mm256_and_si256(_mm256_cmpgt_epi64(x, k64(-1)),
                                     _mm256_cmpgt_epi64(k64(9), x));
    __m256i len_small = _mm256_sub_epi64(_mm256_add_epi64(n, k64(1)), x);
    __m256i x1 = _mm256_add_epi64(x, k64(1));
    __m256i len_plain = _mm256_blendv_epi8(x1, _mm256_add_epi64(n, k64(1)),
                                           _mm256_cmpgt_epi64(n, x1));
    __m256i len_sci = _mm256_add_epi64(
        _mm256_blendv_epi8(k64(1), _mm256_add_epi64(n, k64(1)), _mm256_cmpgt_epi64(n, k64(1))),
        k64(4));
    __m256i len = _mm256_blendv_epi8(_mm256_blendv_epi8(len_sci, len_plain, plain), len_small,
                                     small);
    return _mm256_add_epi64(len, neg);
}

/* The lengths of v[0..3] added, or -1 for a group the scalar code takes. */
static inline AVX2 long long group4(const float *v)
{
    __m128i bits = _mm_loadu_si128((const __m128i *)(const void *)v);
    __m128i mag = _mm_and_si128(bits, _mm_set1_epi32(0x7fffffff));
    /* "0" and "-0" are as long as "1" and "-1": a zero is measured as a
     * one of its sign (matrices hold many) */
    __m128i one = _mm_and_si128(_mm_cmpeq_epi32(mag, _mm_setzero_si128()),
                                _mm_set1_epi32(0x3f800000));
    bits = _mm_or_si128(bits, one);
    struct scaled x;
    if (_mm_movemask_epi8(_mm_cmpgt_epi32(mag, _mm_set1_epi32(0x7f7fffff))) ||
        scale4(bits, &x))
        return -1;
    __m256i len = length4(choose4(x), _mm256_cvtepu32_epi64(_mm_srli_epi32(bits, 31)));
    __m128i half = _mm_add_epi64(_mm256_castsi256_si128(len), _mm256_extracti128_si256(len, 1));
    return _mm_cvtsi128_si64(half) + _mm_extract_epi64(half, 1);
}

/* 10^p as doubles (exact), p = 0..16. */
static const double POW10_D[17] = { 1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7, 1e8,
                                    1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16 };

/* rtm_fixed_len of four doubles with digits decimals (0..9), added, or -1
 * for a group the scalar code takes (one whose scaled value is not below
 * 2^47, or is NaN).  There the scaled value rounds half to even as
 * round_half_even rounds it, and the integers and their tenths are exact
 * in doubles. */
static inline AVX2 long long fixed4(const double *v, int digits)
{
    __m256d x = _mm256_andnot_pd(_mm256_set1_pd(-0.0),
                                 _mm256_mul_pd(_mm256_loadu_pd(v), _mm256_set1_pd(POW10_D[digits])));
    if (_mm256_movemask_pd(_mm256_cmp_pd(x, _mm256_set1_pd(0x1p47), _CMP_NLT_UQ)))
        return -1;
    __m256d q = _mm256_round_pd(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m256i n = k64(1);                 /* q's digits (q <= 2^47 < 10^15) */
    for (int p = 1; p <= 15; p++)
        n = _mm256_sub_epi64(n, _mm256_castpd_si256(
                                    _mm256_cmp_pd(q, _mm256_set1_pd(POW10_D[p]), _CMP_GE_OQ)));
    __m256i frac = k64(digits);
    __m256d rest = q, ten = _mm256_set1_pd(10.0);
    for (int i = 0; i < digits; i++) {  /* the decimals' trailing zeros go */
        __m256d tenth = tenth_pd(rest);
        __m256i zero = _mm256_and_si256(
            _mm256_castpd_si256(_mm256_cmp_pd(_mm256_mul_pd(tenth, ten), rest, _CMP_EQ_OQ)),
            _mm256_cmpgt_epi64(frac, _mm256_setzero_si256()));
        if (!_mm256_movemask_epi8(zero))
            break;
        rest = _mm256_blendv_pd(rest, tenth, _mm256_castsi256_pd(zero));
        frac = _mm256_add_epi64(frac, zero);
    }
    __m256i sign = _mm256_and_si256(        /* q && v < 0 */
        _mm256_castpd_si256(_mm256_and_pd(_mm256_cmp_pd(q, _mm256_setzero_pd(), _CMP_NEQ_OQ),
                                          _mm256_cmp_pd(_mm256_loadu_pd(v), _mm256_setzero_pd(),
                                                        _CMP_LT_OQ))),
        k64(1));
    __m256i whole = _mm256_blendv_epi8(k64(1), _mm256_sub_epi64(n, k64(digits)),
                                       _mm256_cmpgt_epi64(n, k64(digits)));
    __m256i point = _mm256_and_si256(_mm256_add_epi64(frac, k64(1)),
                                     _mm256_cmpgt_epi64(frac, _mm256_setzero_si256()));
    __m256i len = _mm256_add_epi64(_mm256_add_epi64(sign, whole), point);
    __m128i half = _mm_add_epi64(_mm256_castsi256_si128(len), _mm256_extracti128_si256(len, 1));
    return _mm_cvtsi128_si64(half) + _mm_extract_epi64(half, 1);
}

AVX2 size_t rtm_fixed_lens_avx2(const double *v, size_t n, int digits, uint64_t *len)
{
    size_t i = 0;
    for (long long g; i + 4 <= n && (g = fixed4(v + i, digits)) >= 0; i += 4)
        *len += (uint64_t)g;
    return i;
}

AVX2 size_t rtm_float_lens_avx2(const float *v, size_t n, uint64_t *len)
{
    size_t i = 0;
    for (long long g; i + 4 <= n && (g = group4(v + i)) >= 0; i += 4)
        *len += (uint64_t)g;
    return i;
}

int rtm_float_lens_avx2_ok(void)
{
    return __builtin_cpu_supports("avx2") != 0;
}

#else

size_t rtm_float_lens_avx2(const float *v, size_t n, uint64_t *len)
{
    (void)v;
    (void)n;
    (void)len;
    return 0;
}

size_t rtm_fixed_lens_avx2(const double *v, size_t n, int digits, uint64_t *len)
{
    (void)v;
    (void)n;
    (void)digits;
    (void)len;
    return 0;
}

int rtm_float_lens_avx2_ok(void) { return 0; }

#endif
