/* test_view_table.c - the view table (view_table.c) agrees with itself
 * and with rendering: every kind's name leads back to it, the folders' and
 * timed views' numbers round-trip, a view renders from a shallower parse
 * exactly when its depth says it may, exactly the timed views change with
 * a timing, and the views that need pivots are the ones an anim without
 * them lacks. */
#include "testutil.h"
#include "views_testutil.h"

#include "shape.h"
#include "timing.h"

/* ---- names and numbers -------------------------------------------------- */

/* A fixed view's name is its file's; a folder's name and every path in it
 * lead back to the folder's kind, from the name alone and through an anim
 * that has every view. */
static void names_round_trip(void **state)
{
    (void)state;
    struct rtm_anim *a = bmtr_anim(5, 4, 30, 1);     /* ofp2: pivots */
    for (int k = 0; k < RTM_NVIEW_KINDS; k++) {
        enum rtm_view_kind kind = (enum rtm_view_kind)k, back;
        const char *fixed = rtm_view_fixed_name(kind), *folder = rtm_view_folder_name(kind);
        assert_true((fixed != NULL) != (folder != NULL));
        assert_int_equal(fixed != NULL, k < RTM_NFIXED_VIEWS);
        const char *name = fixed ? fixed : folder;
        assert_int_equal(rtm_view_name_kind(name, &back), 0);
        assert_int_equal(back, kind);
        struct rtm_view v = { .kind = kind }, found;
        char path[RTM_VIEW_PATH_MAX];
        rtm_view_path(a, v, path);
        assert_int_equal(rtm_view_lookup(a, path, &found), 0);
        assert_int_equal(found.kind, kind);
        assert_int_equal(rtm_view_name_kind(path, &back), 0);
        assert_int_equal(back, kind);
        assert_int_equal(rtm_view_at(a, rtm_view_index(a, v)).kind, kind);
    }
    enum rtm_view_kind k;
    assert_int_equal(rtm_view_name_kind("frame", &k), -1);
    assert_int_equal(rtm_view_name_kind("header.txt/x", &k), -1);
    assert_int_equal(rtm_view_name_kind("", &k), -1);
    rtm_free(a);
}

/* Folders and timed views are numbered 0, 1, ... in enum order, and each
 * number leads back to its kind. */
static void ordinals_round_trip(void **state)
{
    (void)state;
    int folders = 0, timed = 0;
    for (int k = 0; k < RTM_NVIEW_KINDS; k++) {
        enum rtm_view_kind kind = (enum rtm_view_kind)k;
        int f = rtm_view_folder_ordinal(kind), t = rtm_view_timed_slot(kind);
        assert_int_equal(f >= 0, rtm_view_folder_name(kind) != NULL);
        if (f >= 0) {
            assert_int_equal(f, folders++);
            assert_int_equal(rtm_view_folder_kind((size_t)f), kind);
        }
        assert_int_equal(t >= 0, rtm_view_timed(kind));
        if (t >= 0) {
            assert_int_equal(t, timed++);
            assert_int_equal(rtm_view_timed_kind((size_t)t), kind);
        }
    }
    assert_int_equal(folders, RTM_NFOLDER_KINDS);
    assert_int_equal(timed, RTM_NTIMED_VIEWS);
    assert_int_equal(rtm_view_folder_ordinal((enum rtm_view_kind)RTM_NVIEW_KINDS), -1);
    assert_int_equal(rtm_view_timed_slot((enum rtm_view_kind)RTM_NVIEW_KINDS), -1);
}

/* ---- depth -------------------------------------------------------------- */

/* Renders v of a into a new string, or NULL when rendering fails. */
static char *try_render(const struct rtm_anim *a, struct rtm_view v)
{
    struct rtm_buf b;
    rtm_buf_init(&b);
    if (rtm_view_render(a, v, &b)) {
        rtm_buf_free(&b);
        return NULL;
    }
    rtm_buf_putc(&b, 0);
    return rtm_buf_take(&b, NULL);
}

/* Every view of full renders from the shallower anim at depth as it does
 * from full when its row's depth is at most that, and fails when it needs
 * more (the anim's depth says what it lacks, a shape's too). */
static void expect_depth(const struct rtm_anim *full, const struct rtm_anim *shallow,
                         enum rtm_depth depth)
{
    for (size_t i = 0; i < rtm_view_count(full); i++) {
        struct rtm_view v = rtm_view_at(full, i);
        char path[RTM_VIEW_PATH_MAX];
        rtm_view_path(full, v, path);
        enum rtm_depth need = rtm_view_depth(v.kind);
        assert_int_equal(rtm_view_needs_matrices(v), need == RTM_DEPTH_FULL);
        char *got = try_render(shallow, v);
        if (need <= depth) {
            char *want = render(full, v, NULL);
            if (!got || strcmp(got, want) != 0)
                fail_msg("%s: rendered otherwise from depth %d", path, (int)depth);
            free(want);
        } else if (got) {
            fail_msg("%s: rendered from depth %d", path, (int)depth);
        }
        free(got);
    }
}

static void depth_agrees_with_rendering(void **state)
{
    (void)state;
    struct sample_opts o = { 7, 70, 5, 2 };
    struct rtm_skeleton *sk;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_open("ofp2", &sk, &err), 0);
    for (int k = 0; k < 2; k++) {
        struct rtm_buf b, rec;
        rtm_buf_init(&b);
        rtm_buf_init(&rec);
        assert_int_equal(k == 0 ? rtm_sample_plain(&o, &b)
                                : rtm_sample_bmtr(&o, 5, BMTR_COMPRESS_ALL, &b), 0);
        struct rtm_anim *full, *light, *shape;
        uint64_t *sizes;
        char error[64];
        assert_int_equal(rtm_parse_flags((uint8_t *)b.p, b.len, sk, 0, &full, &err), 0);
        assert_int_equal(rtm_parse_flags((uint8_t *)b.p, b.len, sk, RTM_PARSE_NO_MATRICES,
                                         &light, &err), 0);
        assert_int_equal(rtm_shape_encode(full, NULL, "", &rec), 0);
        assert_int_equal(rtm_shape_decode(rec.p, rec.len, &shape, &sizes, error, sizeof error),
                         0);
        assert_int_equal(light->depth, RTM_DEPTH_LIGHT);
        assert_int_equal(shape->depth, RTM_DEPTH_SHAPE);
        expect_depth(full, light, RTM_DEPTH_LIGHT);
        expect_depth(full, shape, RTM_DEPTH_SHAPE);
        rtm_free(full);
        rtm_free(light);
        rtm_free(shape);
        free(sizes);
        rtm_buf_free(&b);
        rtm_buf_free(&rec);
    }
    rtm_skeleton_free(sk);
}

/* ---- timing, pivots, streaming ------------------------------------------ */

/* A timing changes exactly the timed views' bytes, to the size
 * rtm_view_timed_size gives. */
static void timed_agrees_with_rendering(void **state)
{
    (void)state;
    struct rtm_anim *a = bmtr_anim(5, 6, 30, 1);
    struct rtm_timing_state st = { "Cfg/States/A", "0.06", 1, 0.06 };
    struct rtm_timing tm;
    rtm_timing_decide(&st, 1, a->nframes, &tm);
    assert_false(rtm_timing_empty(&tm));
    for (size_t i = 0; i < rtm_view_count(a); i++) {
        struct rtm_view v = rtm_view_at(a, i);
        size_t n;
        char *untimed = render(a, v, &n);
        struct rtm_buf b;
        rtm_buf_init(&b);
        assert_int_equal(rtm_view_render_timed(a, v, &tm, &b), 0);
        int same = b.len == n && memcmp(b.p, untimed, n) == 0;
        assert_int_equal(!same, rtm_view_timed(v.kind));
        uint64_t size;
        assert_int_equal(rtm_view_timed_size(a, v, &tm, n, &size), 0);
        assert_int_equal(size, b.len);
        rtm_buf_free(&b);
        free(untimed);
    }
    rtm_free(a);
}

/* Whether a lists a view of kind. */
static int lists(const struct rtm_anim *a, enum rtm_view_kind kind)
{
    for (size_t i = 0; i < rtm_view_count(a); i++)
        if (rtm_view_at(a, i).kind == kind)
            return 1;
    return 0;
}

/* Without pivots an anim lacks anim.bvh, anim.glb and joints/, and only those; the
 * fixed views it has are still the first kinds. */
static void pivots_agree_with_listing(void **state)
{
    (void)state;
    struct rtm_buf src;
    struct rtm_anim *with = bmtr_anim(5, 3, 30, 0), *without = plain_anim(0, &src);
    assert_non_null(with->pivot);
    assert_null(without->pivot);
    for (int k = 0; k < RTM_NVIEW_KINDS; k++) {
        enum rtm_view_kind kind = (enum rtm_view_kind)k;
        assert_true(lists(with, kind));
        assert_int_equal(lists(without, kind), kind != RTM_VIEW_BVH && kind != RTM_VIEW_GLB &&
                                                  kind != RTM_VIEW_JOINTS);
    }
    for (size_t i = 0; i < rtm_view_nfixed(without); i++)
        assert_int_equal(rtm_view_at(without, i).kind, (enum rtm_view_kind)i);
    rtm_free(with);
    rtm_free(without);
    rtm_buf_free(&src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_round_trip),
        cmocka_unit_test(ordinals_round_trip),
        cmocka_unit_test(depth_agrees_with_rendering),
        cmocka_unit_test(timed_agrees_with_rendering),
        cmocka_unit_test(pivots_agree_with_listing),
    };
    return run_test_cases(tests, NULL, NULL);
}
