/* cache_sizes.c - the sizes of an animation's views (see cache.h): known,
 * rendered, or measured all at once from a full parse, and checked against
 * the sizes the persistent index gave for the version. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cache_int.h"
#include "timing.h"

enum rtmc_level rtmc_depth_level(enum rtm_depth depth)
{
    switch (depth) {
    case RTM_DEPTH_SHAPE: return RTMC_SHAPE;
    case RTM_DEPTH_LIGHT: return RTMC_LIGHT;
    case RTM_DEPTH_FULL: break;
    }
    return RTMC_FULL;
}

/* The cache's level for each depth the view table gives a view. */
enum rtmc_level rtmc_view_level(struct rtm_view v)
{
    return rtmc_depth_level(rtm_view_depth(v.kind));
}

/* The source of entry h, as a get at level asks for it. */
static struct rtmc_src src_of(const struct rtmc_entry *h, enum rtmc_level level)
{
    return (struct rtmc_src){ .path = h->path, .id = h->id, .level = level, .kind = h->kind,
                              .archive_len = h->archive_len };
}

/* ---- the index's sizes ---- */

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
            cache_entry_kill(c, e);
    }
    free(h->indexed);
    h->indexed = NULL;
    c->mismatches++;
}

int cache_size_wrong(struct rtmc *c, struct rtmc_entry *h, size_t idx, uint64_t size)
{
    int wrong = differs(h, idx, size);
    if (wrong)
        mismatch(c, h);
    return wrong;
}

void cache_tell_store(struct rtmc *c, const struct rtmc_entry *h, const uint64_t *sizes)
{
    struct rtmc_src s = src_of(h, h->level);
    if (c->store)
        c->store(c->ctx, &s, h->anim, sizes);
}

/* ---- sizing ---- */

/* Whether every size of entry h is known (lock held). */
static int all_sized(const struct rtmc_entry *h)
{
    size_t i = 0;
    while (i < h->nviews && h->sizes[i] != UINT64_MAX)
        i++;
    return i == h->nviews;
}

/* Waits while another thread sizes h (lock held); then whether h's sizes
 * are all known, or else h is marked as being sized by this thread. */
static int sized_or_mine(struct rtmc *c, struct rtmc_entry *h)
{
    while (h->sizing)
        pthread_cond_wait(&c->loaded, &c->lock);
    if (all_sized(h))
        return 1;
    h->sizing = 1;
    return 0;
}

/* Every view's size of a full anim in one pass (rtm_view_sizes), kept in
 * the entry, outside the lock, and handed to the store hook unless the
 * index knew them all: 0, -ENOMEM, or -EIO when the index's differ.  One
 * thread at a time sizes h; another waits for its sizes.  ahead: counted
 * as sized ahead (rtmc_size_ahead). */
static int size_all(struct rtmc *c, struct rtmc_entry *h, int ahead)
{
    pthread_mutex_lock(&c->lock);
    int done = sized_or_mine(c, h);
    if (!done)
        cache_working(c, 1);
    pthread_mutex_unlock(&c->lock);
    if (done)
        return 0;
    uint64_t *sizes = malloc((h->nviews + 1) * sizeof *sizes);
    int failed = !sizes || rtm_view_sizes(h->anim, sizes);
    int wrong = 0, known = 1;
    pthread_mutex_lock(&c->lock);
    cache_working(c, -1);
    h->sizing = 0;
    pthread_cond_broadcast(&c->loaded);
    if (failed) {
        pthread_mutex_unlock(&c->lock);
        free(sizes);
        return -ENOMEM;
    }
    memcpy(h->sizes, sizes, h->nviews * sizeof *sizes);
    c->sizings++;
    c->ahead += ahead != 0;
    for (size_t i = 0; i < h->nviews; i++) {
        wrong |= differs(h, i, sizes[i]);
        known &= h->indexed && h->indexed[i] != UINT64_MAX;
    }
    if (wrong)
        mismatch(c, h);
    pthread_mutex_unlock(&c->lock);
    if (wrong)
        cache_tell_store(c, h, NULL);
    if (wrong || !known)
        cache_tell_store(c, h, sizes);
    free(sizes);
    return wrong ? -EIO : 0;
}

/* The size of view v, rendered from entry h, or from the light entry of
 * its version when h is a shape that cannot render v. */
static int size_by_render(struct rtmc *c, struct rtmc_entry *h, struct rtm_view v,
                          uint64_t *size)
{
    struct rtmc_src s = src_of(h, rtmc_view_level(v));
    struct rtmc_entry *l = h;
    struct rtmc_view *cv;
    int rc = 0;
    if (h->level > s.level && (rc = rtmc_get(c, &s, &l)))
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

/* Whether entry h knows no size of its version yet, neither computed nor
 * given by the index: the view now asked is the first one wanted. */
static int none_sized(struct rtmc *c, const struct rtmc_entry *h)
{
    size_t i = 0;
    pthread_mutex_lock(&c->lock);
    while (i < h->nviews && h->sizes[i] == UINT64_MAX &&
           (!h->indexed || h->indexed[i] == UINT64_MAX))
        i++;
    pthread_mutex_unlock(&c->lock);
    return i == h->nviews;
}

/* The size of view v of a full entry f: the first view of a version is
 * rendered alone and kept, for the read that follows; a second one means
 * many are wanted (and the index's sizes, if any, are to be checked): all
 * in one pass. */
static int size_on_full(struct rtmc *c, struct rtmc_entry *f, struct rtm_view v, int first,
                        uint64_t *size)
{
    if (first)
        return size_by_render(c, f, v, size);
    int rc = size_all(c, f, 0);
    pthread_mutex_lock(&c->lock);
    *size = f->sizes[rtm_view_index(f->anim, v)];
    pthread_mutex_unlock(&c->lock);
    return rc;
}

/* Whether full entry f, of h's version, can give h's views their sizes:
 * it parsed, into the same frames and bones, so the same views.  A damaged
 * file's head can read where its full parse fails (f then has no sizes at
 * all) or counts otherwise (a head that promised more frames than the
 * matrices hold), and then h's views past the head have no size. */
static int full_serves(const struct rtmc_entry *h, const struct rtmc_entry *f)
{
    return f->anim && h->anim && f->nviews == h->nviews &&
           f->anim->nframes == h->anim->nframes && f->anim->nbones == h->anim->nbones;
}

/* What full entry f knows of the sizes h (its version's) does not; nothing
 * when f cannot serve h. */
static void keep_sizes(struct rtmc *c, struct rtmc_entry *h, const struct rtmc_entry *f)
{
    if (h == f || !full_serves(h, f))
        return;
    pthread_mutex_lock(&c->lock);
    for (size_t i = 0; i < h->nviews; i++)
        if (h->sizes[i] == UINT64_MAX)
            h->sizes[i] = f->sizes[i];
    pthread_mutex_unlock(&c->lock);
}

/* The size of view v of a shape or light entry h: a view without numbers
 * (bones.txt, what grep -r reads) is rendered from it or its light entry;
 * the others from the version's full entry (one view or all of them, as
 * rtmc_view_size decides there), and
 * what is learnt is kept in h too.  Where the full parse fails (a file too
 * large for cache_size, matrices damaged), the views that need no
 * matrices are still rendered. */
static int size_from_full(struct rtmc *c, struct rtmc_entry *h, struct rtm_view v,
                          uint64_t *size)
{
    if (rtmc_view_level(v) != RTMC_FULL)
        return size_by_render(c, h, v, size);
    struct rtmc_src s = src_of(h, RTMC_FULL);
    struct rtmc_entry *f;
    int rc = rtmc_get(c, &s, &f);
    if (rc == 0 && full_serves(h, f)) {
        rc = rtmc_view_size_known(c, f, v, size);
        if (rc == -EAGAIN)      /* the first of the version only if h knows none */
            rc = size_on_full(c, f, v, none_sized(c, h) && none_sized(c, f), size);
        keep_sizes(c, h, f);
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
    if (h->level != RTMC_FULL)
        return size_from_full(c, h, v, size);
    return size_on_full(c, h, v, none_sized(c, h), size);
}

int rtmc_size_ahead(struct rtmc *c, struct rtmc_entry *h)
{
    pthread_mutex_lock(&c->lock);
    int done = all_sized(h);
    pthread_mutex_unlock(&c->lock);
    if (!h->anim || done)
        return h->anim ? 0 : -EIO;
    struct rtmc_src s = src_of(h, RTMC_FULL);
    struct rtmc_entry *f = h;
    int rc = h->level == RTMC_FULL ? 0 : rtmc_get(c, &s, &f);
    if (rc)
        return rc;
    rc = full_serves(h, f) ? size_all(c, f, 1) : -EIO;
    keep_sizes(c, h, f);
    if (f != h)
        rtmc_put(c, f);
    return rc;
}

/* ---- preview.svg and anim.bvh under a timing ---- */

int rtmc_timed_view_size_known(struct rtmc *c, struct rtmc_entry *h, struct rtm_view v,
                               const struct rtm_timing *tm, uint64_t *size)
{
    int k = cache_timed_slot(v);
    if (k < 0 || rtm_timing_empty(tm))
        return rtmc_view_size_known(c, h, v, size);
    if (!h->anim || rtm_view_index(h->anim, v) >= h->nviews)
        return -EINVAL;
    pthread_mutex_lock(&c->lock);
    const struct rtmc_timed *s = &h->timed[k];
    *size = s->gen && !strcmp(s->gen, tm->why) ? s->size : UINT64_MAX;
    pthread_mutex_unlock(&c->lock);
    if (*size != UINT64_MAX)
        return 0;
    /* the timed hook's record (the index's), kept in the slot: a listing
     * gives it as a lookup would, sparing a later mount's walk a lookup of
     * every timed view */
    struct rtmc_src src = src_of(h, rtmc_view_level(v));
    if (!c->timed || c->timed(c->ctx, &src, v, tm->why, size, 0) != 0)
        return -EAGAIN;
    pthread_mutex_lock(&c->lock);
    int rc = cache_timed_set(c, h, k, tm->why, *size, NULL) ? -ENOMEM : 0;
    pthread_mutex_unlock(&c->lock);
    return rc;
}

/* When other views of the version are sized (a listing), the timed size
 * of v on full entry f from the empty generation's (sizing all views if
 * need be), measuring only what the timing changes (rtm_view_timed_size),
 * kept in f's slot and told to the timed hook; -EAGAIN for the first view
 * asked of a version, which is rendered alone instead, for the read that
 * follows. */
static int size_from_untimed(struct rtmc *c, struct rtmc_entry *h, struct rtmc_entry *f,
                             struct rtm_view v, const struct rtm_timing *tm, uint64_t *size)
{
    uint64_t untimed;
    int rc = rtmc_view_size_known(c, f, v, &untimed);
    if (rc == -EAGAIN && !(none_sized(c, h) && none_sized(c, f)))
        rc = size_on_full(c, f, v, 0, &untimed);
    if (rc)
        return rc;
    pthread_mutex_lock(&c->lock);
    cache_working(c, 1);
    pthread_mutex_unlock(&c->lock);
    int failed = rtm_view_timed_size(f->anim, v, tm, untimed, size);
    pthread_mutex_lock(&c->lock);
    cache_working(c, -1);
    pthread_mutex_unlock(&c->lock);
    if (failed)
        return -ENOMEM;
    struct rtmc_src s = src_of(f, f->level);
    if (c->timed)
        c->timed(c->ctx, &s, v, tm->why, size, 1);
    pthread_mutex_lock(&c->lock);
    rc = cache_timed_set(c, f, cache_timed_slot(v), tm->why, *size, NULL) ? -ENOMEM : 0;
    pthread_mutex_unlock(&c->lock);
    return rc;
}

/* Sized from the empty generation's size, or rendered, on the version's
 * entry deep enough (h, or one got for it), kept in h's slot too. */
int rtmc_timed_view_size(struct rtmc *c, struct rtmc_entry *h, struct rtm_view v,
                         const struct rtm_timing *tm, uint64_t *size)
{
    if (cache_timed_slot(v) < 0 || rtm_timing_empty(tm))
        return rtmc_view_size(c, h, v, size);   /* no timing changes it */
    int rc = rtmc_timed_view_size_known(c, h, v, tm, size);
    if (rc != -EAGAIN)
        return rc;
    struct rtmc_src s = src_of(h, rtmc_view_level(v));
    struct rtmc_entry *f = h;
    struct rtmc_view *cv;
    if (h->level > s.level && (rc = rtmc_get(c, &s, &f)))
        return rc;
    rc = full_serves(h, f) ? size_from_untimed(c, h, f, v, tm, size) : -EIO;
    if (rc == -EAGAIN && (rc = rtmc_timed_view_get(c, f, v, tm, &cv)) == 0) {
        *size = cv->len;
        rtmc_view_put(c, cv);
    }
    if (rc == 0) {
        pthread_mutex_lock(&c->lock);
        if (f != h && cache_timed_set(c, h, cache_timed_slot(v), tm->why, *size, NULL))
            rc = -ENOMEM;
        pthread_mutex_unlock(&c->lock);
    }
    if (f != h)
        rtmc_put(c, f);
    return rc;
}
