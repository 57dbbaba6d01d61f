/* test_depth.c - an anim's depth (rtm.h: enum rtm_depth) is what its maker
 * documents, and the views ask nothing else: each maker (a full parse, a
 * light parse, a head parse, a shape from the index, an anim filled by
 * hand) sets its depth, and every view deeper than the anim refuses to
 * render, be timed or sized from it, while every view as deep or
 * shallower renders. */
#include "testutil.h"
#include "views_testutil.h"

#include "shape.h"

/* Plain (k 0) or BMTR v5 (k 1) sample bytes, of an ofp2 skeleton's bones. */
static void sample(int k, struct rtm_buf *b)
{
    struct sample_opts o = { 5, 12, 3, 2 };
    rtm_buf_init(b);
    assert_int_equal(k == 0 ? rtm_sample_plain(&o, b)
                            : rtm_sample_bmtr(&o, 5, BMTR_COMPRESS_ALL, b), 0);
}

static struct rtm_anim *parsed(const struct rtm_buf *b, const struct rtm_skeleton *sk,
                               unsigned flags)
{
    struct rtm_anim *a;
    struct rtm_error err;
    assert_int_equal(rtm_parse_flags((const uint8_t *)b->p, b->len, sk, flags, &a, &err), 0);
    return a;
}

static struct rtm_anim *head_parsed(const struct rtm_buf *b, const struct rtm_skeleton *sk)
{
    struct rtm_parse_opts o = { .skel = sk };
    struct rtm_anim *a;
    struct rtm_error err;
    uint64_t need;
    assert_int_equal(rtm_parse_head((const uint8_t *)b->p, b->len, b->len, &o, &a, &need,
                                    &err), 0);
    return a;
}

/* The shape the index would remember of a, decoded as the loader does. */
static struct rtm_anim *shape_of(const struct rtm_anim *a)
{
    struct rtm_buf rec;
    struct rtm_anim *s;
    uint64_t *sizes;
    char error[64];
    rtm_buf_init(&rec);
    assert_int_equal(rtm_shape_encode(a, NULL, "", &rec), 0);
    assert_int_equal(rtm_shape_decode(rec.p, rec.len, &s, &sizes, error, sizeof error), 0);
    assert_non_null(s);
    free(sizes);
    rtm_buf_free(&rec);
    return s;
}

static void makers_set_their_depth(void **state)
{
    (void)state;
    struct rtm_skeleton *sk;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_open("ofp2", &sk, &err), 0);
    for (int k = 0; k < 2; k++) {
        struct rtm_buf b;
        sample(k, &b);
        struct rtm_anim *full = parsed(&b, sk, 0), *light = parsed(&b, sk, RTM_PARSE_NO_MATRICES);
        struct rtm_anim *head = head_parsed(&b, sk), *shape = shape_of(full);
        assert_int_equal(full->depth, RTM_DEPTH_FULL);
        assert_int_equal(light->depth, RTM_DEPTH_LIGHT);
        assert_int_equal(head->depth, RTM_DEPTH_SHAPE);
        assert_int_equal(shape->depth, RTM_DEPTH_SHAPE);
        /* what each depth documents it holds */
        assert_non_null(full->source);
        assert_null(light->source);
        assert_non_null(full->tracks);
        assert_non_null(light->tracks);
        assert_non_null(head->tracks);
        assert_non_null(shape->tracks);
        rtm_free(full);
        rtm_free(light);
        rtm_free(head);
        rtm_free(shape);
        rtm_buf_free(&b);
    }
    rtm_skeleton_free(sk);
    /* by hand: the depth asked for, matrices only when full */
    for (int d = RTM_DEPTH_SHAPE; d <= RTM_DEPTH_FULL; d++) {
        struct rtm_anim *a = rtm_anim_alloc(RTM_FORMAT_PLAIN, 2, 3, 0, 8, (enum rtm_depth)d);
        assert_non_null(a);
        assert_int_equal(a->depth, d);
        rtm_free(a);
    }
    struct rtm_anim *c = counts_only(3);        /* the tests' fixture */
    assert_int_equal(c->depth, RTM_DEPTH_FULL);
    rtm_free(c);
}

/* Every view of a renders exactly when its depth is at most a's; the
 * deeper ones also refuse to be timed. */
static void expect_refusals(const struct rtm_anim *a)
{
    for (size_t i = 0; i < rtm_view_count(a); i++) {
        struct rtm_view v = rtm_view_at(a, i);
        char path[RTM_VIEW_PATH_MAX];
        rtm_view_path(a, v, path);
        int deeper = rtm_view_depth(v.kind) > a->depth;
        struct rtm_buf b;
        rtm_buf_init(&b);
        if (rtm_view_render(a, v, &b) != (deeper ? -1 : 0))
            fail_msg("%s of depth %d: %s", path, (int)a->depth,
                     deeper ? "rendered" : "refused");
        if (deeper && rtm_view_render_timed(a, v, NULL, &b) != -1)
            fail_msg("%s of depth %d: rendered timed", path, (int)a->depth);
        uint64_t size;
        if (deeper && rtm_view_timed_size(a, v, NULL, 0, &size) != -1)
            fail_msg("%s of depth %d: timed", path, (int)a->depth);
        rtm_buf_free(&b);
    }
    uint64_t *sizes = calloc(rtm_view_count(a) + 1, sizeof *sizes);
    assert_non_null(sizes);
    assert_int_equal(rtm_view_sizes(a, sizes), a->depth == RTM_DEPTH_FULL ? 0 : -1);
    free(sizes);
}

static void deeper_views_refuse(void **state)
{
    (void)state;
    struct rtm_skeleton *sk;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_open("ofp2", &sk, &err), 0);
    for (int k = 0; k < 2; k++) {
        struct rtm_buf b;
        sample(k, &b);
        struct rtm_anim *full = parsed(&b, sk, 0), *light = parsed(&b, sk, RTM_PARSE_NO_MATRICES);
        struct rtm_anim *head = head_parsed(&b, sk), *shape = shape_of(full);
        expect_refusals(full);
        expect_refusals(light);
        expect_refusals(head);
        expect_refusals(shape);
        /* The depth alone decides, not the fields: a full anim said to be
         * light refuses its FULL views though it holds their matrices. */
        full->depth = RTM_DEPTH_LIGHT;
        expect_refusals(full);
        full->depth = RTM_DEPTH_SHAPE;
        expect_refusals(full);
        full->depth = RTM_DEPTH_FULL;
        rtm_free(full);
        rtm_free(light);
        rtm_free(head);
        rtm_free(shape);
        rtm_buf_free(&b);
    }
    rtm_skeleton_free(sk);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(makers_set_their_depth),
        cmocka_unit_test(deeper_views_refuse),
    };
    return run_test_cases(tests, NULL, NULL);
}
