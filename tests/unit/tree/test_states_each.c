/* test_states_each.c - the few threads the states table's walk reads
 * archives on (tree_states_each): every item's job runs exactly once,
 * whatever the number of threads asked for (none left to the caller, one,
 * more than items, more than the cap), and all have returned when it
 * returns; with one thread every job runs on the caller's.  In make tsan's
 * list: ThreadSanitizer checks the sharing of the items. */
#include "testutil.h"

#include <pthread.h>
#include <stdatomic.h>

#include "tree_states.h"

enum { ITEMS = 1000 };

struct count {
    atomic_int calls[ITEMS];
    atomic_int others;          /* jobs run on a thread not the caller's */
    pthread_t caller;
};

static void count_job(void *ctx, size_t i)
{
    struct count *c = ctx;
    atomic_fetch_add(&c->calls[i], 1);
    if (!pthread_equal(pthread_self(), c->caller))
        atomic_fetch_add(&c->others, 1);
}

/* Runs n items on nthreads; each must have been called once. */
static int run(size_t n, unsigned nthreads)
{
    static struct count c;
    for (size_t i = 0; i < ITEMS; i++)
        atomic_init(&c.calls[i], 0);
    atomic_init(&c.others, 0);
    c.caller = pthread_self();
    tree_states_each(n, nthreads, count_job, &c);
    for (size_t i = 0; i < ITEMS; i++)
        assert_int_equal(atomic_load(&c.calls[i]), i < n ? 1 : 0);
    return atomic_load(&c.others);
}

static void every_item_once(void **state)
{
    (void)state;
    run(ITEMS, 8);
    run(ITEMS, 2);
    run(3, 8);                          /* more threads than items */
    run(ITEMS, 1000);                   /* more than the cap */
    run(1, 8);
}

static void none_and_one_thread(void **state)
{
    (void)state;
    assert_int_equal(run(0, 8), 0);     /* no item: no job */
    assert_int_equal(run(ITEMS, 1), 0); /* one thread: the caller's */
    assert_int_equal(run(ITEMS, 0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_item_once),
        cmocka_unit_test(none_and_one_thread),
    };
    return run_test_cases(tests, NULL, NULL);
}
