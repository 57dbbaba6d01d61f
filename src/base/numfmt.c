/* numfmt.c - shortest round-trip float32 formatting and name escaping.
 *
 * The shortest form is found in constant time the way Schubfach does it
 * (R. Giulietti, "The Schubfach way to render doubles", 2020), with one
 * 64-bit power of ten a decade (pow10_table.h), for every finite float32.
 * A slow snprintf/strtof search gives the same answers
 * (rtm_fmt_float_slow), which the unit tests compare; `make
 * float-exhaustive` checks all 2^32 bit patterns against the contract.
 */
#include "numfmt.h"
#include "numfmt_simd.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef unsigned __int128 u128;

#include "pow10_table.h"

struct decimal {
    uint64_t digits;   /* without trailing zeros */
    int exp10;         /* value = digits * 10^exp10 */
};

/* cp 2^q 10^-k rounded to odd: its floor, with the lowest bit set when the
 * fraction is not 0.  g = POW10_G[-k] (2^63 <= g < 2^64, 10^-k rounded
 * up) and cp = cb << h with h = q + floor(log2 10^-k) + 1, so that the
 * product's top 64 bits are the floor; bits 32..63 of it tell an exact
 * value (where g's excess leaves at most 1 there) from an inexact one.
 * This is Schubfach's round-to-odd (R. Giulietti, "The Schubfach way to
 * render doubles", 2020), exact for float32 as make float-exhaustive
 * checks over every value. */
static inline uint64_t round_to_odd(uint64_t g, uint64_t cp)
{
    u128 p = (u128)g * cp;
    return (uint64_t)(p >> 64) | ((uint32_t)(p >> 32) > 1);
}

/* The shortest decimal that rounds back to v (> 0, finite), the nearest
 * such when several qualify (ties to even digits), in constant time as
 * Schubfach finds it: with k = floor(log10 of v's rounding interval's
 * width), the interval holds at most one multiple of 10^(k+1), and one or
 * two of 10^k.  The interval's bounds and v are scaled to quarter units of
 * 10^k (vbl, vbr, vb), rounded to odd; the bounds belong to the interval
 * when the significand is even (strtof rounds ties to even). */
static inline __attribute__((always_inline)) int shortest_fast(float v, struct decimal *d)
{
    uint32_t bits;
    memcpy(&bits, &v, 4);
    uint32_t ef = (bits >> 23) & 0xff, mf = bits & 0x7fffff;
    uint64_t c = ef ? mf | (1u << 23) : mf;
    int q = ef ? (int)ef - 150 : -149;
    int closer_below = mf == 0 && ef > 1;   /* the gap below a power of two is half */
    int k = closer_below ? (q * 1262611 - 524031) >> 22 : (q * 78913) >> 18;
    int h = q + ((-k * 1741647) >> 19) + 1;
    uint64_t g = POW10_G[31 - k], odd = c & 1;
    uint64_t vb = round_to_odd(g, (4 * c) << h);
    uint64_t lower = round_to_odd(g, (4 * c - 2 + (uint64_t)closer_below) << h) + odd;
    uint64_t upper = round_to_odd(g, (4 * c + 2) << h) - odd;
    uint64_t s = vb >> 2;
    if (s >= 10) {                      /* one digit fewer */
        uint64_t sp = s / 10;
        int up = lower <= 40 * sp, wp = 40 * sp + 40 <= upper;
        if (up != wp) {
            d->digits = sp + (uint64_t)wp;
            d->exp10 = k + 1;
            return 0;
        }
    }
    int u = lower <= 4 * s, w = 4 * s + 4 <= upper;
    if (!u && !w)
        return -1;                      /* cannot happen: the width is >= 4 */
    int up = w;
    if (u && w)                         /* the nearer; at the middle, even */
        up = vb > 4 * s + 2 || (vb == 4 * s + 2 && (s & 1));
    d->digits = s + (uint64_t)up;
    d->exp10 = k;
    return 0;
}

static int round_trips(const char *s, float v)
{
    float r = strtof(s, NULL);
    return memcmp(&r, &v, 4) == 0;
}

/* Parses snprintf's "d.ddde±X" into a decimal. */
static void from_sci(const char *s, struct decimal *d)
{
    uint64_t digits = 0;
    int nfrac = 0, seen_dot = 0;
    for (; *s && *s != 'e'; s++) {
        if (*s == '.') {
            seen_dot = 1;
        } else if (*s >= '0' && *s <= '9') {
            digits = digits * 10 + (uint64_t)(*s - '0');
            nfrac += seen_dot;
        }
    }
    d->digits = digits;
    d->exp10 = atoi(s + 1) - nfrac;
}

static void fmt_decimal(const struct decimal *d, char *buf)
{
    snprintf(buf, RTM_FLOAT_CHARS, "%llue%d", (unsigned long long)d->digits, d->exp10);
}

static int shortest_slow(float v, struct decimal *d)
{
    char s[RTM_FLOAT_CHARS];
    double dv = fabs((double)v);
    for (int p = 1; p <= 9; p++) {
        snprintf(s, sizeof s, "%.*e", p - 1, dv);
        from_sci(s, d);
        if (round_trips(s, fabsf(v)))
            return 0;
        /* The nearest p-digit decimal fails; its other neighbour may not. */
        struct decimal other = *d;
        other.digits += strtod(s, NULL) < dv ? 1 : -1;
        fmt_decimal(&other, s);
        if (other.digits && round_trips(s, fabsf(v))) {
            *d = other;
            return 0;
        }
    }
    return -1;
}

static const char DIGIT_PAIRS[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* Exactly 8 digits of v < 10^8, leading zeros included, without a loop. */
static inline void put8(char *o, uint32_t v)
{
    uint32_t hi = v / 10000, lo = v % 10000;
    memcpy(o, DIGIT_PAIRS + 2 * (hi / 100), 2);
    memcpy(o + 2, DIGIT_PAIRS + 2 * (hi % 100), 2);
    memcpy(o + 4, DIGIT_PAIRS + 2 * (lo / 100), 2);
    memcpy(o + 6, DIGIT_PAIRS + 2 * (lo % 100), 2);
}

enum { DIGITS_W = 24 };                 /* room for any uint64_t's 20 digits */

/* v's digits right-aligned in ds[0..DIGITS_W), leading zeros included;
 * returns how many v has (at least 1).  Below 10^8 (nearly every number)
 * without a loop or a branch on the digits. */
static inline int put_digits(char *ds, uint64_t v)
{
    memcpy(ds, "0000000000000000", 16);
    if (v < 100000000) {
        put8(ds + 16, (uint32_t)v);
        return 1 + (v >= 10) + (v >= 100) + (v >= 1000) + (v >= 10000) + (v >= 100000) +
               (v >= 1000000) + (v >= 10000000);
    }
    int n = 8;
    put8(ds + 16, (uint32_t)(v % 100000000));
    uint64_t hi = v / 100000000;
    put8(ds + 8, (uint32_t)(hi % 100000000));
    put8(ds, (uint32_t)(hi / 100000000));  /* below 10^4: v < 2^64 */
    for (; hi; hi /= 10)
        n++;
    return n;
}

/* d without trailing zeros; how many digits it has (below 10^10: a
 * float32 needs at most 9) in *n, and the exponent of the first in *k
 * (value = d.ddd 10^k). */
static inline uint64_t trim_decimal(struct decimal d, int *n, int *k)
{
    uint64_t v = d.digits;
    int e = d.exp10;
    while (v >= 10 && v % 10 == 0) {
        v /= 10;
        e++;
    }
    int digits = 1 + (v >= 10) + (v >= 100) + (v >= 1000) + (v >= 10000) + (v >= 100000) +
                 (v >= 1000000) + (v >= 10000000) + (v >= 100000000) + (v >= 1000000000);
    *n = digits;
    *k = e + digits - 1;
    return v;
}

/* The length put_decimal writes for n digits at exponent k: "0.000ddd",
 * "ddd.dd" or "ddd000", else "d.ddde+XX" (|k| <= 45: two digits). */
static inline size_t decimal_len(int n, int k, int neg)
{
    size_t len = k >= -5 && k < 0 ? (size_t)(n + 1 - k)
                 : k >= 0 && k <= 8 ? (size_t)(n > k + 1 ? n + 1 : k + 1)
                                    : (size_t)(n > 1 ? n + 1 : 1) + 4;
    return len + (size_t)neg;
}

/* Writes d in the notation numfmt.h gives; buf has RTM_FLOAT_CHARS bytes,
 * so the copies below move fixed 16-byte blocks (past the text's end is
 * scratch) instead of calling memcpy with a length. */
static size_t put_decimal(struct decimal d, int neg, char *buf)
{
    int n, k;
    char ds[2 * DIGITS_W];              /* the copies below read past the digits */
    put_digits(ds, trim_decimal(d, &n, &k));
    const char *dig = ds + DIGITS_W - n;
    char *o = buf;
    *o = '-';
    o += neg;
    if (k >= -5 && k < 0) {
        memcpy(o, "0.000000", 8);
        o += 1 - k;
        memcpy(o, dig, 16);
        o += n;
    } else if (k >= 0 && k <= 8) {
        memcpy(o, dig, 16);
        if (n > k + 1) {                /* a point after k + 1 digits */
            o += k + 1;
            *o++ = '.';
            memcpy(o, dig + k + 1, 16);
            o += n - k - 1;
        } else {                        /* zeros up to the units */
            o += n;
            memcpy(o, "00000000", 8);
            o += k + 1 - n;
        }
    } else {
        *o++ = dig[0];
        *o = '.';
        memcpy(o + 1, dig + 1, 16);
        o += n > 1 ? n : 0;
        int ak = k < 0 ? -k : k;        /* |k| <= 45 */
        o[0] = 'e';
        o[1] = k < 0 ? '-' : '+';
        memcpy(o + 2, DIGIT_PAIRS + 2 * ak, 2);
        o += 4;
    }
    *o = 0;
    return (size_t)(o - buf);
}

static size_t special(float v, char *buf)
{
    const char *s = isnan(v) ? "nan" : isinf(v) ? (v < 0 ? "-inf" : "inf")
                                                : (signbit(v) ? "-0" : "0");
    strcpy(buf, s);
    return strlen(s);
}

size_t rtm_fmt_float(float v, char *buf)
{
    struct decimal d;
    if (!isfinite(v) || v == 0)
        return special(v, buf);
    if (shortest_fast(v, &d) && shortest_slow(v, &d))
        return (size_t)sprintf(buf, "%.9g", (double)v); /* unreachable in practice */
    return put_decimal(d, signbit(v) != 0, buf);
}

/* How many digits v (1 <= v < 10^10) has: from its bit length, which
 * leaves two candidates, and one comparison; sizing counts the digits of
 * every number of a matrix, where ten comparisons cost a fifth of it. */
static inline int count_digits(uint64_t v)
{
    static const uint64_t POW10[11] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
                                        100000000, 1000000000, 10000000000 };
    int t = ((64 - __builtin_clzll(v | 1)) * 1233) >> 12;    /* bits · log10(2) */
    return t + (v >= POW10[t]);
}

/* The same decisions as rtm_fmt_float, without writing the digits: d's
 * digits without trailing zeros, counted as trim_decimal counts them. */
static inline size_t float_len(float v)
{
    struct decimal d;
    if (!isfinite(v) || v == 0 || shortest_fast(v, &d)) {
        char s[RTM_FLOAT_CHARS];
        return rtm_fmt_float(v, s);
    }
    uint64_t m = d.digits;
    int e = d.exp10;
    while (m >= 10 && m % 10 == 0) {
        m /= 10;
        e++;
    }
    int n = count_digits(m);
    return decimal_len(n, e + n - 1, signbit(v) != 0);
}

size_t rtm_float_len(float v)
{
    return float_len(v);
}

size_t rtm_fmt_float_slow(float v, char *buf)
{
    struct decimal d;
    if (!isfinite(v) || v == 0)
        return special(v, buf);
    if (shortest_slow(v, &d))
        return (size_t)sprintf(buf, "%.9g", (double)v);
    return put_decimal(d, signbit(v) != 0, buf);
}

void rtm_put_float(struct rtm_buf *b, float v)
{
    char s[RTM_FLOAT_CHARS];
    rtm_buf_put(b, s, rtm_fmt_float(v, s));
}

int rtm_digits_parse(const char *s)
{
    return s && s[0] >= '0' && s[0] <= '0' + RTM_DIGITS_MAX && !s[1] ? s[0] - '0' : -1;
}

/* Drops trailing zeros and a bare point from n bytes of "%.*f", and
 * writes "-0" as "0". */
static size_t fixed_slow_trim(char *buf, int n, int digits)
{
    if (digits > 0) {
        while (buf[n - 1] == '0')
            n--;
        if (buf[n - 1] == '.')
            n--;
    }
    if (n == 2 && buf[0] == '-' && buf[1] == '0') {
        buf[0] = '0';
        n = 1;
    }
    buf[n] = 0;
    return (size_t)n;
}

/* "%.*f" by snprintf, then trimmed (numfmt.h): the reference. */
static size_t fixed_slow(float v, int digits, char *buf)
{
    return fixed_slow_trim(buf, snprintf(buf, RTM_FLOAT_CHARS, "%.*f", digits, (double)v),
                           digits);
}

/* 10^digits, for fixed point's 0 to RTM_DIGITS_MAX decimals. */
static const double POW10_DIGITS[RTM_DIGITS_MAX + 1] = { 1, 1e1, 1e2, 1e3, 1e4,
                                                        1e5, 1e6, 1e7, 1e8, 1e9 };

/* x >= 0 rounded to an integer, half to even as printf rounds: adding and
 * taking away 2^52 does it in the default rounding mode where doubles are
 * evaluated as doubles (nearbyint, a call, otherwise); from 2^52 on every
 * double is an integer. */
static double round_half_even(double x)
{
#if FLT_EVAL_METHOD == 0
    return x < 0x1p52 ? (x + 0x1p52) - 0x1p52 : x;
#else
    return nearbyint(x);
#endif
}

/* The same without printf: v · 10^digits rounded to an integer, half to
 * even as printf rounds.  For a float v the product is exact in a double
 * (24 bits of mantissa times at most 21 of 5^9), so the digits are
 * printf's.  The integer's digits are written once, at least digits + 1
 * of them (a 0 before the point), and the point goes in before the last
 * digits; buf has RTM_FLOAT_CHARS bytes, so fixed blocks are copied (past
 * the text's end is scratch).  -1 when it does not fit 63 bits. */
static int fixed_fast(double v, int digits, char *buf, size_t *len)
{
    double x = fabs(v * POW10_DIGITS[digits]);
    if (!(x < 9.2e18))
        return -1;
    uint64_t q = (uint64_t)round_half_even(x);
    char ds[2 * DIGITS_W];
    int n = put_digits(ds, q), whole = n > digits ? n - digits : 1, frac = digits;
    const char *point = ds + DIGITS_W - digits;
    while (frac > 0 && point[frac - 1] == '0')
        frac--;
    char *o = buf;
    *o = '-';
    o += q && v < 0;
    memcpy(o, point - whole, DIGITS_W);
    o += whole;
    *o = '.';
    memcpy(o + 1, point, 16);
    o += frac ? frac + 1 : 0;
    *o = 0;
    *len = (size_t)(o - buf);
    return 0;
}

size_t rtm_fmt_fixed(double v, int digits, char *buf)
{
    if (!isfinite(v))
        return rtm_fmt_float((float)v, buf);
    digits = digits < 0 ? 0 : digits > RTM_DIGITS_MAX ? RTM_DIGITS_MAX : digits;
    size_t n;
    if (fixed_fast(v, digits, buf, &n) == 0)
        return n;
    int k = snprintf(buf, RTM_FLOAT_CHARS, "%.*f", digits, v);
    if (k >= RTM_FLOAT_CHARS)           /* a double beyond a float's range */
        return (size_t)snprintf(buf, RTM_FLOAT_CHARS, "%.9g", v);
    return fixed_slow_trim(buf, k, digits);
}

/* The decisions of fixed_fast, counted instead of written. */
size_t rtm_fixed_len(double v, int digits)
{
    char s[RTM_FLOAT_CHARS];
    digits = digits < 0 ? 0 : digits > RTM_DIGITS_MAX ? RTM_DIGITS_MAX : digits;
    double x = fabs(v * POW10_DIGITS[digits]);
    if (!(x < 9.2e18))                  /* nan, inf, or past 63 bits */
        return rtm_fmt_fixed(v, digits, s);
    static const uint64_t pow10u[] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
                                       100000000, 1000000000, 10000000000ull,
                                       100000000000ull, 1000000000000ull, 10000000000000ull,
                                       100000000000000ull, 1000000000000000ull,
                                       10000000000000000ull, 100000000000000000ull,
                                       1000000000000000000ull };
    uint64_t q = (uint64_t)round_half_even(x), rest = q;
    int bits = 64 - __builtin_clzll(q | 1), frac = digits;
    int n = (bits * 1233) >> 12;        /* floor(log10 2^bits), then one more if q reaches it */
    n += q >= pow10u[n];
    n += n == 0;
    while (frac > 0 && rest % 10 == 0) {  /* the last digits' zeros go */
        rest /= 10;
        frac--;
    }
    return (size_t)((q && v < 0) + (n > digits ? n - digits : 1) + (frac ? frac + 1 : 0));
}

uint64_t rtm_fixed_lens(const double *v, size_t n, int digits)
{
    uint64_t len = 0;
    digits = digits < 0 ? 0 : digits > RTM_DIGITS_MAX ? RTM_DIGITS_MAX : digits;
    int avx2 = n >= 4 && rtm_float_lens_avx2_ok();
    for (size_t i = 0; i < n; i++) {    /* what the vector code leaves */
        if (avx2)
            i += rtm_fixed_lens_avx2(v + i, n - i, digits, &len);
        if (i < n)
            len += rtm_fixed_len(v[i], digits);
    }
    return len;
}

/* ---- printf's lengths ---- */

/* The fast paths below scale by one exact power of ten (one rounding:
 * 2^-53 relative) and keep to results below 10^9, so the scaled value is
 * within 2^-23 of the true one; a fraction closer than FRAC_MARGIN to a
 * half, or a value that close to a power of ten, goes to snprintf. */
#define FRAC_MARGIN 1e-4
static const double POW10_EXACT[23] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };

/* t >= 0 rounded to an integer as printf rounds the exact value, or -1
 * when t is too near a half to tell. */
static inline int64_t clear_round(double t)
{
    double fl = floor(t), frac = t - fl;
    if (fabs(frac - 0.5) < FRAC_MARGIN)
        return -1;
    return (int64_t)fl + (frac > 0.5);
}

size_t rtm_printf_f_len(double v, int decimals)
{
    if (decimals < 0 || decimals > RTM_DIGITS_MAX)
        return (size_t)snprintf(NULL, 0, "%.*f", decimals, v);
    double t = fabs(v) * POW10_EXACT[decimals];
    int64_t q = isfinite(v) && t < 1e9 ? clear_round(t) : -1;
    if (q < 0)
        return (size_t)snprintf(NULL, 0, "%.*f", decimals, v);
    int whole = 1;
    for (int64_t w = q / (int64_t)POW10_EXACT[decimals]; w >= 10; w /= 10)
        whole++;
    return (size_t)(signbit(v) != 0) + (size_t)whole + (size_t)(decimals ? decimals + 1 : 0);
}

/* The length %g writes for n significant digits (trailing zeros gone) at
 * decimal exponent x with precision p: plain from 10^-4 to below 10^p,
 * else d.ddde+XX with at least two exponent digits. */
static size_t g_len(int n, int x, int p)
{
    if (x >= -4 && x < p)
        return x >= 0 ? (size_t)(x + 1 + (n > x + 1 ? n - x : 0)) : (size_t)(1 - x + n);
    int ax = x < 0 ? -x : x;
    return (size_t)(n > 1 ? n + 1 : 1) + 2 + (ax >= 100 ? 3 : 2);
}

/* a · 10^s for |s| <= 22, rounded once. */
static inline double scale10(double a, int s)
{
    return s >= 0 ? a * POW10_EXACT[s] : a / POW10_EXACT[-s];
}

size_t rtm_printf_g_len(double v, int precision)
{
    double a = fabs(v);
    int p = precision, x = isfinite(v) && a > 0 ? (int)floor(log10(a)) : 0;
    if (!isfinite(v) || a == 0 || p < 1 || p > 9 || p - 1 - x < -21 || p - 1 - x > 21)
        return (size_t)snprintf(NULL, 0, "%.*g", precision, v);
    double lo = POW10_EXACT[p - 1], hi = POW10_EXACT[p];
    double t = scale10(a, p - 1 - x);   /* p digits before the point */
    if (t < lo)                         /* log10 rounded up to a power of ten */
        t = scale10(a, p - 1 - --x);
    int64_t q = clear_round(t);
    if (q < 0 || t < lo * (1 + FRAC_MARGIN) || t >= hi * (1 - 1e-12))
        return (size_t)snprintf(NULL, 0, "%.*g", precision, v);
    if (q == (int64_t)hi) {             /* 9.9999999996 to 10.0000000 */
        q /= 10;
        x++;
    }
    int n = p;
    for (; n > 1 && q % 10 == 0; n--)
        q /= 10;
    return (size_t)(signbit(v) != 0) + g_len(n, x, p);
}

size_t rtm_fmt_num(float v, int digits, char *buf)
{
    return digits < 0 ? rtm_fmt_float(v, buf) : rtm_fmt_fixed((double)v, digits, buf);
}

size_t rtm_num_len(float v, int digits)
{
    return digits < 0 ? float_len(v) : rtm_fixed_len((double)v, digits);
}

uint64_t rtm_nums_len(const float *v, size_t n, int digits)
{
    uint64_t len = 0;
    if (digits < 0 && n >= 4 && rtm_float_lens_avx2_ok()) {
        for (size_t i = 0; i < n; i++) {    /* what the vector code leaves */
            i += rtm_float_lens_avx2(v + i, n - i, &len);
            if (i < n)
                len += float_len(v[i]);
        }
        return len;
    }
    if (digits < 0)
        for (size_t i = 0; i < n; i++)
            len += float_len(v[i]);
    else
        for (size_t i = 0; i < n; i++)
            len += rtm_fixed_len((double)v[i], digits);
    return len;
}

size_t rtm_fmt_num_slow(float v, int digits, char *buf)
{
    if (digits < 0 || !isfinite(v))
        return rtm_fmt_float_slow(v, buf);
    return fixed_slow(v, digits > RTM_DIGITS_MAX ? RTM_DIGITS_MAX : digits, buf);
}

void rtm_put_num(struct rtm_buf *b, float v, int digits)
{
    char s[RTM_FLOAT_CHARS];
    rtm_buf_put(b, s, rtm_fmt_num(v, digits, s));
}

void rtm_put_json_num(struct rtm_buf *b, float v, int digits)
{
    if (isfinite(v))
        rtm_put_num(b, v, digits);
    else
        rtm_buf_puts(b, "null");
}

static int plain_byte(unsigned char c) { return c >= 0x20 && c < 0x7f && c != '\\'; }

/* \xNN, with the backslash itself escaped when the text goes into JSON. */
static void put_hex_escape(struct rtm_buf *b, unsigned char c, int json)
{
    static const char hex[] = "0123456789abcdef";
    char e[5] = { '\\', '\\', 'x', hex[c >> 4], hex[c & 15] };
    rtm_buf_put(b, json ? e : e + 1, json ? 5 : 4);
}

/* Whether any of the 8 bytes of w is not plain (or, with space, is a
 * space), all at once: each test finds whether some byte matches, which
 * is all that is asked (a byte above a match may read as one too). */
static inline int escapes8(uint64_t w, int space)
{
    const uint64_t ones = 0x0101010101010101ull, high = 0x80 * ones;
#define ANY_ZERO(v) (((v) - ones) & ~(v) & high)
    uint64_t low = (w - 0x20 * ones) & ~w & high;         /* below 0x20 */
    uint64_t odd = ANY_ZERO(w ^ 0x7f * ones) | ANY_ZERO(w ^ (uint64_t)'\\' * ones);
    uint64_t sp = space ? ANY_ZERO(w ^ 0x20 * ones) : 0;
#undef ANY_ZERO
    return ((w & high) | low | odd | sp) != 0;
}

/* Runs of plain bytes go in whole, eight bytes checked at a time: names
 * are mostly plain, and bones.txt escapes every bone of every animation a
 * grep -r reads. */
static void put_escaped(struct rtm_buf *b, struct rtm_str s, int space)
{
    uint32_t run = 0, i = 0;
    while (i < s.len) {
        uint64_t w;
        if (s.len - i >= 8) {
            memcpy(&w, s.s + i, 8);
            if (!escapes8(w, space)) {
                i += 8;
                continue;
            }
        }
        unsigned char c = (unsigned char)s.s[i++];
        if (plain_byte(c) && !(space && c == ' '))
            continue;
        rtm_buf_put(b, s.s + run, i - 1 - run);
        put_hex_escape(b, c, 0);
        run = i;
    }
    if (run < s.len)
        rtm_buf_put(b, s.s + run, s.len - run);
}

void rtm_put_name(struct rtm_buf *b, struct rtm_str s) { put_escaped(b, s, 0); }
void rtm_put_token(struct rtm_buf *b, struct rtm_str s) { put_escaped(b, s, 1); }

void rtm_put_csv_name(struct rtm_buf *b, struct rtm_str s)
{
    if (!memchr(s.s, ',', s.len) && !memchr(s.s, '"', s.len)) {
        rtm_put_name(b, s);
        return;
    }
    rtm_buf_putc(b, '"');
    for (uint32_t i = 0; i < s.len; i++) {
        if (s.s[i] == '"')
            rtm_buf_putc(b, '"');
        rtm_put_name(b, (struct rtm_str){ s.s + i, 1 });
    }
    rtm_buf_putc(b, '"');
}

void rtm_put_json_name(struct rtm_buf *b, struct rtm_str s)
{
    rtm_buf_putc(b, '"');
    for (uint32_t i = 0; i < s.len; i++) {
        unsigned char c = (unsigned char)s.s[i];
        if (c == '"')
            rtm_buf_put(b, "\\\"", 2);
        else if (plain_byte(c))
            rtm_buf_putc(b, (char)c);
        else
            put_hex_escape(b, c, 1);
    }
    rtm_buf_putc(b, '"');
}

void rtm_put_xml_name(struct rtm_buf *b, struct rtm_str s)
{
    for (uint32_t i = 0; i < s.len; i++) {
        char c = s.s[i];
        if (c == '&')
            rtm_buf_puts(b, "&amp;");
        else if (c == '<')
            rtm_buf_puts(b, "&lt;");
        else if (c == '>')
            rtm_buf_puts(b, "&gt;");
        else
            rtm_put_name(b, (struct rtm_str){ s.s + i, 1 });
    }
}
