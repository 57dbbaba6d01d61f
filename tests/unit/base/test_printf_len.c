/* test_printf_len.c - rtm_printf_f_len and rtm_printf_g_len (numfmt.h)
 * are the lengths snprintf's "%.*f" and "%.*g" write: doubles of every
 * scale, the ties and near-ties of their roundings, and the values next to
 * the powers of ten where a number gains a digit or changes notation. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "numfmt.h"

static uint64_t xs = 88172645463325252ull;
static uint64_t next(void)
{
    xs ^= xs << 13;
    xs ^= xs >> 7;
    xs ^= xs << 17;
    return xs;
}

static void check(double v)
{
    for (int d = 0; d <= RTM_DIGITS_MAX; d++) {
        size_t want = (size_t)snprintf(NULL, 0, "%.*f", d, v);
        if (rtm_printf_f_len(v, d) != want)
            fail_msg("%%.%df of %.17g: %zu, want %zu", d, v, rtm_printf_f_len(v, d), want);
    }
    for (int p = 1; p <= 9; p++) {
        size_t want = (size_t)snprintf(NULL, 0, "%.*g", p, v);
        if (rtm_printf_g_len(v, p) != want)
            fail_msg("%%.%dg of %.17g: %zu, want %zu", p, v, rtm_printf_g_len(v, p), want);
    }
}

/* One value of a kind: any bits, any scale, near a power of ten, near a
 * half at some decimal. */
static double sample(int kind)
{
    uint64_t r = next();
    double v, sign = r & 1 ? -1 : 1;
    switch (kind) {
    case 0:
        memcpy(&v, &r, sizeof v);
        return v;
    case 1:
        return sign * ldexp((double)(r >> 11), -53) * pow(10, (int)(next() % 40) - 20);
    case 2:
        v = pow(10, (int)(next() % 30) - 15);
        return sign * v * (1 + ((double)(r % 2001) - 1000) * 1e-12);
    default:
        v = ((double)(next() % 100000000) + 0.5) / pow(10, (int)(next() % 12));
        v = r & 2 ? nextafter(v, 0) : r & 4 ? nextafter(v, 1e300) : v;
        return sign * v;
    }
}

static void lengths_are_printf_lengths(void **state)
{
    (void)state;
    static const double special[] = { 0.0, -0.0, 1, 0.5, 1.5, 2.5, 0.125, 1e-4, 1e-5,
                                      9.9999999995, 99999.99995, 999999999.5, 1e9, 1e300,
                                      -1e-300, 5e-324, NAN, INFINITY, -INFINITY };
    for (size_t i = 0; i < sizeof special / sizeof *special; i++)
        check(special[i]);
    for (int i = 0; i < 40000; i++) {
        double v = sample(i % 4);
        check(v);
        check((float)v);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lengths_are_printf_lengths),
    };
    return run_test_cases(tests, NULL, NULL);
}
