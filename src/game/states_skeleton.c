/* states_skeleton.c - which skeleton the states that play a file play it
 * with (states_skeleton.h), from the states the root check compares with
 * their class's skeleton (states_int.h: struct check_bones). */
#include "states_skeleton.h"

#include <stdlib.h>
#include <string.h>

#include "states_int.h"

/* A state of the check by its file's key, then in states.txt's order
 * (its config's place in path order, then its entry): the order does not
 * depend on how the table was made (from configs, or given back). */
struct keyed {
    const char *key;
    size_t cfg;
    uint32_t entry, at;
};

static int by_key_then_place(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    if (c)
        return c;
    if (x->cfg != y->cfg)
        return x->cfg < y->cfg ? -1 : 1;
    if (x->entry != y->entry)
        return x->entry < y->entry ? -1 : 1;
    return (x->at > y->at) - (x->at < y->at);
}

int states_skeleton_index(struct states_check *k)
{
    free(k->by_key);
    k->by_key = NULL;
    k->any_source = 0;
    for (size_t i = 0; i < k->nb; i++)
        k->any_source |= !k->k[k->b[i].skel].game;
    if (!k->nb)
        return 0;
    struct keyed *t = malloc(k->nb * sizeof *t);
    k->by_key = malloc(k->nb * sizeof *k->by_key);
    if (!t || !k->by_key) {
        free(t);
        return -1;
    }
    for (size_t i = 0; i < k->nb; i++)
        t[i] = (struct keyed){ k->b[i].key, k->b[i].cfg, k->b[i].entry, (uint32_t)i };
    qsort(t, k->nb, sizeof *t, by_key_then_place);
    for (size_t i = 0; i < k->nb; i++)
        k->by_key[i] = t[i].at;
    free(t);
    return 0;
}

/* The first of by_key whose state's key is key (k->nb when none). */
static size_t first_of(const struct states_check *k, const char *key)
{
    size_t lo = 0, hi = k->nb;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(k->b[k->by_key[mid]].key, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
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
