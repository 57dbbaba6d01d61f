/* cfg_macro.c - the preprocessor's expander and its #if (cfg_pp.h says
 * what it does as Arma does it; cfg_define.c keeps the definitions).
 *
 * Expansion is textual and recursive: a macro's body (with its arguments,
 * themselves expanded first, put in for its parameters, # quoting one and
 * ## pasting two) is expanded again with the macro itself switched off, as
 * C's "painted blue" rule keeps self-reference finite.  Nesting deeper
 * than CFG_DEPTH_MAX and output past the caller's limit stop it.  A body
 * with conditional lines has them applied first (keep_lines), and #if
 * expressions are expanded here too, at the depth they are met.
 */
#include "cfg_macro.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cfg_expr.h"

/* The wiki's date and time built-ins (PreProcessor Commands, as quoted
 * with its examples: __DATE_ARR__ 2020,10,28,15,17,42, __DATE_STR__
 * "2020/10/28, 15:17:42", __DATE_STR_ISO8601__ "2020-10-28T14:17:42Z",
 * __TIME__ 15:17:42, __TIME_UTC__ 14:17:42), of the run's time: local
 * time but for the UTC ones; __DAY__, __MONTH__ and __YEAR__ are UTC's
 * numbers (an assumption: the examples do not say).  1 when s (n bytes)
 * is one, written to out. */
static int put_date(const struct cfg_macro_expand *x, const char *s, size_t n,
                    struct rtm_buf *out)
{
    static const char *const names[] = { "__DATE_ARR__", "__DATE_STR__",
                                         "__DATE_STR_ISO8601__", "__TIME__", "__TIME_UTC__",
                                         "__DAY__", "__MONTH__", "__YEAR__" };
    size_t k = 0;
    while (k < sizeof names / sizeof *names &&
           (strlen(names[k]) != n || memcmp(names[k], s, n)))
        k++;
    if (k == sizeof names / sizeof *names)
        return 0;
    time_t t = (time_t)x->timestamp;
    struct tm l, u;
    localtime_r(&t, &l);
    gmtime_r(&t, &u);
    switch (k) {
    case 0: rtm_buf_printf(out, "%d,%d,%d,%d,%d,%d", l.tm_year + 1900, l.tm_mon + 1, l.tm_mday,
                           l.tm_hour, l.tm_min, l.tm_sec); break;
    case 1: rtm_buf_printf(out, "\"%04d/%02d/%02d, %02d:%02d:%02d\"", l.tm_year + 1900,
                           l.tm_mon + 1, l.tm_mday, l.tm_hour, l.tm_min, l.tm_sec); break;
    case 2: rtm_buf_printf(out, "\"%04d-%02d-%02dT%02d:%02d:%02dZ\"", u.tm_year + 1900,
                           u.tm_mon + 1, u.tm_mday, u.tm_hour, u.tm_min, u.tm_sec); break;
    case 3: rtm_buf_printf(out, "%02d:%02d:%02d", l.tm_hour, l.tm_min, l.tm_sec); break;
    case 4: rtm_buf_printf(out, "%02d:%02d:%02d", u.tm_hour, u.tm_min, u.tm_sec); break;
    case 5: rtm_buf_printf(out, "%d", u.tm_mday); break;
    case 6: rtm_buf_printf(out, "%d", u.tm_mon + 1); break;
    default: rtm_buf_printf(out, "%d", u.tm_year + 1900); break;
    }
    return 1;
}

/* ---- expansion -------------------------------------------------------- */

static int expand(struct cfg_macro_expand *x, const char *s, size_t n, struct rtm_buf *out, int depth);

/* A "string" from s: one past its closing quote (or the end).  Only
 * double quotes: the game expands macros inside 'single quotes' (CBA's
 * COMPILE_FILE_SYS puts 'PATHTO_SYS(var1,var2,var3)' in them). */
static const char *skip_string(const char *s, const char *e)
{
    for (s++; s < e && *s != '"'; s++)
        ;
    return s < e ? s + 1 : e;
}

static int is_quote(char c) { return c == '"'; }

/* From '(' at s: one past the matching ')', or NULL; argument starts and
 * ends (commas at depth 0, outside strings and, in text that expansion
 * produced (expanded), outside [...]) into a[]. */
static const char *split_args(const char *s, const char *e, const char **a, int *na, int max,
                              int expanded)
{
    int depth = 0, square = 0;
    *na = 0;
    a[0] = s + 1;
    for (const char *p = s; p < e; p++) {
        if (is_quote(*p)) {
            p = skip_string(p, e) - 1;
        } else if (*p == '(') {
            depth++;
        } else if (*p == ')' && --depth == 0) {
            a[++*na] = p + 1;
            return p + 1;
        } else if (expanded && (*p == '[' || (*p == ']' && square > 0))) {
            square += *p == '[' ? 1 : -1;
        } else if (*p == ',' && depth == 1 && square == 0) {
            if (*na + 2 >= max)
                return NULL;    /* room for this start and the closing end */
            a[++*na] = p + 1;
        }
    }
    return NULL;
}

static int param_index(const struct cfg_macro *d, const char *s, size_t n)
{
    for (int i = 0; i < d->nparams; i++)
        if (strlen(d->params[i]) == n && memcmp(d->params[i], s, n) == 0)
            return i;
    return -1;
}

/* Blanks off b's end, and line marks with them when marks. */
static void trim_tail(struct rtm_buf *b, int marks)
{
    while (b->len && (b->p[b->len - 1] == ' ' || b->p[b->len - 1] == '\t' ||
                      (marks && b->p[b->len - 1] == '\n')))
        b->len--;
}

/* The body of d with the expanded arguments put in. */
static void substitute(const struct cfg_macro *d, struct rtm_buf *args, struct rtm_buf *out)
{
    const char *s = d->body, *e = s + strlen(s);
    while (s < e) {
        if (s[0] == '#' && s + 1 < e && s[1] == '#') {
            trim_tail(out, 1);
            for (s += 2; s < e && (*s == '\n' || cfg_macro_blank(s, e) > s); s++)
                ;
            continue;
        }
        if (is_quote(*s)) {
            const char *q = skip_string(s, e);
            rtm_buf_put(out, s, (size_t)(q - s));
            s = q;
            continue;
        }
        int quote = *s == '#';
        const char *b = quote ? cfg_macro_blank(s + 1, e) : s, *p = b;
        while (p < e && cfg_macro_ident((unsigned char)*p))
            p++;
        int k = p > b && cfg_macro_ident_start((unsigned char)*b) ? param_index(d, b, (size_t)(p - b)) : -1;
        if (k >= 0) {
            if (quote)
                rtm_buf_putc(out, '"');
            rtm_buf_put(out, args[k].p, args[k].len);
            if (quote)
                rtm_buf_putc(out, '"');
            s = p;
        } else if (p > b && !quote) {
            rtm_buf_put(out, b, (size_t)(p - b));
            s = p;
        } else {
            rtm_buf_putc(out, *s++);
        }
    }
}

/* Counts bytes produced anywhere in the expansion against the budget, so
 * arguments nested in arguments cannot grow without bound. */
static int spend(struct cfg_macro_expand *x, size_t n)
{
    x->produced += n;
    if (x->produced / 4 <= x->limit)
        return 0;
    x->why = "macro expansion larger than the output limit";
    return -1;
}

static int oom(struct cfg_macro_expand *x)
{
    x->oom = 1;
    x->why = "out of memory expanding macros";
    return -1;
}

/* x->why as fmt says (its arguments may be x->why itself): -1. */
__attribute__((format(printf, 2, 3)))
static int why_is(struct cfg_macro_expand *x, const char *fmt, ...)
{
    char w[sizeof x->whybuf];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w, sizeof w, fmt, ap);
    va_end(ap);
    memcpy(x->whybuf, w, sizeof w);
    x->why = x->whybuf;
    return -1;
}

/* ---- #if -------------------------------------------------------------- */

int cfg_cond_push(struct cfg_cond *c, int yes)
{
    if (c->n == CFG_COND_MAX)
        return -1;
    c->active[c->n] = (uint8_t)(cfg_cond_active(c) && yes);
    c->taken[c->n] = (uint8_t)(yes != 0);
    c->seen_else[c->n++] = 0;
    return 0;
}

int cfg_cond_wants(const struct cfg_cond *c)
{
    return c->n > 0 && !c->seen_else[c->n - 1] && !c->taken[c->n - 1] &&
           (c->n < 2 || c->active[c->n - 2]);
}

int cfg_cond_branch(struct cfg_cond *c, int yes, int is_else)
{
    if (c->n == 0 || c->seen_else[c->n - 1])
        return -1;
    int outer = c->n < 2 || c->active[c->n - 2];
    c->seen_else[c->n - 1] = (uint8_t)(is_else != 0);
    c->active[c->n - 1] = (uint8_t)(outer && !c->taken[c->n - 1] && yes);
    c->taken[c->n - 1] |= (uint8_t)(yes != 0);
    return 0;
}

/* defined(NAME), defined NAME or __has_include("PATH") (<PATH>) at q (the
 * word before it n bytes): its 0 or 1 into b, one past it in *end; -1
 * when malformed. */
static int if_builtin(struct cfg_macro_expand *x, const char *q, const char *e, size_t n,
                      struct rtm_buf *b, const char **end)
{
    const char *a = cfg_macro_blank(q, e), *z;
    char inc[PATH_MAX];
    if (n == 7) {
        int paren = a < e && *a == '(';
        a = cfg_macro_blank(a + paren, e);
        for (z = a; z < e && cfg_macro_ident((unsigned char)*z); z++)
            ;
        if (z == a)
            return why_is(x, "#if: defined without a macro name");
        rtm_buf_putc(b, cfg_macro_defined(x->m, a, (size_t)(z - a)) ? '1' : '0');
        z = cfg_macro_blank(z, e);
        if (paren && (z >= e || *z != ')'))
            return why_is(x, "#if: defined( without ')'");
        *end = z + paren;
        return 0;
    }
    if (a >= e || *a != '(' || (a = cfg_macro_blank(a + 1, e)) >= e || (*a != '"' && *a != '<') ||
        !(z = memchr(a + 1, *a == '<' ? '>' : '"', (size_t)(e - a - 1))) ||
        (size_t)(z - a) >= sizeof inc)
        return why_is(x, "#if: __has_include without (\"path\")");
    memcpy(inc, a + 1, (size_t)(z - a - 1));
    inc[z - a - 1] = 0;
    z = cfg_macro_blank(z + 1, e);
    if (z >= e || *z != ')')
        return why_is(x, "#if: __has_include( without ')'");
    rtm_buf_putc(b, x->has_include && x->has_include(x->arg, inc) ? '1' : '0');
    *end = z + 1;
    return 0;
}

/* s..e with defined() and __has_include() as 0 or 1, into pre. */
static int if_builtins(struct cfg_macro_expand *x, const char *s, const char *e,
                       struct rtm_buf *pre)
{
    for (const char *p = s; p < e;) {
        const char *q = p;
        if (*p == '"' || *p == '\'') {
            for (q++; q < e && *q != *p; q++)
                ;
            q += q < e;
        } else if (cfg_macro_ident_start((unsigned char)*p)) {
            while (q < e && cfg_macro_ident((unsigned char)*q))
                q++;
            size_t n = (size_t)(q - p);
            if ((n == 7 && !memcmp(p, "defined", 7)) || (n == 13 && !memcmp(p, "__has_include", 13))) {
                if (if_builtin(x, q, e, n, pre, &p))
                    return -1;
                continue;
            }
        } else if (*p >= '0' && *p <= '9') {
            while (q < e && cfg_macro_ident((unsigned char)*q))
                q++;
        } else {
            q++;
        }
        rtm_buf_put(pre, p, (size_t)(q - p));
        p = q;
    }
    return 0;
}

/* cfg_macro_if at depth (inside a macro's body: the body's). */
static int if_at(struct cfg_macro_expand *x, const char *s, size_t n, int depth, int *yes)
{
    struct rtm_buf pre, out;
    char why[160];
    int64_t v = 0;
    rtm_buf_init(&pre);
    rtm_buf_init(&out);
    int rc = if_builtins(x, s, s + n, &pre);
    if (rc == 0 && pre.oom)
        rc = oom(x);
    if (rc == 0 && expand(x, pre.p ? pre.p : "", pre.len, &out, depth))
        rc = x->oom ? -1 : why_is(x, "#if: %s", x->why ? x->why : "cannot expand");
    if (rc == 0 && out.oom)
        rc = oom(x);
    if (rc == 0 && cfg_expr_eval(out.p ? out.p : "", out.len, &v, why, sizeof why))
        rc = why_is(x, "#if cannot be evaluated: %s", why);
    *yes = v != 0;
    rtm_buf_free(&pre);
    rtm_buf_free(&out);
    return rc;
}

int cfg_macro_if(struct cfg_macro_expand *x, const char *s, size_t n, int *yes)
{
    x->why = NULL;
    x->oom = 0;
    return if_at(x, s, n, 0, yes);
}

/* One line s..e of a macro's body under the blocks c: into out when they
 * keep it, or the conditional directive it is applied. */
static int body_line(struct cfg_macro_expand *x, struct cfg_cond *c, const char *s,
                     const char *e, struct rtm_buf *out, int depth)
{
    const char *a = e, *z;
    int k = cfg_macro_cond_kind(s, e, &a), yes = 0;
    if (k == CFG_C_NONE) {
        if (cfg_cond_active(c))
            rtm_buf_put(out, s, (size_t)(e - s));
        return 0;
    }
    if (k == CFG_C_IFDEF || k == CFG_C_IFNDEF) {
        for (a = z = cfg_macro_blank(a, e); z < e && cfg_macro_ident((unsigned char)*z); z++)
            ;
        yes = cfg_macro_defined(x->m, a, (size_t)(z - a)) == (k == CFG_C_IFDEF);
    }
    if (((k == CFG_C_IF && cfg_cond_active(c)) || (k == CFG_C_ELIF && cfg_cond_wants(c))) &&
        if_at(x, a, (size_t)(e - a), depth, &yes))
        return -1;
    if (k == CFG_C_IF || k == CFG_C_IFDEF || k == CFG_C_IFNDEF)
        return cfg_cond_push(c, yes) ? why_is(x, "#if nested deeper than %d", CFG_COND_MAX) : 0;
    if (k == CFG_C_ENDIF)
        return cfg_cond_pop(c) ? why_is(x, "#endif without #if") : 0;
    if (cfg_cond_branch(c, yes || k == CFG_C_ELSE, k == CFG_C_ELSE))
        return why_is(x, "#%s without #if", k == CFG_C_ELSE ? "else" : "elif");
    return 0;
}

/* d's body s (n bytes: '\n' where its lines began, its arguments put in)
 * with its conditional lines applied, into out: rtm(5), as HEMTT's test
 * group_unit; the directives themselves give nothing. */
static int keep_lines(struct cfg_macro_expand *x, const struct cfg_macro *d, const char *s,
                      size_t n, struct rtm_buf *out, int depth)
{
    struct cfg_cond c;
    const char *e = s + n, *l = s;
    c.n = 0;
    for (;;) {
        const char *nl = memchr(l, '\n', (size_t)(e - l));
        if (body_line(x, &c, l, nl ? nl : e, out, depth))
            return x->oom ? -1 : why_is(x, "%s (in the body of %s)", x->why, d->name);
        if (!nl)
            break;
        l = nl + 1;
    }
    if (c.n)
        return why_is(x, "#if without #endif (in the body of %s)", d->name);
    return out->oom ? oom(x) : 0;
}

/* d's body s (n bytes, its arguments put in) expanded into out. */
static int expand_body(struct cfg_macro_expand *x, const struct cfg_macro *d, const char *s,
                       size_t n, struct rtm_buf *out, int depth)
{
    if (!d->lines)
        return expand(x, s, n, out, depth);
    struct rtm_buf kept;
    rtm_buf_init(&kept);
    int rc = keep_lines(x, d, s, n, &kept, depth);
    if (rc == 0)
        rc = expand(x, kept.p ? kept.p : "", kept.len, out, depth);
    rtm_buf_free(&kept);
    return rc;
}

/* ---- calls ------------------------------------------------------------ */

/* d called with arguments a[0..na]: expanded into out. */
static int call(struct cfg_macro_expand *x, struct cfg_macro *d, const char **a, int na,
                struct rtm_buf *out, int depth)
{
    struct rtm_buf args[CFG_PARAMS_MAX], body;
    int rc = 0, i;
    rtm_buf_init(&body);
    for (i = 0; i < d->nparams; i++)
        rtm_buf_init(&args[i]);
    for (i = 0; i < na && rc == 0; i++)     /* padding kept, as the game keeps it */
        rc = expand(x, a[i], (size_t)(a[i + 1] - 1 - a[i]), &args[i], depth + 1);
    for (i = 0; i < na && rc == 0; i++)
        rc = args[i].oom ? oom(x) : 0;
    if (rc == 0) {
        substitute(d, args, &body);
        rc = body.oom ? oom(x) : spend(x, body.len);
    }
    if (rc == 0) {
        d->active = 1;
        rc = expand_body(x, d, body.p ? body.p : "", body.len, out, depth + 1);
        d->active = 0;
    }
    for (i = 0; i < d->nparams; i++)
        rtm_buf_free(&args[i]);
    rtm_buf_free(&body);
    return rc;
}

static int has_lower(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] >= 'a' && s[i] <= 'z')
            return 1;
    return 0;
}

/* An identifier s (n bytes) that is not expanded, paren: a '(' follows:
 * a call of what looks like an undefined macro (upper case) is counted. */
static void not_expanded(struct cfg_macro_expand *x, const char *s, size_t n, int paren,
                         const struct cfg_macro *d)
{
    if (paren && (!d || !d->active) && n > 1 && !has_lower(s, n))
        x->counts->undefined_call++;
}

/* The identifier s..p is copied as it is: no macro of its name, and no
 * built-in (most words of a config).  Counted as not_expanded says. */
static int plain_word(struct cfg_macro_expand *x, const char *s, const char *p, const char *e)
{
    size_t n = (size_t)(p - s);
    if ((n >= 6 && s[0] == '_' && s[1] == '_') || cfg_macro_find(x->m, s, n))
        return 0;
    const char *after = cfg_macro_blank(p, e);
    not_expanded(x, s, n, after < e && *after == '(', NULL);
    return 1;
}

/* Puts the text *run..s, copied as it is, into out; *run moves to s. */
static int flush(struct cfg_macro_expand *x, const char **run, const char *s,
                 struct rtm_buf *out)
{
    size_t n = (size_t)(s - *run);
    rtm_buf_put(out, *run, n);
    *run = s;
    return spend(x, n);
}

/* The identifier s..p (and what follows up to e): how much was used. */
static const char *identifier(struct cfg_macro_expand *x, const char *s, const char *p,
                              const char *e, struct rtm_buf *out, int depth, int *rc)
{
    size_t n = (size_t)(p - s);
    const char *after = cfg_macro_blank(p, e), *a[CFG_PARAMS_MAX + 1];
    int na, paren = after < e && *after == '(';
    struct cfg_macro *d = cfg_macro_find(x->m, s, n);
    if ((n == 6 && (!memcmp(s, "__EVAL", 6) || !memcmp(s, "__EXEC", 6))) && paren) {
        const char *end = split_args(after, e, a, &na, CFG_PARAMS_MAX + 1, depth > 0);
        end = end ? end : e;
        if (s[3] == 'V')
            x->counts->eval++;
        else
            x->counts->exec++;
        rtm_buf_put(out, s, (size_t)(end - s));
        *rc = spend(x, (size_t)(end - s));
        return end;
    }
    if (n == 8 && !memcmp(s, "__LINE__", 8) && !d) {
        rtm_buf_printf(out, "%u", x->line);
        return p;
    }
    if (n == 11 && !memcmp(s, "__COUNTER__", 11) && !d) {
        rtm_buf_printf(out, "%u", x->counter++);
        return p;
    }
    if (n == 17 && !memcmp(s, "__TIMESTAMP_UTC__", 17) && !d) {
        rtm_buf_printf(out, "%lld", x->timestamp);
        x->time_used = 1;
        return p;
    }
    if (!d && put_date(x, s, n, out)) {
        x->time_used = 1;
        return p;
    }
    if (n == 17 && !memcmp(s, "__COUNTER_RESET__", 17) && !d) {
        x->counter = 0;
        return p;
    }
    if (n == 8 && !memcmp(s, "__FILE__", 8) && !d) {
        rtm_buf_printf(out, "\"%s\"", x->file ? x->file : "");
        return p;
    }
    if (d && !d->active && d->nparams < 0) {
        d->active = 1;
        *rc = expand_body(x, d, d->body, strlen(d->body), out, depth + 1);
        d->active = 0;
        return p;
    }
    const char *end = paren ? split_args(after, e, a, &na, CFG_PARAMS_MAX + 1, depth > 0) : NULL;
    if (d && !d->active && end && (na == d->nparams || (na == 1 && d->nparams == 0))) {
        *rc = call(x, d, a, d->nparams, out, depth);
        return end;
    }
    not_expanded(x, s, n, paren, d);
    rtm_buf_put(out, s, n);
    *rc = spend(x, n);
    return p;
}

/* The text s (n bytes) with its macros expanded into out.  A ## outside
 * a string of either quote joins its two sides (rtm(5), as HEMTT's test
 * join_digit): in a macro's body substitute() took them out already, so
 * these are the text's own. */
static int expand(struct cfg_macro_expand *x, const char *s, size_t n, struct rtm_buf *out, int depth)
{
    const char *e = s + n, *run = s;    /* run..s: copied as it is, not yet put */
    int single = 0;             /* inside 'single quotes' */
    if (depth > CFG_DEPTH_MAX) {
        x->why = "macros nested deeper than 64 (a macro that expands into itself?)";
        return -1;
    }
    while (s < e) {
        int rc = 0;
        if (out->oom)
            return oom(x);
        if (out->len > x->limit) {
            x->why = "macro expansion larger than the output limit";
            return -1;
        }
        const char *p = s;
        if (is_quote(*s)) {
            p = skip_string(s, e);
        } else if (*s == '#' && e - s >= 2 && s[1] == '#' && !single) {
            if (flush(x, &run, s, out))
                return -1;
            trim_tail(out, 0);
            s = run = cfg_macro_blank(s + 2, e);
            continue;
        } else if (cfg_macro_ident_start((unsigned char)*s)) {
            while (p < e && cfg_macro_ident((unsigned char)*p))
                p++;
            if (!plain_word(x, s, p, e)) {
                if (flush(x, &run, s, out))
                    return -1;
                s = run = identifier(x, s, p, e, out, depth, &rc);
                if (rc)
                    return rc;
                continue;
            }
        } else if (*s >= '0' && *s <= '9') {
            while (p < e && (cfg_macro_ident((unsigned char)*p) || *p == '.'))
                p++;
        } else {
            single ^= *p++ == '\'';
        }
        s = p;
    }
    return flush(x, &run, s, out);
}

int cfg_macro_expand_line(struct cfg_macro_expand *x, const char *s, size_t n, struct rtm_buf *out)
{
    x->why = NULL;
    x->oom = 0;
    int rc = expand(x, s, n, out, 0);
    if (rc == 0 && out->oom)
        rc = oom(x);
    if (rc == 0 && out->len > x->limit) {
        x->why = "macro expansion larger than the output limit";
        rc = -1;
    }
    return rc;
}
