/* cfg_define.c - the preprocessor's macro table: #define, #undef and
 * what is defined (cfg_macro.h; cfg_macro.c expands what is kept here).
 *
 * A hash table of definitions.  A body is kept as written, but for the
 * line marks of one with conditional lines (cfg_macro_define): those it
 * keeps, so that the expander can read its lines again.
 */
#include "cfg_macro.h"

#include <stdlib.h>

enum { BUCKETS = 1024 };

struct cfg_macros {
    struct cfg_macro *bucket[BUCKETS];
    size_t n;           /* defined: most configs define none, and then
                           no identifier needs hashing */
    size_t plain;       /* of them, those not named __...: a text without
                           "__" calls none of the others */
};

struct cfg_macros *cfg_macros_new(void) { return calloc(1, sizeof(struct cfg_macros)); }

static void macro_free(struct cfg_macro *d)
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
        for (struct cfg_macro *d = m->bucket[b], *nx; d; d = nx) {
            nx = d->next;
            macro_free(d);
        }
    free(m);
}

static struct cfg_macro **slot(const struct cfg_macros *m, const char *name, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)name[i]) * 1099511628211ull;
    struct cfg_macro *const *p = &m->bucket[(h ^ h >> 29) % BUCKETS];
    while (*p && !(strlen((*p)->name) == n && memcmp((*p)->name, name, n) == 0))
        p = &(*p)->next;
    return (struct cfg_macro **)p;
}

/* Whether a name is one the game's own take (__ARMA__, __LINE__...). */
static int underscored(const char *name, size_t n)
{
    return n >= 2 && name[0] == '_' && name[1] == '_';
}

int cfg_macros_only_underscored(const struct cfg_macros *m)
{
    return m->plain == 0;
}

struct cfg_macro *cfg_macro_find(const struct cfg_macros *m, const char *name, size_t n)
{
    return m->n ? *slot(m, name, n) : NULL;
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
    return cfg_macro_find(m, name, n) != NULL;
}

void cfg_macro_undef(struct cfg_macros *m, const char *name, size_t n)
{
    struct cfg_macro **p = slot(m, name, n), *d = *p;
    if (d) {
        *p = d->next;
        m->plain -= !underscored(name, n);
        macro_free(d);
        m->n--;
    }
}

static int parse_params(struct cfg_macro *d, const char **sp, const char *e)
{
    const char *s = *sp + 1;
    d->nparams = 0;
    for (;;) {
        s = cfg_macro_blank(s, e);
        if (s < e && *s == ')' && d->nparams == 0)
            break;
        const char *b = s;
        while (s < e && cfg_macro_ident((unsigned char)*s))
            s++;
        if (s == b || d->nparams == CFG_PARAMS_MAX)
            return -1;
        if (!(d->params[d->nparams] = strndup(b, (size_t)(s - b))))
            return -2;
        d->nparams++;
        s = cfg_macro_blank(s, e);
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

int cfg_macro_cond_kind(const char *s, const char *e, const char **arg)
{
    static const char *const words[] = { "if", "ifdef", "ifndef", "elif", "else", "endif" };
    s = cfg_macro_blank(s, e);
    if (s >= e || *s != '#')
        return CFG_C_NONE;
    const char *w = cfg_macro_blank(s + 1, e), *p = w;
    while (p < e && cfg_macro_ident((unsigned char)*p))
        p++;
    for (size_t k = 0; k < sizeof words / sizeof *words; k++)
        if (strlen(words[k]) == (size_t)(p - w) && memcmp(words[k], w, (size_t)(p - w)) == 0) {
            *arg = p;
            return (int)k + CFG_C_IF;
        }
    return CFG_C_NONE;
}

/* The body b..e of the joined definition s, whose source lines began at
 * at[0..na) (offsets in s), as it is kept: with a '\n' where each of its
 * lines began when one of them is a conditional directive (*lines set),
 * else as written.  NULL when out of memory. */
static char *body_of(const char *s, const char *b, const char *e, const size_t *at, size_t na,
                     int *lines)
{
    const char *arg;
    *lines = 0;
    for (size_t i = 0; i < na && !*lines; i++)
        *lines = cfg_macro_blank(s + at[i], e) >= b &&
                 cfg_macro_cond_kind(s + at[i], e, &arg) != CFG_C_NONE;
    if (!*lines)
        return strndup(b, (size_t)(e - b));
    char *o = malloc((size_t)(e - b) + na + 1), *w = o;
    const char *q = b;
    for (size_t i = 0; o && i < na; i++) {
        const char *l = s + at[i];
        if (l >= e || cfg_macro_blank(l, e) < b)
            continue;           /* a line of the name and parameters, or blank */
        l = l < b ? b : l;
        memcpy(w, q, (size_t)(l - q));
        w += l - q;
        *w++ = '\n';
        q = l;
    }
    if (o) {
        memcpy(w, q, (size_t)(e - q));
        w[e - q] = 0;
    }
    return o;
}

/* cfg_macro_define of s joined, at[0..na) where its source lines began. */
static int define_at(struct cfg_macros *m, const char *s, size_t n, const size_t *at, size_t na)
{
    const char *e = s + n, *b, *s0 = s;
    s = cfg_macro_blank(s, e);
    b = s;
    while (s < e && cfg_macro_ident((unsigned char)*s))
        s++;
    if (s == b || !cfg_macro_ident_start((unsigned char)*b))
        return -1;
    struct cfg_macro *d = calloc(1, sizeof *d);
    if (!d || !(d->name = strndup(b, (size_t)(s - b)))) {
        free(d);
        return -2;
    }
    d->nparams = -1;
    int rc = s < e && *s == '(' ? parse_params(d, &s, e) : 0;
    if (rc == 0) {
        s = cfg_macro_blank(s, e);
        while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
            e--;
        if (!(d->body = body_of(s0, s, e, at, na, &d->lines)))
            rc = -2;
    }
    if (rc) {
        macro_free(d);
        return rc;
    }
    cfg_macro_undef(m, d->name, strlen(d->name));
    struct cfg_macro **p = slot(m, d->name, strlen(d->name));
    *p = d;
    m->n++;
    m->plain += !underscored(d->name, strlen(d->name));
    return 0;
}

int cfg_macro_define(struct cfg_macros *m, const char *s, size_t n)
{
    if (!memchr(s, '\n', n))
        return define_at(m, s, n, NULL, 0);
    char *j = malloc(n);
    size_t *at = malloc(n * sizeof *at), jn = 0, na = 0;
    int rc = -2;
    if (j && at) {
        for (size_t i = 0; i < n; i++) {
            if (s[i] == '\n')
                at[na++] = jn;
            else
                j[jn++] = s[i];
        }
        rc = define_at(m, j, jn, at, na);
    }
    free(j);
    free(at);
    return rc;
}
