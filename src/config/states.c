/* states.c - config states and the lines of states.txt (states.h). */
#include "states.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "array.h"
#include "gamepath.h"
#include "numfmt.h"

enum { GP_MAX = RTM_STATES_KEY_MAX, CLASS_PATH_MAX = 1024 };

struct one_cfg {
    struct cfg *c;
    char *rel;
};

/* A line's strings share one block, key first: a table of 19,000 lines
 * (a generated install's) holds 7.6 MB so. */
struct line {
    char *key;          /* the game path the state names: normalised, lowercase */
    char *text;         /* the line, with its newline */
    char *file;         /* the state's file as written (missing.txt) */
    char *speed;        /* its speed as the line writes it (timing.h) */
    int speed_known;    /* that speed is a finite number */
    size_t cfg;         /* its config's place in path order */
    uint32_t entry;     /* the state's entry: file order */
};

/* Where a class path is (parent_elsewhere): the first two configs, in path
 * order, that have it.  rtm_states_finish keeps each path's answer while
 * it makes the lines, as most of a mod's states share a few parents that
 * no config of the mod has (class X: GestureGo), each of which would be
 * looked for in every config, for every state.  An open-addressing table,
 * at most half full, of paths in any case (the game's names are). */
struct parent_memo {
    struct parent_answer {
        uint64_t hash;          /* of the path; 0: a free slot */
        char *path;
        size_t cfg[2];          /* SIZE_MAX: none */
        long cls[2];
    } *slot;
    size_t n, cap;              /* cap: a power of two */
};

struct rtm_states {
    struct one_cfg *cfgs;
    struct parent_memo *memo;   /* during rtm_states_finish, or NULL */
    size_t ncfgs, capcfgs;
    struct line *lines;
    size_t nlines, caplines;
    size_t cfg_bytes;   /* what the configs hold (cfg mem_bytes) */
    int finished;       /* rtm_states_finish ran: the configs are gone */
};

struct rtm_states *rtm_states_new(void)
{
    return calloc(1, sizeof(struct rtm_states));
}

void rtm_states_free(struct rtm_states *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->ncfgs; i++) {
        cfg_free(s->cfgs[i].c);
        free(s->cfgs[i].rel);
    }
    for (size_t i = 0; i < s->nlines; i++) {
        free(s->lines[i].key);          /* the line's one block */
    }
    free(s->cfgs);
    free(s->lines);
    free(s);
}

size_t rtm_states_nconfigs(const struct rtm_states *s) { return s ? s->ncfgs : 0; }
size_t rtm_states_nlines(const struct rtm_states *s) { return s ? s->nlines : 0; }
size_t rtm_states_config_bytes(const struct rtm_states *s) { return s ? s->cfg_bytes : 0; }

/* ---- a config cut to what resolving reads ---- */

/* Resolving asks a config only for its classes (their names, parents and
 * members: cfg_class, cfg_parent), for the members named file, speed and
 * looped (cfg_lookup; only whether one is a value, and which, is read),
 * and for States.  The rest (most of a config: a generated install's 30 MB
 * of config.bin parse into 107 MB, of which 21 MB are kept) is dropped
 * when the config is added.  A member not kept could still hide a class of its name from
 * cfg_member (the last one named counts), so a member that shares its name
 * with a class of the same class is kept too; kept entries keep their
 * order, so the lines' file order (entry) sorts as before. */
static int is_resolved_name(const char *n)
{
    return !strcasecmp(n, "file") || !strcasecmp(n, "speed") || !strcasecmp(n, "looped");
}

static int by_name_ci(const void *a, const void *b)
{
    return strcasecmp(*(const char *const *)a, *(const char *const *)b);
}

/* Marks the kept members of class k in keep (names: room for its member
 * count, for the names of its classes). */
static void keep_members(const struct cfg *c, uint32_t k, uint8_t *keep, const char **names)
{
    const struct cfg_entry *cls = &c->e[k];
    size_t nc = 0;
    for (uint32_t i = cls->first; i < cls->first + cls->n; i++)
        if (c->e[i].kind == CFG_CLASS)
            names[nc++] = c->e[i].name.p;
    qsort(names, nc, sizeof *names, by_name_ci);
    for (uint32_t i = cls->first; i < cls->first + cls->n; i++) {
        const char *n = c->e[i].name.p;
        keep[i] = c->e[i].kind == CFG_CLASS || is_resolved_name(n) ||
                  (nc && bsearch(&n, names, nc, sizeof *names, by_name_ci));
    }
}

/* s into to's arena as *out: 0, or -1 when out of memory. */
static int copy_str(struct cfg *to, struct cfg_str s, struct cfg_str *out)
{
    out->p = s.p ? cfg_strdup(to, s.p, s.len) : NULL;
    out->len = s.len;
    return s.p && !out->p ? -1 : 0;
}

/* Entry e into to's entry at, its members' range mapped (map: old index
 * to new; the members kept are contiguous and in order): 0, or -1 when
 * out of memory. */
static int copy_entry(struct cfg *to, uint32_t at, const struct cfg_entry *e,
                      const uint8_t *keep, const uint32_t *map)
{
    struct cfg_entry *d = &to->e[at];
    d->kind = e->kind;
    d->append = e->append;
    d->has_parent = e->has_parent;
    d->v = e->v;
    if (e->kind == CFG_CLASS)
        for (uint32_t i = e->first; i < e->first + e->n; i++)
            if (keep[i] && !d->n++)
                d->first = map[i];
    if (e->kind == CFG_ARRAY)
        d->v.n = d->v.u.first = 0;      /* never read: an array is no value */
    int str = e->kind == CFG_VALUE &&
              (e->v.type == CFG_T_STRING || e->v.type == CFG_T_VARIABLE);
    return copy_str(to, e->name, &d->name) || copy_str(to, e->parent, &d->parent) ||
                   (str && copy_str(to, e->v.u.s, &d->v.u.s)) ? -1 : 0;
}

/* Marks in keep what resolving reads of c, and maps the kept entries'
 * indices (map) in order: how many are kept. */
static uint32_t mark_kept(const struct cfg *c, uint8_t *keep, uint32_t *map, const char **names)
{
    uint32_t n = 0;
    keep[0] = 1;
    for (uint32_t k = 0; k < c->ne; k++)
        if (c->e[k].kind == CFG_CLASS)
            keep_members(c, k, keep, names);
    for (uint32_t k = 0; k < c->ne; k++)
        map[k] = keep[k] ? n++ : UINT32_MAX;
    return n;
}

/* A copy of c holding what resolving reads; NULL when out of memory. */
static struct cfg *states_prune(const struct cfg *c)
{
    size_t ne = c->ne ? c->ne : 1;
    uint8_t *keep = calloc(ne, 1);
    uint32_t *map = malloc(ne * sizeof *map);
    const char **names = malloc(ne * sizeof *names);
    struct cfg *to = keep && map && names ? cfg_new() : NULL;
    uint32_t n = to && c->ne ? mark_kept(c, keep, map, names) : 0;
    int rc = !to || (n && (cfg_reserve(to, n, 0, 0, 0) || cfg_add_entries(to, n) != 0));
    for (uint32_t k = 0; !rc && k < c->ne; k++)
        rc = keep[k] && copy_entry(to, map[k], &c->e[k], keep, map);
    free(keep);
    free(map);
    free(names);
    if (rc) {
        cfg_free(to);
        return NULL;
    }
    cfg_link(to);
    return to;
}

int rtm_states_add(struct rtm_states *s, struct cfg *c, const char *rel)
{
    char *r = strdup(rel);
    struct cfg *kept = c ? states_prune(c) : NULL;
    cfg_free(c);
    void *cfgs = s->cfgs;
    if (!r || (c && !kept) ||
        rtm_array_grow(&cfgs, &s->capcfgs, s->ncfgs + 1, sizeof *s->cfgs, 16)) {
        free(r);
        cfg_free(kept);
        return -1;
    }
    s->cfgs = cfgs;
    s->cfgs[s->ncfgs++] = (struct one_cfg){ kept, r };
    s->cfg_bytes += kept ? kept->mem_bytes : 0;
    return 0;
}

/* ---- resolving a value through parents, across configs ---- */

/* The path of class cls from the root ("CfgMovesMaleSdr/States/X") into
 * out: 0, or -1 when it does not fit. */
static int class_path(const struct cfg *c, uint32_t cls, char *out, size_t n)
{
    uint32_t chain[CFG_DEPTH_MAX + 1];
    size_t depth = 0;
    for (uint32_t k = cls; k != 0 && depth <= CFG_DEPTH_MAX; k = c->e[k].up)
        chain[depth++] = k;
    size_t len = 0;
    out[0] = 0;
    while (depth--) {
        int w = snprintf(out + len, n - len, "%s%s", len ? "/" : "", c->e[chain[depth]].name.p);
        if (w < 0 || (size_t)w >= n - len)
            return -1;
        len += (size_t)w;
    }
    return 0;
}

/* Where a lookup ended: the value's entry in config cfg, or (entry -1)
 * none; inherits names the parent outside every config when the chain
 * left them. */
struct found {
    size_t cfg;
    long entry;
    const char *inherits;
};

static uint64_t path_hash(const char *path)
{
    uint64_t h = rtm_hash_bytes(path, strlen(path), 1);
    return h ? h : 1;
}

/* The slot of path (its hash h) in m: its answer, or the free slot for it. */
static struct parent_answer *memo_slot(const struct parent_memo *m, uint64_t h, const char *path)
{
    for (size_t i = (size_t)(h >> 7) & (m->cap - 1);; i = (i + 1) & (m->cap - 1))
        if (!m->slot[i].hash || (m->slot[i].hash == h && !strcasecmp(m->slot[i].path, path)))
            return &m->slot[i];
}

/* Keeps answer a (its path m's from now on) when there is room: 0, or -1
 * (then the caller frees the path). */
static int memo_put(struct parent_memo *m, const struct parent_answer *a)
{
    if (2 * (m->n + 1) > m->cap) {
        struct parent_memo bigger = { calloc(2 * m->cap, sizeof *m->slot), 0, 2 * m->cap };
        if (!bigger.slot)
            return -1;
        for (size_t i = 0; i < m->cap; i++)
            if (m->slot[i].hash)
                *memo_slot(&bigger, m->slot[i].hash, m->slot[i].path) = m->slot[i];
        bigger.n = m->n;
        free(m->slot);
        *m = bigger;
    }
    *memo_slot(m, a->hash, a->path) = *a;
    m->n++;
    return 0;
}

static struct parent_memo *memo_new(void)
{
    struct parent_memo *m = calloc(1, sizeof *m);
    if (m && !(m->slot = calloc(m->cap = 256, sizeof *m->slot))) {
        free(m);
        m = NULL;
    }
    return m;
}

static void memo_free(struct parent_memo *m)
{
    for (size_t i = 0; m && i < m->cap; i++)
        free(m->slot[i].path);
    if (m)
        free(m->slot);
    free(m);
}

/* The first two configs, in path order, with class path, into a. */
static void search_two(const struct rtm_states *s, const char *path, struct parent_answer *a)
{
    size_t found = 0;
    a->cfg[0] = a->cfg[1] = SIZE_MAX;
    for (size_t k = 0; k < s->ncfgs && found < 2; k++) {
        long cls = s->cfgs[k].c ? cfg_class(s->cfgs[k].c, path) : -1;
        if (cls >= 0) {             /* (a line-only table's configs have no model) */
            a->cfg[found] = k;
            a->cls[found++] = cls;
        }
    }
}

/* A class of some config: its place in the table and its entry. */
struct cref {
    size_t cfg;
    long cls;
};

/* The class at path in the first config, in path order, that defines it,
 * other than not (memoised while the table is finished): 0, or -1. */
static int class_at(const struct rtm_states *s, const char *path, struct cref not,
                    struct cref *out)
{
    struct parent_answer q = { .hash = path_hash(path) }, *a = &q;
    if (!s->memo || (a = memo_slot(s->memo, q.hash, path))->hash == 0) {
        search_two(s, path, &q);
        if (s->memo && (q.path = strdup(path)) && memo_put(s->memo, &q))
            free(q.path);
        a = &q;
    }
    int i = a->cfg[0] == not.cfg && a->cls[0] == not.cls;
    if (a->cfg[i] == SIZE_MAX)
        return -1;
    *out = (struct cref){ a->cfg[i], a->cls[i] };
    return 0;
}

/* What one lookup across configs may spend: classes' paths tried, and how
 * deep the bases of enclosing classes may be looked up (as in config.c,
 * so that a hostile config cannot make it branch or nest without end). */
struct walk {
    int paths, depth;
};
enum { WALK_PATHS = 4096 };

static int base_across(const struct rtm_states *s, struct cref k, struct cref *out,
                       struct walk *w);

/* The class named name that class sc sees as a member: one that sc's path
 * names in any config, else one of the classes sc inherits, nearest
 * first.  not: the class asking, never its own base (class Run : Run in
 * one config extends another config's Run, as an addon extends the
 * game's). */
static int member_across(const struct rtm_states *s, struct cref sc, const char *name,
                         struct cref not, struct cref *out, struct walk *w)
{
    char path[CLASS_PATH_MAX];
    for (int step = 0; step < CFG_DEPTH_MAX && w->paths-- > 0; step++) {
        const struct cfg *c = s->cfgs[sc.cfg].c;
        if (class_path(c, (uint32_t)sc.cls, path, sizeof path))
            return -1;
        size_t len = strlen(path);
        int n = snprintf(path + len, sizeof path - len, "%s%s", len ? "/" : "", name);
        if (n < 0 || (size_t)n >= sizeof path - len)
            return -1;
        if (class_at(s, path, not, out) == 0)
            return 0;
        if (base_across(s, sc, &sc, w))
            return -1;
    }
    return -1;
}

/* The base class of class k as the game resolves it across the configs
 * added (rtm(5), "Base classes"): within k's config (cfg_parent), else
 * the name in k's enclosing class, looked up by member_across, then in
 * each class further out.  0 and *out; 1 when k names no base; -1 when
 * the name is found nowhere. */
static int base_across(const struct rtm_states *s, struct cref k, struct cref *out,
                       struct walk *w)
{
    const struct cfg *c = s->cfgs[k.cfg].c;
    const struct cfg_entry *e = &c->e[k.cls];
    if (e->kind != CFG_CLASS || !e->has_parent)
        return 1;
    long p = cfg_parent(c, (uint32_t)k.cls);
    if (p >= 0) {
        *out = (struct cref){ k.cfg, p };
        return 0;
    }
    if (w->depth >= CFG_DEPTH_MAX)
        return -1;
    w->depth++;
    int rc = -1;
    for (uint32_t up = e->up, n = 0; rc && n <= CFG_DEPTH_MAX; up = c->e[up].up, n++) {
        rc = member_across(s, (struct cref){ k.cfg, up }, e->parent.p, k, out, w);
        if (up == 0)
            break;
    }
    w->depth--;
    return rc ? -1 : 0;
}

/* The entry named name in class (ci, cls) or the classes it inherits,
 * across configs. */
static struct found lookup(const struct rtm_states *s, size_t ci, uint32_t cls, const char *name)
{
    struct cref k = { ci, cls };
    struct walk w = { WALK_PATHS, 0 };
    for (int step = 0; step < CFG_DEPTH_MAX; step++) {
        const struct cfg *c = s->cfgs[k.cfg].c;
        long e = cfg_member(c, (uint32_t)k.cls, name);
        if (e >= 0)
            return (struct found){ k.cfg, e, NULL };
        struct cref next;
        int rc = base_across(s, k, &next, &w);
        if (rc > 0)
            return (struct found){ k.cfg, -1, NULL };
        if (rc < 0)
            return (struct found){ k.cfg, -1, c->e[k.cls].parent.p };
        k = next;
    }
    return (struct found){ k.cfg, -1, NULL };   /* a loop */
}

/* The value a lookup found, when it is a plain value. */
static const struct cfg_value *value_of(const struct rtm_states *s, struct found f)
{
    if (f.entry < 0)
        return NULL;
    const struct cfg_entry *e = &s->cfgs[f.cfg].c->e[f.entry];
    return e->kind == CFG_VALUE ? &e->v : NULL;
}

/* ---- one state's line ---- */

/* A value as written into b; its number in *num when it is one. */
static int put_value(struct rtm_buf *b, const struct cfg_value *v, double *num)
{
    char tmp[32];
    if (!v) {
        rtm_buf_putc(b, '?');
        return -1;
    }
    switch (v->type) {
    case CFG_T_FLOAT:
        tmp[rtm_fmt_float(v->u.f, tmp)] = 0;
        rtm_buf_puts(b, tmp);
        *num = v->u.f;
        return 0;
    case CFG_T_INT:
    case CFG_T_INT64:
        rtm_buf_printf(b, "%lld", (long long)v->u.i);
        *num = (double)v->u.i;
        return 0;
    case CFG_T_STRING:
    case CFG_T_VARIABLE:
        rtm_buf_put(b, v->u.s.p, v->u.s.len);
        return -1;
    default:
        rtm_buf_putc(b, '?');
        return -1;
    }
}

/* The line of state cls of config ci into b. */
static void state_line(const struct rtm_states *s, size_t ci, uint32_t cls, struct rtm_buf *b)
{
    char path[CLASS_PATH_MAX], dur[32] = "?";
    struct found sp = lookup(s, ci, cls, "speed"), lo = lookup(s, ci, cls, "looped");
    double speed = NAN, looped = 0;
    if (class_path(s->cfgs[ci].c, cls, path, sizeof path))
        snprintf(path, sizeof path, "?");
    rtm_buf_printf(b, "%s speed=", path);
    if (put_value(b, value_of(s, sp), &speed) == 0)
        rtm_timing_duration(speed, dur, sizeof dur);
    rtm_buf_printf(b, " duration_s=%s looped=", dur);
    put_value(b, value_of(s, lo), &looped);
    rtm_buf_printf(b, " config=%s", s->cfgs[ci].rel);
    const char *inh = sp.inherits ? sp.inherits : lo.inherits;
    if (inh)
        rtm_buf_printf(b, " inherits=%s", inh);
    rtm_buf_putc(b, '\n');
}

int rtm_states_key(const char *gp, size_t len, char out[RTM_STATES_KEY_MAX])
{
    long n = gamepath_norm(gp, len, out, RTM_STATES_KEY_MAX);
    if (n <= 0)
        return -1;
    for (long i = 0; i < n; i++)
        if (out[i] >= 'A' && out[i] <= 'Z')
            out[i] = (char)(out[i] - 'A' + 'a');
    return 0;
}

/* Appends a line made of copies of key, text, file (flen bytes) and
 * speed, in one block. */
static int put_line(struct rtm_states *s, const char *key, const char *text, const char *file,
                    size_t flen, const char *speed, int known, size_t ci, uint32_t entry)
{
    size_t nk = strlen(key) + 1, nt = strlen(text) + 1, ns = strlen(speed) + 1;
    char *k = malloc(nk + nt + flen + 1 + ns);
    void *lines = s->lines;
    if (!k || rtm_array_grow(&lines, &s->caplines, s->nlines + 1, sizeof *s->lines, 16)) {
        free(k);
        return -1;
    }
    s->lines = lines;
    char *tx = memcpy(k + nk, text, nt), *f = memcpy(tx + nt, file, flen);
    char *sp = memcpy(f + flen + 1, speed, ns);
    memcpy(k, key, nk);
    f[flen] = 0;
    s->lines[s->nlines++] = (struct line){ k, tx, f, sp, known != 0, ci, entry };
    return 0;
}

static int add_line(struct rtm_states *s, size_t ci, uint32_t cls, const char *key,
                    const struct cfg_value *file)
{
    struct rtm_buf b, sp;
    double speed = NAN;
    rtm_buf_init(&b);
    rtm_buf_init(&sp);
    state_line(s, ci, cls, &b);
    int known = put_value(&sp, value_of(s, lookup(s, ci, cls, "speed")), &speed) == 0 &&
                isfinite(speed);
    rtm_buf_putc(&b, 0);                    /* taken as C strings */
    rtm_buf_putc(&sp, 0);
    int rc = b.oom || sp.oom ? -1 : put_line(s, key, b.p, file->u.s.p, file->u.s.len, sp.p,
                                             known, ci, cls);
    rtm_buf_free(&b);
    rtm_buf_free(&sp);
    return rc;
}

/* Every state of config ci: the classes of each root class's States. */
static int states_of(struct rtm_states *s, size_t ci)
{
    const struct cfg *c = s->cfgs[ci].c;
    if (!c)
        return 0;                       /* a line-only table's: its lines are given */
    const struct cfg_entry *root = &c->e[0];
    for (uint32_t i = root->first; i < root->first + root->n; i++) {
        if (c->e[i].kind != CFG_CLASS)
            continue;
        long st = cfg_member(c, i, "States");
        if (st < 0 || c->e[st].kind != CFG_CLASS)
            continue;
        for (uint32_t k = c->e[st].first; k < c->e[st].first + c->e[st].n; k++) {
            const struct cfg_value *f;
            char key[GP_MAX];
            if (c->e[k].kind != CFG_CLASS ||
                !(f = value_of(s, lookup(s, ci, k, "file"))) || f->type != CFG_T_STRING ||
                rtm_states_key(f->u.s.p, f->u.s.len, key))
                continue;
            if (add_line(s, ci, k, key, f))
                return -1;
        }
    }
    return 0;
}

static int by_rel(const void *a, const void *b)
{
    return strcmp(((const struct one_cfg *)a)->rel, ((const struct one_cfg *)b)->rel);
}

static int by_key(const void *a, const void *b)
{
    const struct line *x = a, *y = b;
    int k = strcmp(x->key, y->key);
    if (k)
        return k;
    if (x->cfg != y->cfg)
        return x->cfg < y->cfg ? -1 : 1;
    return x->entry < y->entry ? -1 : x->entry > y->entry;
}

int rtm_states_finish(struct rtm_states *s)
{
    if (s->ncfgs)
        qsort(s->cfgs, s->ncfgs, sizeof *s->cfgs, by_rel);
    s->memo = memo_new();               /* without it, only slower */
    int rc = 0;
    for (size_t i = 0; !rc && i < s->ncfgs; i++)
        rc = states_of(s, i);
    memo_free(s->memo);
    s->memo = NULL;
    if (rc)
        return -1;
    for (size_t i = 0; i < s->ncfgs; i++) {
        cfg_free(s->cfgs[i].c);         /* every line is made: they served */
        s->cfgs[i].c = NULL;
    }
    s->cfg_bytes = 0;
    s->finished = 1;
    size_t sorted = 1;                  /* lines given back in order need no sort */
    while (sorted < s->nlines && by_key(&s->lines[sorted - 1], &s->lines[sorted]) <= 0)
        sorted++;
    if (sorted < s->nlines)
        qsort(s->lines, s->nlines, sizeof *s->lines, by_key);
    struct line *tight = s->nlines ? realloc(s->lines, s->nlines * sizeof *s->lines) : NULL;
    if (tight) {                        /* no line comes after */
        s->lines = tight;
        s->caplines = s->nlines;
    }
    return 0;
}

/* ---- states.txt ---- */

static size_t first_line(const struct rtm_states *s, const char *key);

void rtm_states_render(const struct rtm_states *s, const char *gp, struct rtm_buf *b)
{
    char key[GP_MAX], shown[GP_MAX];
    if (!gp || gamepath_norm(gp, strlen(gp), shown, sizeof shown) <= 0 ||
        rtm_states_key(gp, strlen(gp), key)) {
        rtm_buf_puts(b, "game_path: none (not in an archive and no $PBOPREFIX$ above it)\n");
        return;
    }
    rtm_buf_printf(b, "game_path: \\%s\n", shown);
    if (!s || !s->nlines)
        return;
    for (size_t i = first_line(s, key); i < s->nlines && strcmp(s->lines[i].key, key) == 0; i++)
        rtm_buf_puts(b, s->lines[i].text);
}

/* ---- the states that name a game path, for timing.h ---- */

/* The first line of key (s->nlines when there is none). */
static size_t first_line(const struct rtm_states *s, const char *key)
{
    size_t lo = 0, hi = s->nlines;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(s->lines[mid].key, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* One state's class path and speed, as its line says them. */
/* The class path and speed of line l, from the line alone (a table the
 * index gave has no configs to look them up in): its text starts with the
 * path, which has no space, then " speed=". */
struct named {
    char path[CLASS_PATH_MAX];
};

static void named_state(const struct line *l, struct named *n, struct rtm_timing_state *ts)
{
    const char *end = strstr(l->text, " speed=");
    size_t len = end ? (size_t)(end - l->text) : 1;
    snprintf(n->path, sizeof n->path, "%.*s", (int)len, end ? l->text : "?");
    double v = l->speed_known ? strtod(l->speed, NULL) : NAN;
    *ts = (struct rtm_timing_state){ n->path, l->speed, l->speed_known, v };
}

int rtm_states_timing(const struct rtm_states *s, const char *gp, uint32_t nframes,
                       struct rtm_timing *out)
{
    char key[GP_MAX];
    size_t first = 0, n = 0;
    rtm_timing_alone(out);              /* no configs read: the file alone */
    if (!s)
        return 0;
    if (gp && rtm_states_key(gp, strlen(gp), key) == 0)
        for (first = first_line(s, key);
             first + n < s->nlines && strcmp(s->lines[first + n].key, key) == 0;)
            n++;
    struct named *names = NULL;
    struct rtm_timing_state *st = NULL;
    if (n && (!(names = calloc(n, sizeof *names)) || !(st = calloc(n, sizeof *st)))) {
        free(names);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        named_state(&s->lines[first + i], &names[i], &st[i]);
    rtm_timing_decide(st, n, nframes, out);
    free(names);
    free(st);
    return 0;
}

/* ---- the lines, for missing.txt and the index ---- */

const char *rtm_states_config(const struct rtm_states *s, size_t ci)
{
    return ci < s->ncfgs ? s->cfgs[ci].rel : NULL;
}

void rtm_states_line(const struct rtm_states *s, size_t i, struct rtm_state_line *out)
{
    const struct line *l = &s->lines[i];
    *out = (struct rtm_state_line){ l->key, l->text, l->file, l->speed, l->speed_known,
                                    l->cfg, l->entry };
}

int rtm_states_add_line(struct rtm_states *s, const struct rtm_state_line *l)
{
    if (s->finished || l->cfg >= s->ncfgs || s->cfgs[l->cfg].c)
        return -1;                      /* only a line-only table's configs */
    return put_line(s, l->key, l->text, l->file, strlen(l->file), l->speed, l->speed_known,
                    l->cfg, l->entry);
}
