/* cache.c - the reference-counted LRU of parsed animations, rendered
 * views, archive tables and archive entries' content, and the reservations
 * loads make against its budget (see cache.h).  Views' sizes and the check
 * of the index's are in cache_sizes.c. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cache_int.h"
#include "pbo.h"
#include "timing.h"

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
    c->reserve_wait_ms = CACHE_RESERVE_WAIT_MS;
    c->lru.prev = c->lru.next = &c->lru;
    return c;
}

void rtmc_set_store(struct rtmc *c, rtmc_store_fn store) { c->store = store; }
void rtmc_set_timed(struct rtmc *c, rtmc_timed_fn timed) { c->timed = timed; }

void rtmc_set_trim(struct rtmc *c, rtmc_trim_fn trim, size_t every)
{
    c->trim = trim;
    c->trim_every = every;
}

void rtmc_trim(struct rtmc *c)
{
    if (c && c->trim)
        c->trim();
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
    for (size_t k = 0; k < RTM_NTIMED_VIEWS; k++)
        free(e->timed[k].gen);
    free(e->path);
    free(e);
}

static void view_destroy(struct rtmc *c, struct rtmc_view *v)
{
    struct rtmc_entry *o = v->owner;
    lru_unlink(c, &v->it);
    if (v->timed && o->timed[v->timed - 1].view == v)
        o->timed[v->timed - 1].view = NULL;
    else if (!v->timed && o->views && o->views[v->idx] == v)
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

/* A view its entry no longer keeps: freed now, or by its last put. */
static void view_let_go(struct rtmc *c, struct rtmc_view *v)
{
    if (v && v->it.refs == 0)
        view_destroy(c, v);
    else if (v)
        lru_unlink(c, &v->it);
}

/* Takes e out of the index, frees its unreferenced views, and frees e when
 * nothing refers to it any more. */
void cache_entry_kill(struct rtmc *c, struct rtmc_entry *e)
{
    table_remove(c, e);
    lru_unlink(c, &e->it);
    e->it.refs++;                       /* keep e alive while its views go */
    for (size_t i = 0; e->views && i < e->nviews; i++)
        view_let_go(c, e->views[i]);
    for (size_t k = 0; k < RTM_NTIMED_VIEWS; k++)
        view_let_go(c, e->timed[k].view);
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
                cache_entry_kill(c, (struct rtmc_entry *)it);
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

void cache_evict(struct rtmc *c) { evict(c); }

void cache_working(struct rtmc *c, int delta)
{
    c->working += delta;
    if (delta < 0 && c->waiting)
        pthread_cond_broadcast(&c->room);   /* what it held may be let go soon */
}

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
    if ((e->kind == RTMC_DATA || e->kind == RTMC_CONFIG || e->kind == RTMC_SKELETONS) &&
        e->data)
        e->it.bytes += rtm_heap_bytes(e->len);
    if (e->kind != RTMC_ANIM || !a) {
        free(l->indexed);
        e->level = RTMC_FULL;           /* an error: no deeper load would mend it */
        return 0;
    }
    e->level = rtmc_depth_level(a->depth);
    e->nviews = rtm_view_count(a);
    if (a->depth == RTM_DEPTH_SHAPE && l->indexed)
        e->sizes = l->indexed;          /* what a shape knows is the index's */
    else
        e->indexed = l->indexed;        /* checked against what is computed */
    if (!e->sizes && (e->sizes = malloc(e->nviews * sizeof *e->sizes)))
        memset(e->sizes, 0xff, e->nviews * sizeof *e->sizes);
    e->views = calloc(e->nviews, sizeof *e->views);
    if (!e->sizes || !e->views)
        return -ENOMEM;
    e->it.bytes = rtm_heap_bytes(sizeof *e) + rtm_anim_mem_bytes(a) +
                  rtm_heap_bytes(e->nviews * sizeof *e->sizes) * (e->indexed ? 2 : 1) +
                  rtm_heap_bytes(e->nviews * sizeof *e->views);
    return 0;
}

/* What one load has reserved so far (cache.h). */
/* Runs the loader for e without the lock, then publishes the result. */
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
enum rtmc_level rtmc_level(const struct rtmc_entry *h) { return h->level; }

/* ---- views ---- */

/* Renders outside the lock; the caller's reference keeps h->anim alive. */
static int render(const struct rtmc_entry *h, struct rtm_view v, const struct rtm_timing *tm,
                  char **data, size_t *len)
{
    struct rtm_buf b;
    rtm_buf_init(&b);
    if (rtm_view_render_timed(h->anim, v, tm, &b) || b.oom) {
        rtm_buf_free(&b);
        return -ENOMEM;
    }
    *data = rtm_buf_take(&b, len);
    char *tight = *len ? realloc(*data, *len) : NULL;   /* budget counts len */
    if (tight)
        *data = tight;
    return 0;
}

/* render() with c's lock held by the caller, released while it renders. */
static int render_unlocked(struct rtmc *c, const struct rtmc_entry *h, struct rtm_view v,
                           const struct rtm_timing *tm, char **data, size_t *len)
{
    cache_working(c, 1);
    pthread_mutex_unlock(&c->lock);
    int rc = render(h, v, tm, data, len);
    pthread_mutex_lock(&c->lock);
    cache_working(c, -1);
    return rc;
}

/* The caller's reference on a view it got, now the most recent (lock held). */
static void view_hold(struct rtmc *c, struct rtmc_view *cv)
{
    cv->it.refs++;
    if (cv->it.linked)
        lru_front(c, &cv->it);
    evict(c);
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

int rtmc_view_get(struct rtmc *c, struct rtmc_entry *h, struct rtm_view v,
                  struct rtmc_view **out)
{
    size_t idx = h->anim ? rtm_view_index(h->anim, v) : 0;
    *out = NULL;
    if (!h->anim || idx >= h->nviews || h->level > rtmc_view_level(v))
        return -EINVAL;
    pthread_mutex_lock(&c->lock);
    struct rtmc_view *cv = h->views[idx];
    if (!cv) {
        char *data = NULL;
        size_t len = 0;
        cv = render_unlocked(c, h, v, NULL, &data, &len) ? NULL
                                                         : view_publish(c, h, idx, data, len);
    } else {
        c->hits++;
    }
    int wrong = cv && cache_size_wrong(c, h, idx, cv->len);
    if (cv && !wrong)
        view_hold(c, cv);
    pthread_mutex_unlock(&c->lock);
    if (wrong) {
        cache_tell_store(c, h, NULL);
        return -EIO;
    }
    *out = cv;
    return cv ? 0 : -ENOMEM;
}

/* ---- preview.svg and anim.bvh under a timing ---- */

/* The bytes a timed slot's key takes, counted in its entry (lock held). */
static void entry_bytes_add(struct rtmc *c, struct rtmc_entry *h, long delta)
{
    h->it.bytes += (size_t)delta;
    if (h->it.linked)
        c->bytes += (size_t)delta;
}

int cache_timed_set(struct rtmc *c, struct rtmc_entry *h, int k, const char *gen,
                    uint64_t size, struct rtmc_view *cv)
{
    struct rtmc_timed *s = &h->timed[k];
    if (!s->gen || strcmp(s->gen, gen)) {
        char *g = strdup(gen);
        if (!g)
            return -1;
        if (s->gen)
            entry_bytes_add(c, h, -(long)rtm_heap_bytes(strlen(s->gen) + 1));
        entry_bytes_add(c, h, (long)rtm_heap_bytes(strlen(g) + 1));
        free(s->gen);
        s->gen = g;
    }
    if (s->view != cv) {
        struct rtmc_view *old = s->view;
        s->view = NULL;                 /* so that freeing old leaves the slot */
        view_let_go(c, old);
        s->view = cv;
    }
    s->size = size;
    return 0;
}

/* A view rendered under timing gen joins slot k of h, unless one of that
 * timing did first (lock held). */
static struct rtmc_view *timed_publish(struct rtmc *c, struct rtmc_entry *h, int k,
                                       const char *gen, char *data, size_t len)
{
    struct rtmc_timed *s = &h->timed[k];
    struct rtmc_view *v;
    if (s->view && s->gen && !strcmp(s->gen, gen)) {
        free(data);
        return s->view;
    }
    if (!(v = calloc(1, sizeof *v)) || cache_timed_set(c, h, k, gen, len, v)) {
        free(v);
        free(data);
        return NULL;
    }
    v->owner = h;
    v->timed = 1 + k;
    v->data = data;
    v->len = len;
    v->it.is_view = 1;
    v->it.bytes = rtm_heap_bytes(sizeof *v) + rtm_heap_bytes(len);
    h->it.refs++;
    c->renders++;
    if (!h->dead)
        lru_front(c, &v->it);
    return v;
}

/* A size just rendered, checked against and given to the timed hook:
 * whether the hook had remembered another one (then the view is put: the
 * caller fails once with -EIO, as for a wrong indexed size, and the next
 * read is served from the view kept). */
static int timed_told(struct rtmc *c, struct rtmc_entry *h, struct rtm_view v,
                      const struct rtm_timing *tm, uint64_t len)
{
    struct rtmc_src src = { .path = h->path, .id = h->id, .level = h->level, .kind = h->kind,
                            .archive_len = h->archive_len };
    uint64_t known = len;
    if (!c->timed)
        return 0;
    int remembered = c->timed(c->ctx, &src, v, tm->why, &known, 0) == 0;
    int wrong = remembered && known != len;
    if (!remembered || wrong)
        c->timed(c->ctx, &src, v, tm->why, &len, 1);
    if (!wrong)
        return 0;
    pthread_mutex_lock(&c->lock);           /* every entry of the version learns it */
    for (struct rtmc_entry *e = c->table[h->hash % c->nbuckets]; e; e = e->hnext) {
        struct rtmc_timed *s = &e->timed[cache_timed_slot(v)];
        if (e->kind == h->kind && rtm_fileid_same(&e->id, &h->id) && !strcmp(e->path, h->path) &&
            s->gen && !strcmp(s->gen, tm->why))
            s->size = len;
    }
    c->mismatches++;
    pthread_mutex_unlock(&c->lock);
    return 1;
}

int rtmc_timed_view_get(struct rtmc *c, struct rtmc_entry *h, struct rtm_view v,
                        const struct rtm_timing *tm, struct rtmc_view **out)
{
    int k = cache_timed_slot(v);
    if (k < 0 || rtm_timing_empty(tm))
        return rtmc_view_get(c, h, v, out);
    *out = NULL;
    if (!h->anim || rtm_view_index(h->anim, v) >= h->nviews || h->level > rtmc_view_level(v))
        return -EINVAL;
    pthread_mutex_lock(&c->lock);
    struct rtmc_timed *s = &h->timed[k];
    struct rtmc_view *cv = s->gen && !strcmp(s->gen, tm->why) ? s->view : NULL;
    int fresh = !cv;
    if (!cv) {
        char *data = NULL;
        size_t len = 0;
        cv = render_unlocked(c, h, v, tm, &data, &len) ? NULL
                                                       : timed_publish(c, h, k, tm->why, data, len);
    } else {
        c->hits++;
    }
    if (cv)
        view_hold(c, cv);
    pthread_mutex_unlock(&c->lock);
    if (!cv)
        return -ENOMEM;
    if (fresh && timed_told(c, h, v, tm, cv->len)) {
        rtmc_view_put(c, cv);
        return -EIO;
    }
    *out = cv;
    return 0;
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
                cache_entry_kill(c, e);
        }
    }
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
