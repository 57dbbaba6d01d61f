/* test_missing.c - missing.txt's lines (states_missing.h): a state naming
 * an absent file under a prefix that is there; one under a prefix no
 * archive or folder has (the line names it); one whose file another
 * archive has (a cross-archive link) is not missing, nor one written with
 * another case, '/' or no leading '\'; lines in config-path, then file
 * order; nothing when nothing is missing; and a table rebuilt from its
 * lines (as the index gives them) says the same, and times the same. */
#include "cfg_testutil.h"
#include "states_missing.h"
#include "timing.h"

static const char *const cfg_b =
    "class CfgMovesMaleSdr { class States {\n"
    "  class Walk { file = \"\\m\\anims\\walk.rtm\"; speed = 1; };\n"
    "  class Gone { file = \"\\m\\anims\\gone.rtm\"; speed = 1; };\n"
    "  class Base { file = \"\\a3\\anims_f\\data\\anim\\sdr\\idle.rtm\"; speed = 1; };\n"
    "  class Linked { file = \"other/Packed/Run.RTM\"; speed = 1; };\n"
    "}; };\n";
static const char *const cfg_a =
    "class CfgGesturesMale { class States {\n"
    "  class Wipe { file = \"\\z\\ace\\addons\\goggles\\anim\\wipe.rtm\"; };\n"
    "  class Top { file = \"top.rtm\"; };\n"
    "}; };\n";

static struct rtm_gamepaths *present(void)
{
    struct rtm_gamepaths *g = rtm_gamepaths_new();
    assert_non_null(g);
    assert_int_equal(rtm_gamepaths_add_prefix(g, "m", 1), 0);
    assert_int_equal(rtm_gamepaths_add_prefix(g, "\\other\\packed", 14), 0);
    assert_int_equal(rtm_gamepaths_add_prefix(g, "z\\ace\\addons\\common", 20), 0);
    assert_int_equal(rtm_gamepaths_add_file(g, "m\\anims\\Walk.rtm", 16, ""), 0);
    assert_int_equal(rtm_gamepaths_add_file(g, "other\\packed\\run.rtm", 20, ""), 0);
    assert_int_equal(rtm_gamepaths_add_file(g, "other\\packed\\run.rtm", 20, ""), 0);
    assert_int_equal(rtm_gamepaths_finish(g), 0);
    assert_int_equal(rtm_gamepaths_nfiles(g), 2);
    return g;
}

static char *missing_of(const struct rtm_states *s, const struct rtm_gamepaths *g)
{
    struct rtm_buf b;
    rtm_buf_init(&b);
    rtm_missing_render(s, g, &b);
    rtm_buf_putc(&b, 0);
    assert_false(b.oom);
    size_t len;
    return rtm_buf_take(&b, &len);
}

static const char *const want =
    "CfgGesturesMale/States/Wipe file=\\z\\ace\\addons\\goggles\\anim\\wipe.rtm config=a/config.cpp "
    "(no archive or $PBOPREFIX$ folder under SOURCE has prefix \\z\\ace\\addons\\goggles)\n"
    "CfgGesturesMale/States/Top file=top.rtm config=a/config.cpp "
    "(no animation at that game path under SOURCE)\n"
    "CfgMovesMaleSdr/States/Gone file=\\m\\anims\\gone.rtm config=b/config.cpp "
    "(prefix \\m is under SOURCE, no animation at that path in it)\n"
    "CfgMovesMaleSdr/States/Base file=\\a3\\anims_f\\data\\anim\\sdr\\idle.rtm config=b/config.cpp "
    "(no archive or $PBOPREFIX$ folder under SOURCE has prefix \\a3\\anims_f)\n";

static struct rtm_states *table(void)
{
    struct rtm_states *s = rtm_states_new();
    assert_non_null(s);
    assert_int_equal(rtm_states_add(s, text_ok(cfg_b), "b/config.cpp"), 0);
    assert_int_equal(rtm_states_add(s, text_ok(cfg_a), "a/config.cpp"), 0);
    assert_int_equal(rtm_states_finish(s), 0);
    return s;
}

static void lists_what_is_not_there(void **state)
{
    (void)state;
    struct rtm_states *s = table();
    struct rtm_gamepaths *g = present();
    char *got = missing_of(s, g);
    assert_string_equal(got, want);
    free(got);
    rtm_gamepaths_free(g);
    rtm_states_free(s);
}

static void nothing_missing_is_empty(void **state)
{
    (void)state;
    struct rtm_states *s = rtm_states_new();
    assert_int_equal(rtm_states_add(s, text_ok("class CfgMovesMaleSdr { class States {"
                                               " class W { file = \"M/anims/walk.rtm\"; }; }; };"),
                                    "c.cpp"), 0);
    assert_int_equal(rtm_states_finish(s), 0);
    struct rtm_gamepaths *g = present();
    char *got = missing_of(s, g);
    assert_string_equal(got, "");
    free(got);
    got = missing_of(NULL, g);              /* -o configs=none: no table */
    assert_string_equal(got, "");
    free(got);
    got = missing_of(s, NULL);              /* nothing present: every state */
    assert_string_equal(got, "CfgMovesMaleSdr/States/W file=M/anims/walk.rtm config=c.cpp "
                             "(no archive or $PBOPREFIX$ folder under SOURCE has prefix \\M\\anims)\n");
    free(got);
    rtm_gamepaths_free(g);
    rtm_states_free(s);
}

/* A prefix whose folder is deeper than the file's: no prefix leads the
 * file, every part of its folder begins one, so the folder is named. */
static void a_folder_every_prefix_starts_with(void **state)
{
    (void)state;
    struct rtm_states *s = rtm_states_new();
    assert_int_equal(rtm_states_add(s, text_ok("class C { class States {"
                                               " class X { file = \"p\\q\\x.rtm\"; }; }; };"),
                                    "c.cpp"), 0);
    assert_int_equal(rtm_states_finish(s), 0);
    struct rtm_gamepaths *g = rtm_gamepaths_new();
    assert_int_equal(rtm_gamepaths_add_prefix(g, "p\\q\\r", 5), 0);
    assert_int_equal(rtm_gamepaths_finish(g), 0);
    char *got = missing_of(s, g);
    assert_string_equal(got, "C/States/X file=p\\q\\x.rtm config=c.cpp "
                             "(no archive or $PBOPREFIX$ folder under SOURCE has prefix \\p\\q)\n");
    free(got);
    rtm_gamepaths_free(g);
    rtm_states_free(s);
}

/* The index's way: configs without a model, their lines given. */
static void a_table_of_lines_says_the_same(void **state)
{
    (void)state;
    struct rtm_states *s = table(), *r = rtm_states_new();
    assert_non_null(r);
    for (size_t i = 0; rtm_states_config(s, i); i++)
        assert_int_equal(rtm_states_add(r, NULL, rtm_states_config(s, i)), 0);
    for (size_t i = rtm_states_nlines(s); i-- > 0;) {     /* any order */
        struct rtm_state_line l;
        rtm_states_line(s, i, &l);
        assert_int_equal(rtm_states_add_line(r, &l), 0);
    }
    struct rtm_state_line bad = { "k", "t\n", "f", "1", 1, 99, 0 };
    assert_int_equal(rtm_states_add_line(r, &bad), -1);
    assert_int_equal(rtm_states_finish(r), 0);
    struct rtm_gamepaths *g = present();
    char *got = missing_of(r, g);
    assert_string_equal(got, want);
    free(got);
    struct rtm_buf b1, b2;
    rtm_buf_init(&b1);
    rtm_buf_init(&b2);
    rtm_states_render(s, "m\\anims\\walk.rtm", &b1);
    rtm_states_render(r, "m\\anims\\walk.rtm", &b2);
    assert_int_equal(b1.len, b2.len);
    assert_memory_equal(b1.p, b2.p, b1.len);
    rtm_buf_free(&b1);
    rtm_buf_free(&b2);
    static const char *const timed[] = { "m\\anims\\walk.rtm",       /* speed = 1 */
                                         "z\\ace\\addons\\goggles\\anim\\wipe.rtm" }; /* ? */
    for (size_t i = 0; i < 2; i++) {
        struct rtm_timing t1, t2;
        rtm_states_timing(s, timed[i], 10, &t1);
        rtm_states_timing(r, timed[i], 10, &t2);
        assert_true(t1.seconds == t2.seconds);
        assert_string_equal(t1.why, t2.why);
        assert_non_null(strstr(t2.why, i ? "(speed=?)" : "one pass in 1 s"));
    }
    rtm_gamepaths_free(g);
    rtm_states_free(s);
    rtm_states_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lists_what_is_not_there),
        cmocka_unit_test(nothing_missing_is_empty),
        cmocka_unit_test(a_folder_every_prefix_starts_with),
        cmocka_unit_test(a_table_of_lines_says_the_same),
    };
    return run_test_cases(tests, NULL, NULL);
}
