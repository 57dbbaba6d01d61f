/* test_numfmt.c - shortest float formatting, fixed point and the lengths
 * of both (numfmt.h, numfmt_simd.h); its name escaping: test_numfmt_names. */
#include "testutil.h"

#include <float.h>
#include <math.h>

#include "numfmt.h"
#include "numfmt_simd.h"

static float from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t to_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static const char *fmt(float v, char *buf)
{
    size_t n = rtm_fmt_float(v, buf);
    assert_int_equal(n, strlen(buf));
    assert_true(n < RTM_FLOAT_CHARS);
    if (rtm_float_len(v) != n)
        fail_msg("0x%08x: \"%s\" but rtm_float_len %zu", to_bits(v), buf, rtm_float_len(v));
    return buf;
}

/* ---- exact strings ---------------------------------------------------- */

static void float_table(void **state)
{
    (void)state;
    static const struct { float v; const char *s; } cases[] = {
        { 0.0f, "0" },
        { -0.0f, "-0" },
        { 0.1f, "0.1" },
        { -0.1f, "-0.1" },
        { 0.3f, "0.3" },
        { 1.0f, "1" },
        { -1.0f, "-1" },
        { 1.5f, "1.5" },
        { 10.0f, "10" },
        { 123.456f, "123.456" },
        { 1.0f / 3.0f, "0.33333334" },
        { 1e-07f, "1e-07" },
        { 1e-06f, "1e-06" },
        { 0.00001f, "0.00001" },        /* exponent -5: still plain */
        { 0.000123f, "0.000123" },
        { 1e+30f, "1e+30" },
        { 1e+8f, "100000000" },         /* exponent 8: still plain */
        { 1e+9f, "1e+09" },             /* exponent 9: scientific */
        { 1.5e+9f, "1.5e+09" },
        { 16777216.0f, "16777216" },
        { 16777218.0f, "16777218" },
        { 33554432.0f, "33554432" },
        { 123456789.0f, "123456790" },  /* the float is 123456792 */
        { 1e-45f, "1e-45" },            /* smallest subnormal */
        { 3e-45f, "3e-45" },
        { 1.1754942e-38f, "1.1754942e-38" }, /* largest subnormal */
        { FLT_MIN, "1.1754944e-38" },
        { FLT_MAX, "3.4028235e+38" },
        { -FLT_MAX, "-3.4028235e+38" },
        { 1e-15f, "1e-15" },
        { 9.999999e-16f, "9.999999e-16" },
        { 1e+29f, "1e+29" },
        { 2.5e-5f, "0.000025" },
        { 0.7071068f, "0.7071068" },
        { (float)INFINITY, "inf" },
        { -(float)INFINITY, "-inf" },
    };
    char buf[RTM_FLOAT_CHARS];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fmt(cases[i].v, buf);
        if (strcmp(buf, cases[i].s) != 0)
            fail_msg("case %zu: %.9g formats as \"%s\", expected \"%s\"", i,
                     (double)cases[i].v, buf, cases[i].s);
    }
    assert_string_equal(fmt(NAN, buf), "nan");
    assert_string_equal(fmt(from_bits(0xffc00001u), buf), "nan"); /* negative NaN */
}

/* ---- round trip ------------------------------------------------------- */

/* Every non-NaN bit pattern reads back bit for bit through strtof.  Values
 * below 1e-15 or from 1e30 up take the slow search (~15 us each), so one
 * pattern in ten is fully uniform and the rest keep the exponent in the
 * fast path's range; the test stays at about a second. */
static void round_trip_random_bits(void **state)
{
    (void)state;
    lcg_state = 12345;
    char buf[RTM_FLOAT_CHARS];
    for (int i = 0; i < 1000000; i++) {
        uint32_t u = lcg_next();
        if (i % 10 != 0)
            u = (u & 0x807fffffu) | ((77u + lcg_next() % 150u) << 23);
        float v = from_bits(u);
        fmt(v, buf);
        if (isnan(v)) {
            assert_string_equal(buf, "nan");
            continue;
        }
        float r = strtof(buf, NULL);
        if (to_bits(r) != u)
            fail_msg("0x%08x formats as \"%s\", which reads back as 0x%08x", u, buf,
                     to_bits(r));
    }
}

/* The fast path must agree with the snprintf/strtof reference: on uniform
 * bit patterns (every exponent, subnormals too), on the decades animation
 * data lives in (1e-15 .. 1e30), and on typical matrix entries in [-2, 2].
 * (make float-exhaustive compares all 2^32.) */
static void fast_equals_slow(void **state)
{
    (void)state;
    lcg_state = 777;
    char a[RTM_FLOAT_CHARS], b[RTM_FLOAT_CHARS];
    for (int i = 0; i < 200000; i++) {
        uint32_t r = lcg_next();
        uint32_t u;
        switch (i % 4) {
        case 0: /* any exponent */
            u = r;
            break;
        case 1: /* 1e-15 .. 1e30: biased exponents 77..226 */
        case 2:
            u = (r & 0x807fffffu) | ((77u + lcg_next() % 150u) << 23);
            break;
        default: { /* typical matrix entries */
            float f = (float)((double)r / 4294967296.0 * 4.0 - 2.0);
            u = to_bits(f);
            break;
        }
        }
        float v = from_bits(u);
        if (!isfinite(v))
            continue;
        size_t na = rtm_fmt_float(v, a), nb = rtm_fmt_float_slow(v, b);
        if (na != nb || strcmp(a, b) != 0)
            fail_msg("0x%08x: fast \"%s\" but slow \"%s\"", u, a, b);
    }
}

/* Every power of two, subnormal to the largest, and the 8 floats on each
 * side: where the interval below is half the one above, and where the
 * exponent changes. */
static void powers_of_two(void **state)
{
    (void)state;
    char a[RTM_FLOAT_CHARS], b[RTM_FLOAT_CHARS];
    int n = 0;
    for (int e = -149; e <= 127; e++) {
        uint32_t p = to_bits(ldexpf(1.0f, e));
        for (int d = -8; d <= 8; d++) {
            uint32_t u = p + (uint32_t)d;
            float v = from_bits(u);
            if ((int64_t)p + d < 0 || !isfinite(v) || v == 0)
                continue;
            rtm_fmt_float(v, a);
            rtm_fmt_float_slow(v, b);
            if (strcmp(a, b) != 0)
                fail_msg("2^%d %+d ulps (0x%08x): fast \"%s\" but slow \"%s\"", e, d, u, a, b);
            rtm_fmt_float(-v, a);
            rtm_fmt_float_slow(-v, b);
            if (strcmp(a, b) != 0)
                fail_msg("-(2^%d %+d ulps): fast \"%s\" but slow \"%s\"", e, d, a, b);
            n++;
        }
    }
    assert_true(n > 270 * 16);
}

/* Significant digits of a formatted number: leading and trailing zeros do
 * not count ("100000000" has one, "0.00025" has two). */
static int sig_digits(const char *s)
{
    char d[RTM_FLOAT_CHARS];
    int n = 0;
    for (; *s && *s != 'e'; s++)
        if (*s >= '0' && *s <= '9')
            d[n++] = *s;
    int lo = 0, hi = n;
    while (lo < hi && d[lo] == '0')
        lo++;
    while (hi > lo && d[hi - 1] == '0')
        hi--;
    return hi - lo;
}

/* No decimal with one significant digit fewer reads back as the same
 * float: the nearest such decimal and its two neighbours all fail. */
static void output_is_shortest(void **state)
{
    (void)state;
    lcg_state = 4242;
    char buf[RTM_FLOAT_CHARS], s[64];
    int checked = 0;
    for (int i = 0; i < 20000; i++) {
        float v = from_bits(lcg_next() & 0x7fffffffu);
        if (!isfinite(v) || v == 0)
            continue;
        fmt(v, buf);
        int p = sig_digits(buf);
        assert_true(p >= 1 && p <= 9);
        if (p == 1)
            continue;
        /* p-1 significant digits: %.*e with precision p-2 */
        snprintf(s, sizeof s, "%.*e", p - 2, (double)v);
        char *e = strchr(s, 'e');
        assert_non_null(e);
        int exp10 = atoi(e + 1);
        /* mantissa digits as an integer m, value = m * 10^(exp10-(p-2)) */
        long long m = 0;
        for (char *q = s; q < e; q++)
            if (*q >= '0' && *q <= '9')
                m = m * 10 + (*q - '0');
        for (long long dm = -1; dm <= 1; dm++) {
            char cand[64];
            snprintf(cand, sizeof cand, "%llde%d", m + dm, exp10 - (p - 2));
            if (to_bits(strtof(cand, NULL)) == to_bits(v))
                fail_msg("0x%08x formats as \"%s\" (%d digits) but \"%s\" also "
                         "reads back", to_bits(v), buf, p, cand);
        }
        checked++;
    }
    assert_true(checked > 10000);
}

/* Where two decimals of the shortest length both read back, the nearer one
 * is chosen (numfmt.h).  For v in [1, 2) the other candidates of the same
 * length are the output plus or minus one unit in its last digit. */
static void nearest_of_shortest(void **state)
{
    (void)state;
    lcg_state = 99;
    char buf[RTM_FLOAT_CHARS], alt[64];
    for (int i = 0; i < 20000; i++) {
        float v = from_bits((lcg_next() & 0x007fffffu) | (127u << 23)); /* [1, 2) */
        fmt(v, buf);
        int p = sig_digits(buf);
        double got = strtod(buf, NULL), err = fabs(got - (double)v);
        /* the other candidates of the same length: one step up and down */
        double step = pow(10.0, -(p - 1)); /* v in [1,2): exponent 0 */
        for (int dir = -1; dir <= 1; dir += 2) {
            double other = got + dir * step;
            snprintf(alt, sizeof alt, "%.*f", p - 1, other);
            if (to_bits(strtof(alt, NULL)) == to_bits(v) &&
                fabs(strtod(alt, NULL) - (double)v) < err)
                fail_msg("%s chosen for %.9g, but %s is nearer", buf, (double)v, alt);
        }
    }
}

/* ---- buffers and JSON floats ----------------------------------------- */

static char *take_str(struct rtm_buf *b)
{
    rtm_buf_putc(b, 0);
    assert_false(b->oom);
    return rtm_buf_take(b, NULL);
}

static void put_float_and_json_float(void **state)
{
    (void)state;
    struct rtm_buf b;
    rtm_buf_init(&b);
    rtm_put_float(&b, 0.25f);
    rtm_buf_putc(&b, ' ');
    rtm_put_float(&b, NAN);
    rtm_buf_putc(&b, ' ');
    rtm_put_json_num(&b, -1.5f, RTM_DIGITS_EXACT);
    rtm_buf_putc(&b, ' ');
    rtm_put_json_num(&b, NAN, RTM_DIGITS_EXACT);
    rtm_buf_putc(&b, ' ');
    rtm_put_json_num(&b, (float)INFINITY, RTM_DIGITS_EXACT);
    rtm_buf_putc(&b, ' ');
    rtm_put_json_num(&b, -(float)INFINITY, RTM_DIGITS_EXACT);
    rtm_buf_putc(&b, ' ');
    rtm_put_json_num(&b, -0.0f, RTM_DIGITS_EXACT);
    char *s = take_str(&b);
    assert_string_equal(s, "0.25 nan -1.5 null null null -0");
    free(s);
}

/* ---- fixed point (-o digits=N) ------------------------------------------ */

static void fixed_point_table(void **state)
{
    (void)state;
    static const struct {
        float v;
        int digits;
        const char *want;
    } cases[] = {
        { 0.5f, 2, "0.5" },        { 1.0f, 3, "1" },           { -0.0001f, 2, "0" },
        { -0.0f, 3, "0" },         { 0.0f, 0, "0" },           { 0.125f, 2, "0.12" },
        { 0.375f, 2, "0.38" },     { -2.5f, 0, "-2" },         { 123.456f, 0, "123" },
        { 1e10f, 2, "10000000000" }, { 1e-7f, 9, "0.0000001" }, { -0.00049f, 3, "-0" },
        { 0.92448360f, 4, "0.9245" }, { -0.1f, 1, "-0.1" },    { 3.0e-5f, 4, "0" },
        { NAN, 3, "nan" },         { -INFINITY, 2, "-inf" },   { INFINITY, 0, "inf" },
        { -0.0f, RTM_DIGITS_EXACT, "-0" }, { 0.1f, RTM_DIGITS_EXACT, "0.1" },
    };
    char buf[RTM_FLOAT_CHARS];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = rtm_fmt_num(cases[i].v, cases[i].digits, buf);
        const char *want = strcmp(cases[i].want, "-0") == 0 && cases[i].digits >= 0
                               ? "0" : cases[i].want;
        if (strcmp(buf, want) != 0 || n != strlen(want))
            fail_msg("%.9g with %d digits: '%s', want '%s'", (double)cases[i].v,
                     cases[i].digits, buf, want);
    }
    /* the widest: FLT_MAX with 9 decimals, no exponent */
    size_t n = rtm_fmt_num(-3.40282347e38f, 9, buf);
    assert_int_equal(n, 40);
    assert_string_equal(buf, "-340282346638528859811704183484516925440");
}

/* Random bit patterns: the fixed form is "%.*f" with trailing zeros and a
 * bare point dropped, and -0 as 0; never an exponent. */
static void fixed_point_random(void **state)
{
    (void)state;
    uint32_t x = 12345;
    char got[RTM_FLOAT_CHARS], want[128];
    for (int i = 0; i < 200000; i++) {
        x = x * 1664525u + 1013904223u;
        float v;
        memcpy(&v, &x, 4);
        if (!isfinite(v))
            continue;
        int d = (int)(x >> 7) % (RTM_DIGITS_MAX + 1);
        rtm_fmt_num(v, d, got);
        int n = snprintf(want, sizeof want, "%.*f", d, (double)v);
        while (d > 0 && want[n - 1] == '0')
            want[--n] = 0;
        if (want[n - 1] == '.')
            want[--n] = 0;
        if (strcmp(want, "-0") == 0)
            strcpy(want, "0");
        if (strcmp(got, want) != 0 || strchr(got, 'e'))
            fail_msg("%.9g, %d digits: '%s', want '%s'", (double)v, d, got, want);
    }
}

/* The fast fixed-point path against snprintf where it is taken: numbers of
 * every size a matrix holds, and every tie (k / 2^m, which times 10^N ends
 * in exactly .5) that printf rounds half to even. */
static void fixed_point_fast_equals_snprintf(void **state)
{
    (void)state;
    uint32_t x = 99;
    char a[RTM_FLOAT_CHARS], b[RTM_FLOAT_CHARS];
    for (int i = 0; i < 1000000; i++) {
        x = x * 1664525u + 1013904223u;
        float v;
        if (i % 2) {
            v = (float)((double)(int32_t)x / 2147483648.0 * 2048.0);
        } else {
            uint32_t bits = (x & 0x807fffffu) | ((uint32_t)(100 + (x >> 8) % 60) << 23);
            memcpy(&v, &bits, 4);                       /* 2^-27 to 2^32 */
        }
        int d = (int)((x >> 3) % (RTM_DIGITS_MAX + 1));
        size_t na = rtm_fmt_num(v, d, a), nb = rtm_fmt_num_slow(v, d, b);
        if (na != nb || strcmp(a, b) != 0)
            fail_msg("%.9g with %d digits: fast '%s', snprintf '%s'", (double)v, d, a, b);
    }
    for (int k = -4096; k <= 4096; k++)
        for (int m = 0; m <= 12; m++)
            for (int d = 0; d <= RTM_DIGITS_MAX; d++) {
                float v = (float)k / (float)(1 << m);
                rtm_fmt_num(v, d, a);
                rtm_fmt_num_slow(v, d, b);
                if (strcmp(a, b) != 0)
                    fail_msg("tie %d/2^%d with %d digits: fast '%s', snprintf '%s'", k, m, d,
                             a, b);
            }
}

/* numfmt.h's rule for a double: x = v · 10^digits as a double, rounded
 * half to even (printf's "%.0f" of x), the point put in before the last
 * d digits (zeros before them when fewer), then trimmed; -0 is 0. */
static void fixed_reference(double v, int d, char *out)
{
    static const double pow10[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };
    char q[64], digits[80];
    int n = snprintf(q, sizeof q, "%.0f", fabs(v * pow10[d]));
    snprintf(digits, sizeof digits, "%0*d%s", n > d ? 0 : d + 1 - n, 0, q);
    if (n > d)                          /* no zeros wanted in front */
        strcpy(digits, q);
    int len = (int)strlen(digits), whole = len - d, frac = d;
    while (frac > 0 && digits[whole + frac - 1] == '0')
        frac--;
    int neg = v < 0 && strspn(digits, "0") < (size_t)len;
    sprintf(out, "%s%.*s%s%.*s", neg ? "-" : "", whole, digits, frac ? "." : "", frac,
            digits + whole);
}

/* rtm_fmt_fixed on doubles (preview.svg's and anim.bvh's numbers) follows
 * that rule: numbers of every size, and ties k / 2^m, which times 10^N
 * end in exactly .5; where the product is exact that is "%.*f" trimmed;
 * rtm_fixed_len is always its length. */
static void fixed_doubles(void **state)
{
    (void)state;
    lcg_state = 4242;
    char a[RTM_FLOAT_CHARS], b[128];
    for (int i = 0; i < 400000; i++) {
        uint64_t r = (uint64_t)lcg_next() << 32 | lcg_next();
        int d = (int)(r % (RTM_DIGITS_MAX + 1));
        double v = i % 3 == 0 ? ldexp((double)(int64_t)r, -(int)(r % 90))   /* up to 2^63 */
                   : i % 3 == 1 ? (double)(int32_t)(r >> 20) / (double)(1u << (r % 24))
                                : ((double)r / 18446744073709551616.0 - 0.5) * 2000.0;
        size_t n = rtm_fmt_fixed(v, d, a);
        if (rtm_fixed_len(v, d) != n)
            fail_msg("%.17g with %d digits: '%s' but rtm_fixed_len %zu", v, d, a,
                     rtm_fixed_len(v, d));
        if (fabs(v) * 1e9 >= 9e18)
            continue;                   /* beyond 63 bits: printf's own digits */
        fixed_reference(v, d, b);
        if (n != strlen(a) || strcmp(a, b) != 0)
            fail_msg("%.17g with %d digits: '%s', want '%s'", v, d, a, b);
    }
    /* the reference itself: half to even, zeros before the digits, -0 */
    fixed_reference(0.5, 0, b);
    assert_string_equal(b, "0");
    fixed_reference(-0.0123, 3, b);
    assert_string_equal(b, "-0.012");
    fixed_reference(-0.0004, 3, b);
    assert_string_equal(b, "0");
    fixed_reference(120.5, 2, b);
    assert_string_equal(b, "120.5");
}

/* rtm_num_len is the length rtm_fmt_num writes, with any digits, and
 * rtm_nums_len a row's. */
static void num_len_is_fmt_len(void **state)
{
    (void)state;
    lcg_state = 31337;
    char a[RTM_FLOAT_CHARS];
    for (int i = 0; i < 400000; i++) {
        uint32_t u = lcg_next();
        if (i % 2)
            u = (u & 0x807fffffu) | ((100u + lcg_next() % 40u) << 23);   /* 2^-27 .. 2^13 */
        float v = from_bits(u);
        int d = (int)(lcg_next() % (RTM_DIGITS_MAX + 2)) - 1;           /* -1: exact */
        size_t n = rtm_fmt_num(v, d, a);
        if (rtm_num_len(v, d) != n)
            fail_msg("0x%08x with %d digits: '%s' but rtm_num_len %zu", u, d, a,
                     rtm_num_len(v, d));
    }
    /* and rtm_nums_len, a row at a time, their sum */
    for (int d = -1; d <= RTM_DIGITS_MAX; d++) {
        float row[12];
        uint64_t sum = 0;
        for (int k = 0; k < 12; k++) {
            row[k] = from_bits(lcg_next());
            sum += rtm_fmt_num(row[k], d, a);
        }
        assert_int_equal(rtm_nums_len(row, 12, d), sum);
    }
}

/* The four-at-a-time length (numfmt_simd.h) of one float beside three
 * 1s, each 1 long: what the float's own lane gives. */
static uint64_t lane_len(float v)
{
    float four[4] = { v, 1, 1, 1 };
    uint64_t len = 0;
    assert_int_equal(rtm_float_lens_avx2(four, 4, &len), 4);
    return len - 3;
}

/* The vector lengths are the scalar ones, float by float: a million
 * random bit patterns (a third of them between 2^-27 and 2^13, where a
 * matrix's numbers are), every power of two (the rounding interval's
 * narrower lower half), the subnormals' edges and both zeros; a group
 * with an infinity or a NaN left to the scalar code; and rtm_nums_len's sums
 * of rows of 1 to 16 with those among them.  Where the processor has no
 * AVX2, the rows only, and the test says so. */
static void float_lens_avx2_as_scalar(void **state)
{
    (void)state;
    int avx2 = rtm_float_lens_avx2_ok();
    if (!avx2)
        print_message("no AVX2 here: rtm_nums_len's scalar sums only\n");
    lcg_state = 4242;
    for (uint32_t i = 0; avx2 && i < 1000000; i++) {
        uint32_t u = lcg_next();
        if (i % 3 == 0)
            u = (u & 0x807fffffu) | ((100u + lcg_next() % 40u) << 23);
        if (i < 512)                   /* 2^-126 .. 2^127, both signs */
            u = (i & 1) << 31 | (i / 2 % 255 + 1) << 23;
        else if (i < 1024)             /* about 2^-126, the largest subnormals */
            u = (i & 1) << 31 | ((i - 512) / 2 + 0x7ffe00u);
        else if (i < 2048)             /* the smallest, and 0 and -0 */
            u = (i & 1) << 31 | (i - 1024) / 2;
        float v = from_bits(u);
        if (!isfinite(v)) {
            float four[4] = { 1, 1, 1, v };
            uint64_t len = 0;
            assert_int_equal(rtm_float_lens_avx2(four, 4, &len), 0);
            assert_int_equal(len, 0);
        } else if (lane_len(v) != rtm_float_len(v)) {
            fail_msg("0x%08x: %llu, not %zu", u, (unsigned long long)lane_len(v),
                     rtm_float_len(v));
        }
    }
    for (int t = 0; t < 20000; t++) {
        float row[16];
        size_t n = 1 + lcg_next() % 16;
        uint64_t sum = 0;
        for (size_t k = 0; k < n; k++) {
            uint32_t r = lcg_next() % 8;
            row[k] = r == 0 ? 0.0f : r == 1 ? -INFINITY : r == 2 ? NAN : from_bits(lcg_next());
            sum += rtm_float_len(row[k]);
        }
        assert_int_equal(rtm_nums_len(row, n, RTM_DIGITS_EXACT), sum);
    }
}

/* A double for rtm_fixed_lens: of any size from 10^-12 to 10^17, or a
 * tie of the last decimal asked (k + 0.5 units of 10^-d, and its
 * neighbours), a small negative that rounds to zero, or not finite. */
static double some_double(int d)
{
    uint32_t r = lcg_next() % 8;
    double sign = lcg_next() % 2 ? -1 : 1, unit = pow(10, -d);
    if (r == 0)
        return sign * (lcg_next() % 100000 + 0.5) * unit;
    if (r == 1)
        return nextafter(sign * (lcg_next() % 1000 + 0.5) * unit, lcg_next() % 2 ? 0 : 1e300);
    if (r == 2)
        return -0.4 * unit * (lcg_next() % 1000) / 1000.0;
    if (r == 3)
        return lcg_next() % 3 == 0 ? NAN : lcg_next() % 2 ? INFINITY : -0.0;
    return sign * ((double)lcg_next() / 4294967296.0) * pow(10, (int)(lcg_next() % 30) - 12);
}

/* rtm_fixed_lens adds rtm_fixed_len's lengths, four at a time where it
 * can (numfmt_simd.h): rows of 1 to 16 doubles, digits -1 to 10 (both
 * clamped). */
static void fixed_lens_as_scalar(void **state)
{
    (void)state;
    lcg_state = 777;
    for (int t = 0; t < 200000; t++) {
        double row[16];
        int d = (int)(lcg_next() % 12) - 1, c = d < 0 ? 0 : d > RTM_DIGITS_MAX ? RTM_DIGITS_MAX : d;
        size_t n = 1 + lcg_next() % 16;
        uint64_t sum = 0;
        for (size_t k = 0; k < n; k++) {
            row[k] = some_double(c);
            sum += rtm_fixed_len(row[k], c);
        }
        if (rtm_fixed_lens(row, n, d) != sum)
            fail_msg("%zu doubles from %.17g, digits %d: %llu, not %llu", n, row[0], d,
                     (unsigned long long)rtm_fixed_lens(row, n, d), (unsigned long long)sum);
    }
}

static void digits_option(void **state)
{
    (void)state;
    assert_int_equal(rtm_digits_parse("0"), 0);
    assert_int_equal(rtm_digits_parse("3"), 3);
    assert_int_equal(rtm_digits_parse("9"), 9);
    assert_int_equal(rtm_digits_parse("10"), -1);
    assert_int_equal(rtm_digits_parse("-1"), -1);
    assert_int_equal(rtm_digits_parse(""), -1);
    assert_int_equal(rtm_digits_parse("3x"), -1);
    assert_int_equal(rtm_digits_parse(NULL), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(float_table),
        cmocka_unit_test(round_trip_random_bits),
        cmocka_unit_test(fast_equals_slow),
        cmocka_unit_test(powers_of_two),
        cmocka_unit_test(output_is_shortest),
        cmocka_unit_test(nearest_of_shortest),
        cmocka_unit_test(put_float_and_json_float),
        cmocka_unit_test(fixed_point_table),
        cmocka_unit_test(fixed_point_random),
        cmocka_unit_test(fixed_point_fast_equals_snprintf),
        cmocka_unit_test(fixed_doubles),
        cmocka_unit_test(num_len_is_fmt_len),
        cmocka_unit_test(float_lens_avx2_as_scalar),
        cmocka_unit_test(fixed_lens_as_scalar),
        cmocka_unit_test(digits_option),
    };
    return run_test_cases(tests, NULL, NULL);
}
