/* cache_int.h - what cache.c (the LRU, its entries and views),
 * cache_sizes.c (views' sizes and the check of the persistent index's) and
 * cache_budget.c (reservations, room, stats) share.  Private to them:
 * everyone else uses cache.h.
 * Functions marked "lock held" are called with c->lock held.
 * A file cycle on purpose: one module under one lock, split in two files
 * for size; sizing gets and puts views, and a get checks a size.
 */
#ifndef RTM_CACHE_INT_H
#define RTM_CACHE_INT_H

#include <pthread.h>

#include "cache.h"

/* What every LRU member starts with. */
struct item {
    struct item *prev, *next;
    size_t bytes;
    int refs;
    int is_view;
    int linked;                 /* in the LRU and counted in c->bytes */
};

enum { ST_LOADING, ST_READY, ST_FAILED };

struct rtmc_entry {
    struct item it;
    struct rtmc_entry *hnext;
    char *path;
    uint64_t hash;
    struct rtm_fileid id;
    enum rtmc_level level;      /* RTMC_ANIM: as loaded (requested while loading) */
    size_t archive_len;
    enum rtmc_kind kind;
    int state, err, dead;
    struct rtm_anim *anim;      /* the object, by kind */
    struct pbo *pbo;
    uint8_t *data;
    size_t len;
    char *error;
    size_t nviews;
    uint64_t *sizes;            /* UINT64_MAX: not known yet */
    int sizing;                 /* a thread is sizing every view (size_all):
                                   others wait on c->loaded for its sizes */
    uint64_t *indexed;          /* the index's sizes, to check, or NULL */
    struct rtmc_view **views;   /* cached views, or NULL */
    /* the timed views (views.h: rtm_view_timed_slot) under the last
     * timing asked that is not the empty generation (cache.h): its key,
     * size, bytes */
    struct rtmc_timed {
        char *gen;              /* the timing's sentence, or NULL */
        uint64_t size;          /* UINT64_MAX: not known */
        struct rtmc_view *view; /* or NULL */
    } timed[RTM_NTIMED_VIEWS];
};
/* cache.c frees and lets go of timed[0] and timed[1] by name. */

struct rtmc_view {
    struct item it;
    struct rtmc_entry *owner;   /* holds one reference on it */
    int timed;                  /* 0, or 1 + its slot in owner->timed */
    size_t idx;
    char *data;
    size_t len;
};

struct rtmc {
    pthread_mutex_t lock;
    pthread_cond_t loaded;
    pthread_cond_t room;        /* reservations ended or entries unreferenced */
    rtmc_load_fn load;
    rtmc_store_fn store;
    rtmc_timed_fn timed;
    rtmc_trim_fn trim;
    size_t trim_every, freed;   /* bytes evicted since the last trim */
    void *ctx;
    size_t budget, bytes, entries;
    size_t outside;             /* the caller's bytes, counted against the budget */
    size_t reserved;            /* by loads in progress (rtmc_reserve) */
    int waiting;                /* loads waiting for room */
    int working;                /* sizings and renders running outside the lock */
    unsigned reserve_wait_ms;   /* rtmc_reserve's patience (cache_budget.c) */
    struct item lru;            /* lru.next is the most recent */
    struct rtmc_entry **table;  /* by path hash */
    size_t nbuckets;
    uint64_t loads, renders, sizings, hits, evictions, mismatches, remembered, ahead;
};

/* The memory one load has reserved (rtmc_reserve). */
struct rtmc_reservation {
    struct rtmc *c;
    uint64_t bytes;
};

/* How long a load waits for room while nothing changes: no load ends, no
 * entry is let go, and no sizing or render runs (what one holds is let go
 * when it ends, however slow a loaded machine makes it); then it gives up
 * (-ENOMEM).  Long enough for loads of the whole budget in turn, short
 * enough that a load waiting on memory that only its own caller holds
 * fails rather than hangs. */
enum { CACHE_RESERVE_WAIT_MS = 10000 };

/* Evicts what the budget has no room for (lock held). */
void cache_evict(struct rtmc *c);
/* A sizing or render starts (delta 1) or ends (-1) outside the lock: a
 * load waiting for room waits on while one runs (lock held). */
void cache_working(struct rtmc *c, int delta);

/* Which slot of an entry's timed views view v takes under a timing that
 * is not the empty generation: the view table's (views.h), or -1 for a
 * view no timing changes. */
static inline int cache_timed_slot(struct rtm_view v)
{
    return rtm_view_timed_slot(v.kind);
}
/* cache.c: entry h's slot k now holds the timing gen and size (its view,
 * of another timing, let go), with its view cv (NULL: none, as on a
 * shape entry); 0, or -1 out of memory (lock held). */
int cache_timed_set(struct rtmc *c, struct rtmc_entry *h, int k, const char *gen,
                    uint64_t size, struct rtmc_view *cv);

/* cache.c: takes e out of the index, frees its unreferenced views, and
 * frees e when nothing refers to it any more (lock held). */
void cache_entry_kill(struct rtmc *c, struct rtmc_entry *e);

/* cache_sizes.c: the level of an anim of depth (rtm.h): the levels are the
 * depths, numbered deepest first so that a smaller level serves more.  An
 * entry's level is its anim's, as the anim's maker set it. */
enum rtmc_level rtmc_depth_level(enum rtm_depth depth);

/* cache_sizes.c: whether size, of view idx computed from h, differs from
 * the size the index gave; if so, the index's sizes of h's version are
 * forgotten with its shape entries (lock held).  Then tell the store hook
 * with cache_tell_store(c, h, NULL), without the lock. */
int cache_size_wrong(struct rtmc *c, struct rtmc_entry *h, size_t idx, uint64_t size);
/* Hands the store hook h's sizes, or NULL when the index's were wrong (no
 * lock held). */
void cache_tell_store(struct rtmc *c, const struct rtmc_entry *h, const uint64_t *sizes);

#endif
