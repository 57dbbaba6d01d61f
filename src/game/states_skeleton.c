/* states_skeleton.c - which skeleton the states that play a file play it
 * with (states_skeleton.h), from the states the root check compares with
 * their class's skeleton (states_int.h: struct check_bones). */
#include "states_skeleton.h"

#include <stdlib.h>
#include <string.h>

#include "states_int.h"

/* A word at a time: a key is a game path of some 60 bytes, and the table
 * of groups lives in memory only. */
uint64_t states_key_hash(const char *key, size_t n)
{
    const uint64_t mul = 0x9e3779b97f4a7c15ull;
    uint64_t h = n * mul, w;
    for (; n >= 8; key += 8, n -= 8) {
        memcpy(&w, key, 8);
        h = (h ^ w) * mul;
        h ^= h >> 29;
    }
    for (; n; key++, n--)
        h = (h ^ (unsigned char)*key) * mul;
    return h ^ (h >> 32);
}

/* The slot of key (of hash h): the one holding its group, or the free one
 * where it would go. */
static uint32_t *slot_of(const struct states_check *k, const char *key, uint64_t h)
{
    for (size_t i = h & k->key_mask;; i = (i + 1) & k->key_mask) {
        uint32_t at = k->key_slot[i];
        const struct check_bones *b = at ? &k->b[k->by_key[at - 1]] : NULL;
        if (!b || (b->key_hash == h && strcmp(b->key, key) == 0))
            return &k->key_slot[i];
    }
}

/* states.txt's order: the config's place in path order, then the entry,
 * then the place in b (the order does not depend on how the table was
 * made: from configs, or given back). */
static int in_place_order(const struct states_check *k, uint32_t x, uint32_t y)
{
    const struct check_bones *a = &k->b[x], *b = &k->b[y];
    if (a->cfg != b->cfg)
        return a->cfg < b->cfg ? -1 : 1;
    if (a->entry != b->entry)
        return a->entry < b->entry ? -1 : 1;
    return (x > y) - (x < y);
}

/* Sorts group g (n indices) into states.txt's order: a few states name a
 * file, so by insertion (stable, and in b's order already when b came
 * from the configs); a long group by merging halves. */
static void order_group(const struct states_check *k, uint32_t *g, size_t n, uint32_t *tmp)
{
    if (n > 16) {
        size_t h = n / 2;
        order_group(k, g, h, tmp);
        order_group(k, g + h, n - h, tmp);
        size_t i = 0, j = h, o = 0;
        while (i < h || j < n)
            tmp[o++] = j >= n || (i < h && in_place_order(k, g[i], g[j]) < 0) ? g[i++] : g[j++];
        memcpy(g, tmp, n * sizeof *g);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        uint32_t v = g[i];
        size_t j = i;
        for (; j > 0 && in_place_order(k, g[j - 1], v) > 0; j--)
            g[j] = g[j - 1];
        g[j] = v;
    }
}

/* Each state's group (group[i]) by its key, the groups' sizes into
 * size[g + 1]: how many groups.  A slot holds, while grouping, its
 * group's first state + 1. */
static size_t group_by_key(struct states_check *k, uint32_t *group, uint32_t *size)
{
    size_t ngroups = 0;
    for (uint32_t i = 0; i < k->nb; i++) {
        size_t s = k->b[i].key_hash & k->key_mask;
        while (k->key_slot[s] && (k->b[k->key_slot[s] - 1].key_hash != k->b[i].key_hash ||
                                  strcmp(k->b[k->key_slot[s] - 1].key, k->b[i].key)))
            s = (s + 1) & k->key_mask;
        if (!k->key_slot[s]) {
            k->key_slot[s] = i + 1;
            group[i] = (uint32_t)ngroups++;
        } else {
            group[i] = group[k->key_slot[s] - 1];
        }
        size[group[i] + 1]++;
    }
    return ngroups;
}

/* Groups b by key with a table of keys (a sort of 20,000 keys by strcmp
 * cost a first header.txt 17 M instructions): the groups placed one after
 * another in by_key, filled in b's order, each then put in states.txt's
 * order, and the table made again to say where each group starts. */
int states_skeleton_index(struct states_check *k)
{
    free(k->by_key);
    free(k->key_slot);
    k->by_key = k->key_slot = NULL;
    k->any_source = 0;
    for (size_t i = 0; i < k->nb; i++)
        k->any_source |= !k->k[k->b[i].skel].game;
    if (!k->nb)
        return 0;
    size_t cap = 16;
    while (cap < 2 * k->nb)
        cap *= 2;
    uint32_t *group = malloc(k->nb * sizeof *group), *at = calloc(k->nb + 1, sizeof *at),
             *tmp = malloc(k->nb * sizeof *tmp);
    k->by_key = malloc(k->nb * sizeof *k->by_key);
    k->key_slot = calloc(cap, sizeof *k->key_slot);
    k->key_mask = cap - 1;
    int rc = !group || !at || !tmp || !k->by_key || !k->key_slot ? -1 : 0;
    if (!rc) {
        size_t ngroups = group_by_key(k, group, at);
        for (size_t g = 0; g < ngroups; g++)
            at[g + 1] += at[g];         /* at[g]: where group g starts */
        for (uint32_t i = 0; i < k->nb; i++)
            k->by_key[at[group[i]]++] = i;      /* at[g]: then where g + 1 starts */
        memset(k->key_slot, 0, cap * sizeof *k->key_slot);
        for (size_t g = 0; g < ngroups; g++) {
            uint32_t from = g ? at[g - 1] : 0;
            order_group(k, k->by_key + from, at[g] - from, tmp);
            const struct check_bones *first = &k->b[k->by_key[from]];
            *slot_of(k, first->key, first->key_hash) = from + 1;
        }
    }
    free(group);
    free(at);
    free(tmp);
    if (rc) {
        free(k->by_key);
        free(k->key_slot);
        k->by_key = k->key_slot = NULL;
    }
    return rc;
}

/* The first of by_key whose state's key is key (k->nb when none). */
static size_t first_of(const struct states_check *k, const char *key)
{
    uint32_t at = *slot_of(k, key, states_key_hash(key, strlen(key)));
    return at ? at - 1 : k->nb;
}

/* A candidate: one skeleton, how many states play the file with it, the
 * first of them in states.txt's order (an index into b). */
struct candidate {
    size_t skel, states;
    uint32_t first, held;
};

static int better(const struct candidate *c, const struct candidate *best)
{
    if (c->held != best->held)
        return c->held > best->held;
    return c->states > best->states;    /* else the first found: by_key's order */
}

int rtm_states_skeletons_any(const struct rtm_states *s)
{
    return s && s->check.any_source;
}

int rtm_states_skeleton(const struct rtm_states *s, const char *key, const struct rtm_str *bones,
                        uint32_t n, struct rtm_states_skeleton *out)
{
    const struct states_check *k = s ? &s->check : NULL;
    if (!k || !k->by_key)
        return 0;
    size_t from = first_of(k, key), to = from;
    while (to < k->nb && strcmp(k->b[k->by_key[to]].key, key) == 0)
        to++;
    struct candidate best = { SIZE_MAX, 0, 0, 0 };
    size_t choices = 0;
    for (size_t i = from; i < to; i++) {
        size_t skel = k->b[k->by_key[i]].skel;
        if (k->k[skel].game)
            continue;                   /* step 4 gives the same bones */
        size_t seen = from;
        while (seen < i && k->b[k->by_key[seen]].skel != skel)
            seen++;
        if (seen < i)
            continue;                   /* counted with its first state */
        struct candidate c = { skel, 0, k->by_key[i],
                               rtm_skeleton_held(k->k[skel].s, bones, n) };
        for (size_t j = i; j < to; j++)
            c.states += k->b[k->by_key[j]].skel == skel;
        choices++;
        if (best.skel == SIZE_MAX || better(&c, &best))
            best = c;
    }
    if (best.skel == SIZE_MAX)
        return 0;
    *out = (struct rtm_states_skeleton){ k->k[best.skel].s, k->b[best.first].where, best.states,
                                         choices, best.skel };
    return 1;
}
