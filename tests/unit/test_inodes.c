/* test_inodes.c - the inode table: numbers stable across forgets, a new
 * number for a new version, lookup counts, collisions, memory accounting,
 * and concurrent use (also run under ThreadSanitizer: make tsan). */
#include <errno.h>
#include <pthread.h>

#include "testutil.h"
#include "inodes.h"

static const struct rtm_fileid V1 = { 1, 2, 3, 4, 5 }, V2 = { 1, 2, 3, 4, 6 };

static void numbers_are_stable_and_counted(void **state)
{
    (void)state;
    struct rtm_inodes *t = rtm_inodes_new(NULL);
    size_t empty = rtm_inodes_bytes(t);
    uint64_t a = rtm_inodes_ref(t, "walk.rtm", &V1);
    assert_true(a > RTM_INO_ROOT);
    assert_int_equal(rtm_inodes_ref(t, "walk.rtm", &V1), a);     /* one node, two lookups */
    assert_int_equal(rtm_inodes_count(t), 1);
    assert_true(rtm_inodes_bytes(t) > empty);
    char path[64];
    struct rtm_fileid id;
    assert_int_equal(rtm_inodes_path(t, a, path, sizeof path, &id), 0);
    assert_string_equal(path, "walk.rtm");
    assert_true(rtm_fileid_same(&id, &V1));
    rtm_inodes_forget(t, a, 1);
    assert_int_equal(rtm_inodes_find(t, "walk.rtm", &V1), a);    /* one lookup left */
    rtm_inodes_forget(t, a, 1);
    assert_int_equal(rtm_inodes_find(t, "walk.rtm", &V1), 0);
    assert_int_equal(rtm_inodes_path(t, a, path, sizeof path, &id), -ENOENT);
    assert_int_equal(rtm_inodes_bytes(t), empty);
    /* looked up again: the same number */
    assert_int_equal(rtm_inodes_ref(t, "walk.rtm", &V1), a);
    rtm_inodes_forget(t, a, 1);
    rtm_inodes_free(t);
}

static void a_new_version_is_a_new_number(void **state)
{
    (void)state;
    struct rtm_inodes *t = rtm_inodes_new(NULL);
    uint64_t a = rtm_inodes_ref(t, "walk.rtm/header.txt", &V1);
    uint64_t b = rtm_inodes_ref(t, "walk.rtm/header.txt", &V2);
    assert_true(a != b);
    uint64_t dir = rtm_inodes_ref(t, "sub", &RTM_FILEID_NONE);
    assert_int_equal(rtm_inodes_find(t, "sub", &RTM_FILEID_NONE), dir);
    assert_int_equal(rtm_inodes_find(t, "", &RTM_FILEID_NONE), RTM_INO_ROOT);
    char path[4];
    struct rtm_fileid id;
    assert_int_equal(rtm_inodes_path(t, a, path, sizeof path, &id), -ENOENT); /* too long */
    rtm_inodes_free(t);
}

static uint64_t same_hash(const char *path, const struct rtm_fileid *id)
{
    (void)path;
    (void)id;
    return 1000;
}

/* A listing's held numbers are the ones lookups then give, also after
 * collisions (which the default hash makes too rare to meet by chance),
 * and in any order of lookups. */
static void held_numbers_survive_collisions(void **state)
{
    (void)state;
    struct rtm_inodes *t = rtm_inodes_new(same_hash);
    uint64_t a = rtm_inodes_ref(t, "a.rtm", &V1);
    assert_int_equal(a, 1000);
    uint64_t hb = rtm_inodes_hold(t, "b.rtm", &V1), hc = rtm_inodes_hold(t, "c.rtm", &V1);
    assert_int_equal(hb, 1001);
    assert_int_equal(hc, 1002);
    assert_int_equal(rtm_inodes_ref(t, "c.rtm", &V1), hc);
    assert_int_equal(rtm_inodes_ref(t, "b.rtm", &V1), hb);
    /* released but still looked up: kept; forgotten too: gone */
    rtm_inodes_release(t, hb);
    assert_int_equal(rtm_inodes_find(t, "b.rtm", &V1), hb);
    rtm_inodes_forget(t, hb, 1);
    assert_int_equal(rtm_inodes_find(t, "b.rtm", &V1), 0);
    /* held only: gone at its release */
    uint64_t hd = rtm_inodes_hold(t, "d.rtm", &V1);
    rtm_inodes_release(t, hd);
    assert_int_equal(rtm_inodes_find(t, "d.rtm", &V1), 0);
    rtm_inodes_free(t);
}

static void grows_past_its_first_size(void **state)
{
    (void)state;
    struct rtm_inodes *t = rtm_inodes_new(NULL);
    enum { N = 20000 };
    char p[32];
    for (int i = 0; i < N; i++) {
        snprintf(p, sizeof p, "d/%d.rtm", i);
        assert_true(rtm_inodes_ref(t, p, &V1) > RTM_INO_ROOT);
    }
    assert_int_equal(rtm_inodes_count(t), N);
    for (int i = 0; i < N; i += 997) {
        snprintf(p, sizeof p, "d/%d.rtm", i);
        uint64_t ino = rtm_inodes_find(t, p, &V1);
        char back[32];
        struct rtm_fileid id;
        assert_int_equal(rtm_inodes_path(t, ino, back, sizeof back, &id), 0);
        assert_string_equal(back, p);
    }
    rtm_inodes_free(t);
}

struct seen {
    size_t n;
    uint64_t sum;
};

static void count_one(void *arg, uint64_t ino, const char *path, const struct rtm_fileid *id)
{
    struct seen *s = arg;
    (void)path;
    (void)id;
    s->n++;
    s->sum += ino;
}

static void each_visits_every_number(void **state)
{
    (void)state;
    struct rtm_inodes *t = rtm_inodes_new(NULL);
    uint64_t a = rtm_inodes_ref(t, "x", &RTM_FILEID_NONE), b = rtm_inodes_ref(t, "y.rtm", &V1);
    struct seen s = { 0, 0 };
    assert_int_equal(rtm_inodes_each(t, count_one, &s), 0);
    assert_int_equal(s.n, 2);
    assert_int_equal(s.sum, a + b);
    rtm_inodes_free(t);
}

struct worker {
    struct rtm_inodes *t;
    int id;
};

static void *churn(void *arg)
{
    struct worker *w = arg;
    char p[32];
    for (int round = 0; round < 200; round++)
        for (int i = 0; i < 50; i++) {
            snprintf(p, sizeof p, "shared/%d.rtm", i);
            uint64_t ino = rtm_inodes_ref(w->t, p, &V1);
            assert_int_equal(rtm_inodes_hold(w->t, p, &V1), ino);
            rtm_inodes_release(w->t, ino);
            char back[32];
            struct rtm_fileid id;
            assert_int_equal(rtm_inodes_path(w->t, ino, back, sizeof back, &id), 0);
            rtm_inodes_forget(w->t, ino, 1);
        }
    return NULL;
}

static void concurrent_lookups_and_forgets(void **state)
{
    (void)state;
    struct rtm_inodes *t = rtm_inodes_new(NULL);
    size_t empty = rtm_inodes_bytes(t);
    pthread_t th[4];
    struct worker w[4];
    for (int i = 0; i < 4; i++) {
        w[i] = (struct worker){ t, i };
        pthread_create(&th[i], NULL, churn, &w[i]);
    }
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    assert_int_equal(rtm_inodes_count(t), 0);
    assert_int_equal(rtm_inodes_bytes(t), empty);
    rtm_inodes_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(numbers_are_stable_and_counted),
        cmocka_unit_test(a_new_version_is_a_new_number),
        cmocka_unit_test(held_numbers_survive_collisions),
        cmocka_unit_test(grows_past_its_first_size),
        cmocka_unit_test(each_visits_every_number),
        cmocka_unit_test(concurrent_lookups_and_forgets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
