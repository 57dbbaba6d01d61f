/* states_resolve.c - a state's values through its base classes, across
 * the configs of a table (states_int.h), by the game's rule. */
#include "states_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
    while (depth--) {
        int w = snprintf(out + len, n - len, "%s%s", len ? "/" : "", c->e[chain[depth]].name.p);
        if (w < 0 || (size_t)w >= n - len)
            return -1;
        len += (size_t)w;
    }
    return 0;
}

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

struct parent_memo *states_memo_new(void)
{
    struct parent_memo *m = calloc(1, sizeof *m);
    if (m && !(m->slot = calloc(m->cap = 256, sizeof *m->slot))) {
        free(m);
        m = NULL;
    }
    return m;
}

static void answer_free(struct parent_answer *a)
{
    free(a->path);
    free(a->cfg);
    free(a->cls);
}

void states_memo_free(struct parent_memo *m)
{
    for (size_t i = 0; m && i < m->cap; i++)
        answer_free(&m->slot[i]);
    if (m)
        free(m->slot);
    free(m);
}

/* Every config, in path order, with class path, into a: 0, or -1 when
 * out of memory (a->n is then 0). */
static int search_all(const struct rtm_states *s, const char *path, struct parent_answer *a)
{
    a->n = 0;
    a->cfg = NULL;
    a->cls = NULL;
    for (size_t k = 0; k < s->ncfgs; k++) {
        long cls = s->cfgs[k].c ? cfg_class(s->cfgs[k].c, path) : -1;
        if (cls < 0)
            continue;                   /* (a line-only table's configs have no model) */
        size_t *c = realloc(a->cfg, (a->n + 1) * sizeof *c);
        a->cfg = c ? c : a->cfg;
        long *l = c ? realloc(a->cls, (a->n + 1) * sizeof *l) : NULL;
        a->cls = l ? l : a->cls;
        if (!c || !l) {
            free(a->cfg);
            free(a->cls);
            a->n = 0;
            a->cfg = NULL;
            a->cls = NULL;
            return -1;
        }
        a->cfg[a->n] = k;
        a->cls[a->n++] = cls;
    }
    return 0;
}

/* The configs that define class path: the memo's answer, or tmp's (which
 * the caller frees with answer_free when it is the one returned). */
static const struct parent_answer *definitions(const struct rtm_states *s, const char *path,
                                               struct parent_answer *tmp)
{
    memset(tmp, 0, sizeof *tmp);
    tmp->hash = path_hash(path);
    struct parent_answer *a = s->memo ? memo_slot(s->memo, tmp->hash, path) : NULL;
    if (a && a->hash)
        return a;
    search_all(s, path, tmp);
    if (s->memo && (tmp->path = strdup(path)) && memo_put(s->memo, tmp) == 0) {
        struct parent_answer *kept = memo_slot(s->memo, tmp->hash, path);
        memset(tmp, 0, sizeof *tmp);    /* the memo's now */
        return kept;
    }
    return tmp;
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
    struct parent_answer tmp;
    const struct parent_answer *a = definitions(s, path, &tmp);
    int rc = -1;
    for (size_t i = 0; rc && i < a->n; i++)
        if (a->cfg[i] != not.cfg || a->cls[i] != not.cls) {
            *out = (struct cref){ a->cfg[i], a->cls[i] };
            rc = 0;
        }
    answer_free(&tmp);
    return rc;
}

/* The member called name of the class at k's path in another config than
 * k's, the first in path order that has one (the game merges the class's
 * definitions): 0 with *out, or -1. */
static int member_elsewhere(const struct rtm_states *s, struct cref k, const char *name,
                            struct found *out)
{
    char path[CLASS_PATH_MAX];
    if (states_class_path(s->cfgs[k.cfg].c, (uint32_t)k.cls, path, sizeof path))
        return -1;
    struct parent_answer tmp;
    const struct parent_answer *a = definitions(s, path, &tmp);
    int rc = -1;
    for (size_t i = 0; rc && i < a->n; i++) {
        long e = a->cfg[i] == k.cfg ? -1 : cfg_member(s->cfgs[a->cfg[i]].c, (uint32_t)a->cls[i],
                                                         name);
        if (e >= 0) {
            *out = (struct found){ a->cfg[i], e, NULL };
            rc = 0;
        }
    }
    answer_free(&tmp);
    return rc;
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
        if (states_class_path(c, (uint32_t)sc.cls, path, sizeof path))
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
