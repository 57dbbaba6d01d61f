/* test_parse_once.c - what the tree makes the cache do for one file, by
 * the cache's counters (rtmc_get_stats), never by time: a cold full view
 * (header.txt, plain.rtm, frames/NNN.csv) looked up and read is parsed
 * once; a light entry already cached still names the views; a lookup of
 * one view renders that view alone (as `rtmcat FILE VIEW` does), the read
 * that follows is served from it; a second view sizes them all at once. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "testutil.h"
#include "tree_testutil.h"
#include "cache.h"
#include "loader.h"
#include "tree.h"

/* The state: SOURCE with walk.rtm, its loader, cache and tree. */
static int setup(void **state)
{
    struct tree_fixture *e = calloc(1, sizeof *e);
    tree_fixture_open(e, "once");
    tree_fixture_mount(e, 64u << 20);
    struct rtm_buf a = { 0 };
    struct sample_opts o = { 6, 20, 1, 0 };
    assert_int_equal(rtm_sample_plain(&o, &a), 0);
    tree_fixture_write(e, "walk.rtm", a.p, a.len);
    rtm_buf_free(&a);
    tree_fixture_tree(e, (struct rtm_tree_config){ 0 });
    *state = e;
    return 0;
}

static int teardown(void **state)
{
    tree_fixture_close(*state);
    free(*state);
    return 0;
}

/* Looks path up one name at a time, as the kernel does, then reads the
 * file whole, as cat does: its length (checked against the lookup's). */
static size_t cat(struct tree_fixture *e, const char *path)
{
    char chunk[4096];
    struct rtm_tree_entry te;
    assert_int_equal(tree_walk(e->t, path, &te), 0);
    size_t len = 0;
    ssize_t got;
    while ((got = rtm_tree_read(e->t, te.ino, chunk, sizeof chunk, (off_t)len)) > 0)
        len += (size_t)got;
    assert_int_equal(got, 0);
    assert_int_equal(len, (size_t)te.st.st_size);
    return len;
}

static struct rtmc_stats stats(struct tree_fixture *e)
{
    struct rtmc_stats st;
    rtmc_get_stats(e->c, &st);
    return st;
}

/* `cat walk.rtm/header.txt` of a cold file: one parse, one render (the
 * view asked), no sizing of the others; before, 2 loads (light for the
 * names, full for the size), 1 sizing of every view, 1 render. */
static void a_cold_full_view_is_parsed_once(void **state)
{
    struct tree_fixture *e = *state;
    assert_true(cat(e, "walk.rtm/header.txt") > 0);
    struct rtmc_stats st = stats(e);
    assert_int_equal(st.loads, 1);
    assert_int_equal(st.renders, 1);
    assert_int_equal(st.sizings, 0);
    /* read again: nothing more is parsed or rendered */
    cat(e, "walk.rtm/header.txt");
    st = stats(e);
    assert_int_equal(st.loads, 1);
    assert_int_equal(st.renders, 1);
}

/* The same for plain.rtm (what `rtmcat FILE plain.rtm` converts to) and a
 * file in frames/, each a cold file of its own. */
static void every_kind_of_full_view_is_parsed_once(void **state)
{
    struct tree_fixture *e = *state;
    static const char *const views[] = { "walk.rtm/plain.rtm", "walk.rtm/frames/003.csv",
                                         "walk.rtm/tracks/pelvis.csv" };
    for (size_t i = 0; i < sizeof views / sizeof *views; i++) {
        rtmc_invalidate(e->c, "");
        struct rtmc_stats before = stats(e);
        assert_true(cat(e, views[i]) > 0);
        struct rtmc_stats st = stats(e);
        if (st.loads - before.loads != 1)
            print_error("%s: %llu loads\n", views[i], (unsigned long long)(st.loads - before.loads));
        assert_int_equal(st.loads - before.loads, 1);
        if (st.renders - before.renders != 1)
            print_error("%s: %llu renders\n", views[i],
                        (unsigned long long)(st.renders - before.renders));
        assert_int_equal(st.renders - before.renders, 1);
        assert_int_equal(st.sizings - before.sizings, 0);
    }
}

/* A light entry already cached (bones.txt was read, as grep does) names
 * header.txt: the file is parsed once more, full, not light again; that
 * is the version's second view, so every view is sized then. */
static void a_cached_light_entry_names_the_views(void **state)
{
    struct tree_fixture *e = *state;
    assert_true(cat(e, "walk.rtm/bones.txt") > 0);
    struct rtmc_stats st = stats(e);
    assert_int_equal(st.loads, 1);
    assert_true(cat(e, "walk.rtm/header.txt") > 0);
    st = stats(e);
    assert_int_equal(st.loads, 2);      /* the light one, then the full one */
    assert_int_equal(st.renders, 2);    /* bones.txt, header.txt */
    assert_int_equal(st.sizings, 1);
}

/* A second view of the version asked for: many sizes are wanted, every
 * view is sized in one pass, and nothing is parsed again.  (phases.csv:
 * preview.svg's size follows the configs, here no state's: a render.) */
static void a_second_view_sizes_them_all(void **state)
{
    struct tree_fixture *e = *state;
    cat(e, "walk.rtm/header.txt");
    struct rtm_tree_entry te, anim;
    assert_int_equal(rtm_tree_lookup(e->t, RTM_INO_ROOT, "walk.rtm", &anim), 0);
    assert_int_equal(rtm_tree_lookup(e->t, anim.ino, "phases.csv", &te), 0);
    struct rtmc_stats st = stats(e);
    assert_int_equal(st.loads, 1);
    assert_int_equal(st.sizings, 1);
    assert_int_equal(st.renders, 1);    /* header.txt's, read; none to size */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(a_cold_full_view_is_parsed_once, setup, teardown),
        cmocka_unit_test_setup_teardown(every_kind_of_full_view_is_parsed_once, setup, teardown),
        cmocka_unit_test_setup_teardown(a_cached_light_entry_names_the_views, setup, teardown),
        cmocka_unit_test_setup_teardown(a_second_view_sizes_them_all, setup, teardown),
    };
    return run_test_cases(tests, NULL, NULL);
}
