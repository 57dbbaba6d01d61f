/* tree_states_each.c - one job for each of n items, shared by a few
 * threads (tree_states.h): the walk for the states table reads every
 * archive under SOURCE, and cold, one after the other, each read waits
 * for the disk alone; several at once overlap, and the configs they hold
 * are parsed and prepared on every core.  What comes of each is then
 * taken in order on the caller's thread, as soon as it and those before
 * it are done, so that adding the first configs overlaps reading the
 * last.  Tier 2 of the tree. */
#include "tree_states.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct each {
    atomic_size_t next;
    size_t n;
    tree_each_fn *fn, *then;
    void *ctx;
    pthread_mutex_t lock;
    pthread_cond_t done_cv;
    unsigned char *done;        /* per item: fn returned (NULL: not asked) */
};

/* Takes items until none is left. */
static void *each_run(void *arg)
{
    struct each *e = arg;
    for (size_t i; (i = atomic_fetch_add(&e->next, 1)) < e->n;) {
        e->fn(e->ctx, i);
        if (!e->done)
            continue;
        pthread_mutex_lock(&e->lock);
        e->done[i] = 1;
        pthread_cond_broadcast(&e->done_cv);
        pthread_mutex_unlock(&e->lock);
    }
    return NULL;
}

/* The caller's part with then: each item in order, once done. */
static void take_in_order(struct each *e)
{
    for (size_t i = 0; i < e->n; i++) {
        pthread_mutex_lock(&e->lock);
        while (!e->done[i])
            pthread_cond_wait(&e->done_cv, &e->lock);
        pthread_mutex_unlock(&e->lock);
        e->then(e->ctx, i);
    }
}

void tree_states_each(size_t n, unsigned nthreads, tree_each_fn *fn, tree_each_fn *then,
                      void *ctx)
{
    enum { MAX_THREADS = 16 };
    pthread_t th[MAX_THREADS];
    struct each e = { .n = n, .fn = fn, .then = then, .ctx = ctx };
    unsigned started = 0;
    atomic_init(&e.next, 0);
    pthread_mutex_init(&e.lock, NULL);
    pthread_cond_init(&e.done_cv, NULL);
    /* in order as they come when there is room to say which came */
    e.done = then && n ? calloc(n, 1) : NULL;
    if (nthreads > MAX_THREADS)
        nthreads = MAX_THREADS;
    /* the caller is one of them unless it takes the items in order; a
     * thread that cannot start leaves its share to the others */
    unsigned workers = e.done ? nthreads : nthreads - (nthreads > 0);
    while (started < workers && started < n &&
           pthread_create(&th[started], NULL, each_run, &e) == 0)
        started++;
    int ordered = e.done && started;
    if (ordered)
        take_in_order(&e);
    else
        each_run(&e);                   /* all that is left, here */
    while (started)
        pthread_join(th[--started], NULL);
    for (size_t i = 0; then && !ordered && i < n; i++)
        then(ctx, i);                   /* every item is done: in order now */
    free(e.done);
    pthread_cond_destroy(&e.done_cv);
    pthread_mutex_destroy(&e.lock);
}
