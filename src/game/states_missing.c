/* states_missing.c - which states name an animation that is not there
 * (states_missing.h). */
#include "states_missing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "gamepath.h"

/* A sorted set of keys (rtm_states_key). */
struct keys {
    char **k;
    size_t n, cap;
};

struct rtm_gamepaths {
    struct keys files, prefixes;
};

struct rtm_gamepaths *rtm_gamepaths_new(void)
{
    return calloc(1, sizeof(struct rtm_gamepaths));
}

static void keys_free(struct keys *k)
{
    for (size_t i = 0; i < k->n; i++)
        free(k->k[i]);
    free(k->k);
}

void rtm_gamepaths_free(struct rtm_gamepaths *g)
{
    if (!g)
        return;
    keys_free(&g->files);
    keys_free(&g->prefixes);
    free(g);
}

/* Adds gp's key, and after its NUL where it is (compared by the key). */
static int keys_add(struct keys *k, const char *gp, size_t len, const char *where)
{
    char key[RTM_STATES_KEY_MAX];
    if (rtm_states_key(gp, len, key))
        return 0;                       /* no game path: nothing can name it */
    void *q = k->k;
    if (rtm_array_grow(&q, &k->cap, k->n + 1, sizeof *k->k, 64))
        return -1;
    k->k = q;
    size_t nk = strlen(key) + 1, nw = strlen(where) + 1;
    char *both = malloc(nk + nw);
    if (!both)
        return -1;
    memcpy(both, key, nk);
    memcpy(both + nk, where, nw);
    k->k[k->n++] = both;
    return 0;
}

int rtm_gamepaths_add_file(struct rtm_gamepaths *g, const char *gp, size_t len,
                           const char *where)
{
    return keys_add(&g->files, gp, len, where);
}

int rtm_gamepaths_add_prefix(struct rtm_gamepaths *g, const char *gp, size_t len)
{
    return keys_add(&g->prefixes, gp, len, "");
}

static int by_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts k and drops repeats. */
static void keys_finish(struct keys *k)
{
    size_t out = 0;
    if (k->n)
        qsort(k->k, k->n, sizeof *k->k, by_str);
    for (size_t i = 0; i < k->n; i++) {
        if (out && strcmp(k->k[out - 1], k->k[i]) == 0)
            free(k->k[i]);
        else
            k->k[out++] = k->k[i];
    }
    k->n = out;
}

int rtm_gamepaths_finish(struct rtm_gamepaths *g)
{
    keys_finish(&g->files);
    keys_finish(&g->prefixes);
    return 0;
}

size_t rtm_gamepaths_nfiles(const struct rtm_gamepaths *g) { return g ? g->files.n : 0; }

/* The first place in k whose key is not below the first len bytes of s. */
static size_t lower_bound(const struct keys *k, const char *s, size_t len)
{
    size_t lo = 0, hi = k->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strncmp(k->k[mid], s, len) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int has_key(const struct keys *k, const char *key)
{
    size_t i = lower_bound(k, key, strlen(key) + 1);
    return i < k->n && strcmp(k->k[i], key) == 0;
}

const char *rtm_gamepaths_where(const struct rtm_gamepaths *g, const char *key)
{
    size_t i = lower_bound(&g->files, key, strlen(key) + 1);
    if (i >= g->files.n || strcmp(g->files.k[i], key) != 0)
        return NULL;
    return g->files.k[i] + strlen(key) + 1;
}

/* Whether some key of k is the first len bytes of s (exact: a whole
 * prefix), or, with below, starts with them as whole parts. */
static int has_part(const struct keys *k, const char *s, size_t len, int below)
{
    for (size_t i = lower_bound(k, s, len); i < k->n && !strncmp(k->k[i], s, len); i++)
        if (k->k[i][len] == 0 || (below && k->k[i][len] == '\\'))
            return 1;
    return 0;
}

/* Why key (a game path no animation has) is missing: into b, written from
 * shown (the same path normalised, its case as written). */
static void put_reason(const struct rtm_gamepaths *g, const char *key, const char *shown,
                       struct rtm_buf *b)
{
    size_t cover = 0, least = 0, parts = 0, len = strlen(key);
    for (size_t i = 0; i < len; i++) {
        if (key[i] != '\\')
            continue;
        parts++;
        if (has_part(&g->prefixes, key, i, 0))
            cover = i;                  /* the longest prefix that leads it */
        if (!least && parts >= 2 && !has_part(&g->prefixes, key, i, 1))
            least = i;
    }
    if (!cover && !least && parts)
        least = (size_t)(strrchr(key, '\\') - key);  /* every part is led to: the folder */
    if (cover)
        rtm_buf_printf(b, "(prefix \\%.*s is under SOURCE, no animation at that path in it)\n",
                       (int)cover, shown);
    else if (least)
        rtm_buf_printf(b, "(no archive or $PBOPREFIX$ folder under SOURCE has prefix \\%.*s)\n",
                       (int)least, shown);
    else
        rtm_buf_puts(b, "(no animation at that game path under SOURCE)\n");
}

/* Writes s's characters, control characters as '?': one line stays one. */
static void put_clean(struct rtm_buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        rtm_buf_putc(b, (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i]);
}

static void missing_line(const struct rtm_states *s, const struct rtm_gamepaths *g,
                         const struct rtm_state_line *l, struct rtm_buf *b)
{
    char shown[RTM_STATES_KEY_MAX];
    const char *sp = strchr(l->text, ' ');
    size_t cls = sp ? (size_t)(sp - l->text) : strcspn(l->text, "\n");
    if (gamepath_norm(l->file, strlen(l->file), shown, sizeof shown) < 0)
        snprintf(shown, sizeof shown, "%s", l->key);    /* cannot be: the key came from it */
    rtm_buf_put(b, l->text, cls);           /* the class path: a line's first field */
    rtm_buf_puts(b, " file=");
    put_clean(b, l->file, strlen(l->file));
    rtm_buf_puts(b, " config=");
    const char *rel = rtm_states_config(s, l->cfg);
    put_clean(b, rel ? rel : "?", strlen(rel ? rel : "?"));
    rtm_buf_putc(b, ' ');
    put_reason(g, l->key, shown, b);
}

/* Missing lines in config-path order, then file order. */
static int by_place(const void *a, const void *b)
{
    const struct rtm_state_line *x = a, *y = b;
    if (x->cfg != y->cfg)
        return x->cfg < y->cfg ? -1 : 1;
    return x->entry < y->entry ? -1 : x->entry > y->entry;
}

void rtm_missing_render(const struct rtm_states *s, const struct rtm_gamepaths *g,
                        struct rtm_buf *b)
{
    size_t n = rtm_states_nlines(s), nmiss = 0;
    static const struct rtm_gamepaths none;
    if (!g)
        g = &none;
    struct rtm_state_line *miss = n ? malloc(n * sizeof *miss) : NULL;
    if (n && !miss) {
        b->oom = 1;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        rtm_states_line(s, i, &miss[nmiss]);
        if (!has_key(&g->files, miss[nmiss].key))
            nmiss++;
    }
    if (nmiss)
        qsort(miss, nmiss, sizeof *miss, by_place);
    for (size_t i = 0; i < nmiss; i++)
        missing_line(s, g, &miss[i], b);
    free(miss);
}
