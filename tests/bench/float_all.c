/* float_all - `make float-exhaustive`: rtm_fmt_float (numfmt.h) checked on
 * all 2^32 float32 bit patterns, one thread a core, against what the
 * contract says rather than against another implementation:
 *   - the length returned, rtm_float_len's and its lane's of four at once
 *     (numfmt_simd.h: the scalar code's where there is no AVX2), is the
 *     text's; and in fixed point (rtm_fmt_fixed, with the pattern's last
 *     decimal digit as the number of decimals, so that each is checked on
 *     2^32 / 10 floats) rtm_fixed_len's is that text's;
 *   - nan, inf, -inf, 0 and -0 are the special strings;
 *   - a negative float is "-" and the text of its absolute value;
 *   - a positive float's text reads back with strtof as the same float;
 *   - it is shortest: no decimal with one significant digit fewer near it
 *     reads back;
 *   - it is the nearest of its length: its neighbours one unit in the last
 *     digit away either do not read back or are farther from the float
 *     (a near tie is settled by the snprintf reference, rtm_fmt_float_slow).
 * "Reads back" is decided in long double, where the float's rounding
 * interval is exact, and by strtof near its bounds.  These properties fix
 * the text uniquely, so any two formatters that pass give the same bytes.
 *   - plain notation for decimal exponents -5..8, else d.ddde+XX.
 * Prints each failure (up to 20) and a summary; exits 1 on any failure.
 * RTMFS_FLOAT_STRIDE=N checks every N-th pattern only (a quick run). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "numfmt.h"
#include "numfmt_simd.h"

struct job {
    uint64_t from, to, stride;
    uint64_t checked, failed;
    int avx2;                   /* rtm_float_lens_avx2_ok() */
};

static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;
static int printed;

static void report(uint32_t u, const char *got, const char *why)
{
    pthread_mutex_lock(&print_lock);
    if (printed++ < 20)
        printf("FAIL 0x%08x: \"%s\": %s\n", u, got, why);
    pthread_mutex_unlock(&print_lock);
}

static float from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static int same_float(float a, float b) { return memcmp(&a, &b, 4) == 0; }

/* The text's significant digits as an integer and the decimal exponent of
 * its last digit: "0.0025" is 25e-4, "1.5e+10" 15e9. */
static void decompose(const char *s, long long *m, int *e10, int *digits)
{
    long long v = 0;
    int n = 0, frac = 0, dot = 0, started = 0;
    for (; *s && *s != 'e'; s++) {
        if (*s == '.') {
            dot = 1;
        } else if (*s >= '0' && *s <= '9') {
            started |= *s != '0';
            if (started) {
                v = v * 10 + (*s - '0');
                n++;
            }
            frac += dot;
        }
    }
    int e = *s == 'e' ? atoi(s + 1) : 0;
    while (n > 1 && v % 10 == 0) {
        v /= 10;
        n--;
        e++;
    }
    *m = v;
    *e10 = e - frac;
    *digits = n;
}

/* 10^e, e in -70..69, correctly rounded to long double (64-bit
 * significand): a decimal m 10^e (m < 10^10) is then within 2^-62 of
 * itself, relatively. */
static long double P10[140];

static void init_powers(void)
{
    char s[16];
    for (int e = -70; e < 70; e++) {
        snprintf(s, sizeof s, "1e%d", e);
        P10[e + 70] = strtold(s, NULL);
    }
}

static int reads_back_strtof(long long m, int e10, float v)
{
    char s[64];
    snprintf(s, sizeof s, "%llde%d", m, e10);
    return same_float(strtof(s, NULL), v);
}

/* v's rounding interval, in long double (its bounds are exact there). */
struct bounds {
    long double lo, hi;
};

static struct bounds bounds_of(float v)
{
    float below = nextafterf(v, 0), above = nextafterf(v, INFINITY);
    long double x = v;
    long double up = isinf(above) ? x + (x - (long double)below) : (long double)above;
    return (struct bounds){ (x + (long double)below) / 2, (x + up) / 2 };
}

/* Whether m 10^e10 reads back as v: decided in long double away from the
 * bounds, by strtof near them. */
static int reads_back(long long m, int e10, float v, const struct bounds *b)
{
    long double d = (long double)m * P10[e10 + 70], eps = 1e-12L * b->hi;
    if (d < b->lo - eps || d > b->hi + eps)
        return 0;
    if (d > b->lo + eps && d < b->hi - eps)
        return 1;
    return reads_back_strtof(m, e10, v);
}

/* No decimal of one significant digit fewer reads back as v: the ones one
 * digit shorter near m (any that reads back lies within v's interval,
 * which m's neighbours at that scale bracket). */
static int shortest(float v, long long m, int e10, int digits, const struct bounds *b)
{
    if (digits <= 1)
        return 1;
    long long t = m / 10;
    for (long long c = t - 1; c <= t + 2; c++)
        if (c > 0 && reads_back(c, e10 + 1, v, b))
            return 0;
    return 1;
}

/* Of the same length, no neighbour that reads back is nearer. */
static int nearest(float v, long long m, int e10, int digits, const char *got,
                   const struct bounds *b)
{
    long long lo = 1;
    for (int i = 1; i < digits; i++)
        lo *= 10;
    long double x = (long double)v, self = fabsl((long double)m * P10[e10 + 70] - x);
    for (long long dm = -1; dm <= 1; dm += 2) {
        long long c = m + dm;
        if (c < lo || c >= 10 * lo || !reads_back(c, e10, v, b))
            continue;
        long double other = fabsl((long double)c * P10[e10 + 70] - x);
        if (fabsl(other - self) <= 1e-12L * x) {    /* a near tie: ask the reference */
            char ref[RTM_FLOAT_CHARS];
            rtm_fmt_float_slow(v, ref);
            return strcmp(ref, got) == 0;
        }
        if (other < self)
            return 0;
    }
    return 1;
}

static int notation_ok(const char *s, int e10, int digits)
{
    int k = e10 + digits - 1;           /* value = d.ddd 10^k */
    int sci = strchr(s, 'e') != NULL;
    return sci == !(k >= -5 && k <= 8);
}

static void check_one(uint32_t u, struct job *j)
{
    float v = from_bits(u);
    char got[RTM_FLOAT_CHARS], want[RTM_FLOAT_CHARS];
    size_t n = rtm_fmt_float(v, got);
    j->checked++;
    float four[4] = { v, 1, 1, 1 };     /* each 1 is 1 long */
    uint64_t lane = 0;
    size_t taken = j->avx2 ? rtm_float_lens_avx2(four, 4, &lane) : 0;
    if (n != strlen(got) || rtm_float_len(v) != n ||
        (taken == 4 ? lane != n + 3 : taken || (j->avx2 && isfinite(v)))) {
        report(u, got, "length returned (or rtm_float_len's, or its AVX2 lane's) is not the "
                       "text's");
        j->failed++;
        return;
    }
    int d = (int)(u % 10);
    size_t nf = rtm_fmt_fixed((double)v, d, want);
    if (nf != strlen(want) || rtm_fixed_len((double)v, d) != nf) {
        report(u, want, "fixed point: length returned (or rtm_fixed_len's) is not the text's");
        j->failed++;
        return;
    }
    if (!isfinite(v) || v == 0) {
        rtm_fmt_float_slow(v, want);
        if (strcmp(got, want) != 0) {
            report(u, got, "special value");
            j->failed++;
        }
        return;
    }
    if (signbit(v)) {
        rtm_fmt_float(-v, want);
        if (got[0] != '-' || strcmp(got + 1, want) != 0) {
            report(u, got, "not '-' and the absolute value's text");
            j->failed++;
        }
        return;
    }
    long long m;
    int e10, digits;
    decompose(got, &m, &e10, &digits);
    struct bounds b = bounds_of(v);
    const char *why = !same_float(strtof(got, NULL), v)        ? "does not read back"
                      : !shortest(v, m, e10, digits, &b)        ? "a shorter decimal reads back"
                      : !nearest(v, m, e10, digits, got, &b)    ? "a nearer decimal reads back"
                      : !notation_ok(got, e10, digits)       ? "wrong notation"
                                                                : NULL;
    if (why) {
        report(u, got, why);
        j->failed++;
    }
}

static void *run(void *arg)
{
    struct job *j = arg;
    for (uint64_t u = j->from; u < j->to; u += j->stride)
        check_one((uint32_t)u, j);
    return NULL;
}

int main(void)
{
    const char *st = getenv("RTMFS_FLOAT_STRIDE");
    uint64_t stride = st ? strtoull(st, NULL, 10) : 1;
    long nthreads = sysconf(_SC_NPROCESSORS_ONLN);
    if (stride < 1)
        stride = 1;
    if (nthreads < 1 || nthreads > 64)
        nthreads = 1;
    struct job jobs[64];
    pthread_t tid[64];
    struct timespec t0, t1;
    init_powers();
    clock_gettime(CLOCK_MONOTONIC, &t0);
    /* interleaved blocks, so that every thread gets every exponent */
    uint64_t total = (uint64_t)1 << 32, block = total / (uint64_t)nthreads;
    for (long i = 0; i < nthreads; i++) {
        uint64_t from = block * (uint64_t)i;
        jobs[i] = (struct job){ from + (stride - from % stride) % stride,
                                i + 1 == nthreads ? total : from + block, stride, 0, 0,
                                rtm_float_lens_avx2_ok() };
        pthread_create(&tid[i], NULL, run, &jobs[i]);
    }
    uint64_t checked = 0, failed = 0;
    for (long i = 0; i < nthreads; i++) {
        pthread_join(tid[i], NULL);
        checked += jobs[i].checked;
        failed += jobs[i].failed;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("float-exhaustive: %llu bit patterns checked (every %llu-th), %llu failed, "
           "%ld threads, %.0f s%s\n", (unsigned long long)checked, (unsigned long long)stride,
           (unsigned long long)failed, nthreads,
           (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
           rtm_float_lens_avx2_ok() ? "" : " (no AVX2: the lanes not checked)");
    return failed ? 1 : 0;
}
