/* skelreg.c - the configs' skeletons by identity (skelreg.h). */
#include "skelreg.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct kept {
    uint64_t id;
    struct rtm_skeleton *s;
};

struct rtm_skelreg {
    pthread_mutex_t lock;       /* get locks it too: hence not const inside */
    struct kept *k;
    size_t n, cap;
};

struct rtm_skelreg *rtm_skelreg_new(void)
{
    struct rtm_skelreg *r = calloc(1, sizeof *r);
    if (r)
        pthread_mutex_init(&r->lock, NULL);
    return r;
}

void rtm_skelreg_free(struct rtm_skelreg *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++)
        rtm_skeleton_free(r->k[i].s);
    free(r->k);
    pthread_mutex_destroy(&r->lock);
    free(r);
}

static struct kept *find(struct rtm_skelreg *r, uint64_t id)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->k[i].id == id)
            return &r->k[i];
    return NULL;
}

/* Keeps the skeleton text (of the name) as id; r->lock held. */
static uint64_t keep(struct rtm_skelreg *r, uint64_t id, const struct rtm_buf *text,
                     const char *name)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 8;
        struct kept *k = cap <= RTM_SKELREG_MAX ? realloc(r->k, cap * sizeof *k) : NULL;
        if (!k)
            return 0;
        r->k = k;
        r->cap = cap;
    }
    struct rtm_error err;
    struct rtm_skeleton *s;
    if (rtm_skeleton_parse(text->p, text->len, name, &s, &err))
        return 0;
    r->k[r->n++] = (struct kept){ id, s };
    return id;
}

uint64_t rtm_skelreg_put(struct rtm_skelreg *r, const struct rtm_skeleton *s, const char *name)
{
    struct rtm_buf text;
    rtm_buf_init(&text);
    if (rtm_skeleton_write(s, &text) || text.oom) {
        rtm_buf_free(&text);
        return 0;
    }
    uint64_t id = rtm_hash_bytes(name, strlen(name), 0) * 0x9e3779b97f4a7c15ull ^
                  rtm_hash_bytes(text.p, text.len, 0);
    id += !id;
    pthread_mutex_lock(&r->lock);
    if (!find(r, id))
        id = keep(r, id, &text, name);
    pthread_mutex_unlock(&r->lock);
    rtm_buf_free(&text);
    return id;
}

const struct rtm_skeleton *rtm_skelreg_get(const struct rtm_skelreg *cr, uint64_t id)
{
    struct rtm_skelreg *r = (struct rtm_skelreg *)cr;
    pthread_mutex_lock(&r->lock);
    struct kept *k = find(r, id);
    pthread_mutex_unlock(&r->lock);
    return k ? k->s : NULL;
}
