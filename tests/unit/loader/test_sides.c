/* test_sides.c - the list of files beside an animation (sides.h): which
 * animations each applies to, where it lies beside one, the name rule
 * (exactly so on disk, any case beside an archive's entry), and the salt,
 * whose values a persistent index remembers and so must stay what they
 * were when the model.cfg and the bvh.map each had a helper of their own. */
#include "testutil.h"
#include "loader.h"

static struct rtm_fileid id_of(uint64_t ino)
{
    return (struct rtm_fileid){ .dev = 3, .ino = ino, .size = 100 + ino, .mtime_ns = 7 };
}

static void applies_as_listed(void **state)
{
    (void)state;
    assert_true(rtm_side_wanted(RTM_SIDE_MODEL_CFG, "a/walk.rtm", 10, 0));
    assert_false(rtm_side_wanted(RTM_SIDE_MODEL_CFG, "a/walk.rtm", 10, 1));
    assert_true(rtm_side_wanted(RTM_SIDE_MODEL_CFG, "a/walk.bvh", 10, 0));
    assert_true(rtm_side_wanted(RTM_SIDE_BVH_MAP, "a/walk.BVH", 10, 0));
    assert_true(rtm_side_wanted(RTM_SIDE_BVH_MAP, "a/walk.bvh", 10, 1));
    assert_false(rtm_side_wanted(RTM_SIDE_BVH_MAP, "a/walk.rtm", 10, 0));
}

static void beside_in_the_folder(void **state)
{
    (void)state;
    char out[32];
    assert_int_equal(rtm_side_beside(RTM_SIDE_MODEL_CFG, "dir/sub/walk.rtm", 16, out, sizeof out), 0);
    assert_string_equal(out, "dir/sub/model.cfg");
    assert_int_equal(rtm_side_beside(RTM_SIDE_BVH_MAP, "walk.bvh", 8, out, sizeof out), 0);
    assert_string_equal(out, "bvh.map");
    /* only the first len bytes are the path */
    assert_int_equal(rtm_side_beside(RTM_SIDE_BVH_MAP, "d/w.bvh/x/y", 7, out, sizeof out), 0);
    assert_string_equal(out, "d/bvh.map");
    assert_int_equal(rtm_side_beside(RTM_SIDE_MODEL_CFG, "long/folder/walk.rtm", 20, out, 12), -1);
}

static void one_name_rule(void **state)
{
    (void)state;
    assert_int_equal(rtm_side_named("model.cfg", RTM_SIDE_ON_DISK), RTM_SIDE_MODEL_CFG);
    assert_int_equal(rtm_side_named("bvh.map", RTM_SIDE_ON_DISK), RTM_SIDE_BVH_MAP);
    assert_int_equal(rtm_side_named("Model.cfg", RTM_SIDE_ON_DISK), -1);
    assert_int_equal(rtm_side_named("BVH.MAP", RTM_SIDE_ON_DISK), -1);
    assert_int_equal(rtm_side_named("Model.cfg", RTM_SIDE_IN_ARCHIVE), RTM_SIDE_MODEL_CFG);
    assert_int_equal(rtm_side_named("BVH.MAP", RTM_SIDE_IN_ARCHIVE), RTM_SIDE_BVH_MAP);
    assert_int_equal(rtm_side_named("config.cpp", RTM_SIDE_IN_ARCHIVE), -1);
    assert_int_equal(rtm_side_named(NULL, RTM_SIDE_ON_DISK), -1);
}

/* The salt as it was written for the pair: the model.cfg's hash, xor the
 * map's mixed when there is one. */
static uint64_t pair_salt(const struct rtm_fileid *model, const struct rtm_fileid *map)
{
    uint64_t salt = rtm_fileid_hash(model), m = rtm_fileid_hash(map);
    return m ? salt ^ (m * 0xbf58476d1ce4e5b9ull | 1) : salt;
}

static void salt_as_before(void **state)
{
    (void)state;
    struct rtm_fileid none = RTM_FILEID_NONE, a = id_of(1), b = id_of(2);
    const struct rtm_fileid *cases[][2] = { { &none, &none }, { &a, &none }, { &none, &b },
                                            { &a, &b }, { &a, &a } };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct rtm_fileid ids[RTM_NSIDES] = { [RTM_SIDE_MODEL_CFG] = *cases[i][0],
                                              [RTM_SIDE_BVH_MAP] = *cases[i][1] };
        assert_true(rtm_loader_salt(ids) == pair_salt(cases[i][0], cases[i][1]));
    }
    struct rtm_fileid ids[RTM_NSIDES] = { [RTM_SIDE_MODEL_CFG] = a };
    assert_true(rtm_loader_salt(ids) != 0);
    ids[RTM_SIDE_BVH_MAP] = a;          /* one version in two rows: no cancelling */
    assert_true(rtm_loader_salt(ids) != 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(applies_as_listed),
        cmocka_unit_test(beside_in_the_folder),
        cmocka_unit_test(one_name_rule),
        cmocka_unit_test(salt_as_before),
    };
    return run_test_cases(tests, NULL, NULL);
}
