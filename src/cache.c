/* cache.c - the LRU of parsed animations, rendered views, archive tables and
 * archive entries' content (see cache.h). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cache.h"
#include "names.h"
#include "pbo.h"

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
    uint64_t *indexed;          /* the index's sizes, to check, or NULL */
    struct rtmc_view **views;   /* cached views, or NULL */
};

struct rtmc_view {
    struct item it;
    struct rtmc_entry *owner;   /* holds one reference on it */
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
    rtmc_trim_fn trim;
    size_t trim_every, freed;   /* bytes evicted since the last trim */
    void *ctx;
    size_t budget, bytes, entries;
    size_t outside;             /* the caller's bytes, counted against the budget */
    size_t reserved;            /* by loads in progress (rtmc_reserve) */
    int waiting;                /* loads waiting for room */
    struct item lru;            /* lru.next is the most recent */
    struct rtmc_entry **table;  /* by path hash */
    size_t nbuckets;
    uint64_t loads, renders, sizings, hits, evictions, mismatches, remembered;
};

struct rtmc *rtmc_new(size_t budget, rtmc_load_fn load, void *ctx)
{
    struct rtmc *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->nbuckets = 4096;
    c->table = calloc(c->nbuckets, sizeof *c->table);
    if (!c->table) {
        free(c);
        return NULL;
    }
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->loaded, NULL);
    pthread_cond_init(&c->room, NULL);
    c->load = load;
    c->ctx = ctx;
    c->budget = budget;
    c->lru.prev = c->lru.next = &c->lru;
    return c;
}

void rtmc_set_store(struct rtmc *c, rtmc_store_fn store) { c->store = store; }

void rtmc_set_trim(struct rtmc *c, rtmc_trim_fn trim, size_t every)
{
    c->trim = trim;
    c->trim_every = every;
}

/* ---- LRU list and byte accounting (lock held) ---- */

static void lru_unlink(struct rtmc *c, struct item *it)
{
    if (!it->linked)
        return;
    it->prev->next = it->next;
    it->next->prev = it->prev;
    it->linked = 0;
    c->bytes -= it->bytes;
    c->entries--;
}

static void lru_front(struct rtmc *c, struct item *it)
{
    lru_unlink(c, it);
    it->next = c->lru.next;
    it->prev = &c->lru;
    c->lru.next->prev = it;
    c->lru.next = it;
    it->linked = 1;
    c->bytes += it->bytes;
    c->entries++;
}

/* Memory a parsed anim holds, close enough for a budget: its arrays with
 * the heap's cost of each (an install's worth of small anims would
 * otherwise overrun it), its track names. */
static size_t anim_bytes(const struct rtm_anim *a)
{
    if (!a)
        return 0;
    size_t nb = a->nbones, nf = a->nframes;
    size_t n = rtm_heap_bytes(sizeof *a) + rtm_heap_bytes(a->arena_cap) +
               rtm_heap_bytes(nb * sizeof *a->bones) + rtm_heap_bytes(nf * sizeof(float)) +
               rtm_heap_bytes(a->nprops * sizeof *a->props) +
               rtm_heap_bytes(a->has_matrices ? nf * nb * 12 * sizeof(float) : sizeof(float)) +
               4 * rtm_heap_bytes(0) + nb * RTM_SKEL_BYTES_PER_BONE +  /* skeleton's arrays */
               rtm_names_mem_bytes(a->tracks);
    if (a->source)
        n += rtm_heap_bytes(a->source_bytes);
    return n;
}

/* ---- freeing (lock held) ---- */

static void entry_unref(struct rtmc *c, struct rtmc_entry *e);

static void entry_destroy(struct rtmc_entry *e)
{
    rtm_free(e->anim);
    pbo_free(e->pbo);
    free(e->data);
    free(e->error);
    free(e->sizes);
    free(e->indexed);
    free(e->views);
    free(e->path);
    free(e);
}

static void view_destroy(struct rtmc *c, struct rtmc_view *v)
{
    struct rtmc_entry *o = v->owner;
    lru_unlink(c, &v->it);
    if (o->views && o->views[v->idx] == v)
        o->views[v->idx] = NULL;
    free(v->data);
    free(v);
    entry_unref(c, o);
}

/* Frees e once it is out of the index and unreferenced. */
static void entry_unref(struct rtmc *c, struct rtmc_entry *e)
{
    if (--e->it.refs == 0 && e->dead) {
        lru_unlink(c, &e->it);
        entry_destroy(e);
    }
}

static void table_remove(struct rtmc *c, struct rtmc_entry *e)
{
    struct rtmc_entry **pp = &c->table[e->hash % c->nbuckets];
    while (*pp && *pp != e)
        pp = &(*pp)->hnext;
    if (*pp)
        *pp = e->hnext;
    e->dead = 1;
}

/* Takes e out of the index, frees its unreferenced views, and frees e when
 * nothing refers to it any more. */
static void entry_kill(struct rtmc *c, struct rtmc_entry *e)
{
    table_remove(c, e);
    lru_unlink(c, &e->it);
    e->it.refs++;                       /* keep e alive while its views go */
    for (size_t i = 0; e->views && i < e->nviews; i++) {
        struct rtmc_view *v = e->views[i];
        if (v && v->it.refs == 0)
            view_destroy(c, v);
        else if (v)
            lru_unlink(c, &v->it);      /* freed by its last put */
    }
    entry_unref(c, e);
}

/* Frees least recently used unreferenced entries while over the budget
 * (all of them when all is set). */
static void evict_some(struct rtmc *c, int all)
{
    size_t before = c->bytes;
    struct item *it = c->lru.prev;
    while ((all || c->bytes + c->outside + c->reserved > c->budget) && it != &c->lru) {
        struct item *prev = it->prev;
        if (it->refs == 0) {
            c->evictions++;
            if (it->is_view)
                view_destroy(c, (struct rtmc_view *)it);
            else
                entry_kill(c, (struct rtmc_entry *)it);
            prev = c->lru.prev;         /* freeing a view may free more */
        }
        it = prev;
    }
    c->freed += before - c->bytes;
    if (c->trim && c->freed >= c->trim_every) {
        c->freed = 0;
        c->trim();
    }
}

static void evict(struct rtmc *c) { evict_some(c, 0); }

/* ---- entries ---- */

static struct rtmc_entry *find(struct rtmc *c, const struct rtmc_src *s, uint64_t h)
{
    for (struct rtmc_entry *e = c->table[h % c->nbuckets]; e; e = e->hnext)
        if (e->hash == h && e->kind == s->kind && rtm_fileid_same(&e->id, &s->id) &&
            e->level <= s->level &&
            strcmp(e->path, s->path) == 0)
            return e;
    return NULL;
}

static struct rtmc_entry *entry_new(struct rtmc *c, const struct rtmc_src *s, uint64_t h)
{
    struct rtmc_entry *e = calloc(1, sizeof *e);
    if (!e || !(e->path = strdup(s->path))) {
        free(e);
        return NULL;
    }
    e->hash = h;
    e->id = s->id;
    e->level = s->level;
    e->archive_len = s->archive_len;
    e->kind = s->kind;
    e->state = ST_LOADING;
    e->it.refs = 1;
    e->hnext = c->table[h % c->nbuckets];
    c->table[h % c->nbuckets] = e;
    return e;
}

/* Takes over what the loader made and fills the entry's tables; -ENOMEM on
 * failure (the entry then owns what it took, for entry_destroy). */
static int entry_setup(struct rtmc_entry *e, const struct rtmc_loaded *l, const char *msg)
{
    const struct rtm_anim *a = l->anim;
    e->anim = l->anim;
    e->pbo = l->pbo;
    e->data = l->data;
    e->len = l->len;
    int loaded = e->kind == RTMC_ANIM ? !!l->anim : e->kind == RTMC_TABLE ? !!l->pbo : !!l->data;
    e->error = strdup(loaded ? "" : msg[0] ? msg : "cannot be read");
    if (!e->error) {
        free(l->indexed);
        return -ENOMEM;
    }
    e->it.bytes = rtm_heap_bytes(sizeof *e) + rtm_heap_bytes(strlen(e->error) + 1);
    if (e->kind == RTMC_TABLE && e->pbo)
        e->it.bytes += pbo_mem_bytes(e->pbo);
    if (e->kind == RTMC_DATA && e->data)
        e->it.bytes += rtm_heap_bytes(e->len);
    if (e->kind != RTMC_ANIM || !a) {
        free(l->indexed);
        e->level = RTMC_FULL;           /* an error: no deeper load would mend it */
        return 0;
    }
    e->level = l->shape ? RTMC_SHAPE : a->has_matrices ? RTMC_FULL : RTMC_LIGHT;
    e->nviews = rtm_view_count(a);
    if (l->shape && l->indexed)
        e->sizes = l->indexed;          /* what a shape knows is the index's */
    else
        e->indexed = l->indexed;        /* checked against what is computed */
    if (!e->sizes && (e->sizes = malloc(e->nviews * sizeof *e->sizes)))
        memset(e->sizes, 0xff, e->nviews * sizeof *e->sizes);
    e->views = calloc(e->nviews, sizeof *e->views);
    if (!e->sizes || !e->views)
        return -ENOMEM;
    e->it.bytes = rtm_heap_bytes(sizeof *e) + anim_bytes(a) +
                  rtm_heap_bytes(e->nviews * sizeof *e->sizes) * (e->indexed ? 2 : 1) +
                  rtm_heap_bytes(e->nviews * sizeof *e->views);
    return 0;
}

/* Runs the loader for e without the lock, then publishes the result. */
struct rtmc_reservation {
    struct rtmc *c;
    uint64_t bytes;
};

/* How long a load waits for room while nothing changes (no load ends, no
 * entry is let go) before it gives up (-ENOMEM): long enough for loads of
 * the whole budget in turn, short enough that a load waiting on memory that
 * only its own caller holds fails rather than hangs. */
enum { RESERVE_WAIT_S = 10 };

static struct timespec deadline(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += RESERVE_WAIT_S;
    return t;
}

int rtmc_would_fit(const struct rtmc_reservation *r, uint64_t bytes, const char *what,
                   char *msg, size_t msglen)
{
    const struct rtmc *c = r->c;
    if (bytes <= c->budget && r->bytes + bytes <= c->budget)
        return 0;
    char need[32], have[32];
    rtm_format_size(bytes > c->budget ? bytes : r->bytes + bytes, need, sizeof need);
    rtm_format_size(c->budget, have, sizeof have);
    snprintf(msg, msglen, "needs %s%s%s, more than cache_size %s", need, *what ? " " : "",
             what, have);
    return -EFBIG;
}

int rtmc_reserve(struct rtmc_reservation *r, uint64_t bytes, const char *what, char *msg,
                 size_t msglen)
{
    struct rtmc *c = r->c;
    if (rtmc_would_fit(r, bytes, what, msg, msglen))
        return -EFBIG;
    struct timespec until = deadline();
    int rc = 0;
    pthread_mutex_lock(&c->lock);
    for (;;) {
        c->reserved += bytes;               /* counted, so that evict makes room */
        evict(c);
        if (c->bytes + c->outside + c->reserved <= c->budget) {
            r->bytes += bytes;
            rc = 0;
            break;
        }
        c->reserved -= bytes;
        if (rc == ETIMEDOUT) {
            rc = ENOMEM;
            break;
        }
        c->waiting++;
        rc = pthread_cond_timedwait(&c->room, &c->lock, &until);
        c->waiting--;
        if (rc == 0)
            until = deadline();             /* something changed: wait on */
    }
    pthread_mutex_unlock(&c->lock);
    return -rc;
}

static int entry_load(struct rtmc *c, struct rtmc_entry *e, const struct rtmc_src *s)
{
    char msg[512] = "";
    struct rtmc_loaded l = { 0 };
    struct rtmc_reservation r = { c, 0 };
    pthread_mutex_unlock(&c->lock);
    int rc = c->load(c->ctx, s, &r, &l, msg, sizeof msg);
    pthread_mutex_lock(&c->lock);
    c->loads++;
    c->remembered += rc == 0 && l.remembered;
    c->reserved -= r.bytes;                 /* the entry's own bytes take over */
    pthread_cond_broadcast(&c->room);
    if (rc == 0)
        rc = entry_setup(e, &l, msg);
    if (rc) {
        e->state = ST_FAILED;
        e->err = rc;
        table_remove(c, e);
    } else {
        e->state = ST_READY;
        lru_front(c, &e->it);
    }
    pthread_cond_broadcast(&c->loaded);
    return rc;
}

int rtmc_get(struct rtmc *c, const struct rtmc_src *s, struct rtmc_entry **out)
{
    uint64_t h = rtm_hash_str(s->path);
    int rc = 0;
    *out = NULL;
    pthread_mutex_lock(&c->lock);
    struct rtmc_entry *e = find(c, s, h);
    if (e) {
        e->it.refs++;
        c->hits++;
        while (e->state == ST_LOADING)
            pthread_cond_wait(&c->loaded, &c->lock);
        if (e->state == ST_FAILED)
            rc = e->err;
        else if (!e->dead)
            lru_front(c, &e->it);
    } else if (!(e = entry_new(c, s, h))) {
        rc = -ENOMEM;
    } else {
        rc = entry_load(c, e, s);
    }
    if (rc && e)
        entry_unref(c, e);
    else if (!rc)
        *out = e;
    evict(c);
    pthread_mutex_unlock(&c->lock);
    return rc;
}

void rtmc_put(struct rtmc *c, struct rtmc_entry *h)
{
    if (!h)
        return;
    pthread_mutex_lock(&c->lock);
    entry_unref(c, h);
    evict(c);
    if (c->waiting)
        pthread_cond_broadcast(&c->room);   /* a waiting load may evict it now */
    pthread_mutex_unlock(&c->lock);
}

const struct rtm_anim *rtmc_anim(const struct rtmc_entry *h) { return h->anim; }
const struct pbo *rtmc_pbo(const struct rtmc_entry *h) { return h->pbo; }

const uint8_t *rtmc_data(const struct rtmc_entry *h, size_t *len)
{
    *len = h->len;
    return h->data;
}

const char *rtmc_error(const struct rtmc_entry *h) { return h->error; }

/* ---- views ---- */

/* Renders outside the lock; the caller's reference keeps h->anim alive. */
static int render(const struct rtmc_entry *h, struct rtm_view v, char **data, size_t *len)
{
    struct rtm_buf b;
    buf_init(&b);
    if (rtm_view_render(h->anim, v, &b) || b.oom) {
        buf_free(&b);
        return -ENOMEM;
    }
    *data = buf_take(&b, len);
    char *tight = *len ? realloc(*data, *len) : NULL;   /* budget counts len */
    if (tight)
        *data = tight;
    return 0;
}

/* Publishes a rendered view unless another thread did first (lock held). */
static struct rtmc_view *view_publish(struct rtmc *c, struct rtmc_entry *h, size_t idx,
                                      char *data, size_t len)
{
    struct rtmc_view *v = h->views[idx];
    if (v || !(v = calloc(1, sizeof *v))) {
        free(data);
        return v;
    }
    v->owner = h;
    v->idx = idx;
    v->data = data;
    v->len = len;
    v->it.is_view = 1;
    v->it.bytes = rtm_heap_bytes(sizeof *v) + rtm_heap_bytes(len);
    h->it.refs++;
    h->views[idx] = v;
    h->sizes[idx] = len;
    c->renders++;
    if (!h->dead)
        lru_front(c, &v->it);
    return v;
}

/* The source of entry h, as a get at level asks for it. */
static struct rtmc_src src_of(const struct rtmc_entry *h, enum rtmc_level level)
{
    return (struct rtmc_src){ .path = h->path, .id = h->id, .level = level, .kind = h->kind,
                              .archive_len = h->archive_len };
}

/* Whether size (of view idx, computed from h) differs from the index's. */
static int differs(const struct rtmc_entry *h, size_t idx, uint64_t size)
{
    return h->indexed && h->indexed[idx] != UINT64_MAX && h->indexed[idx] != size;
}

/* The index gave h's version a wrong size (lock held): its shape entries
 * go, and the index's sizes are no longer checked (they are dropped). */
static void mismatch(struct rtmc *c, struct rtmc_entry *h)
{
    for (struct rtmc_entry *e = c->table[h->hash % c->nbuckets], *next; e; e = next) {
        next = e->hnext;
        if (e->level == RTMC_SHAPE && e->state == ST_READY && e->kind == h->kind &&
            rtm_fileid_same(&e->id, &h->id) && strcmp(e->path, h->path) == 0)
            entry_kill(c, e);
    }
    free(h->indexed);
    h->indexed = NULL;
    c->mismatches++;
}

/* Tells the store hook (no lock held). */
static void store(struct rtmc *c, const struct rtmc_entry *h, const uint64_t *sizes)
{
    struct rtmc_src s = src_of(h, h->level);
    if (c->store)
        c->store(c->ctx, &s, h->anim, sizes);
}

int rtmc_view_get(struct rtmc *c, struct rtmc_entry *h, struct rtm_view v,
                  struct rtmc_view **out)
{
    size_t idx = h->anim ? rtm_view_index(h->anim, v) : 0;
    *out = NULL;
    if (!h->anim || idx >= h->nviews || (!h->anim->has_matrices && rtm_view_needs_matrices(v)) ||
        (h->level == RTMC_SHAPE && v.kind != RTM_VIEW_BONES))
        return -EINVAL;
    pthread_mutex_lock(&c->lock);
    struct rtmc_view *cv = h->views[idx];
    if (!cv) {
        char *data = NULL;
        size_t len = 0;
        pthread_mutex_unlock(&c->lock);
        int rc = render(h, v, &data, &len);
        pthread_mutex_lock(&c->lock);
        cv = rc ? NULL : view_publish(c, h, idx, data, len);
    } else {
        c->hits++;
    }
    int wrong = cv && differs(h, idx, cv->len);
    if (wrong)
        mismatch(c, h);
    if (cv && !wrong) {
        cv->it.refs++;
        if (cv->it.linked)
            lru_front(c, &cv->it);
        evict(c);
    }
    pthread_mutex_unlock(&c->lock);
    if (wrong) {
        store(c, h, NULL);
        return -EIO;
    }
    *out = cv;
    return cv ? 0 : -ENOMEM;
}

void rtmc_view_put(struct rtmc *c, struct rtmc_view *v)
{
    if (!v)
        return;
    pthread_mutex_lock(&c->lock);
    if (--v->it.refs == 0 && (!v->it.linked || v->owner->dead))
        view_destroy(c, v);             /* its anim was invalidated */
    evict(c);
    if (c->waiting)
        pthread_cond_broadcast(&c->room);
    pthread_mutex_unlock(&c->lock);
}

const char *rtmc_view_data(const struct rtmc_view *v, size_t *len)
{
    *len = v->len;
    return v->data ? v->data : "";
}

/* Every view's size of a full anim in one pass (rtm_view_sizes), kept in
 * the entry, outside the lock, and handed to the store hook unless the
 * index knew them all: 0, -ENOMEM, or -EIO when the index's differ. */
static int size_all(struct rtmc *c, struct rtmc_entry *h)
{
    uint64_t *sizes = malloc((h->nviews + 1) * sizeof *sizes);
    if (!sizes || rtm_view_sizes(h->anim, sizes)) {
        free(sizes);
        return -ENOMEM;
    }
    int wrong = 0, known = 1;
    pthread_mutex_lock(&c->lock);
    memcpy(h->sizes, sizes, h->nviews * sizeof *sizes);
    c->sizings++;
    for (size_t i = 0; i < h->nviews; i++) {
        wrong |= differs(h, i, sizes[i]);
        known &= h->indexed && h->indexed[i] != UINT64_MAX;
    }
    if (wrong)
        mismatch(c, h);
    pthread_mutex_unlock(&c->lock);
    if (wrong)
        store(c, h, NULL);
    if (wrong || !known)
        store(c, h, sizes);
    free(sizes);
    return wrong ? -EIO : 0;
}

/* The size of view v, rendered from entry h, or from the light entry of
 * its version when h is a shape that cannot render v. */
static int size_by_render(struct rtmc *c, struct rtmc_entry *h, struct rtm_view v,
                          uint64_t *size)
{
    struct rtmc_src s = src_of(h, RTMC_LIGHT);
    struct rtmc_entry *l = h;
    struct rtmc_view *cv;
    int rc = 0;
    if (h->level == RTMC_SHAPE && v.kind != RTM_VIEW_BONES && (rc = rtmc_get(c, &s, &l)))
        return rc;
    rc = l->anim ? rtmc_view_get(c, l, v, &cv) : -EIO;
    if (rc == 0) {
        *size = cv->len;
        rtmc_view_put(c, cv);
    }
    if (l != h)
        rtmc_put(c, l);
    return rc;
}

/* The size of view v of a shape or light entry h: a view without numbers
 * (bones.txt, what grep -r reads) is rendered from it or its light entry;
 * the others from the version's full entry, which sizes them all, and
 * what is learnt is kept in h too.  Where the full parse fails (a file too
 * large for cache_size, matrices damaged), the views that need no
 * matrices are still rendered. */
static int size_from_full(struct rtmc *c, struct rtmc_entry *h, struct rtm_view v,
                          uint64_t *size)
{
    if (!rtm_view_needs_matrices(v))
        return size_by_render(c, h, v, size);
    struct rtmc_src s = src_of(h, RTMC_FULL);
    struct rtmc_entry *f;
    int rc = rtmc_get(c, &s, &f);
    if (rc == 0 && f->anim && f->nviews == h->nviews) {
        rc = rtmc_view_size(c, f, v, size);
        pthread_mutex_lock(&c->lock);
        for (size_t i = 0; i < h->nviews; i++)
            if (h->sizes[i] == UINT64_MAX)
                h->sizes[i] = f->sizes[i];
        pthread_mutex_unlock(&c->lock);
        rtmc_put(c, f);
        return rc;
    }
    if (rc == 0)
        rtmc_put(c, f);
    return rc ? rc : -EIO;
}

int rtmc_view_size_known(struct rtmc *c, struct rtmc_entry *h, struct rtm_view v,
                         uint64_t *size)
{
    size_t idx = h->anim ? rtm_view_index(h->anim, v) : 0;
    if (!h->anim || idx >= h->nviews)
        return -EINVAL;
    pthread_mutex_lock(&c->lock);
    *size = h->sizes[idx];
    pthread_mutex_unlock(&c->lock);
    return *size == UINT64_MAX ? -EAGAIN : 0;
}

int rtmc_view_size(struct rtmc *c, struct rtmc_entry *h, struct rtm_view v, uint64_t *size)
{
    int rc = rtmc_view_size_known(c, h, v, size);
    if (rc != -EAGAIN)
        return rc;
    size_t idx = rtm_view_index(h->anim, v);
    if (h->level != RTMC_FULL)
        return size_from_full(c, h, v, size);
    rc = size_all(c, h);
    pthread_mutex_lock(&c->lock);
    *size = h->sizes[idx];
    pthread_mutex_unlock(&c->lock);
    return rc;
}

/* ---- maintenance ---- */

/* Whether p is path or lies below it. */
static int at_or_below(const char *p, const char *path, size_t n)
{
    return n == 0 || (strncmp(p, path, n) == 0 && (p[n] == 0 || p[n] == '/'));
}

/* Entries below path (an archive's) hash apart from it, so every bucket is
 * looked at: a few thousand steps for a change in SOURCE. */
void rtmc_invalidate(struct rtmc *c, const char *path)
{
    size_t n = strlen(path);
    pthread_mutex_lock(&c->lock);
    for (size_t b = 0; b < c->nbuckets; b++) {
        for (struct rtmc_entry *e = c->table[b], *next; e; e = next) {
            next = e->hnext;
            if (e->state == ST_READY && at_or_below(e->path, path, n))
                entry_kill(c, e);
        }
    }
    pthread_mutex_unlock(&c->lock);
}

void rtmc_set_outside(struct rtmc *c, size_t bytes)
{
    pthread_mutex_lock(&c->lock);
    c->outside = bytes;
    evict(c);
    pthread_mutex_unlock(&c->lock);
}

void rtmc_get_stats(struct rtmc *c, struct rtmc_stats *st)
{
    pthread_mutex_lock(&c->lock);
    *st = (struct rtmc_stats){ c->bytes, c->budget, c->entries, c->loads, c->renders,
                               c->sizings, c->hits, c->evictions, c->mismatches,
                               c->remembered };
    pthread_mutex_unlock(&c->lock);
}

void rtmc_free(struct rtmc *c)
{
    if (!c)
        return;
    evict_some(c, 1);                   /* everything is unreferenced now */
    pthread_mutex_destroy(&c->lock);
    pthread_cond_destroy(&c->loaded);
    pthread_cond_destroy(&c->room);
    free(c->table);
    free(c);
}
