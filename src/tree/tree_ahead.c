/* tree_ahead.c - sizing ahead of a walk that stats (du, ls -l, find -size,
 * a file manager's folder sizes).  The top tier of the tree (tree_int.h):
 * nothing calls it but through the hooks it sets (t->walk), which a
 * listing and a view's first size call.
 *
 * A first mount must parse an animation and measure its views before it
 * can give their sizes, and a walk asks for them one name at a time, on
 * one thread.  So once a view of an animation in a listed folder is asked
 * a size that needs a parse and is not known (head_stat), the
 * animations listed after it are sized on worker threads (cache.h's
 * rtmc_size_ahead, then the timed views), at most AHEAD_WINDOW ahead of
 * the animation whose folder the walk listed last (head_listed), so that
 * its stats find the sizes known.  The next folder of animations the walk
 * lists is sized from its first animation on, as long as the walk stats
 * views in each (du goes from archive to archive).  A walk that asks no
 * size (grep -r reads bones.txt, whose size needs no parse) never starts
 * it, nor does one that finds every size known (a later mount: the index).
 *
 * What it keeps is small: the numbers of the animations of the last
 * AHEAD_FOLDERS folders listed that hold more than one; what it sizes goes
 * to the cache, within its budget.  The workers are started at the first
 * size missed (after rtmfs has forked) and joined by tree_ahead_free.
 */
#include "tree_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

static const struct tree_walk_hooks hooks;

/* How many animations the workers may size beyond the walk: enough to keep
 * them busy while the walk stats one animation's folders of views, and to
 * carry the walk over an animation that takes them long (a first-mount
 * du of 1,000 animations: 3.41 s with 8, 3.25 s with 16, no faster with
 * 32 or 64); few enough that a walk that stops (ls -l of one folder)
 * wastes little. */
enum { AHEAD_WINDOW = 16, AHEAD_FOLDERS = 4 };
/* The workers' nice: below the requests, which must not wait for a
 * worker's time slice when the workers fill the CPUs. */
enum { AHEAD_NICE = 10 };

struct ahead_pos {
    uint64_t ino;
    size_t i;                     /* its place in the listing */
};

struct ahead_folder {
    uint64_t dir;                 /* the folder's number; 0: a free slot */
    struct rtm_dirlist *listing;  /* a reference: it holds the heads' numbers */
    size_t n;
    uint64_t *heads;              /* its animations, in listing order */
    struct ahead_pos *by_ino;     /* the same, sorted by number */
    uint8_t *taken;               /* sized here, or reached by the walk */
    size_t from;                  /* the place after the walk's (0: none yet) */
    enum { NOT_WANTED, CARRIED, WANTED } wanted;   /* size ahead: a size was
                                     missed here, or in the folder the walk
                                     came from (CARRIED until a view here is
                                     stat'ed) */
    unsigned used;                /* when last listed or walked in */
};

struct tree_ahead {
    pthread_mutex_t lock;
    pthread_cond_t work;
    struct ahead_folder f[AHEAD_FOLDERS];
    unsigned clock;
    uint64_t walked;              /* the folder the walk listed an animation of last */
    _Atomic uint64_t stat_head;   /* the animation a view was stat'ed of last */
    pthread_t *threads;
    int nthreads, started, stop;
};

/* Empties slot f; its listing, which the caller puts (outside the lock:
 * that may release thousands of numbers), is returned. */
static struct rtm_dirlist *folder_clear(struct ahead_folder *f)
{
    struct rtm_dirlist *d = f->listing;
    free(f->heads);
    free(f->by_ino);
    free(f->taken);
    *f = (struct ahead_folder){ 0 };
    return d;
}

int tree_ahead_new(struct rtm_tree *t)
{
    if (t->cfg.ahead <= 0 || tree_by_path(t))
        return 0;                       /* heads are resolved by their nodes */
    struct tree_ahead *a = calloc(1, sizeof *a);
    if (!a || !(a->threads = calloc((size_t)t->cfg.ahead, sizeof *a->threads))) {
        free(a);
        return -ENOMEM;
    }
    a->nthreads = t->cfg.ahead;
    pthread_mutex_init(&a->lock, NULL);
    pthread_cond_init(&a->work, NULL);
    t->ahead = a;
    t->walk = &hooks;
    return 0;
}

void tree_ahead_free(struct rtm_tree *t)
{
    struct tree_ahead *a = t->ahead;
    if (!a)
        return;
    pthread_mutex_lock(&a->lock);
    a->stop = 1;
    pthread_cond_broadcast(&a->work);
    pthread_mutex_unlock(&a->lock);
    for (int i = 0; i < a->started; i++)
        pthread_join(a->threads[i], NULL);
    t->walk = NULL;                     /* the workers, which read it, are gone */
    for (int i = 0; i < AHEAD_FOLDERS; i++)
        rtm_tree_listing_put(t, folder_clear(&a->f[i]));
    pthread_cond_destroy(&a->work);
    pthread_mutex_destroy(&a->lock);
    free(a->threads);
    free(a);
    t->ahead = NULL;
}

static int by_ino_order(const void *x, const void *y)
{
    uint64_t a = ((const struct ahead_pos *)x)->ino, b = ((const struct ahead_pos *)y)->ino;
    return (a > b) - (a < b);
}

/* Whether number ino is an animation's folder (a family's head). */
static int is_head(uint64_t ino)
{
    return (ino & RTM_INO_FAMILY) && !rtm_ino_member(ino);
}

static void folder_listed(struct rtm_tree *t, uint64_t dir, struct rtm_dirlist *d)
{
    struct tree_ahead *a = t->ahead;
    size_t n = 0;
    if (!a)
        return;
    for (size_t i = 0; i < d->n; i++)
        n += is_head(d->e[i].ino);
    if (n < 2)
        return;
    struct ahead_folder nf = { .dir = dir, .n = n, .heads = malloc(n * sizeof *nf.heads),
                               .by_ino = malloc(n * sizeof *nf.by_ino), .taken = calloc(n, 1) };
    if (!nf.heads || !nf.by_ino || !nf.taken) {
        folder_clear(&nf);
        return;                         /* no sizing ahead: only slower */
    }
    tree_listing_ref(t, d);             /* its numbers live while kept here */
    nf.listing = d;
    for (size_t i = 0, k = 0; i < d->n; i++)
        if (is_head(d->e[i].ino)) {
            nf.heads[k] = d->e[i].ino;
            nf.by_ino[k] = (struct ahead_pos){ d->e[i].ino, k };
            k++;
        }
    qsort(nf.by_ino, n, sizeof *nf.by_ino, by_ino_order);
    pthread_mutex_lock(&a->lock);
    for (int i = 0; i < AHEAD_FOLDERS; i++)     /* a walk that stats, going on */
        if (a->f[i].dir && a->f[i].dir == a->walked && a->f[i].wanted == WANTED)
            nf.wanted = CARRIED;
    struct ahead_folder *slot = &a->f[0];
    for (int i = 0; i < AHEAD_FOLDERS; i++)     /* the same folder again, or the oldest */
        if (a->f[i].dir == dir || (slot->dir != dir && a->f[i].used < slot->used))
            slot = &a->f[i];
    struct rtm_dirlist *old = folder_clear(slot);
    nf.used = ++a->clock;
    *slot = nf;
    if (nf.wanted)
        pthread_cond_broadcast(&a->work);
    pthread_mutex_unlock(&a->lock);
    rtm_tree_listing_put(t, old);
}

/* The folder holding animation head, and its place there in *i (lock
 * held); NULL when no folder kept holds it. */
static struct ahead_folder *find(struct tree_ahead *a, uint64_t head, size_t *i)
{
    struct ahead_pos key = { head, 0 };
    for (int k = 0; k < AHEAD_FOLDERS; k++) {
        struct ahead_folder *f = &a->f[k];
        const struct ahead_pos *p =
            f->dir ? bsearch(&key, f->by_ino, f->n, sizeof key, by_ino_order) : NULL;
        if (p) {
            *i = p->i;
            return f;
        }
    }
    return NULL;
}

/* The next animation a worker may size (lock held), taken; 0: none. */
static uint64_t next_job(struct tree_ahead *a)
{
    for (int k = 0; k < AHEAD_FOLDERS; k++) {
        struct ahead_folder *f = &a->f[k];
        for (size_t i = f->from; f->wanted && i < f->n && i < f->from + AHEAD_WINDOW; i++)
            if (!f->taken[i]) {
                f->taken[i] = 1;
                return f->heads[i];
            }
    }
    return 0;
}

/* The sizes of animation head's views, as the walk's stats will ask them:
 * every view at once from a full parse, then preview.svg and anim.bvh
 * under their timing (which may read the configs first).  Sizes the index
 * gave wrong are told to the kernel here, as a stat that found them would
 * (cache.h: the call that finds them fails, once). */
/* The skeleton the configs chose for tg (tree_states_skeleton) into
 * tg->skel, from its shape, when they may choose one: the views the walk
 * will stat are of that version.  0, or a negative errno. */
static int skeleton_first(struct rtm_tree *t, struct tree_target *tg)
{
    if (!tree_states_may_choose(t))
        return 0;
    int rc = tree_load_anim(t, tg);
    uint64_t id = 0;
    if (!rc)
        rc = tree_states_skeleton(t, tg, 0, &id, NULL);
    rtmc_put(t->cfg.cache, tg->h);
    tg->h = NULL;
    tg->skel = id;
    return rc;
}

static void size_one(struct rtm_tree *t, uint64_t head)
{
    char path[PATH_MAX];
    struct tree_target tg;
    if (tree_resolve_head(t, head, path, &tg))
        return;
    if (skeleton_first(t, &tg)) {
        tree_target_done(t, &tg);
        return;
    }
    tg.full_if_parsed = 1;              /* one parse, not a shape and then a parse */
    const struct rtm_anim *a = tree_load_anim(t, &tg) ? NULL : rtmc_anim(tg.h);
    int rc = a ? rtmc_size_ahead(t->cfg.cache, tg.h) : -1;
    if (rc == -EIO)
        tree_stale(t, &tg, rtm_ino_in_family(head, MEMBER_VIEWS));
    if (rc == 0) {
        for (size_t k = 0; k < RTM_NTIMED_VIEWS; k++) {     /* the timed views too */
            size_t idx = rtm_view_index(a, (struct rtm_view){ .kind = rtm_view_timed_kind(k) });
            uint64_t size;
            if (idx < rtm_view_count(a) && tree_aim_at_member(&tg, MEMBER_VIEWS + idx) == 0)
                tree_view_size(t, &tg, &size, NULL);
        }
    }
    tree_target_done(t, &tg);
}

static void *worker(void *arg)
{
    struct rtm_tree *t = arg;
    struct tree_ahead *a = t->ahead;
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), AHEAD_NICE);
    pthread_mutex_lock(&a->lock);
    while (!a->stop) {
        uint64_t head = next_job(a);
        if (!head) {
            pthread_cond_wait(&a->work, &a->lock);
            continue;
        }
        pthread_mutex_unlock(&a->lock);
        size_one(t, head);
        pthread_mutex_lock(&a->lock);
    }
    pthread_mutex_unlock(&a->lock);
    return NULL;
}

/* The walk is at place i of folder f (lock held): the workers may go on
 * from there. */
static void walk_at(struct tree_ahead *a, struct ahead_folder *f, size_t i)
{
    f->taken[i] = 1;                    /* the walk sizes it itself */
    f->from = i + 1;
    f->used = ++a->clock;
    a->walked = f->dir;
    if (f->wanted)
        pthread_cond_broadcast(&a->work);
}

/* Starts the workers (lock held): at the first size missed, after rtmfs
 * forked. */
static void start(struct rtm_tree *t, struct tree_ahead *a)
{
    while (a->started < a->nthreads &&
           pthread_create(&a->threads[a->started], NULL, worker, t) == 0)
        a->started++;
}

static void head_listed(struct rtm_tree *t, uint64_t head)
{
    struct tree_ahead *a = t->ahead;
    size_t i;
    if (!a)
        return;
    pthread_mutex_lock(&a->lock);
    struct ahead_folder *f = find(a, head, &i);
    if (f)
        walk_at(a, f, i);
    if (f && f->wanted)
        start(t, a);
    pthread_mutex_unlock(&a->lock);
}

static int new_head(struct rtm_tree *t, uint64_t head)
{
    return t->ahead && atomic_load(&t->ahead->stat_head) != head;
}

static void head_stat(struct rtm_tree *t, uint64_t head, int missed)
{
    struct tree_ahead *a = t->ahead;
    size_t i;
    if (!a || !head)
        return;
    pthread_mutex_lock(&a->lock);
    atomic_store(&a->stat_head, head);
    struct ahead_folder *f = find(a, head, &i);
    if (f && (missed || f->wanted == CARRIED)) {
        f->wanted = WANTED;
        walk_at(a, f, i);
        start(t, a);
    }
    pthread_mutex_unlock(&a->lock);
}

/* Folder ino was listed as d: a folder's animations are the ones to size
 * ahead of a walk in it; an animation's folder says where the walk is. */
static void listed(struct rtm_tree *t, uint64_t ino, struct rtm_dirlist *d)
{
    if (!(ino & RTM_INO_FAMILY))
        folder_listed(t, ino, d);
    else if (!rtm_ino_member(ino))
        head_listed(t, ino);
}

static const struct tree_walk_hooks hooks = { listed, new_head, head_stat };
