/* config.c - the config model: its arena, the builder the readers share,
 * lookups through parents, and model equality. */
#include "config.h"

#include "array.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Whether name (n bytes) ends in suffix, or is it, ignoring ASCII case. */
static int ends_in(const char *name, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);
    return n >= k && strncasecmp(name + n - k, suffix, k) == 0;
}

int cfg_is_candidate_name(const char *name, size_t len)
{
    size_t start = len;
    while (start > 0 && name[start - 1] != '/' && name[start - 1] != '\\')
        start--;
    const char *base = name + start;
    size_t n = len - start;
    return (n == 10 && strncasecmp(base, "config.bin", 10) == 0) ||
           (ends_in(base, n, ".rvmat") && n > 6) ||
           (ends_in(base, n, ".bisurf") && n > 7) || (ends_in(base, n, ".sqm") && n > 4) ||
           (n == 9 && strncasecmp(base, "model.cfg", 9) == 0);
}

/* Strings live in blocks that never move, so pointers into them stay valid
 * while the entry and value arrays grow. */
struct cfg_block {
    struct cfg_block *next;
    size_t used, cap;
    char data[];
};

struct cfg_arena {
    struct cfg_block *head;
};

enum { BLOCK_MIN = 16384 };

struct cfg *cfg_new(void)
{
    struct cfg *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->arena = calloc(1, sizeof *c->arena);
    if (!c->arena) {
        free(c);
        return NULL;
    }
    c->mem_bytes = rtm_heap_bytes(sizeof *c) + rtm_heap_bytes(sizeof *c->arena);
    return c;
}

void cfg_free(struct cfg *c)
{
    if (!c)
        return;
    if (c->arena) {
        for (struct cfg_block *b = c->arena->head, *nx; b; b = nx) {
            nx = b->next;
            free(b);
        }
        free(c->arena);
    }
    free(c->e);
    free(c->v);
    free(c->enums);
    free(c->members);
    free(c);
}

static struct cfg_block *new_block(struct cfg *c, size_t need)
{
    size_t cap = need > BLOCK_MIN ? need : BLOCK_MIN;
    struct cfg_block *b = malloc(sizeof *b + cap);
    if (!b)
        return NULL;
    b->used = 0;
    b->cap = cap;
    b->next = c->arena->head;
    c->arena->head = b;
    c->mem_bytes += rtm_heap_bytes(sizeof *b + cap);
    return b;
}

const char *cfg_strdup(struct cfg *c, const void *s, size_t len)
{
    struct cfg_block *b = c->arena->head;
    if (!b || b->cap - b->used < len + 1) {
        b = new_block(c, len + 1);
        if (!b)
            return NULL;
    }
    char *d = b->data + b->used;
    if (len)
        memcpy(d, s, len);
    d[len] = 0;
    b->used += len + 1;
    return d;
}

/* Grows an array of elem-byte items to hold want: doubling from 64, or to
 * exactly want when a reader reserves what it counted; what it adds counts
 * in *mem. */
static int grow_to(void **arr, uint32_t *cap, uint64_t want, size_t elem, size_t *mem,
                   int exact)
{
    if (want <= *cap)
        return 0;
    if (want > UINT32_MAX / 2)
        return -1;
    size_t nc = exact ? 0 : *cap;       /* 0: it starts from min_cap, want */
    if (rtm_array_grow(arr, &nc, (size_t)want, elem, exact ? (size_t)want : 64))
        return -1;
    *mem += (nc - *cap) * elem;
    *cap = (uint32_t)nc;
    return 0;
}

static int grow(void **arr, uint32_t *cap, uint64_t want, size_t elem, size_t *mem)
{
    return grow_to(arr, cap, want, elem, mem, 0);
}

int cfg_reserve(struct cfg *c, uint32_t entries, uint32_t values, uint32_t enums,
                size_t str_bytes)
{
    void *e = c->e, *v = c->v, *en = c->enums;
    int rc = grow_to(&e, &c->cap_e, (uint64_t)c->ne + entries, sizeof *c->e, &c->mem_bytes, 1) ||
             grow_to(&v, &c->cap_v, (uint64_t)c->nv + values, sizeof *c->v, &c->mem_bytes, 1) ||
             grow_to(&en, &c->cap_enums, (uint64_t)c->nenums + enums, sizeof *c->enums,
                     &c->mem_bytes, 1);
    c->e = e;
    c->v = v;
    c->enums = en;
    if (rc)
        return -1;
    struct cfg_block *b = c->arena->head;
    if (str_bytes && (!b || b->cap - b->used < str_bytes))
        return new_block(c, str_bytes) ? 0 : -1;
    return 0;
}

/* n more elements of elem bytes at the end of *arr (*count of them, room
 * for *cap): copies of from, or zeros when from is NULL.  The first's
 * index, or -1. */
static long append(void **arr, uint32_t *cap, uint32_t *count, size_t elem, size_t *mem,
                   const void *from, uint32_t n)
{
    if (grow(arr, cap, (uint64_t)*count + n, elem, mem))
        return -1;
    if (n) {  /* an empty array may still be NULL */
        char *at = (char *)*arr + (size_t)*count * elem;
        if (from)
            memcpy(at, from, (size_t)n * elem);
        else
            memset(at, 0, (size_t)n * elem);
    }
    *count += n;
    return (long)(*count - n);
}

long cfg_add_entries(struct cfg *c, uint32_t n)
{
    return cfg_append_entries(c, NULL, n);
}

long cfg_add_values(struct cfg *c, uint32_t n)
{
    return cfg_append_values(c, NULL, n);
}

long cfg_append_entries(struct cfg *c, const struct cfg_entry *from, uint32_t n)
{
    void *e = c->e;
    long at = append(&e, &c->cap_e, &c->ne, sizeof *c->e, &c->mem_bytes, from, n);
    c->e = e;
    return at;
}

long cfg_append_values(struct cfg *c, const struct cfg_value *from, uint32_t n)
{
    void *v = c->v;
    long at = append(&v, &c->cap_v, &c->nv, sizeof *c->v, &c->mem_bytes, from, n);
    c->v = v;
    return at;
}

int cfg_add_enum(struct cfg *c, const char *name, size_t len, int32_t value)
{
    void *en = c->enums;
    int rc = grow(&en, &c->cap_enums, (uint64_t)c->nenums + 1, sizeof *c->enums,
                  &c->mem_bytes);
    c->enums = en;
    if (rc)
        return -1;
    const char *s = cfg_strdup(c, name, len);
    if (!s)
        return -1;
    c->enums[c->nenums++] = (struct cfg_enum){ { s, (uint32_t)len }, value };
    return 0;
}

void cfg_link(struct cfg *c)
{
    for (uint32_t i = 0; i < c->ne; i++)
        if (c->e[i].kind == CFG_CLASS)
            for (uint32_t k = 0; k < c->e[i].n; k++)
                c->e[c->e[i].first + k].up = i;
}

/* ---- lookups ---------------------------------------------------------- */

/* The slot of member name of class cls in c's index: where it is, or the
 * free slot it would take. */
static uint32_t member_slot(const struct cfg *c, uint32_t cls, const char *name, size_t len)
{
    uint64_t h = rtm_hash_bytes(name, len, 1) ^ ((uint64_t)cls * 0x9e3779b97f4a7c15ull);
    for (uint32_t i = (uint32_t)(h >> 11) & (c->members_cap - 1);;
         i = (i + 1) & (c->members_cap - 1)) {
        uint32_t e = c->members[i];
        if (!e || (c->e[e - 1].up == cls && strcasecmp(c->e[e - 1].name.p, name) == 0))
            return i;
    }
}

int cfg_index_members(struct cfg *c)
{
    uint64_t cap = 16;
    while (cap < 2 * (uint64_t)c->ne)
        cap *= 2;
    if (cap > UINT32_MAX / 2 || !(c->members = calloc(cap, sizeof *c->members)))
        return -1;
    c->members_cap = (uint32_t)cap;
    c->mem_bytes += cap * sizeof *c->members;
    for (uint32_t i = 1; i < c->ne; i++)    /* file order: the last of a name wins */
        c->members[member_slot(c, c->e[i].up, c->e[i].name.p, strlen(c->e[i].name.p))] = i + 1;
    return 0;
}

long cfg_member(const struct cfg *c, uint32_t cls, const char *name)
{
    if (cls >= c->ne || c->e[cls].kind != CFG_CLASS)
        return -1;
    if (c->members_cap) {
        uint32_t e = c->members[member_slot(c, cls, name, strlen(name))];
        return e ? (long)e - 1 : -1;
    }
    const struct cfg_entry *k = &c->e[cls];
    for (uint32_t i = k->n; i-- > 0;)
        if (strcasecmp(c->e[k->first + i].name.p, name) == 0)
            return (long)(k->first + i);
    return -1;
}

long cfg_class(const struct cfg *c, const char *path)
{
    uint32_t at = 0;
    char part[1024];
    while (*path) {
        size_t n = strcspn(path, "/");
        if (n >= sizeof part)
            return -1;
        memcpy(part, path, n);
        part[n] = 0;
        path += n + (path[n] == '/');
        if (n == 0)
            continue;
        long m = cfg_member(c, at, part);
        if (m < 0 || c->e[m].kind != CFG_CLASS)
            return -1;
        at = (uint32_t)m;
    }
    return at;
}

/* What one base-class lookup may spend before it gives up (-1): the rule
 * below recurses (a scope's own base is looked up by it), so a hostile
 * file could make it branch, or nest, without end.  members: how many
 * members it may compare (the game's own CfgMovesMaleSdr has about 10,000
 * states, and a lookup in it compares a few times that); depth: how deep
 * lookups may nest, as classes do. */
struct base_walk {
    long members;
    int depth;
};
enum { BASE_LOOKUP_MEMBERS = 1 << 20 };

static long parent_within(const struct cfg *c, uint32_t cls, struct base_walk *w);

/* A class named name defined (not declared: "class X;" only declares) as
 * a member of class k, other than skip: the last in file order, or -1. */
static long defined_member(const struct cfg *c, uint32_t k, const char *name, uint32_t skip,
                           struct base_walk *w)
{
    const struct cfg_entry *cls = &c->e[k];
    w->members -= (long)cls->n + 1;
    for (uint32_t i = cls->n; i-- > 0;) {
        const struct cfg_entry *m = &c->e[cls->first + i];
        if (cls->first + i != skip && m->kind == CFG_CLASS && strcasecmp(m->name.p, name) == 0)
            return (long)(cls->first + i);
    }
    return -1;
}

/* The class named name that class scope sees, as the game resolves a base
 * class: a class scope defines, else one it inherits (from its parent,
 * and that parent's, nearest first), else the same in each enclosing
 * class outwards to the root.  skip is the class asking (class X : X
 * names the X its scope inherits). */
static long visible_class(const struct cfg *c, uint32_t scope, const char *name, uint32_t skip,
                          struct base_walk *w)
{
    for (int up = 0; up <= CFG_DEPTH_MAX; up++) {
        long k = scope;
        for (int step = 0; k >= 0 && step < CFG_DEPTH_MAX && w->members > 0; step++) {
            long m = defined_member(c, (uint32_t)k, name, skip, w);
            if (m >= 0)
                return m;
            k = parent_within(c, (uint32_t)k, w);
        }
        if (scope == 0 || w->members <= 0)
            break;
        scope = c->e[scope].up;
    }
    return -1;
}

static long parent_within(const struct cfg *c, uint32_t cls, struct base_walk *w)
{
    if (cls >= c->ne || cls == 0 || c->e[cls].kind != CFG_CLASS || !c->e[cls].has_parent ||
        w->depth >= CFG_DEPTH_MAX)
        return -1;
    w->depth++;
    long p = visible_class(c, c->e[cls].up, c->e[cls].parent.p, cls, w);
    w->depth--;
    return p;
}

long cfg_parent(const struct cfg *c, uint32_t cls)
{
    struct base_walk w = { BASE_LOOKUP_MEMBERS, 0 };
    return parent_within(c, cls, &w);
}

long cfg_lookup(const struct cfg *c, uint32_t cls, const char *name, long *stuck)
{
    if (stuck)
        *stuck = -1;
    for (int step = 0; step < CFG_DEPTH_MAX && cls < c->ne; step++) {
        long m = cfg_member(c, cls, name);
        if (m >= 0)
            return m;
        long p = cfg_parent(c, cls);
        if (p < 0) {
            if (stuck && c->e[cls].kind == CFG_CLASS && c->e[cls].has_parent)
                *stuck = (long)cls;
            return -1;
        }
        cls = (uint32_t)p;
    }
    return -1;
}

long cfg_find(const struct cfg *c, const char *path, long *stuck)
{
    const char *slash = strrchr(path, '/');
    if (stuck)
        *stuck = -1;
    if (!slash)
        return cfg_lookup(c, 0, path, stuck);
    char cls[4096];
    size_t n = (size_t)(slash - path);
    if (n >= sizeof cls)
        return -1;
    memcpy(cls, path, n);
    cls[n] = 0;
    long k = cfg_class(c, cls);
    return k < 0 ? -1 : cfg_lookup(c, (uint32_t)k, slash + 1, stuck);
}

/* ---- equality --------------------------------------------------------- */

static int str_eq(struct cfg_str a, struct cfg_str b)
{
    return a.len == b.len && memcmp(a.p, b.p, a.len) == 0;
}

static int value_eq(const struct cfg *a, const struct cfg_value *x, const struct cfg *b,
                    const struct cfg_value *y, int depth)
{
    if (x->type != y->type || depth > CFG_DEPTH_MAX)
        return 0;
    switch (x->type) {
    case CFG_T_STRING:
    case CFG_T_VARIABLE:
        return str_eq(x->u.s, y->u.s);
    case CFG_T_FLOAT:
        return memcmp(&x->u.f, &y->u.f, sizeof x->u.f) == 0;
    case CFG_T_INT:
    case CFG_T_INT64:
        return x->u.i == y->u.i;
    default:
        if (x->n != y->n)
            return 0;
        for (uint32_t i = 0; i < x->n; i++)
            if (!value_eq(a, &a->v[x->u.first + i], b, &b->v[y->u.first + i], depth + 1))
                return 0;
        return 1;
    }
}

static int class_eq(const struct cfg *a, uint32_t i, const struct cfg *b, uint32_t j,
                    char *why, size_t n, int depth)
{
    const struct cfg_entry *x = &a->e[i], *y = &b->e[j];
    const char *what = NULL;
    if (x->kind != y->kind)
        what = "kinds differ";
    else if (!str_eq(x->name, y->name))
        what = "names differ";
    else if (x->kind == CFG_CLASS && (x->has_parent != y->has_parent ||
                                      (x->has_parent && !str_eq(x->parent, y->parent))))
        what = "parents differ";
    else if (x->kind == CFG_CLASS && x->n != y->n)
        what = "member counts differ";
    else if ((x->kind == CFG_VALUE || x->kind == CFG_ARRAY) &&
             (x->append != y->append || !value_eq(a, &x->v, b, &y->v, 0)))
        what = "values differ";
    if (what) {
        if (why)
            snprintf(why, n, "entry %s vs %s: %s", x->name.p, y->name.p, what);
        return 0;
    }
    if (x->kind != CFG_CLASS || depth > CFG_DEPTH_MAX)
        return 1;
    for (uint32_t k = 0; k < x->n; k++)
        if (!class_eq(a, x->first + k, b, y->first + k, why, n, depth + 1))
            return 0;
    return 1;
}

int cfg_equal(const struct cfg *a, const struct cfg *b, char *why, size_t n)
{
    if (a->nenums != b->nenums) {
        if (why)
            snprintf(why, n, "enum counts differ");
        return 0;
    }
    for (uint32_t i = 0; i < a->nenums; i++)
        if (!str_eq(a->enums[i].name, b->enums[i].name) ||
            a->enums[i].value != b->enums[i].value) {
            if (why)
                snprintf(why, n, "enum %s differs", a->enums[i].name.p);
            return 0;
        }
    return class_eq(a, 0, b, 0, why, n, 0);
}
