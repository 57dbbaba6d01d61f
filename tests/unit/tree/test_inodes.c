/* test_inodes.c - the inode table: numbers stable across forgets, a new
 * number for a new version, lookup counts, collisions, memory accounting,
 * and concurrent use (also run under ThreadSanitizer: make tsan). */
#include <errno.h>
#include <pthread.h>

#include "testutil.h"
#include "inodes.h"

static const struct rtm_fileid V1 = { .dev = 1, .ino = 2, .size = 3, .mtime_ns = 4, .ctime_ns = 5 },
                               V2 = { .dev = 1, .ino = 2, .size = 3, .mtime_ns = 4, .ctime_ns = 6 };
static const char AUX[RTM_INO_AUX] = "the caller's bytes about a head, 40";

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

/* A family: the head's number leaves the member bits clear, members are
 * numbers of their own family with no node of their own, their lookups keep the head alive,
 * and their path is the head's. */
static void families_number_members_without_nodes(void **state)
{
    (void)state;
    struct rtm_inodes *t = rtm_inodes_new(same_hash);
    uint64_t other = rtm_inodes_ref(t, "sub", &RTM_FILEID_NONE);
    uint64_t h = rtm_inodes_ref_head(t, "walk.rtm", &V1, AUX);
    assert_int_equal(other, 1000);
    assert_int_equal(h, RTM_INO_FAMILY | 1000);   /* the family in the low bits */
    assert_int_equal(rtm_ino_member(h), 0);
    assert_int_equal(rtm_ino_head(h), h);
    assert_int_equal(rtm_ino_member(other), 0);
    assert_int_equal(rtm_ino_head(other), other);
    size_t bytes = rtm_inodes_bytes(t);
    for (uint64_t k = 1; k <= 100000; k++) {
        uint64_t m = rtm_inodes_ref_member(t, h, k);
        assert_int_equal(m, rtm_ino_in_family(h, k));
        assert_int_equal(m & (RTM_INO_HEADS - 1), 1000);
        assert_int_equal(rtm_ino_member(m), k);
        assert_int_equal(rtm_ino_head(m), h);
    }
    uint64_t last = rtm_ino_in_family(h, RTM_INO_MEMBERS - 1);
    assert_int_equal(rtm_inodes_ref_member(t, h, RTM_INO_MEMBERS - 1), last);
    assert_int_equal(rtm_ino_head(last), h);
    assert_int_equal(rtm_inodes_bytes(t), bytes);            /* no memory a member */
    assert_int_equal(rtm_inodes_count(t), 2);
    char path[64];
    struct rtm_fileid id;
    assert_int_equal(rtm_inodes_path(t, rtm_ino_in_family(h, 7), path, sizeof path, &id), 0);
    assert_string_equal(path, "walk.rtm");
    assert_true(rtm_fileid_same(&id, &V1));
    char aux[RTM_INO_AUX];
    assert_int_equal(rtm_inodes_aux(t, rtm_ino_in_family(h, 7), aux), 0);
    assert_memory_equal(aux, AUX, sizeof aux);
    assert_int_equal(rtm_inodes_aux(t, other, aux), -ENOENT);       /* no head */
    /* the head's own lookup goes; its members keep it */
    rtm_inodes_forget(t, h, 1);
    assert_int_equal(rtm_inodes_find(t, "walk.rtm", &V1), h);
    for (uint64_t k = 1; k <= 100000; k++)
        rtm_inodes_forget(t, rtm_ino_in_family(h, k), 1);
    assert_int_equal(rtm_inodes_find(t, "walk.rtm", &V1), h);
    rtm_inodes_forget(t, last, 1);
    assert_int_equal(rtm_inodes_find(t, "walk.rtm", &V1), 0);
    assert_int_equal(rtm_inodes_path(t, rtm_ino_in_family(h, 7), path, sizeof path, &id), -ENOENT);
    assert_int_equal(rtm_inodes_ref_member(t, h, 7), 0);    /* a dead head */
    /* a member of no family: nothing, never a neighbour's path */
    assert_int_equal(rtm_inodes_path(t, other + 1, path, sizeof path, &id), -ENOENT);
    rtm_inodes_forget(t, other, 1);
    rtm_inodes_free(t);
}

/* Heads that hash alike take the next family; a held head is found by the
 * lookup that follows, and regular numbers never enter family space. */
static void colliding_heads_take_the_next_family(void **state)
{
    (void)state;
    struct rtm_inodes *t = rtm_inodes_new(same_hash);
    uint64_t a = rtm_inodes_hold_head(t, "a.rtm", &V1, AUX);
    uint64_t b = rtm_inodes_ref_head(t, "b.rtm", &V1, AUX);
    assert_int_equal(b, a + 1);
    assert_int_equal(rtm_inodes_ref_head(t, "a.rtm", &V1, AUX), a);
    assert_int_equal(rtm_inodes_ref_member(t, a, 3), rtm_ino_in_family(a, 3));
    rtm_inodes_release(t, a);
    rtm_inodes_forget(t, a, 1);
    assert_int_equal(rtm_inodes_find(t, "a.rtm", &V1), a);  /* its member */
    rtm_inodes_forget(t, rtm_ino_in_family(a, 3), 1);
    assert_int_equal(rtm_inodes_find(t, "a.rtm", &V1), 0);
    rtm_inodes_forget(t, b, 1);
    rtm_inodes_free(t);
}

static uint64_t top_hash(const char *path, const struct rtm_fileid *id)
{
    (void)path;
    (void)id;
    return UINT64_MAX;
}

static void numbers_stay_in_their_space(void **state)
{
    (void)state;
    struct rtm_inodes *t = rtm_inodes_new(top_hash);
    uint64_t a = rtm_inodes_ref(t, "x", &RTM_FILEID_NONE);
    uint64_t b = rtm_inodes_ref(t, "y", &RTM_FILEID_NONE);
    assert_int_equal(a, ~RTM_INO_FAMILY);
    assert_int_equal(b, 2);                     /* wrapped past 0 and the root */
    uint64_t h1 = rtm_inodes_ref_head(t, "a.rtm", &V1, AUX);
    uint64_t h2 = rtm_inodes_ref_head(t, "b.rtm", &V1, AUX);
    assert_int_equal(h1, RTM_INO_FAMILY | (RTM_INO_HEADS - 1));
    assert_int_equal(h2, RTM_INO_FAMILY);       /* wrapped within family space */
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
            /* a family: its member keeps it while its head is forgotten */
            snprintf(p, sizeof p, "family/%d.rtm", i);
            uint64_t h = rtm_inodes_ref_head(w->t, p, &V1, AUX);
            uint64_t m = rtm_inodes_ref_member(w->t, h, (uint64_t)w->id + 1);
            assert_int_equal(m, rtm_ino_in_family(h, (uint64_t)w->id + 1));
            rtm_inodes_forget(w->t, h, 1);
            assert_int_equal(rtm_inodes_path(w->t, m, back, sizeof back, &id), 0);
            assert_string_equal(back, p);
            rtm_inodes_forget(w->t, m, 1);
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

/* Miscounts (a number never given, forgotten too often, a member held)
 * are counted and survived, never aborted on; the table goes on working. */
static void miscounts_are_survived(void **state)
{
    (void)state;
    struct rtm_inodes *t = rtm_inodes_new(NULL);
    assert_non_null(t);
    uint64_t a = rtm_inodes_ref(t, "walk.rtm", &V1);
    rtm_inodes_forget(t, a + 12345, 1);                   /* never given */
    assert_int_equal(rtm_inodes_miscounts(t), 1);
    assert_int_equal(rtm_inodes_find(t, "walk.rtm", &V1), a);
    rtm_inodes_forget(t, a, 3);                           /* once counted */
    assert_int_equal(rtm_inodes_miscounts(t), 2);
    assert_int_equal(rtm_inodes_find(t, "walk.rtm", &V1), 0);
    char aux[RTM_INO_AUX] = { 0 };
    uint64_t h = rtm_inodes_ref_head(t, "run.rtm", &V1, aux);
    uint64_t m = rtm_inodes_ref_member(t, h, 5);
    rtm_inodes_release(t, m);                             /* members are never held */
    assert_int_equal(rtm_inodes_miscounts(t), 3);
    assert_int_equal(rtm_inodes_ref_member(t, h, RTM_INO_MEMBERS), 0);
    assert_int_equal(rtm_inodes_ref(t, "", &V1), RTM_INO_ROOT);
    rtm_inodes_forget(t, m, 1);
    rtm_inodes_forget(t, h, 1);
    assert_int_equal(rtm_inodes_count(t), 0);
    assert_int_equal(rtm_inodes_miscounts(t), 3);
    rtm_inodes_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(numbers_are_stable_and_counted),
        cmocka_unit_test(a_new_version_is_a_new_number),
        cmocka_unit_test(held_numbers_survive_collisions),
        cmocka_unit_test(families_number_members_without_nodes),
        cmocka_unit_test(colliding_heads_take_the_next_family),
        cmocka_unit_test(numbers_stay_in_their_space),
        cmocka_unit_test(grows_past_its_first_size),
        cmocka_unit_test(each_visits_every_number),
        cmocka_unit_test(concurrent_lookups_and_forgets),
        cmocka_unit_test(miscounts_are_survived),
    };
    return run_test_cases(tests, NULL, NULL);
}
