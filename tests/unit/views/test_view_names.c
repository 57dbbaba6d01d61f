/* test_view_names.c - view names and lookup (views.h): the fixed names and
 * their order, frames/NNN.csv's width, the paths lookup refuses, the
 * escaped names of tracks/, and which views need a full parse.  The
 * rendered bytes: test_views; views that agree with each other and their
 * sizes: test_views_agree. */
#include "testutil.h"
#include "views_testutil.h"

/* ---- names and lookup -------------------------------------------------- */

static void fixed_names(void **state)
{
    (void)state;
    static const char *const want[] = { "header.txt", "bones.txt", "phases.csv",
                                        "props.json", "plain.rtm", "bmtr.rtm", "fixed.rtm",
                                        "skeleton.txt",
                                        "moving.txt", "preview.svg", "check.txt",
                                        "anim.bvh", "anim.glb" };
    for (int k = 0; k < RTM_NFIXED_VIEWS; k++)
        assert_string_equal(rtm_view_fixed_name((enum rtm_view_kind)k), want[k]);
    assert_null(rtm_view_fixed_name(RTM_VIEW_FRAME));

    struct rtm_anim *a = counts_only(12);
    assert_int_equal(rtm_view_count(a), RTM_VIEW_BVH + 12);  /* no pivots: no anim.bvh, anim.glb, joints/ */
    char path[RTM_VIEW_PATH_MAX];
    for (size_t i = 0; i < rtm_view_count(a); i++) {
        struct rtm_view v = rtm_view_at(a, i), back;
        rtm_view_path(a, v, path);
        if (i < RTM_VIEW_BVH) {
            assert_int_equal(v.kind, (enum rtm_view_kind)i);
            assert_string_equal(path, want[i]);
        } else {
            assert_int_equal(v.kind, RTM_VIEW_FRAME);
            assert_int_equal(v.frame, i - RTM_VIEW_BVH);
        }
        assert_int_equal(rtm_view_lookup(a, path, &back), 0);
        assert_int_equal(back.kind, v.kind);
        if (v.kind == RTM_VIEW_FRAME)
            assert_int_equal(back.frame, v.frame);
    }
    rtm_view_path(a, rtm_view_at(a, RTM_VIEW_BVH), path);
    assert_string_equal(path, "frames/000.csv");
    rtm_view_path(a, rtm_view_at(a, RTM_VIEW_BVH + 11), path);
    assert_string_equal(path, "frames/011.csv");
    struct rtm_view none;
    assert_int_equal(rtm_view_lookup(a, "joints/000.csv", &none), -1);
    rtm_free(a);

    a = counts_only(0);
    assert_int_equal(rtm_view_count(a), RTM_VIEW_BVH);
    struct rtm_view v;
    assert_int_equal(rtm_view_lookup(a, "anim.bvh", &v), -1);
    assert_int_equal(rtm_view_lookup(a, "frames/000.csv", &v), -1);
    assert_int_equal(rtm_view_lookup(a, "header.txt", &v), 0);
    rtm_free(a);
}

/* Frame names are zero-padded to 3 digits, or to the digits of the last
 * index when that has more. */
static void frame_name_width(void **state)
{
    (void)state;
    static const struct { uint32_t nframes; const char *first, *last; } cases[] = {
        { 1, "frames/000.csv", "frames/000.csv" },
        { 1000, "frames/000.csv", "frames/999.csv" },
        { 1001, "frames/0000.csv", "frames/1000.csv" },
        { 10000, "frames/0000.csv", "frames/9999.csv" },
        { 10001, "frames/00000.csv", "frames/10000.csv" },
    };
    char path[RTM_VIEW_PATH_MAX], name[RTM_VIEW_PATH_MAX];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct rtm_anim *a = counts_only(cases[i].nframes);
        struct rtm_view v = { .kind = RTM_VIEW_FRAME, .frame = 0 }, got;
        rtm_view_path(a, v, path);
        assert_string_equal(path, cases[i].first);
        v.frame = cases[i].nframes - 1;
        rtm_view_path(a, v, path);
        assert_string_equal(path, cases[i].last);
        rtm_frame_name(a, v.frame, name);
        assert_string_equal(name, cases[i].last + 7);
        assert_int_equal(rtm_view_lookup(a, cases[i].last, &got), 0);
        assert_int_equal(got.kind, RTM_VIEW_FRAME);
        assert_int_equal(got.frame, cases[i].nframes - 1);
        uint32_t f = 0;
        assert_int_equal(rtm_frame_lookup(a, cases[i].last + 7, &f), 0);
        assert_int_equal(f, cases[i].nframes - 1);
        rtm_free(a);
    }
}

static void lookup_rejects(void **state)
{
    (void)state;
    struct rtm_anim *a = counts_only(1000); /* width 3, last frame 999 */
    static const char *const bad3[] = {
        "frames/5.csv", "frames/05.csv", "frames/0005.csv", "frames/1000.csv",
        "nope", "", "frames", "frames/", "frames/.csv", "frames/00a.csv",
        "frames/-01.csv", "frames/+01.csv", "frames/ 01.csv", "frames/000.CSV",
        "frames/000.csv.bak", "frames/000.csvx", "frames/000.cs", "frames000.csv",
        "/header.txt", "header.txt/", "HEADER.TXT", "header.txt\n", "frames//000.csv",
        "Frames/000.csv", "frames/000",
    };
    struct rtm_view v;
    for (size_t i = 0; i < sizeof bad3 / sizeof bad3[0]; i++)
        if (rtm_view_lookup(a, bad3[i], &v) == 0)
            fail_msg("\"%s\" was accepted", bad3[i]);
    assert_int_equal(rtm_view_lookup(a, "frames/999.csv", &v), 0);
    assert_int_equal(v.frame, 999);
    assert_int_equal(rtm_view_lookup(a, "frames/005.csv", &v), 0);
    assert_int_equal(v.frame, 5);
    uint32_t f;
    assert_int_equal(rtm_frame_lookup(a, "012.csv", &f), 0);
    assert_int_equal(f, 12);
    assert_int_equal(rtm_frame_lookup(a, "12.csv", &f), -1);
    rtm_free(a);

    a = counts_only(1001); /* width 4: the 3-digit names are gone */
    assert_int_equal(rtm_view_lookup(a, "frames/005.csv", &v), -1);
    assert_int_equal(rtm_view_lookup(a, "frames/0005.csv", &v), 0);
    assert_int_equal(v.frame, 5);
    assert_int_equal(rtm_view_lookup(a, "frames/1001.csv", &v), -1);
    assert_int_equal(rtm_view_lookup(a, "frames/9999.csv", &v), -1);
    rtm_free(a);
}

/* File names of the awkward bones: escaped as bones.txt escapes, found
 * exactly and ignoring case, and listed in file order. */
static void track_names(void **state)
{
    (void)state;
    struct rtm_buf src;
    struct rtm_anim *a = plain_anim(0, &src);
    static const char *const want[NB] = { "Pelvis.csv", "x,y.csv", "say \"hi\".csv",
                                          "back\\x5cslash\\xe9.csv", "Head.csv" };
    char name[RTM_VIEW_NAME_MAX], path[RTM_VIEW_PATH_MAX];
    enum rtm_view_kind kind;
    assert_int_equal(rtm_view_folder_lookup(a, "tracks", &kind), 0);
    assert_int_equal(kind, RTM_VIEW_TRACK);
    for (uint32_t b = 0; b < NB; b++) {
        rtm_view_entry_name(a, RTM_VIEW_TRACK, b, name);
        assert_string_equal(name, want[b]);
        struct rtm_view v = { .kind = RTM_VIEW_TRACK, .bone = b }, back;
        rtm_view_path(a, v, path);
        assert_int_equal(rtm_view_lookup(a, path, &back), 0);
        assert_int_equal(back.kind, RTM_VIEW_TRACK);
        assert_int_equal(back.bone, b);
        assert_int_equal(rtm_view_index(a, v), rtm_view_nfixed(a) + NF + b);
    }
    struct rtm_view v;
    assert_int_equal(rtm_view_lookup(a, "tracks/PELVIS.csv", &v), 0);
    assert_int_equal(v.bone, 0);
    assert_int_equal(rtm_view_lookup(a, "tracks/head.CSV", &v), -1);
    assert_int_equal(rtm_view_lookup(a, "tracks/Pelvis", &v), -1);
    assert_int_equal(rtm_view_lookup(a, "tracks/", &v), -1);
    assert_int_equal(rtm_view_lookup(a, "tracks/.csv", &v), -1);
    rtm_free(a);
    rtm_buf_free(&src);
}

/* Which views need a full parse, and which a light one serves. */
static void views_that_need_matrices(void **state)
{
    (void)state;
    static const enum rtm_view_kind full[] = { RTM_VIEW_HEADER, RTM_VIEW_PLAIN, RTM_VIEW_REPAIRED,
                                               RTM_VIEW_MOVING, RTM_VIEW_PREVIEW, RTM_VIEW_CHECK,
                                               RTM_VIEW_BVH,
                                               RTM_VIEW_FRAME, RTM_VIEW_JOINTS, RTM_VIEW_TRACK };
    static const enum rtm_view_kind light[] = { RTM_VIEW_BONES, RTM_VIEW_PHASES, RTM_VIEW_PROPS,
                                                RTM_VIEW_SKELETON };
    for (size_t i = 0; i < sizeof full / sizeof *full; i++)
        if (!rtm_view_needs_matrices((struct rtm_view){ .kind = full[i] }))
            fail_msg("view kind %d should need matrices", (int)full[i]);
    for (size_t i = 0; i < sizeof light / sizeof *light; i++)
        if (rtm_view_needs_matrices((struct rtm_view){ .kind = light[i] }))
            fail_msg("view kind %d should not need matrices", (int)light[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fixed_names),
        cmocka_unit_test(frame_name_width),
        cmocka_unit_test(lookup_rejects),
        cmocka_unit_test(track_names),
        cmocka_unit_test(views_that_need_matrices),
    };
    return run_test_cases(tests, NULL, NULL);
}
