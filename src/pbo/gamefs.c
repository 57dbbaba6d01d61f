/* gamefs.c - sources merged at their prefixes (gamefs.h says the rules). */
#include "gamefs.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"

struct gf_ent {
    const char *path;       /* normalised, '/' between parts, as spelt */
    const char *fold;       /* the same, ASCII lower case */
    long num;               /* the number the caller gave it */
};

struct gf_src {
    char *name;             /* relative to SOURCE */
    char *shown;            /* prefix as spelt, '/' between parts */
    char *bs;               /* the same with '\' */
    char *fold;             /* the same, folded, '/' */
    size_t plen;
    struct gf_ent *e;       /* sorted by fold */
    size_t ne;
    char *pool;             /* the entries' strings */
    int loaded;
};

struct gamefs {
    struct gf_src *s;
    size_t n, cap;
    size_t *rank;           /* source indices, the shown one (name sorts last) first */
    size_t *rankof;         /* each source's place in rank */
    size_t *byfold;         /* source indices by folded prefix (strcmp order) */
};

static void fold_into(char *dst, const char *src, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = src[i];
        dst[i] = c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
    }
    dst[n] = 0;
}

struct gamefs *gamefs_new(void) { return calloc(1, sizeof(struct gamefs)); }

static void src_free(struct gf_src *s)
{
    free(s->name);
    free(s->shown);
    free(s->bs);
    free(s->fold);
    free(s->e);
    free(s->pool);
}

void gamefs_free(struct gamefs *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->n; i++)
        src_free(&g->s[i]);
    free(g->s);
    free(g->rank);
    free(g->rankof);
    free(g->byfold);
    free(g);
}

/* The prefix a source without one gets: its base name without ".pbo". */
static long fallback_prefix(const char *name, char *out, size_t n)
{
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    size_t len = strlen(base);
    long r = rtm_path_norm(base, rtm_name_ends(base, len, ".pbo") ? len - 4 : len, '/', out, n);
    return r == 0 ? rtm_path_norm(base, len, '/', out, n) : r;
}

/* The first place in byfold whose source's folded prefix is >= q. */
static size_t fold_lower(const struct gamefs *g, const char *q)
{
    size_t lo = 0, hi = g->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(g->s[g->byfold[mid]].fold, q) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Room for one more source in the four parallel arrays; g->cap changes
 * only when all four have grown. */
static int grow(struct gamefs *g)
{
    size_t need = g->n + 1, cs = g->cap, cr = g->cap, co = g->cap, cf = g->cap;
    void *s = g->s, *r = g->rank, *o = g->rankof, *f = g->byfold;
    int rc = rtm_array_grow(&s, &cs, need, sizeof *g->s, 16) ||
             rtm_array_grow(&r, &cr, need, sizeof *g->rank, 16) ||
             rtm_array_grow(&o, &co, need, sizeof *g->rankof, 16) ||
             rtm_array_grow(&f, &cf, need, sizeof *g->byfold, 16);
    g->s = s;
    g->rank = r;
    g->rankof = o;
    g->byfold = f;
    if (rc)
        return -1;
    g->cap = cf;
    return 0;
}

long gamefs_add(struct gamefs *g, const char *name, const char *prefix, size_t len)
{
    char norm[PATH_MAX];
    long plen = prefix ? rtm_path_norm(prefix, len, '/', norm, sizeof norm) : 0;
    if (plen == 0)
        plen = fallback_prefix(name, norm, sizeof norm);
    if (plen <= 0 || grow(g))
        return -1;
    struct gf_src s = { .name = strdup(name), .shown = strdup(norm), .bs = strdup(norm),
                        .fold = malloc((size_t)plen + 1), .plen = (size_t)plen };
    if (!s.name || !s.shown || !s.bs || !s.fold) {
        src_free(&s);
        return -1;
    }
    for (char *c = s.bs; *c; c++)
        if (*c == '/')
            *c = '\\';
    fold_into(s.fold, norm, (size_t)plen);
    size_t at = 0;                      /* the rank order: names descending */
    while (at < g->n && strcmp(g->s[g->rank[at]].name, name) > 0)
        at++;
    memmove(g->rank + at + 1, g->rank + at, (g->n - at) * sizeof *g->rank);
    g->rank[at] = g->n;
    size_t f = fold_lower(g, s.fold);
    memmove(g->byfold + f + 1, g->byfold + f, (g->n - f) * sizeof *g->byfold);
    g->byfold[f] = g->n;
    g->s[g->n] = s;
    for (size_t r = at; r <= g->n; r++)
        g->rankof[g->rank[r]] = r;
    return (long)g->n++;
}

static int ent_cmp(const void *a, const void *b)
{
    const struct gf_ent *x = a, *y = b;
    int c = strcmp(x->fold, y->fold);
    return c ? c : (x->num > y->num) - (x->num < y->num);
}

int gamefs_set_entries(struct gamefs *g, size_t src, const char *const *paths, size_t n)
{
    struct gf_src *s = &g->s[src];
    size_t bytes = 0;
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(paths[i]);
        if (l > SIZE_MAX / 4 - bytes)
            return -1;
        bytes += 2 * (l + 1);
    }
    free(s->e);
    free(s->pool);
    s->e = NULL;
    s->ne = 0;
    s->loaded = 0;
    s->pool = malloc(bytes ? bytes : 1);
    s->e = malloc((n ? n : 1) * sizeof *s->e);
    if (!s->pool || !s->e)
        return -1;
    char *at = s->pool;
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(paths[i]);
        long k = rtm_path_norm(paths[i], l, '/', at, l + 1);   /* never longer */
        if (k <= 0)
            continue;
        s->e[s->ne] = (struct gf_ent){ .path = at, .fold = at + k + 1, .num = (long)i };
        fold_into(at + k + 1, at, (size_t)k);
        at += 2 * ((size_t)k + 1);
        s->ne++;
    }
    qsort(s->e, s->ne, sizeof *s->e, ent_cmp);
    size_t kept = 0;                    /* of equal paths, the first in the table */
    for (size_t i = 0; i < s->ne; i++)
        if (kept == 0 || strcmp(s->e[kept - 1].fold, s->e[i].fold))
            s->e[kept++] = s->e[i];
    s->ne = kept;
    s->loaded = 1;
    return 0;
}

size_t gamefs_count(const struct gamefs *g) { return g->n; }
const char *gamefs_name(const struct gamefs *g, size_t src) { return g->s[src].name; }
const char *gamefs_prefix(const struct gamefs *g, size_t src) { return g->s[src].bs; }
int gamefs_loaded(const struct gamefs *g, size_t src) { return g->s[src].loaded; }

/* path normalised and folded into f: its length, or -1 when too long. */
static long fold_path(const char *path, char f[PATH_MAX])
{
    long l = rtm_path_norm(path, strlen(path), '/', f, PATH_MAX);
    if (l > 0)
        fold_into(f, f, (size_t)l);
    return l;
}

/* Calls fn for each source that stands to folded path f (l bytes): one
 * whose prefix is f or lies above it, with rel the rest of f below the
 * prefix ("" at the prefix); then, when below is set, one whose prefix
 * lies below f (every one, at the root), with rel NULL.  Binary searches
 * of byfold, so a question costs the depth of f, not the count of
 * sources.  Stops at fn's first non-zero result and returns it. */
typedef int (*related_fn)(void *arg, size_t src, const char *rel);
static int each_related(const struct gamefs *g, const char *f, size_t l, int below,
                        related_fn fn, void *arg)
{
    char q[PATH_MAX + 1];
    int rc = 0;
    for (size_t c = 1; !rc && c <= l; c++) {
        if (c < l && f[c] != '/')
            continue;
        memcpy(q, f, c);
        q[c] = 0;
        for (size_t i = fold_lower(g, q);
             !rc && i < g->n && strcmp(g->s[g->byfold[i]].fold, q) == 0; i++)
            rc = fn(arg, g->byfold[i], c == l ? "" : f + c + 1);
    }
    size_t kl = l ? l + 1 : 0;          /* f and its '/' */
    memcpy(q, f, l);
    q[l] = '/';
    q[kl] = 0;
    for (size_t i = fold_lower(g, q);
         below && !rc && i < g->n && strncmp(g->s[g->byfold[i]].fold, q, kl) == 0; i++)
        rc = fn(arg, g->byfold[i], NULL);
    return rc;
}

/* The first entry of s whose fold is >= q. */
static size_t lower_bound(const struct gf_src *s, const char *q)
{
    size_t lo = 0, hi = s->ne;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(s->e[mid].fold, q) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int starts_with(const char *s, const char *p, size_t n) { return strncmp(s, p, n) == 0; }

struct needed {
    const struct gamefs *g;
    gamefs_src_fn fn;
    void *arg;
};

static int needed_one(void *arg, size_t src, const char *rel)
{
    struct needed *n = arg;
    (void)rel;
    return n->g->s[src].loaded ? 0 : n->fn(n->arg, src);
}

int gamefs_each_needed(const struct gamefs *g, const char *path, gamefs_src_fn fn, void *arg)
{
    char f[PATH_MAX];
    long l = fold_path(path, f);
    struct needed n = { g, fn, arg };
    return l < 0 ? 0 : each_related(g, f, (size_t)l, 0, needed_one, &n);
}

/* What rel (folded) is in source s: a file (its entry), a folder, nothing. */
static enum gamefs_node in_source(const struct gf_src *s, const char *rel, long *ent)
{
    char q[PATH_MAX];
    size_t n = strlen(rel);
    if (!*rel)
        return GAMEFS_DIR;
    size_t i = lower_bound(s, rel);
    if (i < s->ne && strcmp(s->e[i].fold, rel) == 0) {
        *ent = (long)i;
        return GAMEFS_FILE;
    }
    if (n + 2 > sizeof q)
        return GAMEFS_NONE;
    memcpy(q, rel, n);
    q[n] = '/';
    q[n + 1] = 0;
    i = lower_bound(s, q);
    return i < s->ne && starts_with(s->e[i].fold, q, n + 1) ? GAMEFS_DIR : GAMEFS_NONE;
}

/* What a lookup has found so far: the best-ranked file and folder. */
struct look {
    const struct gamefs *g;
    struct gamefs_hit file, dir;
    size_t file_rank, dir_rank;
};

static int look_one(void *arg, size_t src, const char *rel)
{
    struct look *k = arg;
    const struct gf_src *s = &k->g->s[src];
    size_t rank = k->g->rankof[src];
    long ent = -1;
    enum gamefs_node node = rel ? in_source(s, rel, &ent) : GAMEFS_DIR;
    if (node == GAMEFS_FILE && rank < k->file_rank) {
        k->file = (struct gamefs_hit){ GAMEFS_FILE, (long)src, s->e[ent].num, s->e[ent].path };
        k->file_rank = rank;
    } else if (node == GAMEFS_DIR && rank < k->dir_rank) {
        k->dir = (struct gamefs_hit){ GAMEFS_DIR, (long)src, -1, NULL };
        k->dir_rank = rank;
    }
    return 0;
}

enum gamefs_node gamefs_lookup(const struct gamefs *g, const char *path, struct gamefs_hit *hit)
{
    char f[PATH_MAX];
    long l = fold_path(path, f);
    struct look k = { .g = g, .file_rank = SIZE_MAX, .dir_rank = SIZE_MAX };
    *hit = (struct gamefs_hit){ .node = GAMEFS_NONE, .src = -1, .entry = -1 };
    if (l < 0)
        return GAMEFS_NONE;
    if (l == 0) {
        hit->node = GAMEFS_DIR;         /* the root, even of no source */
        return GAMEFS_DIR;
    }
    each_related(g, f, (size_t)l, 1, look_one, &k);
    if (k.file_rank != SIZE_MAX)        /* a file beats a folder */
        *hit = k.file;
    else if (k.dir_rank != SIZE_MAX)
        *hit = k.dir;
    return hit->node;
}

/* ---- listings ---- */

struct child {
    const char *name;       /* spelt, len bytes, in a source's strings */
    size_t len;
    size_t rank;
    struct gamefs_hit hit;
};

struct children {
    const struct gamefs *g;
    size_t at;              /* bytes of the folder's path */
    struct child *c;
    size_t n, cap;
    int oom;
};

static void put_child(struct children *cs, const char *name, size_t len, size_t rank,
                      struct gamefs_hit hit)
{
    void *c = cs->c;
    if (rtm_array_grow(&c, &cs->cap, cs->n + 1, sizeof *cs->c, 32)) {
        cs->oom = 1;
        return;
    }
    cs->c = c;
    cs->c[cs->n++] = (struct child){ name, len, rank, hit };
}

/* Two names compared as their folded bytes. */
static int name_cmp(const struct child *x, const struct child *y)
{
    size_t n = x->len < y->len ? x->len : y->len;
    for (size_t i = 0; i < n; i++) {
        int p = (unsigned char)x->name[i], q = (unsigned char)y->name[i];
        p = p >= 'A' && p <= 'Z' ? p + 32 : p;
        q = q >= 'A' && q <= 'Z' ? q + 32 : q;
        if (p != q)
            return p - q;
    }
    return x->len == y->len ? 0 : x->len < y->len ? -1 : 1;
}

static int child_cmp(const void *a, const void *b)
{
    const struct child *x = a, *y = b;
    int c = name_cmp(x, y);
    if (c)
        return c;
    if (x->hit.node != y->hit.node)     /* the file first: it beats a folder */
        return x->hit.node == GAMEFS_FILE ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* The children the entries of s below folder rel (folded) give. */
static void entry_children(const struct gf_src *s, size_t src, size_t rank, const char *rel,
                           struct children *cs)
{
    char q[PATH_MAX + 1];
    size_t rl = strlen(rel), skip = rl ? rl + 1 : 0;
    if (skip + 1 >= sizeof q)
        return;
    memcpy(q, rel, rl);
    q[rl] = '/';
    q[skip] = 0;
    for (size_t i = lower_bound(s, q); i < s->ne && starts_with(s->e[i].fold, q, skip);) {
        const struct gf_ent *e = &s->e[i];
        const char *slash = strchr(e->path + skip, '/');
        size_t len = slash ? (size_t)(slash - e->path - skip) : strlen(e->path + skip);
        struct gamefs_hit hit = { slash ? GAMEFS_DIR : GAMEFS_FILE, (long)src,
                                  slash ? -1 : e->num, slash ? NULL : e->path };
        put_child(cs, e->path + skip, len, rank, hit);
        if (!slash) {
            i++;
            continue;
        }
        /* past every entry of that folder: its fold, then '/' + 1 */
        memcpy(q, e->fold, skip + len);
        q[skip + len] = '/' + 1;
        q[skip + len + 1] = 0;
        i = lower_bound(s, q);
        q[skip] = 0;
    }
}

/* The children source src gives the folder being listed: the next part
 * of its prefix (rel NULL), or its entries' below rel. */
static int child_of(void *arg, size_t src, const char *rel)
{
    struct children *cs = arg;
    const struct gf_src *s = &cs->g->s[src];
    size_t rank = cs->g->rankof[src];
    if (rel) {
        entry_children(s, src, rank, rel, cs);
        return 0;
    }
    const char *name = s->shown + cs->at + (cs->at > 0);
    put_child(cs, name, strcspn(name, "/"), rank,
              (struct gamefs_hit){ GAMEFS_DIR, (long)src, -1, NULL });
    return 0;
}

int gamefs_list(const struct gamefs *g, const char *dir, gamefs_child_fn fn, void *arg)
{
    char f[PATH_MAX];
    struct gamefs_hit self;
    long l = fold_path(dir, f);
    if (l < 0 || gamefs_lookup(g, dir, &self) != GAMEFS_DIR)
        return -1;
    struct children cs = { .g = g, .at = (size_t)l };
    each_related(g, f, (size_t)l, 1, child_of, &cs);
    int rc = cs.oom ? -1 : 0;
    if (!rc && cs.n)                    /* none: no array was made */
        qsort(cs.c, cs.n, sizeof *cs.c, child_cmp);
    for (size_t i = 0; !rc && i < cs.n; i++)
        if (i == 0 || name_cmp(&cs.c[i - 1], &cs.c[i]))
            rc = fn(arg, cs.c[i].name, cs.c[i].len, &cs.c[i].hit);  /* a name's first: shown */
    free(cs.c);
    return rc;
}

/* ---- conflicts.txt ---- */

struct claim {
    const char *fold;       /* the game path, folded, in the pool */
    size_t rank;
    const struct gf_src *s;
    const struct gf_ent *e;
};

static int claim_cmp(const void *a, const void *b)
{
    const struct claim *x = a, *y = b;
    int c = strcmp(x->fold, y->fold);
    return c ? c : (x->rank > y->rank) - (x->rank < y->rank);
}

static void put_gamepath(struct rtm_buf *b, const struct gf_src *s, const struct gf_ent *e)
{
    rtm_buf_puts(b, s->bs);
    rtm_buf_putc(b, '\\');
    for (const char *c = e->path; *c; c++)
        rtm_buf_putc(b, *c == '/' ? '\\' : *c);
}

int gamefs_conflicts(const struct gamefs *g, struct rtm_buf *b)
{
    size_t n = 0, bytes = 0;
    for (size_t i = 0; i < g->n; i++)
        for (size_t k = 0; k < g->s[i].ne; k++) {
            n++;
            bytes += g->s[i].plen + strlen(g->s[i].e[k].fold) + 2;
        }
    struct claim *c = malloc((n ? n : 1) * sizeof *c);
    char *pool = malloc(bytes ? bytes : 1), *at = pool;
    if (!c || !pool) {
        free(c);
        free(pool);
        return -1;
    }
    n = 0;
    for (size_t r = 0; r < g->n; r++) {
        const struct gf_src *s = &g->s[g->rank[r]];
        for (size_t k = 0; k < s->ne; k++) {
            size_t el = strlen(s->e[k].fold);
            memcpy(at, s->fold, s->plen);
            at[s->plen] = '/';
            memcpy(at + s->plen + 1, s->e[k].fold, el + 1);
            c[n++] = (struct claim){ at, r, s, &s->e[k] };
            at += s->plen + el + 2;
        }
    }
    qsort(c, n, sizeof *c, claim_cmp);
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && strcmp(c[j].fold, c[i].fold) == 0;)
            j++;
        if (j - i < 2)
            continue;
        put_gamepath(b, c[i].s, c[i].e);
        for (size_t k = i; k < j; k++) {
            rtm_buf_putc(b, '\t');
            rtm_buf_puts(b, c[k].s->name);
        }
        rtm_buf_putc(b, '\n');
    }
    free(c);
    free(pool);
    return b->oom ? -1 : 0;
}
