/* test_cache_budget.c - the cache's byte budget (cache_budget.c):
 * eviction of the least recent, the allocator's trim after evictions,
 * room made on demand, views counted, entries held surviving eviction,
 * and reservations: a load that could never fit refused, big loads one
 * at a time, and a load that waits for a sizing's memory. */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "testutil.h"
#include "cache_testutil.h"

static void budget_evicts_least_recent(void **state)
{
    (void)state;
    size_t one = cache_entry_bytes();
    struct rtmc *c = rtmc_new(one * 5 / 2, fake_load, &fake);   /* room for two */
    assert_int_equal(cache_touch(c, "a"), 1);
    assert_int_equal(cache_touch(c, "b"), 1);
    assert_int_equal(cache_touch(c, "a"), 0);         /* a is now the most recent */
    assert_int_equal(cache_touch(c, "c"), 1);         /* evicts b, not a */
    assert_int_equal(cache_touch(c, "a"), 0);
    assert_int_equal(cache_touch(c, "b"), 1);
    struct rtmc_stats st;
    rtmc_get_stats(c, &st);
    assert_true(st.bytes <= st.budget);
    assert_true(st.evictions >= 2);
    assert_int_equal(st.entries, 2);
    rtmc_free(c);
}

static int trims;
static void count_trim(void) { trims++; }

/* The trim hook runs once evictions have freed `every` bytes, not before. */
static void evictions_trim_the_heap(void **state)
{
    (void)state;
    size_t one = cache_entry_bytes();
    struct rtmc *c = rtmc_new(one * 3 / 2, fake_load, &fake);   /* room for one */
    rtmc_set_trim(c, count_trim, one * 2);
    trims = 0;
    cache_touch(c, "a");
    cache_touch(c, "b");                      /* evicts a: one entry's bytes freed */
    assert_int_equal(trims, 0);
    cache_touch(c, "c");                      /* evicts b: two */
    assert_int_equal(trims, 1);
    cache_touch(c, "d");
    assert_int_equal(trims, 1);
    cache_touch(c, "d");                      /* a hit evicts nothing */
    assert_int_equal(trims, 1);
    cache_touch(c, "e");
    assert_int_equal(trims, 2);
    rtmc_free(c);
}

/* rtmc_make_room drops the least recent entries until the bytes asked
 * fit beside the rest, and counts nothing after; rtmc_trim calls the hook. */
static void make_room_and_trim(void **state)
{
    (void)state;
    size_t one = cache_entry_bytes();
    struct rtmc *c = rtmc_new(one * 7 / 2, fake_load, &fake);   /* room for three */
    rtmc_set_trim(c, count_trim, 1u << 30);
    trims = 0;
    cache_touch(c, "a");
    cache_touch(c, "b");
    cache_touch(c, "c");
    rtmc_make_room(c, one);             /* 3.5 - 1: two stay, a goes */
    struct rtmc_stats st;
    rtmc_get_stats(c, &st);
    assert_int_equal(st.entries, 2);
    assert_int_equal(cache_touch(c, "b"), 0);
    assert_int_equal(cache_touch(c, "a"), 1);
    assert_int_equal(cache_touch(c, "d"), 1);         /* three fit again: none is held */
    rtmc_get_stats(c, &st);
    assert_int_equal(st.entries, 3);
    assert_int_equal(trims, 0);
    rtmc_trim(c);
    assert_int_equal(trims, 1);
    rtmc_make_room(NULL, one);          /* no cache: nothing to do */
    rtmc_trim(NULL);
    rtmc_free(c);
}

static void views_count_against_the_budget(void **state)
{
    (void)state;
    size_t one = cache_entry_bytes();
    struct rtmc *c = rtmc_new(one + 4096, fake_load, &fake);
    struct rtmc_entry *h = cache_get(c, "a", 10, 1);
    struct rtm_view plain = { .kind = RTM_VIEW_PLAIN, .frame = 0 };
    struct rtmc_view *v;
    assert_int_equal(rtmc_view_get(c, h, plain, &v), 0);   /* bigger than 4096 */
    rtmc_view_put(c, v);
    rtmc_put(c, h);
    struct rtmc_stats st;
    rtmc_get_stats(c, &st);
    assert_true(st.bytes <= st.budget);
    assert_true(st.evictions >= 1);
    rtmc_free(c);
}

static void referenced_entries_survive(void **state)
{
    (void)state;
    struct rtmc *c = rtmc_new(0, fake_load, &fake);
    struct rtmc_entry *a = cache_get(c, "a", 10, 1);
    struct rtm_view hdr = { .kind = RTM_VIEW_HEADER, .frame = 0 };
    struct rtmc_view *v;
    assert_int_equal(rtmc_view_get(c, a, hdr, &v), 0);
    rtmc_put(c, cache_get(c, "b", 11, 1));       /* evicts b at once */
    assert_int_equal(rtmc_anim(a)->nframes, 10);
    size_t len;
    assert_memory_equal(rtmc_view_data(v, &len), "format: plain\n", 14);
    rtmc_view_put(c, v);
    rtmc_put(c, a);
    struct rtmc_stats st;
    rtmc_get_stats(c, &st);
    assert_int_equal(st.bytes, 0);
    assert_int_equal(st.entries, 0);
    rtmc_free(c);
}

static void *get_thread(void *path)
{
    struct rtmc_entry *h = cache_get(fake.c, path, 10, 1);
    assert_non_null(rtmc_anim(h));
    rtmc_put(fake.c, h);
    return NULL;
}

/* A load that could never fit is refused with what it needs; loads that
 * each need most of the budget run one at a time, waiting for room. */
static void reservations(void **state)
{
    (void)state;
    struct rtmc *c = rtmc_new(10u << 20, fake_load, &fake);
    fake.c = c;
    fake.reserve = 20u << 20;
    struct rtmc_entry *h = cache_get(c, "big_huge.rtm", 10, 1);
    assert_null(rtmc_anim(h));
    assert_string_equal(rtmc_error(h), "needs 20.0 MiB, more than cache_size 10.0 MiB");
    rtmc_put(c, h);
    fake.reserve = 9u << 20;
    fake.max_inside = 0;
    pthread_t th[4];
    const char *paths[4] = { "big0.rtm", "big1.rtm", "big2.rtm", "big3.rtm" };
    for (int i = 0; i < 4; i++)
        pthread_create(&th[i], NULL, get_thread, (void *)paths[i]);
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    assert_int_equal(fake.max_inside, 1);
    struct rtmc_stats st;
    rtmc_get_stats(c, &st);
    assert_true(st.bytes <= st.budget);
    rtmc_free(c);
    fake.c = NULL;
}

static atomic_int sized;

static void *size_and_put(void *h)
{
    assert_int_equal(rtmc_size_ahead(fake.c, h), 0);
    atomic_store(&sized, 1);
    rtmc_put(fake.c, h);
    return NULL;
}

/* Until the sizing has begun (or ended: the load then finds room). */
static void sizing_begun(struct rtmc *c)
{
    struct rtmc_stats st;
    for (rtmc_get_stats(c, &st); !st.working && !atomic_load(&sized); rtmc_get_stats(c, &st))
        nanosleep(&(struct timespec){ 0, 100 * 1000 }, NULL);
}

/* A sizing pins its anim however long it takes: a load that needs that
 * memory waits for it past the patience it has while nothing happens,
 * rather than fail with -ENOMEM (a walk's stat on a loaded machine, where
 * a worker sizing ahead ran slowly).  The patience here is 5 ms, and
 * sizing 3,000 frames takes longer.  The load starts once the sizing has
 * (a thread not yet running sizes nothing, and the rule rightly gives up
 * on memory that no sizing is about to let go). */
static void load_waits_for_a_sizing(void **state)
{
    (void)state;
    struct rtmc *c = rtmc_new(64u << 20, fake_load, &fake);
    fake.c = c;
    rtmc_set_reserve_wait(c, 5);
    struct rtmc_entry *h = cache_get(c, "slow.rtm", 3000, 1);
    struct rtmc_stats st;
    rtmc_get_stats(c, &st);
    fake.reserve = st.budget - st.bytes / 2;       /* fits once h is let go */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pthread_t th;
    atomic_store(&sized, 0);
    pthread_create(&th, NULL, size_and_put, h);
    sizing_begun(c);
    struct rtmc_entry *b = cache_get(c, "big_after_sizing.rtm", 10, 1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    assert_non_null(rtmc_anim(b));
    rtmc_put(c, b);
    pthread_join(th, NULL);
    print_message("the load waited %.0f ms\n",
                  (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
    rtmc_free(c);
    fake.c = NULL;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(budget_evicts_least_recent, cache_setup),
        cmocka_unit_test_setup(load_waits_for_a_sizing, cache_setup),
        cmocka_unit_test_setup(evictions_trim_the_heap, cache_setup),
        cmocka_unit_test_setup(make_room_and_trim, cache_setup),
        cmocka_unit_test_setup(views_count_against_the_budget, cache_setup),
        cmocka_unit_test_setup(referenced_entries_survive, cache_setup),
        cmocka_unit_test_setup(reservations, cache_setup),
    };
    return run_test_cases(tests, NULL, NULL);
}
