/* test_states_remember.c - the states table remembered in the persistent
 * index (tree_states_index.c) across "mounts" (trees) of one index: an
 * unchanged SOURCE gives the same states.txt and missing.txt without
 * reading a config (the tree's counts: configs parsed, tables the index
 * gave); a config rewritten, an archive with a config added or removed
 * gives the new lines; a loose text config is read at every mount (its
 * includes may change without it), and so is one in an archive that finds
 * its includes on disk or asks the date, while one that looks for nothing
 * on disk is remembered; a record of another generation, cut short or
 * damaged anywhere reads as not known (or, damaged, as some table), never
 * past its bytes.  Fixtures from the project's writers. */
#include "testutil.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "config.h"
#include "index.h"
#include "loader.h"
#include "pbo_write.h"
#include "samples.h"
#include "states.h"
#include "tree_int.h"
#include "tree_testutil.h"

/* Archive name holding config text (rapified) and, with anim, walk.rtm. */
static void put_archive(struct tree_fixture *e, const char *name, const char *text, int anim)
{
    struct cfg *c = NULL;
    struct rtm_error err = { .msg = "" };
    struct rtm_buf cfg, rtm, b;
    struct sample_opts o = { .nframes = 4, .nbones = 3, .seed = 1 };
    assert_int_equal(cfg_parse_text(text, strlen(text), "t.cpp", NULL, &c, &err), 0);
    rtm_buf_init(&cfg);
    rtm_buf_init(&rtm);
    rtm_buf_init(&b);
    assert_int_equal(rap_write(c, &cfg), 0);
    cfg_free(c);
    assert_int_equal(rtm_sample_plain(&o, &rtm), 0);
    const struct pbo_write_entry w[] = {
        { "config.bin", (const uint8_t *)cfg.p, cfg.len, PBO_PACK_STORE, 0 },
        { "walk.rtm", (const uint8_t *)rtm.p, rtm.len, PBO_PACK_STORE, 0 },
    };
    assert_int_equal(pbo_write(w, anim ? 2 : 1, NULL, 0, 0, &b), 0);
    put_file(e->fd, name, b.p, b.len);
    rtm_buf_free(&cfg);
    rtm_buf_free(&rtm);
    rtm_buf_free(&b);
}

/* Archive name holding text as config.cpp (not rapified). */
static void put_text_archive(struct tree_fixture *e, const char *name, const char *text)
{
    struct rtm_buf b;
    rtm_buf_init(&b);
    const struct pbo_write_entry w[] = {
        { "config.cpp", (const uint8_t *)text, strlen(text), PBO_PACK_STORE, 0 },
    };
    assert_int_equal(pbo_write(w, 1, NULL, 0, 0, &b), 0);
    put_file(e->fd, name, b.p, b.len);
    rtm_buf_free(&b);
}

static const char A_CFG[] =
    "class CfgSkeletons { class Two { skeletonBones[] = {\"pelvis\", \"\"}; }; };\n"
    "class CfgMovesMaleSdr { skeletonName = \"Two\"; class States {\n"
    "  class Walk { file = \"\\a\\walk.rtm\"; speed = 0.5; looped = 1;"
    " connectTo[] = {\"Nowhere\", 1}; };\n"
    "  class Gone { file = \"\\a\\gone.rtm\"; speed = 1; };\n"
    "}; };\n";
static const char A_CFG2[] =
    "class CfgMovesMaleSdr { class States {\n"
    "  class Walk { file = \"\\a\\walk.rtm\"; speed = 0.25; looped = 1; };\n"
    "}; };\n";
static const char B_CFG[] =
    "class CfgGesturesMale { class States {\n"
    "  class Other { file = \"\\A\\Walk.rtm\"; speed = -3; };\n"
    "}; };\n";

/* The root's check.txt of the last mount: the index gives it back as the
 * configs made it. */
static char *last_check;

static int setup(void **state)
{
    struct tree_fixture *e = calloc(1, sizeof *e);
    tree_fixture_open(e, "tsrem");
    put_archive(e, "a.pbo", A_CFG, 1);
    *state = e;
    return 0;
}

static int teardown(void **state)
{
    struct tree_fixture *e = *state;
    free(last_check);
    last_check = NULL;
    tree_fixture_close(e);
    free(e);
    return 0;
}

/* A "mount" of SOURCE with the index beside it (the fixture's loader,
 * cache and tree, tree_testutil.h); every mount reads and writes the same
 * index. */
static void mount_index(struct tree_fixture *e)
{
    assert_non_null(e->ix = rtm_index_open(e->index, 64u << 20, tree_quiet, NULL));
    tree_fixture_mount(e, 64u << 20);
    e->l.render = "test";
    e->l.log = tree_quiet;
    tree_fixture_tree(e, (struct rtm_tree_config){ .store = &e->store });
}

/* The bytes of path (malloc'd, NUL-terminated); stat's size is checked. */
static char *cat(struct tree_fixture *e, const char *path)
{
    struct rtm_tree_entry te;
    ssize_t n;
    char *out = tree_cat(e->t, path, &te, &n);
    assert_true(n >= 0);
    assert_int_equal(te.st.st_size, n);
    return out;
}

/* One mount: states.txt of a.pbo/walk.rtm and missing.txt into *states and
 * *missing (and check.txt into last_check), with the counts. */
static void one_mount(struct tree_fixture *e, char **states, char **missing, uint64_t *parsed,
                      uint64_t *remembered)
{
    mount_index(e);
    *states = cat(e, "a.pbo/walk.rtm/states.txt");
    *missing = cat(e, "missing.txt");
    free(last_check);
    last_check = cat(e, "check.txt");
    tree_states_counts(e->t, parsed, remembered);
    tree_fixture_unmount(e);        /* the index writes what is queued */
}

/* Two mounts: the first reads nparsed configs for states.txt, and again
 * for check.txt's findings (a table is built without them until check.txt
 * asks); the second none, as the index gives the checked table (or, with
 * text, all again, twice); both show the same bytes, which hold want. */
static void twice(struct tree_fixture *e, uint64_t nparsed, int text, const char *want)
{
    char *s1, *m1, *s2, *m2;
    uint64_t p1, r1, p2, r2;
    one_mount(e, &s1, &m1, &p1, &r1);
    char *c1 = last_check;
    last_check = NULL;
    one_mount(e, &s2, &m2, &p2, &r2);
    assert_string_equal(c1, last_check);
    free(c1);
    assert_int_equal(p1, 2 * nparsed);
    assert_int_equal(r1, 0);
    assert_int_equal(p2, text ? 2 * nparsed : 0);
    assert_int_equal(r2, text ? 0 : 1);
    assert_string_equal(s1, s2);
    assert_string_equal(m1, m2);
    assert_non_null(strstr(s1, want));
    free(s1);
    free(m1);
    free(s2);
    free(m2);
}

static void unchanged_is_not_read_again(void **state)
{
    struct tree_fixture *e = *state;
    twice(e, 1, 0, "\nCfgMovesMaleSdr/States/Walk speed=0.5 duration_s=2 looped=1 config=a.pbo/config.bin\n");
    /* the root check.txt the index gave back holds the bones and the name */
    assert_non_null(strstr(last_check, "error bone-not-in-skeleton: a.pbo/config.bin: "
                                       "CfgMovesMaleSdr/States/Walk: file \\a\\walk.rtm: Bone "));
    assert_non_null(strstr(last_check, "'Nowhere'"));
    char *s, *m;
    uint64_t p, r;
    one_mount(e, &s, &m, &p, &r);
    assert_string_equal(m, "CfgMovesMaleSdr/States/Gone file=\\a\\gone.rtm config=a.pbo/config.bin "
                           "(prefix \\a is under SOURCE, no animation at that path in it)\n");
    free(s);
    free(m);
}

/* A listing of the root (where missing.txt and check.txt are) and grep -r
 * of bones.txt read no config. */
static void listings_read_no_config(void **state)
{
    struct tree_fixture *e = *state;
    struct rtm_dirlist *d;
    uint64_t parsed, remembered;
    mount_index(e);
    assert_int_equal(rtm_tree_listing(e->t, RTM_INO_ROOT, 0, &d), 0);
    rtm_tree_listing_put(e->t, d);
    free(cat(e, "a.pbo/walk.rtm/bones.txt"));
    tree_states_counts(e->t, &parsed, &remembered);
    assert_int_equal(parsed + remembered, 0);
    tree_fixture_unmount(e);
}

static void changed_added_removed_read_again(void **state)
{
    struct tree_fixture *e = *state;
    char *s, *m;
    uint64_t p, r;
    one_mount(e, &s, &m, &p, &r);       /* remembered as it is */
    free(s);
    free(m);
    put_archive(e, "a.pbo", A_CFG2, 1); /* rewritten */
    twice(e, 1, 0, "\nCfgMovesMaleSdr/States/Walk speed=0.25 duration_s=4 looped=1 config=a.pbo/config.bin\n");
    put_archive(e, "b.pbo", B_CFG, 0);  /* added */
    twice(e, 2, 0, "\nCfgGesturesMale/States/Other speed=-3 duration_s=3 looped=? config=b.pbo/config.bin\n");
    assert_int_equal(unlinkat(e->fd, "b.pbo", 0), 0);   /* removed: a generation known */
    one_mount(e, &s, &m, &p, &r);
    assert_int_equal(p, 0);
    assert_int_equal(r, 1);
    assert_string_equal(s, "game_path: \\a\\walk.rtm\n"
                           "CfgMovesMaleSdr/States/Walk speed=0.25 duration_s=4 looped=1 config=a.pbo/config.bin\n");
    assert_string_equal(m, "");
    free(s);
    free(m);
}

static void text_configs_are_read_each_time(void **state)
{
    struct tree_fixture *e = *state;
    static const char text[] = "class CfgGesturesMale { class States {\n"
                               "  class Loose { file = \"\\a\\walk.rtm\"; speed = 2; };\n"
                               "}; };\n";
    assert_int_equal(mkdirat(e->fd, "m", 0755), 0);
    put_file(e->fd, "m/$PBOPREFIX$", "m\n", 2);
    put_file(e->fd, "m/config.cpp", text, sizeof text - 1);
    twice(e, 2, 1, "\nCfgGesturesMale/States/Loose speed=2 duration_s=0.5 looped=? config=m/config.cpp\n");
}

/* A text config in an archive that looks for no include on disk and asks
 * no time depends on the archive's bytes alone: remembered as a rapified
 * one is.  Its include found nowhere (no $PBOPREFIX$ folder under SOURCE
 * to look in) is left as written the same way every time. */
static void archive_text_alone_is_remembered(void **state)
{
    struct tree_fixture *e = *state;
    static const char text[] = "#include \"script_component.hpp\"\n"
                               "#define SPEED 3\n"
                               "class CfgGesturesMale { class States {\n"
                               "  class Text { file = \"\\a\\walk.rtm\"; speed = SPEED; };\n"
                               "}; };\n";
    put_text_archive(e, "t.pbo", text);
    twice(e, 2, 0, "\nCfgGesturesMale/States/Text speed=3 duration_s=0.333333 looped=? "
                   "config=t.pbo/config.cpp\n");
}

/* One that finds an include through a $PBOPREFIX$ folder, or asks the
 * date, is read at every mount: the include may change while the archive
 * does not, and the date does.  A $PBOPREFIX$ folder that comes is a new
 * generation: the include it holds is found. */
static void archive_text_with_includes_is_read_each_time(void **state)
{
    struct tree_fixture *e = *state;
    static const char text[] = "#include \"\\p\\speed.hpp\"\n"
                               "class CfgGesturesMale { class States {\n"
                               "  class Text { file = \"\\a\\walk.rtm\"; speed = SPEED; };\n"
                               "}; };\n";
    static const char dated[] = "class CfgGesturesMale { class States {\n"
                                "  class Dated { file = \"\\a\\walk.rtm\"; speed = 1;"
                                " built = __DATE_STR__; };\n"
                                "}; };\n";
    put_text_archive(e, "t.pbo", text);
    twice(e, 2, 0, "\nCfgGesturesMale/States/Text speed=SPEED ");
    assert_int_equal(mkdirat(e->fd, "p", 0755), 0);
    put_file(e->fd, "p/$PBOPREFIX$", "p\n", 2);
    put_file(e->fd, "p/speed.hpp", "#define SPEED 4\n", 16);
    twice(e, 2, 1, "\nCfgGesturesMale/States/Text speed=4 ");
    put_file(e->fd, "p/speed.hpp", "#define SPEED 8\n", 16);
    twice(e, 2, 1, "\nCfgGesturesMale/States/Text speed=8 ");
    assert_int_equal(unlinkat(e->fd, "t.pbo", 0), 0);
    put_text_archive(e, "d.pbo", dated);
    twice(e, 2, 1, "\nCfgGesturesMale/States/Dated speed=1 ");
}

/* A table's record: packed, then read back whole, of another generation,
 * cut at every length, and with every byte flipped. */
static void damaged_records_do_not_read(void **state)
{
    (void)state;
    struct cfg *c = NULL;
    struct rtm_error err = { .msg = "" };
    struct rtm_states *s = rtm_states_new(), *r;
    assert_int_equal(cfg_parse_text(A_CFG, strlen(A_CFG), "t.cpp", NULL, &c, &err), 0);
    assert_int_equal(rtm_states_add(s, c, "a.pbo/config.bin"), 0);
    assert_int_equal(rtm_states_finish(s), 0);
    struct rtm_buf z, b1, b2;
    assert_int_equal(tree_states_pack("gen", s, &z), 0);
    assert_int_equal(tree_states_unpack(z.p, z.len, "gen", &r), 0);
    rtm_buf_init(&b1);
    rtm_buf_init(&b2);
    rtm_states_render(s, "a\\walk.rtm", &b1);
    rtm_states_render(r, "a\\walk.rtm", &b2);
    assert_int_equal(b1.len, b2.len);
    assert_memory_equal(b1.p, b2.p, b1.len);
    assert_int_equal(rtm_states_nlines(r), 2);
    rtm_buf_free(&b1);
    rtm_buf_free(&b2);
    rtm_states_free(r);
    assert_int_equal(tree_states_unpack(z.p, z.len, "other", &r), -1);
    assert_null(r);
    for (size_t n = 0; n < z.len; n++) {
        char *cut = malloc(n ? n : 1);  /* its own copy: ASan sees an over-read */
        memcpy(cut, z.p, n);
        assert_int_equal(tree_states_unpack(cut, n, "gen", &r), -1);
        free(cut);
    }
    for (size_t i = 0; i < z.len; i++) {
        char *bad = malloc(z.len);
        memcpy(bad, z.p, z.len);
        bad[i] ^= 0x5a;
        if (tree_states_unpack(bad, z.len, "gen", &r) == 0)
            rtm_states_free(r);         /* a flip in a line's text reads */
        free(bad);
    }
    rtm_buf_free(&z);
    rtm_states_free(s);
}

/* Every archive is found and read however many folders the root holds
 * (more than the warmers take at once: tree_states_walk.c) and however
 * deep one lies (below the depth they list): the warming ahead of the
 * walk only reads, and the walk finds what it always did. */
static void every_folder_walked(void **state)
{
    struct tree_fixture *e = *state;
    enum { FOLDERS = 70 };
    char path[64] = "d";
    for (int i = 0; i < FOLDERS; i++) {
        char dir[16], name[32];
        snprintf(dir, sizeof dir, "f%02d", i);
        assert_int_equal(mkdirat(e->fd, dir, 0755), 0);
        snprintf(name, sizeof name, "%s/x.pbo", dir);
        put_archive(e, name, B_CFG, 0);
    }
    assert_int_equal(mkdirat(e->fd, path, 0755), 0);
    for (int depth = 1; depth <= 10; depth++) {
        snprintf(path + strlen(path), sizeof path - strlen(path), "/%d", depth);
        assert_int_equal(mkdirat(e->fd, path, 0755), 0);
    }
    strcat(path, "/y.pbo");
    put_archive(e, path, B_CFG, 0);
    mount_index(e);
    char *s = cat(e, "a.pbo/walk.rtm/states.txt");
    uint64_t parsed, remembered;
    tree_states_counts(e->t, &parsed, &remembered);
    assert_int_equal(parsed, 1 + FOLDERS + 1);
    size_t others = 0;
    for (const char *at = s; (at = strstr(at, "CfgGesturesMale/States/Other")); at++)
        others++;
    assert_int_equal(others, FOLDERS + 1);
    free(s);
    tree_fixture_unmount(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(unchanged_is_not_read_again, setup, teardown),
        cmocka_unit_test_setup_teardown(listings_read_no_config, setup, teardown),
        cmocka_unit_test_setup_teardown(changed_added_removed_read_again, setup, teardown),
        cmocka_unit_test_setup_teardown(text_configs_are_read_each_time, setup, teardown),
        cmocka_unit_test_setup_teardown(archive_text_alone_is_remembered, setup, teardown),
        cmocka_unit_test_setup_teardown(archive_text_with_includes_is_read_each_time, setup,
                                        teardown),
        cmocka_unit_test(damaged_records_do_not_read),
        cmocka_unit_test_setup_teardown(every_folder_walked, setup, teardown),
    };
    return run_test_cases(tests, NULL, NULL);
}
