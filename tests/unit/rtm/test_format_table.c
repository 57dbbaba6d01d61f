/* test_format_table.c - the source formats' rows (format_table.h): a row
 * for every id, found by its id, its signature and its file name; the
 * message for bytes no row knows names every row's signature; a head
 * parse dispatches by the same rows as a full one. */
#include "testutil.h"
#include "format_table.h"

static void every_id_has_its_row(void **state)
{
    (void)state;
    for (uint64_t i = 0; i < RTM_NFORMATS; i++) {
        const struct rtm_format_row *f = rtm_format_by_id(i);
        assert_non_null(f);
        assert_int_equal(f->id, i);
        assert_non_null(f->name);
        assert_non_null(f->ext);
        assert_non_null(f->signature);
        assert_non_null(f->sniff);
        assert_non_null(f->read);
        assert_non_null(f->head);
        for (uint64_t j = 0; j < i; j++)
            assert_string_not_equal(rtm_format_by_id(j)->name, f->name);
    }
    assert_null(rtm_format_by_id(RTM_NFORMATS));
    assert_null(rtm_format_by_id(UINT64_MAX));
}

static const char *sniffed(const char *bytes)
{
    const struct rtm_format_row *f = rtm_format_sniff((const uint8_t *)bytes, strlen(bytes));
    return f ? f->name : "none";
}

static void signatures_pick_the_row(void **state)
{
    (void)state;
    assert_string_equal(sniffed("RTM_0101...."), "plain");
    assert_string_equal(sniffed("RTM_MDAT...."), "plain");
    assert_string_equal(sniffed("BMTR...."), "bmtr");
    assert_string_equal(sniffed("\n  hierarchy\nROOT Hips"), "bvh");
    assert_string_equal(sniffed("\xef\xbb\xbf \n{\"asset\":{}}"), "gltf");
    assert_string_equal(sniffed("glTF\x02"), "glb");
    assert_string_equal(sniffed("Kaydara FBX Binary  "), "fbx");
    assert_string_equal(sniffed("; FBX 7.4.0 project file"), "fbx");
    assert_string_equal(sniffed("[1]"), "none");
    assert_string_equal(sniffed("RTM_01"), "none");       /* too short to tell */
    assert_string_equal(sniffed("BMT"), "none");
    assert_string_equal(sniffed("MOTION\n"), "none");
    assert_string_equal(sniffed(""), "none");
}

/* Header.txt's "format:" values are what a script greps for. */
static void rows_say_what_header_txt_prints(void **state)
{
    (void)state;
    assert_string_equal(rtm_format_by_id(RTM_FORMAT_PLAIN)->name, "plain");
    assert_string_equal(rtm_format_by_id(RTM_FORMAT_BMTR)->name, "bmtr");
    assert_string_equal(rtm_format_by_id(RTM_FORMAT_BVH)->name, "bvh");
    /* the flags the views and the tree read in place of a comparison */
    assert_true(rtm_format_by_id(RTM_FORMAT_PLAIN)->is_plain_rtm);
    assert_true(rtm_format_by_id(RTM_FORMAT_BMTR)->is_bmtr);
    assert_true(rtm_format_by_id(RTM_FORMAT_BVH)->bones_are_skeletons);
    for (int f = RTM_FORMAT_GLTF; f <= RTM_FORMAT_FBX; f++)
        assert_true(rtm_format_by_id(f)->bones_are_skeletons);
    assert_string_equal(rtm_format_by_id(RTM_FORMAT_GLTF)->name, "gltf");
    assert_string_equal(rtm_format_by_id(RTM_FORMAT_GLB)->name, "glb");
    assert_string_equal(rtm_format_by_id(RTM_FORMAT_FBX)->name, "fbx");
    assert_false(rtm_format_by_id(RTM_FORMAT_BMTR)->bones_are_skeletons);
    assert_false(rtm_format_by_id(RTM_FORMAT_BVH)->is_plain_rtm);
    assert_false(rtm_format_by_id(RTM_FORMAT_BVH)->is_bmtr);
}

static void names_by_extension_in_any_case(void **state)
{
    (void)state;
    static const char *const anims[] = { "a.rtm", "A.RTM", "dir/x.Rtm", "m.bvh", "M.BVH",
                                         "a.gltf", "b.GLB", "c.Fbx" };
    static const char *const others[] = { "a.pbo", "rtm", "a.rtm.txt", "bvh.map", "",
                                          "a.bin", "a.gltf.txt", "fbx" };
    for (size_t i = 0; i < 8; i++) {
        assert_true(rtm_is_anim_name(anims[i], strlen(anims[i])));
        assert_false(rtm_is_anim_name(others[i], strlen(others[i])));
    }
    assert_string_equal(rtm_format_side_file("dir/walk.BVH", 12), "bvh.map");
    assert_string_equal(rtm_format_side_file("walk.bvh", 8), "bvh.map");
    assert_null(rtm_format_side_file("walk.rtm", 8));
    assert_null(rtm_format_side_file("walk.bvh.txt", 12));
}

static void unknown_bytes_name_every_signature(void **state)
{
    (void)state;
    struct rtm_anim *a = NULL;
    struct rtm_error err = { .msg = "" };
    const uint8_t junk[] = "NOT_AN_ANIMATION";
    assert_int_equal(rtm_parse(junk, sizeof junk - 1, NULL, &a, &err), -1);
    assert_null(a);
    assert_string_equal(err.msg, "not an RTM animation: starts with neither RTM_0101, "
                                 "RTM_MDAT, BMTR, (BVH) HIERARCHY, (glTF) {, glTF nor "
                                 "Kaydara FBX Binary");
    assert_int_equal(rtm_parse(junk, 0, NULL, &a, &err), -1);
    assert_string_equal(err.msg, "empty file, not an RTM animation");
    /* a head parse: the same message, once it has the bytes to tell */
    struct rtm_parse_opts o = { .skel = NULL };
    uint64_t need = 0;
    assert_int_equal(rtm_parse_head(junk, sizeof junk - 1, sizeof junk - 1, &o, &a, &need, &err),
                     -1);
    assert_null(a);
    assert_string_equal(err.msg, "not an RTM animation: starts with neither RTM_0101, "
                                 "RTM_MDAT, BMTR, (BVH) HIERARCHY, (glTF) {, glTF nor "
                                 "Kaydara FBX Binary");
    assert_int_equal(rtm_parse_head(junk, 4, sizeof junk - 1, &o, &a, &need, &err),
                     RTM_PARSE_NEED_MORE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_id_has_its_row),
        cmocka_unit_test(signatures_pick_the_row),
        cmocka_unit_test(rows_say_what_header_txt_prints),
        cmocka_unit_test(names_by_extension_in_any_case),
        cmocka_unit_test(unknown_bytes_name_every_signature),
    };
    return run_test_cases(tests, NULL, NULL);
}
