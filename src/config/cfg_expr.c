/* cfg_expr.c - the integer expressions of #if and #elif, after their
 * macros were expanded (cfg_expr.h says which operators and why).
 *
 * A recursive descent, one function a precedence level, over 64-bit
 * integers.  Arithmetic is done on unsigned values so that overflow wraps
 * instead of being undefined; division by zero and INT64_MIN / -1 are
 * errors.  Parentheses nest at most CFG_EXPR_DEPTH deep, so the recursion
 * is bounded whatever the input.
 */
#include "cfg_expr.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct ex {
    const char *p, *e;
    int depth;
    char *why;
    size_t nwhy;
};

__attribute__((format(printf, 2, 3)))
static int bad(struct ex *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (x->why && x->nwhy && !x->why[0])
        vsnprintf(x->why, x->nwhy, fmt, ap);
    va_end(ap);
    return -1;
}

static void blank(struct ex *x)
{
    while (x->p < x->e && (*x->p == ' ' || *x->p == '\t' || *x->p == '\r' || *x->p == '\n'))
        x->p++;
}

/* Whether the next bytes are op, not the start of a longer one ("<" is
 * not "<=", "==" not "==="): taken when so. */
static int take(struct ex *x, const char *op)
{
    size_t n = strlen(op);
    blank(x);
    if ((size_t)(x->e - x->p) < n || memcmp(x->p, op, n) != 0)
        return 0;
    const char *after = x->p + n;
    if (after < x->e && *after == '=' && (n == 1 || op[1] == '='))
        return 0;
    x->p = after;
    return 1;
}

static int ident_byte(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || (c >= '0' && c <= '9');
}

static int orx(struct ex *x, int64_t *v);

static int primary(struct ex *x, int64_t *v)
{
    blank(x);
    if (x->p >= x->e)
        return bad(x, "expression ends where a value is expected");
    char c = *x->p;
    if (c == '(') {
        if (++x->depth > CFG_EXPR_DEPTH)
            return bad(x, "parentheses nested deeper than %d", CFG_EXPR_DEPTH);
        x->p++;
        if (orx(x, v))
            return -1;
        blank(x);
        if (x->p >= x->e || *x->p != ')')
            return bad(x, "'(' without ')'");
        x->p++;
        x->depth--;
        return 0;
    }
    if (c >= '0' && c <= '9') {
        const char *s = x->p;
        while (x->p < x->e && ident_byte(*x->p))
            x->p++;
        int hex = x->p - s > 2 && s[0] == '0' && (s[1] | 0x20) == 'x';
        uint64_t u = 0, base = hex ? 16 : 10;
        for (const char *d = hex ? s + 2 : s; d < x->p; d++) {
            int k = *d >= '0' && *d <= '9' ? *d - '0'
                  : hex && (*d | 0x20) >= 'a' && (*d | 0x20) <= 'f' ? (*d | 0x20) - 'a' + 10 : -1;
            if (k < 0)
                return bad(x, "%.*s is not an integer", (int)(x->p - s), s);
            if (u > ((uint64_t)INT64_MAX - (uint64_t)k) / base)
                return bad(x, "%.*s does not fit 64 bits", (int)(x->p - s), s);
            u = u * base + (uint64_t)k;
        }
        if (x->p < x->e && *x->p == '.')
            return bad(x, "only integers can be compared, not %.*s...", (int)(x->p - s + 1), s);
        *v = (int64_t)u;
        return 0;
    }
    if (ident_byte(c)) {
        const char *s = x->p;
        while (x->p < x->e && ident_byte(*x->p))
            x->p++;
        return bad(x, "%.*s is not a defined macro", (int)(x->p - s), s);
    }
    if (c == '"' || c == '\'')
        return bad(x, "a string is not a number");
    return bad(x, "unexpected '%c'", c);
}

static int unary(struct ex *x, int64_t *v)
{
    int depth = 0;
    char ops[CFG_EXPR_DEPTH];
    for (;;) {
        blank(x);
        if (x->p < x->e && (*x->p == '!' || *x->p == '-' || *x->p == '+' || *x->p == '~') &&
            !(*x->p == '!' && x->e - x->p > 1 && x->p[1] == '=')) {
            if (depth == CFG_EXPR_DEPTH)
                return bad(x, "more than %d unary operators in a row", CFG_EXPR_DEPTH);
            ops[depth++] = *x->p++;
            continue;
        }
        break;
    }
    if (primary(x, v))
        return -1;
    while (depth--) {
        char o = ops[depth];
        *v = o == '!' ? !*v : o == '-' ? (int64_t)(0 - (uint64_t)*v) : o == '~' ? ~*v : *v;
    }
    return 0;
}

static int mul(struct ex *x, int64_t *v)
{
    if (unary(x, v))
        return -1;
    for (;;) {
        char o = take(x, "*") ? '*' : take(x, "/") ? '/' : take(x, "%") ? '%' : 0;
        int64_t r;
        if (!o)
            return 0;
        if (unary(x, &r))
            return -1;
        if (o != '*' && r == 0)
            return bad(x, "division by zero");
        if (o != '*' && r == -1 && *v == INT64_MIN)
            return bad(x, "division overflows 64 bits");
        *v = o == '*' ? (int64_t)((uint64_t)*v * (uint64_t)r) : o == '/' ? *v / r : *v % r;
    }
}

static int add(struct ex *x, int64_t *v)
{
    if (mul(x, v))
        return -1;
    for (;;) {
        char o = take(x, "+") ? '+' : take(x, "-") ? '-' : 0;
        int64_t r;
        if (!o)
            return 0;
        if (mul(x, &r))
            return -1;
        *v = (int64_t)(o == '+' ? (uint64_t)*v + (uint64_t)r : (uint64_t)*v - (uint64_t)r);
    }
}

static int rel(struct ex *x, int64_t *v)
{
    if (add(x, v))
        return -1;
    for (;;) {
        int o = take(x, "<=") ? 1 : take(x, ">=") ? 2 : take(x, "<") ? 3 : take(x, ">") ? 4 : 0;
        int64_t r;
        if (!o)
            return 0;
        if (add(x, &r))
            return -1;
        *v = o == 1 ? *v <= r : o == 2 ? *v >= r : o == 3 ? *v < r : *v > r;
    }
}

static int eq(struct ex *x, int64_t *v)
{
    if (rel(x, v))
        return -1;
    for (;;) {
        int o = take(x, "==") ? 1 : take(x, "!=") ? 2 : 0;
        int64_t r;
        if (!o)
            return 0;
        if (rel(x, &r))
            return -1;
        *v = o == 1 ? *v == r : *v != r;
    }
}

/* && and || evaluate both sides (there are no side effects to skip). */
static int andx(struct ex *x, int64_t *v)
{
    if (eq(x, v))
        return -1;
    while (take(x, "&&")) {
        int64_t r;
        if (eq(x, &r))
            return -1;
        *v = *v && r;
    }
    return 0;
}

static int orx(struct ex *x, int64_t *v)
{
    if (andx(x, v))
        return -1;
    while (take(x, "||")) {
        int64_t r;
        if (andx(x, &r))
            return -1;
        *v = *v || r;
    }
    return 0;
}

int cfg_expr_eval(const char *s, size_t n, int64_t *val, char *why, size_t nwhy)
{
    struct ex x = { .p = s, .e = s + n, .why = why, .nwhy = nwhy };
    if (why && nwhy)
        why[0] = 0;
    blank(&x);
    if (x.p == x.e)
        return bad(&x, "no expression");
    if (orx(&x, val))
        return -1;
    blank(&x);
    if (x.p < x.e) {
        const char *t = x.p;
        while (t < x.e && !strchr(" \t\r\n", *t) && t - x.p < 8)
            t++;
        return bad(&x, "unexpected %.*s", (int)(t - x.p), x.p);
    }
    return 0;
}
