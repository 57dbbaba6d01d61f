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

/* floor(mant * 2^e2 * 10^s) and whether it is exact; -1 if out of range. */
static int scaled(uint64_t mant, int e2, int s, u128 *q, int *exact)
{
    if (s >= 0) {
        if (s > 27)
            return -1;
        u128 num = (u128)mant * pow10_128(s);
        if (e2 >= 0) {
            if (e2 > 30)
                return -1;
            *q = num << e2;
            *exact = 1;
        } else {
            if (e2 < -120)
                return -1;
            *q = num >> -e2;
            *exact = (num & (((u128)1 << -e2) - 1)) == 0;
        }
        return 0;
    }
    if (e2 < 0 || e2 > 100 || s < -35)
        return -1;
    u128 num = (u128)mant << e2, den = pow10_128(-s);
    *q = num / den;
    *exact = num % den == 0;
    return 0;
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

static int shortest_fast(float v, struct decimal *d)
{
    uint32_t bits;
    memcpy(&bits, &v, 4);
    uint32_t ef = (bits >> 23) & 0xff, mf = bits & 0x7fffff;
    if (ef == 0)
        return -1; /* subnormal: slow path */
    uint64_t m = mf | (1u << 23);
    int e2 = (int)ef - 150 - 2;
    uint64_t mv = 4 * m, mp = mv + 2, mm = mv - ((mf == 0 && ef > 1) ? 1 : 2);
    int even = (m & 1) == 0;
    /* floor(log10 2^(ef-127)), off by at most one; the loop below corrects. */
    int k = (((int)ef - 127) * 78913) >> 18;
    if (k < -15 || k > 29)
        return -1;
    int s = 9 - k;
    u128 x;
    int xe;
    for (int tries = 0;; tries++) {
        if (tries > 3 || scaled(mv, e2, s, &x, &xe))
            return -1;
        if (x >= POW10[10])
            s--;
        else if (x < POW10[9])
            s++;
        else
            break;
    }
    u128 lo, hi;
    int loe, hie;
    if (scaled(mm, e2, s, &lo, &loe) || scaled(mp, e2, s, &hi, &hie))
        return -1;
    /* The precisions that work are all p >= some p0; walk down from 9.
     * The switch hands try_precision a constant divisor, which the compiler
     * turns into a multiplication. */
    struct bounds bd = { .x = (uint64_t)x, .x_exact = xe, .lo = (uint64_t)lo, .hi = (uint64_t)hi,
                         .lo_exact = loe, .hi_exact = hie, .even = even };
    uint64_t best = 0;
    int best_p = 0;
    for (int p = 9; p >= 1; p--) {
        uint64_t c;
        int ok;
        switch (p) {
        case 9: ok = try_precision(&bd, 10ull, &c); break;
        case 8: ok = try_precision(&bd, 100ull, &c); break;
        case 7: ok = try_precision(&bd, 1000ull, &c); break;
        case 6: ok = try_precision(&bd, 10000ull, &c); break;
        case 5: ok = try_precision(&bd, 100000ull, &c); break;
        case 4: ok = try_precision(&bd, 1000000ull, &c); break;
        case 3: ok = try_precision(&bd, 10000000ull, &c); break;
        case 2: ok = try_precision(&bd, 100000000ull, &c); break;
        default: ok = try_precision(&bd, 1000000000ull, &c); break;
        }
        if (!ok)
            break;
        best = c;
        best_p = p;
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
    for (int i = n - 1; i >= 0; i--, v /= 10)
        ds[i] = (char)('0' + v % 10);
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

void rtm_put_json_float(struct rtm_buf *b, float v)
{
    if (isfinite(v))
        rtm_put_float(b, v);
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

void rtm_put_name(struct rtm_buf *b, struct rtm_str s)
{
    for (uint32_t i = 0; i < s.len; i++) {
        unsigned char c = (unsigned char)s.s[i];
        if (plain_byte(c))
            buf_putc(b, (char)c);
        else
            put_hex_escape(b, c, 0);
    }
}

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
