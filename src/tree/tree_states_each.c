/* tree_states_each.c - one job for each of n items, shared by a few
 * threads (tree_states.h): the walk for the states table reads every
 * archive under SOURCE, and cold, one after the other, each read waits
 * for the disk alone; several at once overlap, and the configs they hold
 * are parsed on every core.  Tier 2 of the tree. */
#include "tree_states.h"

#include <pthread.h>
#include <stdatomic.h>

struct each {
    atomic_size_t next;
    size_t n;
    tree_each_fn *fn;
    void *ctx;
};

/* Takes items until none is left. */
static void *each_run(void *arg)
{
    struct each *e = arg;
    for (size_t i; (i = atomic_fetch_add(&e->next, 1)) < e->n;)
        e->fn(e->ctx, i);
    return NULL;
}

void tree_states_each(size_t n, unsigned nthreads, tree_each_fn *fn, void *ctx)
{
    enum { MAX_THREADS = 16 };
    pthread_t th[MAX_THREADS];
    struct each e = { .n = n, .fn = fn, .ctx = ctx };
    unsigned started = 0;
    atomic_init(&e.next, 0);
    if (nthreads > MAX_THREADS)
        nthreads = MAX_THREADS;
    /* the caller is one of them; a thread that cannot start leaves its
     * share to the others */
    while (started + 1 < nthreads && started + 1 < n &&
           pthread_create(&th[started], NULL, each_run, &e) == 0)
        started++;
    each_run(&e);
    while (started)
        pthread_join(th[--started], NULL);
}
