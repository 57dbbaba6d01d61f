/* cfg_macro.c - the preprocessor's macros: a hash table of definitions
 * and the expander (cfg_pp.h says what it does as Arma does it).
 *
 * Expansion is textual and recursive: a macro's body (with its arguments,
 * themselves expanded first, put in for its parameters, # quoting one and
 * ## pasting two) is expanded again with the macro itself switched off, as
 * C's "painted blue" rule keeps self-reference finite.  Nesting deeper
 * than CFG_DEPTH_MAX and output past the caller's limit stop it.
 */
#include "cfg_macro.h"

#include <stdlib.h>
#include <time.h>

enum { BUCKETS = 1024, PARAMS_MAX = 64 };

struct macro {
    struct macro *next;
    char *name;
    int nparams;                /* -1: object-like */
    char *params[PARAMS_MAX];
    char *body;
    int active;                 /* being expanded: not again inside itself */
};

struct cfg_macros {
    struct macro *bucket[BUCKETS];
};

struct cfg_macros *cfg_macros_new(void) { return calloc(1, sizeof(struct cfg_macros)); }

static void macro_free(struct macro *d)
{
    for (int i = 0; i < d->nparams; i++)
        free(d->params[i]);
    free(d->name);
    free(d->body);
    free(d);
}

void cfg_macros_free(struct cfg_macros *m)
{
    if (!m)
        return;
    for (int b = 0; b < BUCKETS; b++)
        for (struct macro *d = m->bucket[b], *nx; d; d = nx) {
            nx = d->next;
            macro_free(d);
        }
    free(m);
}

static struct macro **slot(const struct cfg_macros *m, const char *name, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)name[i]) * 1099511628211ull;
    struct macro *const *p = &m->bucket[(h ^ h >> 29) % BUCKETS];
    while (*p && !(strlen((*p)->name) == n && memcmp((*p)->name, name, n) == 0))
        p = &(*p)->next;
    return (struct macro **)p;
}

static struct macro *find(const struct cfg_macros *m, const char *name, size_t n)
{
    return *slot(m, name, n);
}

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

/* The built-ins the expander knows by name count as defined. */
int cfg_macro_defined(const struct cfg_macros *m, const char *name, size_t n)
{
    static const char *const builtin[] = {
        "__LINE__", "__FILE__", "__COUNTER__", "__COUNTER_RESET__", "__TIMESTAMP_UTC__",
        "__DATE_ARR__", "__DATE_STR__", "__DATE_STR_ISO8601__", "__TIME__", "__TIME_UTC__",
        "__DAY__", "__MONTH__", "__YEAR__",
    };
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
        if (strlen(builtin[i]) == n && memcmp(builtin[i], name, n) == 0)
            return 1;
    return find(m, name, n) != NULL;
}

void cfg_macro_undef(struct cfg_macros *m, const char *name, size_t n)
{
    struct macro **p = slot(m, name, n), *d = *p;
    if (d) {
        *p = d->next;
        macro_free(d);
    }
}

static const char *skip_blank(const char *s, const char *e)
{
    while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
        s++;
    return s;
}

static int parse_params(struct macro *d, const char **sp, const char *e)
{
    const char *s = *sp + 1;
    d->nparams = 0;
    for (;;) {
        s = skip_blank(s, e);
        if (s < e && *s == ')' && d->nparams == 0)
            break;
        const char *b = s;
        while (s < e && cfg_macro_ident((unsigned char)*s))
            s++;
        if (s == b || d->nparams == PARAMS_MAX)
            return -1;
        if (!(d->params[d->nparams] = strndup(b, (size_t)(s - b))))
            return -2;
        d->nparams++;
        s = skip_blank(s, e);
        if (s < e && *s == ',') {
            s++;
            continue;
        }
        if (s < e && *s == ')')
            break;
        return -1;
    }
    *sp = s + 1;
    return 0;
}

int cfg_macro_define(struct cfg_macros *m, const char *s, size_t n)
{
    const char *e = s + n, *b;
    s = skip_blank(s, e);
    b = s;
    while (s < e && cfg_macro_ident((unsigned char)*s))
        s++;
    if (s == b || !cfg_macro_ident_start((unsigned char)*b))
        return -1;
    struct macro *d = calloc(1, sizeof *d);
    if (!d || !(d->name = strndup(b, (size_t)(s - b)))) {
        free(d);
        return -2;
    }
    d->nparams = -1;
    int rc = s < e && *s == '(' ? parse_params(d, &s, e) : 0;
    if (rc == 0) {
        s = skip_blank(s, e);
        while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
            e--;
        if (!(d->body = strndup(s, (size_t)(e - s))))
            rc = -2;
    }
    if (rc) {
        macro_free(d);
        return rc;
    }
    cfg_macro_undef(m, d->name, strlen(d->name));
    struct macro **p = slot(m, d->name, strlen(d->name));
    *p = d;
    return 0;
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

static int param_index(const struct macro *d, const char *s, size_t n)
{
    for (int i = 0; i < d->nparams; i++)
        if (strlen(d->params[i]) == n && memcmp(d->params[i], s, n) == 0)
            return i;
    return -1;
}

static void trim_tail(struct rtm_buf *b)
{
    while (b->len && (b->p[b->len - 1] == ' ' || b->p[b->len - 1] == '\t'))
        b->len--;
}

/* The body of d with the expanded arguments put in. */
static void substitute(const struct macro *d, struct rtm_buf *args, struct rtm_buf *out)
{
    const char *s = d->body, *e = s + strlen(s);
    while (s < e) {
        if (s[0] == '#' && s + 1 < e && s[1] == '#') {
            trim_tail(out);
            s = skip_blank(s + 2, e);
            continue;
        }
        if (is_quote(*s)) {
            const char *q = skip_string(s, e);
            rtm_buf_put(out, s, (size_t)(q - s));
            s = q;
            continue;
        }
        int quote = *s == '#';
        const char *b = quote ? skip_blank(s + 1, e) : s, *p = b;
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

/* d called with arguments a[0..na]: expanded into out. */
static int call(struct cfg_macro_expand *x, struct macro *d, const char **a, int na,
                struct rtm_buf *out, int depth)
{
    struct rtm_buf args[PARAMS_MAX], body;
    int rc = 0, i;
    rtm_buf_init(&body);
    for (i = 0; i < d->nparams; i++)
        rtm_buf_init(&args[i]);
    for (i = 0; i < na && rc == 0; i++)     /* padding kept, as the game keeps it */
        rc = expand(x, a[i], (size_t)(a[i + 1] - 1 - a[i]), &args[i], depth + 1);
    if (rc == 0) {
        substitute(d, args, &body);
        rc = spend(x, body.len);
    }
    if (rc == 0) {
        d->active = 1;
        rc = body.oom ? -1 : expand(x, body.p ? body.p : "", body.len, out, depth + 1);
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

/* The identifier s..p (and what follows up to e): how much was used. */
static const char *identifier(struct cfg_macro_expand *x, const char *s, const char *p,
                              const char *e, struct rtm_buf *out, int depth, int *rc)
{
    size_t n = (size_t)(p - s);
    const char *after = skip_blank(p, e), *a[PARAMS_MAX + 1];
    int na, paren = after < e && *after == '(';
    struct macro *d = find(x->m, s, n);
    if ((n == 6 && (!memcmp(s, "__EVAL", 6) || !memcmp(s, "__EXEC", 6))) && paren) {
        const char *end = split_args(after, e, a, &na, PARAMS_MAX + 1, depth > 0);
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
        return p;
    }
    if (!d && put_date(x, s, n, out))
        return p;
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
        *rc = expand(x, d->body, strlen(d->body), out, depth + 1);
        d->active = 0;
        return p;
    }
    const char *end = paren ? split_args(after, e, a, &na, PARAMS_MAX + 1, depth > 0) : NULL;
    if (d && !d->active && end && (na == d->nparams || (na == 1 && d->nparams == 0))) {
        *rc = call(x, d, a, d->nparams, out, depth);
        return end;
    }
    if (paren && (!d || !d->active) && n > 1 && !has_lower(s, n))
        x->counts->undefined_call++;
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
    const char *e = s + n;
    int single = 0;             /* inside 'single quotes' */
    if (depth > CFG_DEPTH_MAX) {
        x->why = "macros nested deeper than 64 (a macro that expands into itself?)";
        return -1;
    }
    while (s < e) {
        int rc = 0;
        if (out->oom || out->len > x->limit) {
            x->why = out->oom ? "out of memory expanding macros"
                              : "macro expansion larger than the output limit";
            return -1;
        }
        const char *p = s;
        if (is_quote(*s)) {
            p = skip_string(s, e);
        } else if (*s == '#' && e - s >= 2 && s[1] == '#' && !single) {
            trim_tail(out);
            s = skip_blank(s + 2, e);
            continue;
        } else if (cfg_macro_ident_start((unsigned char)*s)) {
            while (p < e && cfg_macro_ident((unsigned char)*p))
                p++;
            s = identifier(x, s, p, e, out, depth, &rc);
            if (rc)
                return rc;
            continue;
        } else if (*s >= '0' && *s <= '9') {
            while (p < e && (cfg_macro_ident((unsigned char)*p) || *p == '.'))
                p++;
        } else {
            single ^= *p++ == '\'';
        }
        rtm_buf_put(out, s, (size_t)(p - s));
        if (spend(x, (size_t)(p - s)))
            return -1;
        s = p;
    }
    return 0;
}

int cfg_macro_expand_line(struct cfg_macro_expand *x, const char *s, size_t n, struct rtm_buf *out)
{
    x->why = NULL;
    int rc = expand(x, s, n, out, 0);
    if (rc == 0 && (out->oom || out->len > x->limit)) {
        x->why = out->oom ? "out of memory expanding macros"
                          : "macro expansion larger than the output limit";
        rc = -1;
    }
    return rc;
}
