/* cfg_word.c - what an unquoted word of a text config is (cfg_word.h). */
#include "cfg_word.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Digits of base 10 or 16 from s to e: the value, or -1 past INT64_MAX. */
static int parse_digits(const char *s, const char *e, int base, uint64_t *out)
{
    uint64_t v = 0;
    if (s == e)
        return -1;
    for (; s < e; s++) {
        int d;
        if (*s >= '0' && *s <= '9')
            d = *s - '0';
        else if (base == 16 && (*s | 0x20) >= 'a' && (*s | 0x20) <= 'f')
            d = (*s | 0x20) - 'a' + 10;
        else
            return -1;
        if (v > ((uint64_t)INT64_MAX - (uint64_t)d) / (uint64_t)base)
            return -1;
        v = v * (uint64_t)base + (uint64_t)d;
    }
    *out = v;
    return 0;
}

/* m / 10^frac as strtof rounds it, when one float division gives it
 * (Clinger's fast path): m and 10^frac both exact in a float (m <= 2^24,
 * frac <= 10: 5^10 < 2^24), so the one rounding is the division's, to
 * nearest, which is strtof's.  Configs' numbers are mostly such (speed =
 * 0.25), and strtof took a tenth of a config's parse.  0, or -1 (the
 * caller asks strtof). */
static int float_fast(uint64_t m, int frac, int neg, float *f)
{
#if FLT_EVAL_METHOD == 0
    static const float POW10F[] = { 1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f,
                                    1e6f, 1e7f, 1e8f, 1e9f, 1e10f };
    if (m > (1u << 24) || frac > 10)
        return -1;
    float v = (float)m / POW10F[frac];
    *f = neg ? -v : v;
    return 0;
#else
    (void)m, (void)frac, (void)neg, (void)f;
    return -1;
#endif
}

static int as_float(const char *s, const char *e, float *f)
{
    const char *p = s;
    int digits = 0, point = 0, exp = 0, frac = 0, neg = p < e && *p == '-';
    uint64_t m = 0;                     /* the digits, while they are few */
    if (p < e && (*p == '-' || *p == '+'))
        p++;
    for (; p < e && ((*p >= '0' && *p <= '9') || *p == '.'); p++) {
        if (*p == '.' && point++)
            return -1;
        digits += *p != '.';
        frac += point && *p != '.';
        if (*p != '.' && m <= (1u << 24))
            m = m * 10 + (uint64_t)(*p - '0');
    }
    if (!digits)
        return -1;
    if (p < e && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < e && (*p == '-' || *p == '+'))
            p++;
        for (; p < e && *p >= '0' && *p <= '9'; p++)
            exp++;
        if (!exp)
            return -1;
    }
    if (p != e || (!point && !exp))
        return -1;
    if (!exp && float_fast(m, frac, neg, f) == 0)
        return 0;
    char tmp[128];
    if ((size_t)(e - s) >= sizeof tmp)
        return -1;
    memcpy(tmp, s, (size_t)(e - s));
    tmp[e - s] = 0;
    *f = strtof(tmp, NULL);
    return 0;
}

/* The non-finite spellings cfg_print_text() uses (and DeRap's). */
static int as_nonfinite(const char *s, size_t n, float *f)
{
    unsigned bits;
    char tail;
    char tmp[40];
    if (n >= sizeof tmp)
        return -1;
    memcpy(tmp, s, n);
    tmp[n] = 0;
    if (!strcmp(tmp, "1.#INF") || !strcmp(tmp, "-1.#INF")) {
        *f = tmp[0] == '-' ? -INFINITY : INFINITY;
        return 0;
    }
    if (!strcmp(tmp, "1.#QNAN") || !strcmp(tmp, "-1.#IND") || !strcmp(tmp, "-1.#QNAN")) {
        bits = tmp[0] == '-' ? 0xFFC00000u : 0x7FC00000u;
    } else if (sscanf(tmp, "1.#QNAN(0x%8x%c", &bits, &tail) != 2 || tail != ')' ||
               n != 19) {
        return -1;
    }
    memcpy(f, &bits, 4);
    return isnan(*f) ? 0 : -1;
}

/* Whether s..e is __EVAL( ... ) whose first parenthesis closes at e: the
 * expression inside into *x. */
static int as_expression(const char *s, const char *e, const char **x, size_t *xn)
{
    long depth = 0;
    if (e - s < 8 || memcmp(s, "__EVAL(", 7) != 0 || e[-1] != ')')
        return 0;
    for (const char *p = s + 6; p < e; p++) {
        depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
        if (depth == 0 && p + 1 < e)
            return 0;
    }
    *x = s + 7;
    *xn = (size_t)(e - s - 8);
    return depth == 0;
}

void cfg_word_read(const char *s, const char *e, struct cfg_word *out)
{
    const char *d = s;
    int neg = 0;
    uint64_t u;
    *out = (struct cfg_word){ CFG_WORD_STRING, 0, 0, s, (size_t)(e - s) };
    if (as_expression(s, e, &out->text, &out->len)) {
        out->kind = CFG_WORD_EXPRESSION;
        return;
    }
    if (d < e && (*d == '-' || *d == '+'))
        neg = *d++ == '-';
    int hex = e - d > 2 && d[0] == '0' && (d[1] | 0x20) == 'x';
    if (parse_digits(hex ? d + 2 : d, e, hex ? 16 : 10, &u) == 0) {
        out->kind = CFG_WORD_INT;
        out->i = neg ? -(int64_t)u : (int64_t)u;
    } else if (as_float(s, e, &out->f) == 0 || as_nonfinite(s, (size_t)(e - s), &out->f) == 0) {
        out->kind = CFG_WORD_FLOAT;
    }
}
