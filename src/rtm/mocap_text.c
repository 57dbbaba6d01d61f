/* mocap_text.c - the BVH reader's words, numbers and messages
 * (mocap_text.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mocap_text.h"

/* ---- messages ---- */

static int vfail(struct rd *r, const uint8_t *at, int col, const char *fmt, va_list ap)
{
    char msg[200];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (col)
        rtm_err_set(r->err, (uint64_t)(at - r->base), "line %u column %u: %s", r->line,
                    (unsigned)(at - r->line_at) + 1, msg);
    else
        rtm_err_set(r->err, (uint64_t)(at - r->base), "line %u: %s", r->line, msg);
    return -1;
}

int rtm_bvh_fail(struct rd *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(r, r->p, 0, fmt, ap);
    va_end(ap);
    return -1;
}

int rtm_bvh_fail_at(struct rd *r, const uint8_t *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(r, at, 1, fmt, ap);
    va_end(ap);
    return -1;
}

/* The text ended where more was needed: a head read asks for more. */
int rtm_bvh_fail_cut(struct rd *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(r, r->p, 0, fmt, ap);
    va_end(ap);
    r->cut = 1;
    return -1;
}

/* A name or token for a message: at most 40 bytes, unprintable bytes as '?'. */
const char *rtm_bvh_shown(const uint8_t *s, size_t n, char out[48])
{
    size_t k = 0;
    for (; k < n && k < 40; k++)
        out[k] = s[k] >= 0x20 && s[k] < 0x7f ? (char)s[k] : '?';
    if (n > 40)
        memcpy(out + k, "...", 3), k += 3;
    out[k] = 0;
    return out;
}

/* ---- lines and words ---- */

static int is_stop(uint8_t c) { return is_blank(c) || is_eol(c) || c == '{' || c == '}' || c == ':'; }

/* The next word, across line ends; a brace or colon is a word of its own.
 * Length 0 at the end of the text. */
size_t rtm_bvh_word(struct rd *r, const uint8_t **w)
{
    skip_space(r);
    *w = r->p;
    if (r->p == r->end)
        return 0;
    if (is_stop(*r->p))
        return (size_t)(++r->p - *w);
    while (r->p < r->end && !is_stop(*r->p))
        r->p++;
    return (size_t)(r->p - *w);
}

/* The next word on this line (not crossing a line end), 0 when none. */
size_t rtm_bvh_word_here(struct rd *r, const uint8_t **w)
{
    skip_blanks(r);
    return at_eol(r) ? (*w = r->p, 0) : rtm_bvh_word(r, w);
}

int rtm_bvh_is_kw(const uint8_t *w, size_t n, const char *kw)
{
    size_t k = strlen(kw);
    if (n != k)
        return 0;
    for (size_t i = 0; i < n; i++)
        if ((w[i] | 0x20) != (kw[i] | 0x20))
            return 0;
    return 1;
}

/* ---- numbers ---- */

static const double P10[23] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };

/* Decimal text at p: 1 with *v and *endp, 0 when it is not a number.
 * Up to 19 significant digits are kept in an integer; when that integer
 * is below 2^53 and the power of ten at most 22, both are exact doubles
 * and one multiplication or division rounds correctly (Clinger's fast
 * path: every number a BVH writer prints).  Otherwise strtod reads the
 * kept digits as "DIGITSeEXP", which has no decimal point and so no
 * locale; digits past the 19th are dropped (within one ULP). */
static int read_num(const uint8_t *p, const uint8_t *end, double *v, const uint8_t **endp)
{
    int neg = 0, any = 0, nd = 0;
    uint64_t m = 0;
    int64_t e10 = 0;
    if (p < end && (*p == '-' || *p == '+'))
        neg = *p++ == '-';
    while (p < end && *p == '0')
        p++, any = 1;
    for (; p < end && (unsigned)(*p - '0') < 10; p++, any = 1) {
        if (nd < 19)
            m = m * 10 + (unsigned)(*p - '0'), nd++;
        else
            e10++;
    }
    if (p < end && *p == '.') {
        p++;
        if (nd == 0)
            for (; p < end && *p == '0'; p++)
                e10--, any = 1;
        for (; p < end && (unsigned)(*p - '0') < 10; p++, any = 1)
            if (nd < 19)
                m = m * 10 + (unsigned)(*p - '0'), nd++, e10--;
    }
    if (!any)
        return 0;
    if (p < end && (*p | 0x20) == 'e') {
        int eneg = 0;
        int64_t e = 0;
        p++;
        if (p < end && (*p == '-' || *p == '+'))
            eneg = *p++ == '-';
        if (p == end || (unsigned)(*p - '0') >= 10)
            return 0;
        for (; p < end && (unsigned)(*p - '0') < 10; p++)
            if (e < 100000)
                e = e * 10 + (*p - '0');
        e10 += eneg ? -e : e;
    }
    *endp = p;
    double d;
    if (m == 0) {
        d = 0;
    } else if (m <= (1ull << 53) && e10 >= -22 && e10 <= 22) {
        d = (double)m;
        d = e10 < 0 ? d / P10[-e10] : d * P10[e10];
    } else {
        char t[48];
        snprintf(t, sizeof t, "%llue%lld", (unsigned long long)m, (long long)e10);
        d = strtod(t, NULL);
    }
    *v = neg ? -d : d;
    return 1;
}

/* A number in the text at r->p, ended by a blank or a line end: 0 with
 * *v, or -1 naming what it is and where. */
int rtm_bvh_num(struct rd *r, double *v, const char *what)
{
    const uint8_t *s = r->p, *e;
    if (read_num(s, r->end, v, &e) && (e == r->end || is_blank(*e) || is_eol(*e)) &&
        isfinite(*v)) {
        r->p = e;
        return 0;
    }
    e = s;
    while (e < r->end && !is_blank(*e) && !is_eol(*e))
        e++;
    char t[48];
    int inf = 0;
    for (const uint8_t *q = s; q + 2 < e && !inf; q++)
        inf = rtm_bvh_is_kw(q, 3, "nan") || rtm_bvh_is_kw(q, 3, "inf");
    for (const uint8_t *q = s; q < e && !inf; q++)
        inf = *q == '#';        /* MSVC's 1.#INF, 1.#QNAN, -1.#IND */
    if (!inf) {
        const uint8_t *q;
        double d;
        inf = read_num(s, e, &d, &q) && q == e && !isfinite(d);
    }
    return rtm_bvh_fail_at(r, s, "%s: '%s' is not a %snumber", what, rtm_bvh_shown(s, (size_t)(e - s), t),
                   inf ? "finite " : "");
}

/* A count: decimal digits that fit 32 bits, ended by a blank or line end. */
int rtm_bvh_count(struct rd *r, uint32_t *v, const char *what)
{
    const uint8_t *s = r->p;
    uint64_t n = 0;
    while (r->p < r->end && (unsigned)(*r->p - '0') < 10 && n <= UINT32_MAX)
        n = n * 10 + (unsigned)(*r->p++ - '0');
    if (r->p == s || n > UINT32_MAX || (r->p < r->end && !is_blank(*r->p) && !is_eol(*r->p))) {
        const uint8_t *e = s;
        char t[48];
        while (e < r->end && !is_blank(*e) && !is_eol(*e))
            e++;
        return rtm_bvh_fail_at(r, s, "%s: '%s' is not a count", what, rtm_bvh_shown(s, (size_t)(e - s), t));
    }
    *v = (uint32_t)n;
    return 0;
}

