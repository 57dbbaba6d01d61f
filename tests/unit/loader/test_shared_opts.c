/* test_shared_opts.c - the options rtmfs and rtmcat both take
 * (shared_opts.h): either program's spelling finds an option, a bad value
 * is refused with what the option expects, the rendering key holds every
 * option that changes the views, and the usage list of views holds every
 * view of the table and states.txt within 80 columns. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "shared_opts.h"
#include "views.h"

static void both_spellings_set_one_option(void **state)
{
    (void)state;
    struct rtm_shared_opts o = RTM_SHARED_OPTS_INIT;
    char msg[256] = "";
    assert_int_equal(rtm_shared_opt_set(&o, "bvh_unit", "cm", msg, sizeof msg), 0);
    assert_true(o.mocap.unit == 0.01);
    assert_int_equal(rtm_shared_opt_set(&o, "bvh-fps", "24", msg, sizeof msg), 0);
    assert_true(o.mocap.fps == 24);
    assert_int_equal(rtm_shared_opt_set(&o, "digits", "3", msg, sizeof msg), 0);
    assert_int_equal(o.digits, 3);
    assert_string_equal(rtm_shared_skeleton(&o), RTM_SKELETON_DEFAULT);
    assert_int_equal(rtm_shared_opt_set(&o, "skeleton", "none", msg, sizeof msg), 0);
    assert_string_equal(rtm_shared_skeleton(&o), "none");
    /* an option of one program only, and a near miss, are none of these */
    assert_int_equal(rtm_shared_opt_set(&o, "cache_size", "1M", msg, sizeof msg), 1);
    assert_int_equal(rtm_shared_opt_set(&o, "bvh_units", "cm", msg, sizeof msg), 1);
    assert_int_equal(rtm_shared_opt_set(&o, "bvh", "cm", msg, sizeof msg), 1);
    assert_string_equal(msg, "");
}

static void bad_values_say_what_is_expected(void **state)
{
    (void)state;
    struct rtm_shared_opts o = RTM_SHARED_OPTS_INIT;
    char msg[256];
    assert_int_equal(rtm_shared_opt_set(&o, "bvh-unit", "zz", msg, sizeof msg), -1);
    assert_string_equal(msg, "bad bvh-unit 'zz' (m, cm, mm, in, cmu or metres)");
    assert_int_equal(rtm_shared_opt_set(&o, "bvh_fps", "0", msg, sizeof msg), -1);
    assert_string_equal(msg, "bad bvh_fps '0' (frames a second, above 0, at most 1000)");
    assert_int_equal(rtm_shared_opt_set(&o, "bvh_fps", "1001", msg, sizeof msg), -1);
    assert_int_equal(rtm_shared_opt_set(&o, "bvh_fps", "24x", msg, sizeof msg), -1);
    assert_int_equal(rtm_shared_opt_set(&o, "digits", "10", msg, sizeof msg), -1);
    assert_string_equal(msg, "bad digits '10' (" RTM_DIGITS_HELP ")");
}

static void the_key_holds_every_option(void **state)
{
    (void)state;
    struct rtm_skeleton *sk;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_builtin("OFP2", &sk, &err), 0);
    struct rtm_shared_opts o = { .skeleton = "OFP2", .digits = 2,
                                 .mocap = { .unit = 0.01, .fps = 24 } };
    char key[512], want[512];
    rtm_render_key(key, sizeof key, &o, sk);
    snprintf(want, sizeof want, "v=%d digits=2 skeleton=OFP2 bvh_unit=0.01 bvh_fps=24",
             RTM_RENDER_VERSION);
    assert_string_equal(key, want);
    o = (struct rtm_shared_opts)RTM_SHARED_OPTS_INIT;   /* the default skeleton */
    rtm_render_key(key, sizeof key, &o, sk);
    snprintf(want, sizeof want, "v=%d digits=%d skeleton=ofp2 bvh_unit=0 bvh_fps=0",
             RTM_RENDER_VERSION, RTM_DIGITS_EXACT);
    assert_string_equal(key, want);
    o.skeleton = "/nonexistent/skeleton.txt";   /* a file: by its identity */
    rtm_render_key(key, sizeof key, &o, sk);
    assert_non_null(strstr(key, " skeleton=file@0:0:0:0:0 bvh_unit="));
    rtm_skeleton_free(sk);
}

static void usage_lists_every_view(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    rtm_views_usage(f, "Views: ", "       ");
    fclose(f);
    for (int k = 0; k < RTM_NVIEW_KINDS; k++) {
        int pivots;
        const char *name = rtm_view_usage_name((enum rtm_view_kind)k, &pivots);
        assert_non_null(name);
        assert_non_null(strstr(text, name));
    }
    assert_non_null(strstr(text, " states.txt"));
    assert_non_null(strstr(text, "\n       anim.bvh anim.glb joints/NNN.csv (with a skeleton that has "
                                 "pivots)\n"));
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        assert_non_null(end);
        assert_true(end - line < 80);
        line = end + 1;
    }
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(both_spellings_set_one_option),
        cmocka_unit_test(bad_values_say_what_is_expected),
        cmocka_unit_test(the_key_holds_every_option),
        cmocka_unit_test(usage_lists_every_view),
    };
    return run_test_cases(tests, NULL, NULL);
}
