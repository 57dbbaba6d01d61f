/* states.c - config states and the lines of states.txt (states.h). */
#include "states_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "array.h"
#include "gamepath.h"
#include "numfmt.h"
#include "skeleton_cfg.h"

/* The built-in ofp2 every config's CfgSkeletons may inherit is made with
 * the table, so that preparing a config reads it alone (NULL when memory
 * ran out: each config then makes its own). */
struct rtm_states *rtm_states_new(void)
{
    struct rtm_states *s = calloc(1, sizeof(struct rtm_states));
    struct rtm_error err;
    if (s && rtm_skeleton_builtin(RTM_SKELETON_OFP2, &s->ofp2, &err))
        s->ofp2 = NULL;
    return s;
}

void rtm_states_free(struct rtm_states *s)
{
    if (!s)
        return;
    states_sets_free(s->sets, s->ncfgs);        /* lines never made */
    for (size_t i = 0; i < s->ncfgs; i++) {
        cfg_free(s->cfgs[i].c);
        free(s->cfgs[i].rel);
        rtm_buf_free(&s->cfgs[i].skeletons);
        states_class_paths_free(&s->cfgs[i]);
        states_file_keys_free(&s->cfgs[i]);
    }
    states_check_free(&s->check);
    rtm_skeleton_free(s->ofp2);
    for (size_t i = 0; i < s->nlines; i++) {
        free(s->lines[i].key);          /* the line's one block */
    }
    free(s->cfgs);
    free(s->lines);
    free(s);
}

void rtm_states_check_later(struct rtm_states *s) { s->check_later = 1; }
int rtm_states_checked(const struct rtm_states *s) { return s && !s->check_later; }
void rtm_states_lines_later(struct rtm_states *s) { s->lines_later = 1; }
int rtm_states_lines_ready(const struct rtm_states *s)
{
    return !s || !s->lines_later || s->lines_made;
}

size_t rtm_states_nconfigs(const struct rtm_states *s) { return s ? s->ncfgs : 0; }
size_t rtm_states_nlines(const struct rtm_states *s) { return s ? s->nlines : 0; }
size_t rtm_states_nstates(const struct rtm_states *s) { return s ? s->nstates : 0; }
size_t rtm_states_config_bytes(const struct rtm_states *s) { return s ? s->cfg_bytes : 0; }

/* ---- a config cut to what resolving reads ---- */

/* Resolving asks a config only for its classes (their names, parents and
 * members: cfg_class, cfg_parent), for the members named file, speed and
 * looped (cfg_lookup; only whether one is a value, and which, is read),
 * and for States; the root check.txt (states_check.c) for the members it
 * checks (states_check_reads) and every member of a BlendAnims class
 * (a table whose check comes later: skeletonName alone),
 * arrays with their elements.  The rest (most of a config: a generated install's 30 MB
 * of config.bin parse into 107 MB, of which 21 MB are kept) is dropped
 * when the config is added.  A member not kept could still hide a class of its name from
 * cfg_member (the last one named counts), so a member that shares its name
 * with a class of the same class is kept too; kept entries keep their
 * order, so the lines' file order (entry) sorts as before. */
static int is_resolved_name(const char *n, int checks)
{
    switch (rtm_ascii_lower((unsigned char)n[0])) {    /* most names: none of them */
    case 'f': if (!strcasecmp(n, "file")) return 1; break;
    case 's': if (!strcasecmp(n, "speed")) return 1; break;
    case 'l': if (!strcasecmp(n, "looped")) return 1; break;
    default: break;
    }
    return states_check_reads(n, checks);
}

static int by_name_ci(const void *a, const void *b)
{
    return strcasecmp(*(const char *const *)a, *(const char *const *)b);
}

/* Marks the kept members of class k in keep (names: room for its member
 * count, for the names of its classes).  Only a member not kept for what
 * it is asks whether a class shares its name, so the classes' names are
 * sorted only when one does: a States class of classes alone never. */
static void keep_members(const struct cfg *c, uint32_t k, uint8_t *keep, const char **names,
                         int checks)
{
    const struct cfg_entry *cls = &c->e[k];
    int blend = checks && strcasecmp(cls->name.p, "BlendAnims") == 0, asks = 0;
    for (uint32_t i = cls->first; i < cls->first + cls->n; i++) {
        keep[i] = c->e[i].kind == CFG_CLASS || blend || is_resolved_name(c->e[i].name.p, checks);
        asks |= !keep[i];
    }
    if (!asks)
        return;
    size_t nc = 0;
    for (uint32_t i = cls->first; i < cls->first + cls->n; i++)
        if (c->e[i].kind == CFG_CLASS)
            names[nc++] = c->e[i].name.p;
    if (nc > 1)                         /* a state's class holds none */
        qsort(names, nc, sizeof *names, by_name_ci);
    for (uint32_t i = cls->first; i < cls->first + cls->n; i++) {
        const char *n = c->e[i].name.p;
        if (!keep[i])
            keep[i] = nc && bsearch(&n, names, nc, sizeof *names, by_name_ci);
    }
}

/* s into to's arena as *out: 0, or -1 when out of memory. */
static int copy_str(struct cfg *to, struct cfg_str s, struct cfg_str *out)
{
    out->p = s.p ? cfg_strdup(to, s.p, s.len) : NULL;
    out->len = s.len;
    return s.p && !out->p ? -1 : 0;
}

/* Value v of from into to's value *d, an array with its elements (the
 * readers bound the nesting): 0, or -1 when out of memory. */
static int copy_value(struct cfg *to, const struct cfg *from, const struct cfg_value *v,
                      struct cfg_value *d)
{
    *d = *v;
    if (v->type == CFG_T_STRING || v->type == CFG_T_VARIABLE)
        return copy_str(to, v->u.s, &d->u.s);
    if (v->type != CFG_T_ARRAY)
        return 0;
    long first = v->n ? cfg_add_values(to, v->n) : 0;
    if (first < 0)
        return -1;
    d->u.first = (uint32_t)first;
    for (uint32_t i = 0; i < v->n; i++) {
        struct cfg_value el;
        if (copy_value(to, from, &from->v[v->u.first + i], &el))
            return -1;
        to->v[first + i] = el;          /* after: the copy may move to->v */
    }
    return 0;
}

/* Entry e of from into to's entry at, its members' range mapped (map: old
 * index to new; the members kept are contiguous and in order): 0, or -1
 * when out of memory. */
static int copy_entry(struct cfg *to, const struct cfg *from, uint32_t at,
                      const struct cfg_entry *e, const uint8_t *keep, const uint32_t *map)
{
    struct cfg_entry *d = &to->e[at];
    d->kind = e->kind;
    d->append = e->append;
    d->has_parent = e->has_parent;
    if (e->kind == CFG_CLASS)
        for (uint32_t i = e->first; i < e->first + e->n; i++)
            if (keep[i] && !d->n++)
                d->first = map[i];
    struct cfg_value v;
    int valued = e->kind == CFG_VALUE || e->kind == CFG_ARRAY;
    if (valued && copy_value(to, from, &e->v, &v))
        return -1;
    d = &to->e[at];
    if (valued)
        d->v = v;
    return copy_str(to, e->name, &d->name) || copy_str(to, e->parent, &d->parent) ? -1 : 0;
}

/* Marks in keep what resolving reads of c, and maps the kept entries'
 * indices (map) in order: how many are kept. */
static uint32_t mark_kept(const struct cfg *c, uint8_t *keep, uint32_t *map, const char **names,
                          int checks)
{
    uint32_t n = 0;
    keep[0] = 1;
    for (uint32_t k = 0; k < c->ne; k++)
        if (c->e[k].kind == CFG_CLASS)
            keep_members(c, k, keep, names, checks);
    for (uint32_t k = 0; k < c->ne; k++)
        map[k] = keep[k] ? n++ : UINT32_MAX;
    return n;
}

/* A copy of c holding what resolving reads, and the check when checks;
 * NULL when out of memory. */
static struct cfg *states_prune(const struct cfg *c, int checks)
{
    size_t ne = c->ne ? c->ne : 1;
    uint8_t *keep = calloc(ne, 1);
    uint32_t *map = malloc(ne * sizeof *map);
    const char **names = malloc(ne * sizeof *names);
    struct cfg *to = keep && map && names ? cfg_new() : NULL;
    uint32_t n = to && c->ne ? mark_kept(c, keep, map, names, checks) : 0;
    int rc = !to || (n && (cfg_reserve(to, n, 0, 0, 0) || cfg_add_entries(to, n) != 0));
    for (uint32_t k = 0; !rc && k < c->ne; k++)
        rc = keep[k] && copy_entry(to, c, map[k], &c->e[k], keep, map);
    free(keep);
    free(map);
    free(names);
    if (rc) {
        cfg_free(to);
        return NULL;
    }
    cfg_link(to);
    cfg_index_members(to);              /* without it, only slower */
    return to;
}

/* The CfgSkeletons classes of c into out (empty when it has none, or
 * they do not read: the check then finds no skeleton of that name). */
static void skeletons_of(const struct rtm_states *s, const struct cfg *c, const char *rel,
                         struct rtm_buf *out)
{
    struct rtm_error err;
    rtm_buf_init(out);
    long k = cfg_member(c, 0, "CfgSkeletons");
    if (k < 0 || c->e[k].kind != CFG_CLASS)
        return;
    if (rtm_skeleton_cfg_classes(c, rel, s->ofp2, out, &err))
        rtm_buf_free(out);
}

struct rtm_states_prepared {
    struct one_cfg oc;
};

void rtm_states_prepared_free(struct rtm_states_prepared *p)
{
    if (!p)
        return;
    cfg_free(p->oc.c);
    free(p->oc.rel);
    rtm_buf_free(&p->oc.skeletons);
    states_class_paths_free(&p->oc);
    states_file_keys_free(&p->oc);
    free(p);
}

/* What the table keeps of config c (NULL: lines given) into oc: its
 * skeletons written out, the copy resolving reads, and that copy's class
 * paths and file keys.  0, or -1 when memory ran out. */
static int keep_of(const struct rtm_states *s, const struct cfg *c, const char *rel,
                   struct one_cfg *oc)
{
    if (!(oc->rel = strdup(rel)))
        return -1;
    if (!c)
        return 0;
    skeletons_of(s, c, rel, &oc->skeletons);
    return oc->skeletons.oom || !(oc->c = states_prune(c, !s->check_later)) ||
                   states_class_paths(oc->c, oc) || states_file_keys(oc->c, oc)
               ? -1
               : 0;
}

struct rtm_states_prepared *rtm_states_prepare(const struct rtm_states *s, struct cfg *c,
                                               const char *rel)
{
    struct rtm_states_prepared *p = calloc(1, sizeof *p);
    if (p && keep_of(s, c, rel, &p->oc)) {
        rtm_states_prepared_free(p);
        p = NULL;
    }
    cfg_free(c);
    return p;
}

int rtm_states_add_prepared(struct rtm_states *s, struct rtm_states_prepared *p)
{
    void *cfgs = s->cfgs;
    if (!p || rtm_array_grow(&cfgs, &s->capcfgs, s->ncfgs + 1, sizeof *s->cfgs, 16)) {
        rtm_states_prepared_free(p);
        return -1;
    }
    s->cfgs = cfgs;
    s->cfgs[s->ncfgs++] = p->oc;
    s->cfg_bytes += (p->oc.c ? p->oc.c->mem_bytes : 0) + p->oc.skeletons.len +
                    p->oc.class_bytes + p->oc.key_bytes;
    free(p);
    return 0;
}

int rtm_states_add(struct rtm_states *s, struct cfg *c, const char *rel)
{
    return rtm_states_add_prepared(s, rtm_states_prepare(s, c, rel));
}

/* ---- one state's line ---- */

/* The texts of the numbers a table's lines write, by their bits: a mod's
 * states use a few speeds, and each one's shortest decimal and duration
 * (printf's %g) cost more than the rest of a line.  One table's, while
 * it is finished. */
enum { MEMO_SLOTS = 64 };
struct fmt_memo {
    struct memo_slot {
        uint64_t bits;
        int kind;               /* 0: empty; 1: a float's text; 2: a duration */
        char text[32];
    } slot[MEMO_SLOTS];
};

/* The slot of (kind, bits): *hit says whether it holds them already. */
static struct memo_slot *memo_at(struct fmt_memo *m, int kind, uint64_t bits, int *hit)
{
    struct memo_slot *sl = &m->slot[((bits + (uint64_t)kind) * 0x9E3779B97F4A7C15ull) >> 58];
    *hit = sl->kind == kind && sl->bits == bits;
    sl->kind = kind;
    sl->bits = bits;
    return sl;
}

static const char *float_text(struct fmt_memo *m, float f)
{
    uint32_t u;
    int hit;
    memcpy(&u, &f, sizeof u);
    struct memo_slot *sl = memo_at(m, 1, u, &hit);
    if (!hit)
        sl->text[rtm_fmt_float(f, sl->text)] = 0;
    return sl->text;
}

static const char *duration_text(struct fmt_memo *m, double speed)
{
    uint64_t u;
    int hit;
    memcpy(&u, &speed, sizeof u);
    struct memo_slot *sl = memo_at(m, 2, u, &hit);
    if (!hit)
        rtm_timing_duration(speed, sl->text, sizeof sl->text);
    return sl->text;
}

/* An integer in decimal, without printf. */
static void put_int(struct rtm_buf *b, long long v)
{
    char tmp[24], *p = tmp + sizeof tmp;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0)
        *--p = '-';
    rtm_buf_put(b, p, (size_t)(tmp + sizeof tmp - p));
}

/* A value as written into b; its number in *num when it is one. */
static int put_value(struct rtm_buf *b, const struct cfg_value *v, double *num,
                     struct fmt_memo *m)
{
    if (!v) {
        rtm_buf_putc(b, '?');
        return -1;
    }
    switch (v->type) {
    case CFG_T_FLOAT:
        rtm_buf_puts(b, float_text(m, v->u.f));
        *num = v->u.f;
        return 0;
    case CFG_T_INT:
    case CFG_T_INT64:
        put_int(b, (long long)v->u.i);
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

/* The line of state cls of config ci into b, and its speed as the line
 * writes it into speed (*known: a finite number). */
static void state_line(const struct rtm_states *s, size_t ci, uint32_t cls, struct rtm_buf *b,
                       struct rtm_buf *speed_text, int *known, struct fmt_memo *m)
{
    char path[CLASS_PATH_MAX];
    const char *dur = "?";
    struct found sp = states_lookup(s, ci, cls, "speed", 0);
    struct found lo = states_lookup(s, ci, cls, "looped", 0);
    double speed = NAN, looped = 0;
    if (states_class_path(s->cfgs[ci].c, cls, path, sizeof path))
        snprintf(path, sizeof path, "?");
    rtm_buf_puts(b, path);              /* a line a state: no printf */
    rtm_buf_puts(b, " speed=");
    size_t at = b->len;
    int number = put_value(b, states_value_of(s, sp), &speed, m) == 0;
    if (number)
        dur = duration_text(m, speed);
    *known = number && isfinite(speed);
    rtm_buf_put(speed_text, b->p + at, b->len - at);
    rtm_buf_puts(b, " duration_s=");
    rtm_buf_puts(b, dur);
    rtm_buf_puts(b, " looped=");
    put_value(b, states_value_of(s, lo), &looped, m);
    rtm_buf_puts(b, " config=");
    rtm_buf_puts(b, s->cfgs[ci].rel);
    const char *inh = sp.inherits ? sp.inherits : lo.inherits;
    if (inh) {
        rtm_buf_puts(b, " inherits=");
        rtm_buf_puts(b, inh);
    }
    rtm_buf_putc(b, '\n');
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
                    const struct cfg_value *file, struct fmt_memo *m)
{
    struct rtm_buf b, sp;
    int known;
    rtm_buf_init(&b);
    rtm_buf_init(&sp);
    state_line(s, ci, cls, &b, &sp, &known, m);
    rtm_buf_putc(&b, 0);                    /* taken as C strings */
    rtm_buf_putc(&sp, 0);
    int rc = b.oom || sp.oom ? -1 : put_line(s, key, b.p, file->u.s.p, file->u.s.len, sp.p,
                                             known, ci, cls);
    rtm_buf_free(&b);
    rtm_buf_free(&sp);
    return rc;
}

/* add_line, as states_each calls it for lines_of_configs. */
struct line_ctx {
    struct rtm_states *s;
    struct fmt_memo *m;
};

static int line_of(void *ctx, size_t ci, uint32_t cls, const char *key,
                   const struct cfg_value *file)
{
    struct line_ctx *x = ctx;
    return add_line(x->s, ci, cls, key, file, x->m);
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

/* Makes the line of every state of the configs, after the lines given:
 * 0, or -1 out of memory (then none is made, the table as it was). */
static int lines_of_configs(struct rtm_states *s)
{
    size_t given = s->nlines;
    struct fmt_memo *memo = calloc(1, sizeof *memo);
    struct line_ctx x = { s, memo };
    int rc = !memo;
    for (size_t i = 0; !rc && i < s->ncfgs; i++)
        rc = states_each(s, i, line_of, &x);
    free(memo);
    while (rc && s->nlines > given)
        free(s->lines[--s->nlines].key);        /* the line's one block */
    return rc ? -1 : 0;
}

/* Once every line is made: the configs and their classes' groups go, and
 * the lines are put in key order. */
static void lines_done(struct rtm_states *s)
{
    states_sets_free(s->sets, s->ncfgs);
    s->sets = NULL;
    for (size_t i = 0; i < s->ncfgs; i++) {
        cfg_free(s->cfgs[i].c);         /* every line is made: they served */
        s->cfgs[i].c = NULL;
        states_file_keys_free(&s->cfgs[i]);
    }
    s->cfg_bytes = 0;
    s->lines_made = 1;
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
}

/* The lines (unless they come later) and the check each look up from
 * sets that remember nothing yet (states_sets_forget): a lookup a bound
 * cuts short may end otherwise after others, so each answer is the same
 * whichever came first, and a table whose lines come later is the table
 * made at once. */
int rtm_states_finish(struct rtm_states *s)
{
    if (s->ncfgs)
        qsort(s->cfgs, s->ncfgs, sizeof *s->cfgs, by_rel);
    s->sets = states_sets_new(s);
    for (size_t i = 0; i < s->ncfgs; i++) {
        s->cfg_bytes -= s->cfgs[i].class_bytes;
        states_class_paths_free(&s->cfgs[i]);   /* the sets are made of them */
    }
    int rc = !s->sets || (!s->lines_later && lines_of_configs(s));
    if (!rc && !s->lines_later)
        states_sets_forget(s->sets, s->ncfgs);
    rc = rc || states_check_collect(s) || states_skeleton_index(&s->check);
    for (size_t i = 0; i < s->ncfgs; i++) {
        s->cfg_bytes -= s->cfgs[i].skeletons.len;
        rtm_buf_free(&s->cfgs[i].skeletons);    /* the check read them */
    }
    rtm_skeleton_free(s->ofp2);         /* every config's skeletons are read */
    s->ofp2 = NULL;
    if (rc) {
        states_sets_free(s->sets, s->ncfgs);
        s->sets = NULL;
        return -1;
    }
    s->finished = 1;
    if (!s->lines_later)
        lines_done(s);
    return 0;
}

int rtm_states_lines_make(struct rtm_states *s)
{
    if (rtm_states_lines_ready(s))
        return 0;
    if (!s->finished)
        return -1;
    states_sets_forget(s->sets, s->ncfgs);      /* as at once: rtm_states_finish */
    if (lines_of_configs(s))
        return -1;
    lines_done(s);
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
