/* test_skelreg.c - the configs' skeletons by identity (skelreg.h): the
 * same skeleton and name give the same identity and one copy; another
 * name or other bones another; a copy keeps bones, parents and pivots;
 * an unknown identity gives NULL; puts and gets from two threads agree. */
#include "testutil.h"

#include <math.h>
#include <pthread.h>

#include "skelreg.h"

static struct rtm_skeleton *parsed(const char *text)
{
    struct rtm_skeleton *s;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_parse(text, strlen(text), "t", &s, &err), 0);
    return s;
}

static void identity_and_copy(void **state)
{
    (void)state;
    struct rtm_skelreg *r = rtm_skelreg_new();
    struct rtm_skeleton *ofp2, *two = parsed("pelvis -\nspine pelvis\n");
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_builtin("ofp2", &ofp2, &err), 0);
    uint64_t a = rtm_skelreg_put(r, ofp2, "Man (x)"), b = rtm_skelreg_put(r, ofp2, "Man (x)");
    uint64_t c = rtm_skelreg_put(r, ofp2, "Man (y)"), d = rtm_skelreg_put(r, two, "Man (x)");
    assert_true(a != 0 && a == b && a != c && a != d && c != d);
    const struct rtm_skeleton *k = rtm_skelreg_get(r, a);
    assert_non_null(k);
    assert_string_equal(k->name, "Man (x)");
    assert_int_equal(k->nbones, ofp2->nbones);
    for (uint32_t i = 0; i < k->nbones; i++) {
        assert_string_equal(k->bone[i], ofp2->bone[i]);
        assert_int_equal(k->parent[i], ofp2->parent[i]);
        for (int j = 0; j < 3; j++)
            assert_true(fabsf(k->pivot[i][j] - ofp2->pivot[i][j]) < 1e-6f);
    }
    assert_int_equal(rtm_skelreg_get(r, d)->nbones, 2);
    assert_null(rtm_skelreg_get(r, a ^ c ^ d));
    assert_null(rtm_skelreg_get(r, 0));
    rtm_skeleton_free(ofp2);
    rtm_skeleton_free(two);
    rtm_skelreg_free(r);
}

struct worker {
    struct rtm_skelreg *r;
    const struct rtm_skeleton *s;
    uint64_t ids[64];
};

static void *work(void *arg)
{
    struct worker *w = arg;
    for (int i = 0; i < 64; i++) {
        char name[16];
        snprintf(name, sizeof name, "n%d", i % 8);
        w->ids[i] = rtm_skelreg_put(w->r, w->s, name);
        if (!rtm_skelreg_get(w->r, w->ids[i]))
            w->ids[i] = 0;
    }
    return NULL;
}

static void two_threads_agree(void **state)
{
    (void)state;
    struct rtm_skelreg *r = rtm_skelreg_new();
    struct rtm_skeleton *two = parsed("pelvis -\nspine pelvis\n");
    struct worker w[2] = { { r, two, { 0 } }, { r, two, { 0 } } };
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&th[i], NULL, work, &w[i]), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < 64; i++)
        assert_true(w[0].ids[i] && w[0].ids[i] == w[1].ids[i] && w[0].ids[i] == w[0].ids[i % 8]);
    rtm_skeleton_free(two);
    rtm_skelreg_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(identity_and_copy),
        cmocka_unit_test(two_threads_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
