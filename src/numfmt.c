/* numfmt.c - shortest round-trip float32 formatting and name escaping.
 *
 * The fast path does exact integer arithmetic (unsigned __int128) on the
 * float's value and the bounds of the interval that rounds to it: for 10
 * significant digits X = floor(|v| * 10^s), and for each precision p it
 * tests the two p-digit neighbours of v against the interval.  It covers
 * 1e-15 <= |v| < 1e30, where every intermediate fits in 128 bits; other
 * values (rare in animation data) take a slow snprintf/strtof search that
 * gives the same answer, which the unit tests check against each other.
 */
#include "numfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef unsigned __int128 u128;

static const uint64_t POW10[20] = {
    1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
    100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
    1000000000000ull, 10000000000000ull, 100000000000000ull,
    1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
    1000000000000000000ull, 10000000000000000000ull,
};

static u128 pow10_128(int n) /* 0 <= n <= 38 */
{
    return n <= 19 ? POW10[n] : (u128)POW10[19] * POW10[n - 19];
}

struct decimal {
    uint64_t digits;   /* without trailing zeros */
    int exp10;         /* value = digits * 10^exp10 */
};

/* Is A (an integer at scale s) inside the rounding interval of the float? */
static inline int in_interval(uint64_t a, uint64_t lo, int lo_exact, uint64_t hi,
                              int hi_exact, int even)
{
    int lo_ok = a > lo || (a == lo && lo_exact && even);
    int hi_ok = a < hi || (a == hi && even) || (a == hi && !hi_exact);
    return lo_ok && hi_ok;
}

struct bounds {
    uint64_t x;        /* floor(|v| * 10^s), 10 digits */
    int x_exact;
    uint64_t lo, hi;   /* floors of the interval bounds at the same scale */
    int lo_exact, hi_exact, even;
};

/* Is there a decimal with (10 - log10 pw) digits that reads back as v?  If
 * so *c is the nearest one's digits (ties to even). */
static inline __attribute__((always_inline)) int try_precision(const struct bounds *b, uint64_t pw, uint64_t *c)
{
    uint64_t cf = b->x / pw, r = b->x % pw;
    uint64_t down = cf * pw, up = down + pw;
    int on_down = r == 0 && b->x_exact;
    int down_ok = on_down || in_interval(down, b->lo, b->lo_exact, b->hi, b->hi_exact, b->even);
    int up_ok = !on_down && in_interval(up, b->lo, b->lo_exact, b->hi, b->hi_exact, b->even);
    if (!down_ok && !up_ok)
        return 0;
    int pick_up = up_ok;
    if (down_ok && up_ok) {
        uint64_t half = pw / 2;
        pick_up = r > half || (r == half && (!b->x_exact || (cf & 1)));
    }
    *c = pick_up ? cf + 1 : cf;
    return 1;
}

/* floor(y / 10) of a floor, keeping track of exactness. */
static void drop_digit(uint64_t *q, int *exact)
{
    *exact = *exact && *q % 10 == 0;
    *q /= 10;
}

/* The switch hands try_precision a constant divisor, which the compiler
 * turns into a multiplication. */
static inline int try_digits(const struct bounds *b, int p, uint64_t *c)
{
    switch (p) {
    case 9: return try_precision(b, 10ull, c);
    case 8: return try_precision(b, 100ull, c);
    case 7: return try_precision(b, 1000ull, c);
    case 6: return try_precision(b, 10000ull, c);
    case 5: return try_precision(b, 100000ull, c);
    case 4: return try_precision(b, 1000000ull, c);
    case 3: return try_precision(b, 10000000ull, c);
    case 2: return try_precision(b, 100000000ull, c);
    default: return try_precision(b, 1000000000ull, c);
    }
}

/* Floors of x = 4m * 2^e2 * 10^s and of the interval bounds (4m - dlo) and
 * (4m + 2) at the same scale, each with an exactness flag. */
static int scale_all(uint64_t m, uint64_t dlo, int e2, int s, struct bounds *b)
{
    u128 nx, nl, nh;
    if (s >= 0) {
        u128 p = pow10_128(s);
        nx = ((u128)m * p) << 2;
        nl = nx - dlo * p;
        nh = nx + 2 * p;
        if (e2 >= 0) {
            if (e2 > 20)
                return -1;
            b->x = (uint64_t)(nx << e2), b->lo = (uint64_t)(nl << e2), b->hi = (uint64_t)(nh << e2);
            b->x_exact = b->lo_exact = b->hi_exact = 1;
            return 0;
        }
        int sh = -e2;
        u128 mask = ((u128)1 << sh) - 1;
        b->x = (uint64_t)(nx >> sh), b->lo = (uint64_t)(nl >> sh), b->hi = (uint64_t)(nh >> sh);
        b->x_exact = (nx & mask) == 0;
        b->lo_exact = (nl & mask) == 0;
        b->hi_exact = (nh & mask) == 0;
        return 0;
    }
    if (e2 < 0)
        return -1;
    u128 den = pow10_128(-s);
    nx = (u128)(4 * m) << e2;
    nl = (u128)(4 * m - dlo) << e2;
    nh = (u128)(4 * m + 2) << e2;
    b->x = (uint64_t)(nx / den), b->lo = (uint64_t)(nl / den), b->hi = (uint64_t)(nh / den);
    b->x_exact = nx % den == 0;
    b->lo_exact = nl % den == 0;
    b->hi_exact = nh % den == 0;
    return 0;
}

static int shortest_fast(float v, struct decimal *d)
{
    uint32_t bits;
    memcpy(&bits, &v, 4);
    uint32_t ef = (bits >> 23) & 0xff, mf = bits & 0x7fffff;
    if (ef == 0)
        return -1; /* subnormal: slow path */
    uint64_t m = mf | (1u << 23);
    int e2 = (int)ef - 152;
    uint64_t dlo = (mf == 0 && ef > 1) ? 1 : 2; /* the gap below a power of two is half */
    /* floor(log10 2^(ef-127)): the true exponent is k or k + 1. */
    int k = (((int)ef - 127) * 78913) >> 18;
    if (k < -15 || k > 29)
        return -1;
    int s = 9 - k;
    struct bounds bd;
    bd.even = (m & 1) == 0;
    if (scale_all(m, dlo, e2, s, &bd))
        return -1;
    if (bd.x >= POW10[10]) { /* 11 digits: drop one so x has exactly 10 */
        drop_digit(&bd.x, &bd.x_exact);
        drop_digit(&bd.lo, &bd.lo_exact);
        drop_digit(&bd.hi, &bd.hi_exact);
        s--;
    }
    /* The precisions that work are all p >= some p0.  Most animation values
     * need 7 to 9 digits, so start at 8 and walk down, or up when 8 fails. */
    uint64_t best = 0, c = 0;
    int best_p = 0;
    for (int p = 8; p >= 1; p--) {
        if (!try_digits(&bd, p, &c))
            break;
        best = c;
        best_p = p;
    }
    if (!best_p) {
        best_p = 9;
        if (!try_digits(&bd, 9, &best))
            return -1;
    }
    if (!best_p)
        return -1;
    d->digits = best;
    d->exp10 = 10 - best_p - s;
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

static int count_digits(uint64_t v)
{
    int n = 1;
    while (n < 20 && v >= POW10[n])
        n++;
    return n;
}

static size_t put_decimal(struct decimal d, int neg, char *buf)
{
    while (d.digits >= 10 && d.digits % 10 == 0) {
        d.digits /= 10;
        d.exp10++;
    }
    char ds[24];
    int n = count_digits(d.digits);
    uint64_t v = d.digits;
    int end = n;
    for (; v >= 100; v /= 100) {
        end -= 2;
        memcpy(ds + end, DIGIT_PAIRS + 2 * (v % 100), 2);
    }
    if (v >= 10)
        memcpy(ds + end - 2, DIGIT_PAIRS + 2 * v, 2);
    else
        ds[end - 1] = (char)('0' + v);
    int k = d.exp10 + n - 1; /* value = d.ddd * 10^k */
    char *o = buf;
    if (neg)
        *o++ = '-';
    if (k >= -5 && k < 0) {
        memcpy(o, "0.00000", (size_t)(1 - k));
        o += 1 - k;
        memcpy(o, ds, (size_t)n);
        o += n;
    } else if (k >= 0 && k <= 8) {
        int whole = k + 1 < n ? k + 1 : n;
        memcpy(o, ds, (size_t)whole);
        o += whole;
        for (int i = n; i <= k; i++)
            *o++ = '0';
        if (n > k + 1) {
            *o++ = '.';
            memcpy(o, ds + k + 1, (size_t)(n - k - 1));
            o += n - k - 1;
        }
    } else {
        *o++ = ds[0];
        if (n > 1) {
            *o++ = '.';
            memcpy(o, ds + 1, (size_t)n - 1);
            o += n - 1;
        }
        o += sprintf(o, "e%c%02d", k < 0 ? '-' : '+', k < 0 ? -k : k);
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
    buf_put(b, s, rtm_fmt_float(v, s));
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

/* The same without printf: v · 10^digits rounded to an integer, half to
 * even as printf rounds.  For a float v the product is exact in a double
 * (24 bits of mantissa times at most 21 of 5^9), so the digits are
 * printf's.  -1 when it does not fit 63 bits. */
static int fixed_fast(double v, int digits, char *buf, size_t *len)
{
    static const double pow10[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };
    double x = v * pow10[digits];
    if (!(fabs(x) < 9.2e18))
        return -1;
    double r = nearbyint(x);            /* the default mode: half to even */
    uint64_t q = (uint64_t)fabs(r), unit = (uint64_t)pow10[digits];
    uint64_t whole = q / unit, frac = q % unit;
    char tmp[24], *o = buf;
    int n = 0;
    if (q && v < 0)
        *o++ = '-';
    do
        tmp[n++] = (char)('0' + whole % 10);
    while ((whole /= 10) != 0);
    while (n)
        *o++ = tmp[--n];
    if (frac) {
        int d = digits;
        while (frac % 10 == 0) {
            frac /= 10;
            d--;
        }
        *o++ = '.';
        for (int i = d - 1; i >= 0; i--, frac /= 10)
            o[i] = (char)('0' + frac % 10);
        o += d;
    }
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

size_t rtm_fmt_num(float v, int digits, char *buf)
{
    return digits < 0 ? rtm_fmt_float(v, buf) : rtm_fmt_fixed((double)v, digits, buf);
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
    buf_put(b, s, rtm_fmt_num(v, digits, s));
}

void rtm_put_json_num(struct rtm_buf *b, float v, int digits)
{
    if (isfinite(v))
        rtm_put_num(b, v, digits);
    else
        buf_puts(b, "null");
}

static int plain_byte(unsigned char c) { return c >= 0x20 && c < 0x7f && c != '\\'; }

/* \xNN, with the backslash itself escaped when the text goes into JSON. */
static void put_hex_escape(struct rtm_buf *b, unsigned char c, int json)
{
    static const char hex[] = "0123456789abcdef";
    char e[5] = { '\\', '\\', 'x', hex[c >> 4], hex[c & 15] };
    buf_put(b, json ? e : e + 1, json ? 5 : 4);
}

static void put_escaped(struct rtm_buf *b, struct rtm_str s, int space)
{
    for (uint32_t i = 0; i < s.len; i++) {
        unsigned char c = (unsigned char)s.s[i];
        if (plain_byte(c) && !(space && c == ' '))
            buf_putc(b, (char)c);
        else
            put_hex_escape(b, c, 0);
    }
}

void rtm_put_name(struct rtm_buf *b, struct rtm_str s) { put_escaped(b, s, 0); }
void rtm_put_token(struct rtm_buf *b, struct rtm_str s) { put_escaped(b, s, 1); }

void rtm_put_csv_name(struct rtm_buf *b, struct rtm_str s)
{
    if (!memchr(s.s, ',', s.len) && !memchr(s.s, '"', s.len)) {
        rtm_put_name(b, s);
        return;
    }
    buf_putc(b, '"');
    for (uint32_t i = 0; i < s.len; i++) {
        if (s.s[i] == '"')
            buf_putc(b, '"');
        rtm_put_name(b, (struct rtm_str){ s.s + i, 1 });
    }
    buf_putc(b, '"');
}

void rtm_put_json_name(struct rtm_buf *b, struct rtm_str s)
{
    buf_putc(b, '"');
    for (uint32_t i = 0; i < s.len; i++) {
        unsigned char c = (unsigned char)s.s[i];
        if (c == '"')
            buf_put(b, "\\\"", 2);
        else if (plain_byte(c))
            buf_putc(b, (char)c);
        else
            put_hex_escape(b, c, 1);
    }
    buf_putc(b, '"');
}

void rtm_put_xml_name(struct rtm_buf *b, struct rtm_str s)
{
    for (uint32_t i = 0; i < s.len; i++) {
        char c = s.s[i];
        if (c == '&')
            buf_puts(b, "&amp;");
        else if (c == '<')
            buf_puts(b, "&lt;");
        else if (c == '>')
            buf_puts(b, "&gt;");
        else
            rtm_put_name(b, (struct rtm_str){ s.s + i, 1 });
    }
}
