/* states_resolve.c - a state's values through its base classes, across
 * the configs of a table (states_int.h), by the game's rule. */
#include "states_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "array.h"

/* The path of class cls from the root ("CfgMovesMaleSdr/States/X") into
 * out: 0, or -1 when it does not fit. */
int states_class_path(const struct cfg *c, uint32_t cls, char *out, size_t n)
{
    uint32_t chain[CFG_DEPTH_MAX + 1];
    size_t depth = 0;
    for (uint32_t k = cls; k != 0 && depth <= CFG_DEPTH_MAX; k = c->e[k].up)
        chain[depth++] = k;
    size_t len = 0;
    out[0] = 0;
    while (depth--) {                   /* one path a class: no printf */
        const struct cfg_str *name = &c->e[chain[depth]].name;
        size_t sep = len != 0;
        if (name->len + sep >= n - len)
            return -1;
        out[len] = '/';
        memcpy(out + len + sep, name->p, name->len);
        len += sep + name->len;
        out[len] = 0;
    }
    return 0;
}

/* ---- the classes the game merges ---- */

/* While the sets are made: each path's set, by the path's hash (ASCII
 * case folded), in an open-addressing table at most half full. */
struct by_path {
    struct slot {
        uint64_t hash;          /* 0: free */
        const char *path;       /* a config's class path (struct class_path) */
        size_t set;
    } *slot;
    size_t n, cap;              /* cap: a power of two */
};

static struct slot *slot_of(const struct by_path *t, uint64_t h, const char *path)
{
    for (size_t i = (size_t)(h >> 7) & (t->cap - 1);; i = (i + 1) & (t->cap - 1))
        if (!t->slot[i].hash || (t->slot[i].hash == h && !strcasecmp(t->slot[i].path, path)))
            return &t->slot[i];
}

static int grow_table(struct by_path *t)
{
    struct by_path bigger = { calloc(2 * t->cap, sizeof *t->slot), t->n, 2 * t->cap };
    if (!bigger.slot)
        return -1;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slot[i].hash)
            *slot_of(&bigger, t->slot[i].hash, t->slot[i].path) = t->slot[i];
    free(t->slot);
    *t = bigger;
    return 0;
}

/* The set of path (its hash h): found, or made (empty): its index, or
 * SIZE_MAX.  The table points at the path, which outlives it. */
static size_t set_for(struct class_sets *x, struct by_path *t, const char *path, uint64_t h)
{
    h += !h;
    struct slot *sl = slot_of(t, h, path);
    if (sl->hash)
        return sl->set;
    void *arr = x->set;
    if ((2 * (t->n + 1) > t->cap && grow_table(t)) ||
        rtm_array_grow(&arr, &x->capset, x->nset + 1, sizeof *x->set, 64))
        return SIZE_MAX;
    x->set = arr;
    sl = slot_of(t, h, path);
    sl->path = path;
    sl->hash = h;
    sl->set = x->nset;
    t->n++;
    x->set[x->nset] = (struct class_set){ .n = 0 };
    return x->nset++;
}

int states_class_paths(const struct cfg *c, struct one_cfg *oc)
{
    char path[CLASS_PATH_MAX];
    struct rtm_buf text;
    size_t n = 0;
    rtm_buf_init(&text);
    oc->classes = malloc((c->ne ? c->ne : 1) * sizeof *oc->classes);
    for (uint32_t i = 1; oc->classes && i < c->ne; i++) {
        if (c->e[i].kind != CFG_CLASS || cfg_member(c, c->e[i].up, c->e[i].name.p) != i ||
            states_class_path(c, i, path, sizeof path))
            continue;
        size_t len = strlen(path);
        /* the offset for now: the block may move while it grows */
        oc->classes[n++] = (struct class_path){ i, rtm_hash_bytes(path, len, 1),
                                                (const char *)(uintptr_t)text.len };
        rtm_buf_put(&text, path, len + 1);
    }
    if (!oc->classes || text.oom) {
        free(oc->classes);
        oc->classes = NULL;
        rtm_buf_free(&text);
        return -1;
    }
    struct class_path *tight = n ? realloc(oc->classes, n * sizeof *oc->classes) : NULL;
    if (tight)                          /* room was made for every entry */
        oc->classes = tight;
    oc->nclasses = n;
    oc->class_bytes = n * sizeof *oc->classes + text.len;
    oc->paths = rtm_buf_take(&text, &n);
    for (size_t k = 0; k < oc->nclasses; k++)
        oc->classes[k].path = oc->paths + (uintptr_t)oc->classes[k].path;
    return 0;
}

void states_class_paths_free(struct one_cfg *oc)
{
    free(oc->classes);
    free(oc->paths);
    oc->classes = NULL;
    oc->paths = NULL;
    oc->nclasses = oc->class_bytes = 0;
}

/* Config k's classes into sets, each as cfg_class would find it: the last
 * member of its name in its class, at its path; counted in their sets. */
static int group_config(struct class_sets *x, struct by_path *t, const struct one_cfg *oc,
                        size_t k)
{
    if (!(x->set_of[k] = calloc(oc->c->ne ? oc->c->ne : 1, sizeof *x->set_of[k])))
        return -1;
    for (size_t j = 0; j < oc->nclasses; j++) {
        const struct class_path *cp = &oc->classes[j];
        size_t set = set_for(x, t, cp->path, cp->hash);
        if (set == SIZE_MAX)
            return -1;
        x->set[set].n++;
        x->set_of[k][cp->entry] = (uint32_t)set + 1;
    }
    return 0;
}

/* Each set's classes, in the configs' path order, in one block. */
static int place_refs(struct class_sets *x, const struct rtm_states *s)
{
    size_t total = 0;
    for (size_t i = 0; i < x->nset; i++)
        total += x->set[i].n;
    if (!(x->refs = malloc((total ? total : 1) * sizeof *x->refs)))
        return -1;
    total = 0;
    for (size_t i = 0; i < x->nset; i++) {
        x->set[i].at = x->refs + total;
        total += x->set[i].n;
        x->set[i].n = 0;
    }
    for (size_t k = 0; k < s->ncfgs; k++)
        for (size_t j = 0; s->cfgs[k].c && j < s->cfgs[k].nclasses; j++) {
            uint32_t e = s->cfgs[k].classes[j].entry;
            struct class_set *set = &x->set[x->set_of[k][e] - 1];
            set->at[set->n++] = (struct class_ref){ k, e };
        }
    return 0;
}

struct class_sets *states_sets_new(const struct rtm_states *s)
{
    struct class_sets *x = calloc(1, sizeof *x);
    struct by_path t = { calloc(256, sizeof *t.slot), 0, 256 };
    int rc = !x || !t.slot || !(x->set_of = calloc(s->ncfgs + 1, sizeof *x->set_of)) ||
             !(x->base = calloc(s->ncfgs + 1, sizeof *x->base));
    for (size_t k = 0; !rc && k < s->ncfgs; k++)
        rc = s->cfgs[k].c && group_config(x, &t, &s->cfgs[k], k);
    rc = rc || place_refs(x, s);
    free(t.slot);
    if (rc) {
        states_sets_free(x, s->ncfgs);
        return NULL;
    }
    return x;
}

void states_sets_free(struct class_sets *x, size_t ncfgs)
{
    if (!x)
        return;
    for (size_t k = 0; x->set_of && k < ncfgs; k++)
        free(x->set_of[k]);
    for (size_t k = 0; x->base && k < ncfgs; k++)
        free(x->base[k]);
    free(x->base);
    free(x->refs);
    for (size_t i = 0; i < x->nset; i++) {
        free(x->set[i].classes);
        free(x->set[i].members);
    }
    free(x->set_of);
    free(x->set);
    free(x);
}

void states_sets_forget(struct class_sets *x, size_t ncfgs)
{
    for (size_t k = 0; x && x->base && k < ncfgs; k++) {
        free(x->base[k]);
        x->base[k] = NULL;
    }
}

/* A class of some config: its place in the table and its entry. */
struct cref {
    size_t cfg;
    long cls;
};

/* The classes merged with k (k's set; the roots of every config for a
 * root), i from 0 while it returns 1. */
static int merged_with(const struct rtm_states *s, struct cref k, size_t i, struct cref *out)
{
    if (k.cls == 0) {                   /* the roots: every config's */
        for (; i < s->ncfgs && !s->cfgs[i].c; i++)
            ;
        *out = (struct cref){ i, 0 };
        return i < s->ncfgs;
    }
    uint32_t set = s->sets ? s->sets->set_of[k.cfg][k.cls] : 0;
    if (!set) {
        *out = k;                       /* alone (or no sets: a table given lines) */
        return i == 0;
    }
    const struct class_set *cs = &s->sets->set[set - 1];
    if (i >= cs->n)
        return 0;
    *out = (struct cref){ cs->at[i].cfg, cs->at[i].cls };
    return 1;
}

/* The slot of class name in cs's table: where it is, or the free one. */
static struct class_ref *class_slot(const struct rtm_states *s, const struct class_set *cs,
                                    const char *name)
{
    uint64_t h = rtm_hash_bytes(name, strlen(name), 1);
    for (size_t i = (size_t)(h >> 7) & (cs->cap - 1);; i = (i + 1) & (cs->cap - 1)) {
        struct class_ref *r = &cs->classes[i];
        if (r->cls <= 0 || strcasecmp(s->cfgs[r->cfg].c->e[r->cls].name.p, name) == 0)
            return r;
    }
}

/* Makes cs's table of classes by name: 0, or -1 out of memory. */
static int index_set(const struct rtm_states *s, struct class_set *cs)
{
    size_t n = 0, cap = 16;
    for (size_t i = 0; i < cs->n; i++)
        n += s->cfgs[cs->at[i].cfg].c->e[cs->at[i].cls].n;
    while (cap < 2 * n)
        cap *= 2;
    if (!(cs->classes = calloc(cap, sizeof *cs->classes)))
        return -1;
    cs->cap = cap;
    for (size_t i = 0; i < cs->n; i++) {
        const struct cfg *c = s->cfgs[cs->at[i].cfg].c;
        const struct cfg_entry *k = &c->e[cs->at[i].cls];
        for (uint32_t m = k->first; m < k->first + k->n; m++) {
            long e = cfg_member(c, (uint32_t)cs->at[i].cls, c->e[m].name.p);
            struct class_ref *r = class_slot(s, cs, c->e[m].name.p);
            if (e == m && c->e[m].kind == CFG_CLASS && r->cls <= 0)
                *r = (struct class_ref){ cs->at[i].cfg, m };
        }
    }
    return 0;
}

/* The class called name that is a member of sc's merged classes, the
 * first in path order other than not: 0, or -1. */
static int class_in(const struct rtm_states *s, struct cref sc, const char *name,
                    struct cref not, struct cref *out)
{
    uint32_t set = s->sets && sc.cls ? s->sets->set_of[sc.cfg][sc.cls] : 0;
    struct class_set *cs = set ? &s->sets->set[set - 1] : NULL;
    if (cs && cs->n > 1 && (cs->cap || index_set(s, cs) == 0)) {
        const struct class_ref *r = class_slot(s, cs, name);
        if (r->cls <= 0)
            return -1;
        if (r->cfg != not.cfg || r->cls != not.cls) {
            *out = (struct cref){ r->cfg, r->cls };
            return 0;
        }                               /* class X : X: the next, below */
    }
    struct cref m;
    for (size_t i = 0; merged_with(s, sc, i, &m); i = m.cls == 0 ? m.cfg + 1 : i + 1) {
        const struct cfg *c = s->cfgs[m.cfg].c;
        long e = cfg_member(c, (uint32_t)m.cls, name);
        if (e >= 0 && c->e[e].kind == CFG_CLASS && (m.cfg != not.cfg || e != not.cls)) {
            *out = (struct cref){ m.cfg, e };
            return 0;
        }
    }
    return -1;
}

/* The name of a member's entry. */
static const char *ref_name(const struct rtm_states *s, struct class_ref r)
{
    return s->cfgs[r.cfg].c->e[r.cls].name.p;
}

/* The slot of member name in cs's table of members: where it is, or the
 * free one. */
static struct member_ref *member_ref_slot(const struct rtm_states *s, const struct class_set *cs,
                                          const char *name)
{
    uint64_t h = rtm_hash_bytes(name, strlen(name), 1);
    for (size_t i = (size_t)(h >> 7) & (cs->capmembers - 1);; i = (i + 1) & (cs->capmembers - 1)) {
        struct member_ref *r = &cs->members[i];
        if (r->first.cls < 0 || strcasecmp(ref_name(s, r->first), name) == 0)
            return r;
    }
}

/* Makes cs's table of members by name: 0, or -1 out of memory. */
static int index_members(const struct rtm_states *s, struct class_set *cs)
{
    size_t n = 0, cap = 16;
    for (size_t i = 0; i < cs->n; i++)
        n += s->cfgs[cs->at[i].cfg].c->e[cs->at[i].cls].n;
    while (cap < 2 * n)
        cap *= 2;
    if (!(cs->members = malloc(cap * sizeof *cs->members)))
        return -1;
    for (size_t i = 0; i < cap; i++)
        cs->members[i] = (struct member_ref){ { 0, -1 }, { 0, -1 } };
    cs->capmembers = cap;
    for (size_t i = 0; i < cs->n; i++) {
        const struct cfg *c = s->cfgs[cs->at[i].cfg].c;
        const struct cfg_entry *k = &c->e[cs->at[i].cls];
        for (uint32_t m = k->first; m < k->first + k->n; m++) {
            if (cfg_member(c, (uint32_t)cs->at[i].cls, c->e[m].name.p) != m)
                continue;               /* a later member of the name hides it */
            struct member_ref *r = member_ref_slot(s, cs, c->e[m].name.p);
            struct class_ref at = { cs->at[i].cfg, m };
            if (r->first.cls < 0)
                r->first = at;
            else if (r->second.cls < 0)
                r->second = at;         /* another config's: one class a config */
        }
    }
    return 0;
}

/* member_elsewhere through set cs's table of members (made first when
 * it is not): 0 with *out, -1 when no other config has it, or -2 when
 * memory ran out making the table (the caller looks the slow way). */
static int member_elsewhere_indexed(const struct rtm_states *s, struct class_set *cs,
                                    struct cref k, const char *name, struct found *out)
{
    if (!cs->capmembers && index_members(s, cs))
        return -2;
    const struct member_ref *r = member_ref_slot(s, cs, name);
    const struct class_ref *at = r->first.cls < 0 ? NULL
                               : r->first.cfg != k.cfg ? &r->first
                               : r->second.cls >= 0 ? &r->second : NULL;
    if (!at)
        return -1;
    *out = (struct found){ at->cfg, at->cls, NULL };
    return 0;
}

/* The member called name of a class merged with k, in another config
 * than k's, the first in path order: 0 with *out, or -1. */
static int member_elsewhere(const struct rtm_states *s, struct cref k, const char *name,
                            struct found *out)
{
    uint32_t set = s->sets && k.cls ? s->sets->set_of[k.cfg][k.cls] : 0;
    struct class_set *cs = set ? &s->sets->set[set - 1] : NULL;
    if (cs && cs->n > 1) {
        int rc = member_elsewhere_indexed(s, cs, k, name, out);
        if (rc != -2)
            return rc;
    }
    struct cref m;
    for (size_t i = 0; merged_with(s, k, i, &m); i = m.cls == 0 ? m.cfg + 1 : i + 1) {
        long e = m.cfg == k.cfg ? -1 : cfg_member(s->cfgs[m.cfg].c, (uint32_t)m.cls, name);
        if (e >= 0) {
            *out = (struct found){ m.cfg, e, NULL };
            return 0;
        }
    }
    return -1;
}

/* What one lookup across configs may spend: classes looked into, and how
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
    for (int step = 0; step < CFG_DEPTH_MAX && w->paths-- > 0; step++) {
        if (class_in(s, sc, name, not, out) == 0)
            return 0;
        if (base_across(s, sc, &sc, w))
            return -1;
    }
    return -1;
}

static int base_uncached(const struct rtm_states *s, struct cref k, struct cref *out,
                         struct walk *w);

/* Where k's base is remembered (struct class_sets), or NULL: none kept. */
static struct class_base *base_memo(const struct rtm_states *s, struct cref k)
{
    struct class_sets *x = s->sets;
    if (!x)
        return NULL;
    if (!x->base[k.cfg])
        x->base[k.cfg] = calloc(s->cfgs[k.cfg].c->ne, sizeof *x->base[k.cfg]);
    return x->base[k.cfg] ? &x->base[k.cfg][k.cls] : NULL;
}

/* The base class of class k as the game resolves it across the configs
 * added (rtm(5), "Base classes"): within k's config (cfg_parent), else
 * the name in k's enclosing class, looked up by member_across, then in
 * each class further out.  0 and *out; 1 when k names no base; -1 when
 * the name is found nowhere.  Remembered for the next lookup, unless a
 * bound of w cut it short. */
static int base_across(const struct rtm_states *s, struct cref k, struct cref *out,
                       struct walk *w)
{
    struct class_base *m = base_memo(s, k);
    if (m && m->state) {
        *out = (struct cref){ m->cfg, m->cls };
        return (int)m->state - 2;
    }
    int rc = base_uncached(s, k, out, w);
    if (m && (rc >= 0 || (w->paths > 0 && w->depth == 0)))  /* not one a bound gave */
        *m = (struct class_base){ (uint32_t)(rc + 2), rc == 0 ? (uint32_t)out->cls : 0,
                                  rc == 0 ? out->cfg : 0 };
    return rc;
}

static int base_uncached(const struct rtm_states *s, struct cref k, struct cref *out,
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

int states_member_class(const struct rtm_states *s, size_t ci, uint32_t cls, const char *name,
                        size_t *cj, long *out)
{
    struct walk w = { WALK_PATHS, 0 };
    struct cref found, none = { SIZE_MAX, -1 };
    if (member_across(s, (struct cref){ ci, cls }, name, none, &found, &w))
        return -1;
    *cj = found.cfg;
    *out = found.cls;
    return 0;
}

/* The entry named name in class (ci, cls) or the classes it inherits,
 * across configs. */
struct found states_lookup(const struct rtm_states *s, size_t ci, uint32_t cls, const char *name,
                           int merged)
{
    struct cref k = { ci, cls };
    struct walk w = { WALK_PATHS, 0 };
    for (int step = 0; step < CFG_DEPTH_MAX; step++) {
        const struct cfg *c = s->cfgs[k.cfg].c;
        long e = cfg_member(c, (uint32_t)k.cls, name);
        if (e >= 0)
            return (struct found){ k.cfg, e, NULL };
        struct found other;
        if (merged && member_elsewhere(s, k, name, &other) == 0)
            return other;
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
const struct cfg_value *states_value_of(const struct rtm_states *s, struct found f)
{
    if (f.entry < 0)
        return NULL;
    const struct cfg_entry *e = &s->cfgs[f.cfg].c->e[f.entry];
    return e->kind == CFG_VALUE ? &e->v : NULL;
}
