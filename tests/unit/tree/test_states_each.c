/* test_states_each.c - the few threads the states table's walk reads
 * archives on (tree_states_each): every item's job runs exactly once,
 * whatever the number of threads asked for (none left to the caller, one,
 * more than items, more than the cap), and all have returned when it
 * returns; with one thread every job runs on the caller's.  What then
 * takes, it takes on the caller's thread, in order, each once its job has
 * returned, while later jobs still run.  In make tsan's
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
    tree_states_each(n, nthreads, count_job, NULL, &c);
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

/* then's side: the order it saw, and whether each job had run first. */
struct order {
    struct count c;
    size_t next;
    int out_of_order, before_job, off_caller;
};

static void order_job(void *ctx, size_t i)
{
    count_job(&((struct order *)ctx)->c, i);
}

static void order_then(void *ctx, size_t i)
{
    struct order *o = ctx;
    o->out_of_order += i != o->next++;
    o->before_job += atomic_load(&o->c.calls[i]) != 1;
    o->off_caller += !pthread_equal(pthread_self(), o->c.caller);
}

static void then_in_order(void **state)
{
    (void)state;
    static struct order o;
    const unsigned threads[] = { 0, 1, 2, 8, 1000 };
    for (size_t k = 0; k < sizeof threads / sizeof *threads; k++) {
        memset(&o, 0, sizeof o);
        o.c.caller = pthread_self();
        tree_states_each(ITEMS, threads[k], order_job, order_then, &o);
        assert_int_equal(o.next, ITEMS);
        assert_int_equal(o.out_of_order, 0);
        assert_int_equal(o.before_job, 0);
        assert_int_equal(o.off_caller, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_item_once),
        cmocka_unit_test(none_and_one_thread),
        cmocka_unit_test(then_in_order),
    };
    return run_test_cases(tests, NULL, NULL);
}
