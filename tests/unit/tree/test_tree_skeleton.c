/* test_tree_skeleton.c - the skeleton rule (rtmfs-views(7), THE SKELETON
 * RULE) through the tree: an explicit skeleton first, then the model.cfg
 * beside the file, then the skeletonName of the class whose states play
 * it (found in CfgSkeletons, through skeletonInherit), then the mount's.
 * header.txt says which and where from; listings and bones.txt read no
 * config; a config rewritten while mounted changes the views; a file
 * played by two classes takes the skeleton that holds its bones, then the
 * one the most states play it with.  Fixtures from the project's
 * writers. */
#include "testutil.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "config.h"
#include "loader.h"
#include "pbo_write.h"
#include "samples.h"
#include "skelreg.h"
#include "states.h"
#include "tree_int.h"
#include "tree_testutil.h"

/* Archive name: config.bin of text (rapified), with anim walk.rtm (the
 * first three bones of the man: Pelvis, Spine, Spine1; 2: and run.rtm,
 * the same) and, when model
 * is not NULL, a model.cfg of that text beside it. */
static void put_pbo(struct tree_fixture *e, const char *name, const char *text, int anim,
                    const char *model)
{
    struct rtm_buf cfg, rtm, b;
    struct sample_opts o = { .nframes = 4, .nbones = 3, .seed = 1 };
    rapify_text(text, &cfg);
    rtm_buf_init(&rtm);
    rtm_buf_init(&b);
    assert_int_equal(rtm_sample_plain(&o, &rtm), 0);
    struct pbo_write_entry w[4] = {
        { "config.bin", (const uint8_t *)cfg.p, cfg.len, PBO_PACK_STORE, 0 },
    };
    size_t n = 1;
    if (anim)
        w[n++] = (struct pbo_write_entry){ "walk.rtm", (const uint8_t *)rtm.p, rtm.len,
                                           PBO_PACK_STORE, 0 };
    if (anim > 1)
        w[n++] = (struct pbo_write_entry){ "run.rtm", (const uint8_t *)rtm.p, rtm.len,
                                           PBO_PACK_STORE, 0 };
    if (model)
        w[n++] = (struct pbo_write_entry){ "model.cfg", (const uint8_t *)model, strlen(model),
                                           PBO_PACK_STORE, 0 };
    assert_int_equal(pbo_write(w, n, NULL, 0, 0, &b), 0);
    put_file(e->fd, name, b.p, b.len);
    rtm_buf_free(&cfg);
    rtm_buf_free(&rtm);
    rtm_buf_free(&b);
}

static void put_archive(struct tree_fixture *e, const char *text, const char *model)
{
    put_pbo(e, "a.pbo", text, 1, model);
}

#define SKELETONS                                                                   \
    "class CfgSkeletons {\n"                                                        \
    "  class Two { skeletonBones[] = {\"pelvis\", \"\"}; };\n"                      \
    "  class Three { skeletonInherit = \"Two\";"                                    \
    " skeletonBones[] = {\"spine\", \"pelvis\", \"spine1\", \"spine\"}; };\n"       \
    "  class Dog { skeletonInherit = \"Three\"; };\n"                               \
    "};\n"

/* A config whose CfgMovesMaleSdr plays walk.rtm with skeleton name. */
static void played_by(struct tree_fixture *e, const char *name, const char *model)
{
    char text[2048];
    snprintf(text, sizeof text, SKELETONS
             "class CfgMovesMaleSdr { skeletonName = \"%s\"; class States {\n"
             "  class Walk { file = \"\\a\\walk.rtm\"; speed = 0.5; };\n"
             "}; };\n", name);
    put_archive(e, text, model);
}

static struct rtm_skelreg *skels;

static int setup(void **state)
{
    struct tree_fixture *e = calloc(1, sizeof *e);
    tree_fixture_open(e, "tskel");
    assert_non_null(skels = rtm_skelreg_new());
    *state = e;
    return 0;
}

static int teardown(void **state)
{
    struct tree_fixture *e = *state;
    tree_fixture_close(e);
    rtm_skelreg_free(skels);
    free(e);
    return 0;
}

/* A mount of SOURCE with the man's skeleton; explicit: as -o skeleton=
 * (no model.cfg, no configs' skeleton). */
static void mount(struct tree_fixture *e, int explicit)
{
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_builtin("ofp2", &e->skel, &err), 0);
    tree_fixture_mount(e, 64u << 20);
    e->l.log = tree_quiet;
    e->l.model_cfg = !explicit;
    e->l.skels = explicit ? NULL : skels;
    tree_fixture_tree(e, (struct rtm_tree_config){ .skels = explicit ? NULL : skels,
                                                   .skeleton_explicit = explicit });
}

/* The bytes of path (malloc'd); stat's size is checked. */
static char *cat(struct tree_fixture *e, const char *path)
{
    struct rtm_tree_entry te;
    ssize_t n;
    char *out = tree_cat(e->t, path, &te, &n);
    assert_true(n >= 0);
    assert_int_equal(te.st.st_size, n);
    return out;
}

/* header.txt's skeleton line holds want. */
static void skeleton_is(struct tree_fixture *e, const char *want)
{
    char *h = cat(e, "a.pbo/walk.rtm/header.txt");
    char *line = strstr(h, "\nskeleton: ");
    assert_non_null(line);
    *strchrnul(line + 1, '\n') = 0;
    if (!strstr(line, want))
        fail_msg("want '%s' in '%s'", want, line + 1);
    free(h);
}

static void configs_skeleton_after_listing_and_bones(void **state)
{
    struct tree_fixture *e = *state;
    struct rtm_dirlist *d;
    struct rtm_tree_entry te;
    uint64_t parsed, remembered;
    played_by(e, "Three", NULL);
    mount(e, 0);
    /* ls and grep -r of bones.txt: no config read */
    assert_int_equal(tree_walk(e->t, "a.pbo/walk.rtm", &te), 0);
    assert_int_equal(rtm_tree_listing(e->t, te.ino, 0, &d), 0);
    rtm_tree_listing_put(e->t, d);
    free(cat(e, "a.pbo/walk.rtm/bones.txt"));
    tree_states_counts(e->t, &parsed, &remembered);
    assert_int_equal(parsed + remembered, 0);
    /* step 3: the class's skeletonName, through skeletonInherit */
    skeleton_is(e, "skeleton: Three (skeletonName of a.pbo/config.bin: CfgMovesMaleSdr) "
                   "(used for pivots");
    char *check = cat(e, "a.pbo/walk.rtm/check.txt");
    assert_null(strstr(check, "doesn't exist in skeleton"));
    free(check);
    tree_fixture_unmount(e);
}

static void inherit_only_class(void **state)
{
    struct tree_fixture *e = *state;
    played_by(e, "Dog", NULL);
    mount(e, 0);
    skeleton_is(e, "skeleton: Dog (skeletonName of a.pbo/config.bin: CfgMovesMaleSdr)");
    char *sk = cat(e, "a.pbo/walk.rtm/skeleton.txt");
    assert_non_null(strstr(sk, "Spine1"));      /* Three's bones, which Dog inherits */
    free(sk);
    tree_fixture_unmount(e);
}

static void explicit_skeleton_first(void **state)
{
    struct tree_fixture *e = *state;
    played_by(e, "Three", "class CfgSkeletons { class Mine { skeletonBones[] = "
                          "{\"pelvis\", \"\", \"spine\", \"pelvis\", \"spine1\", \"spine\"}; }; };\n");
    mount(e, 1);
    skeleton_is(e, "skeleton: ofp2 ");
    tree_fixture_unmount(e);
}

static void model_cfg_before_configs(void **state)
{
    struct tree_fixture *e = *state;
    played_by(e, "Three", "class CfgSkeletons { class Mine { skeletonBones[] = "
                          "{\"pelvis\", \"\", \"spine\", \"pelvis\", \"spine1\", \"spine\"}; }; };\n");
    mount(e, 0);
    skeleton_is(e, "skeleton: Mine from model.cfg ");
    tree_fixture_unmount(e);
}

static void mount_skeleton_last(void **state)
{
    struct tree_fixture *e = *state;
    played_by(e, "NoSuchSkeleton", NULL);
    mount(e, 0);
    skeleton_is(e, "skeleton: ofp2 ");
    tree_fixture_unmount(e);
}

/* Two classes play the file: the skeleton that holds its bones, then the
 * one more states play it with. */
static void two_classes(void **state)
{
    struct tree_fixture *e = *state;
    static const char *const text[] = {
        SKELETONS "class CfgMovesMaleSdr { skeletonName = \"Two\"; class States {\n"
        "  class A { file = \"\\a\\walk.rtm\"; }; class B { file = \"\\a\\walk.rtm\"; }; }; };\n"
        "class CfgGesturesMale { skeletonName = \"Three\"; class States {\n"
        "  class G { file = \"\\a\\walk.rtm\"; }; }; };\n",
        SKELETONS "class CfgMovesMaleSdr { skeletonName = \"Dog\"; class States {\n"
        "  class A { file = \"\\a\\walk.rtm\"; }; class B { file = \"\\a\\walk.rtm\"; }; }; };\n"
        "class CfgGesturesMale { skeletonName = \"Three\"; class States {\n"
        "  class G { file = \"\\a\\walk.rtm\"; }; }; };\n",
    };
    put_archive(e, text[0], NULL);
    mount(e, 0);
    skeleton_is(e, "skeleton: Three (skeletonName of a.pbo/config.bin: CfgGesturesMale)");
    tree_fixture_unmount(e);
    put_archive(e, text[1], NULL);              /* both hold every bone */
    mount(e, 0);
    skeleton_is(e, "skeleton: Dog (skeletonName of a.pbo/config.bin: CfgMovesMaleSdr)");
    tree_fixture_unmount(e);
}

/* One skeleton, two root classes: each file names the class of its own
 * first state, whichever file is asked first. */
static void one_skeleton_two_classes(void **state)
{
    struct tree_fixture *e = *state;
    put_pbo(e, "a.pbo", SKELETONS
            "class CfgMovesMaleSdr { skeletonName = \"Three\"; class States {\n"
            "  class W { file = \"\\a\\walk.rtm\"; }; }; };\n"
            "class CfgGesturesMale { skeletonName = \"Three\"; class States {\n"
            "  class R { file = \"\\a\\run.rtm\"; }; }; };\n", 2, NULL);
    for (int order = 0; order < 2; order++) {
        mount(e, 0);
        const char *first = order ? "a.pbo/run.rtm/header.txt" : "a.pbo/walk.rtm/header.txt";
        free(cat(e, first));
        char *w = cat(e, "a.pbo/walk.rtm/header.txt"), *r = cat(e, "a.pbo/run.rtm/header.txt");
        assert_non_null(strstr(w, "skeleton: Three (skeletonName of a.pbo/config.bin: CfgMovesMaleSdr)"));
        assert_non_null(strstr(r, "skeleton: Three (skeletonName of a.pbo/config.bin: CfgGesturesMale)"));
        free(w);
        free(r);
        tree_fixture_unmount(e);
    }
}

/* What the kernel is told to forget: the names of entries, joined. */
static char forgotten[4096];

static void forget_entry(void *ctx, uint64_t parent, const char *name)
{
    (void)ctx, (void)parent;
    size_t n = strlen(forgotten);
    snprintf(forgotten + n, sizeof forgotten - n, "%s;", name);
}

static void forget_inode(void *ctx, uint64_t ino)
{
    (void)ctx, (void)ino;
}

/* SOURCE's a.pbo rewritten while mounted: the kernel is told to forget
 * the animation's folder once the batch of changes is done. */
/* c.pbo: a config alone, whose CfgMovesMaleSdr plays \a\walk.rtm with
 * skeleton name. */
static void config_pbo(struct tree_fixture *e, const char *skeleton)
{
    char text[2048];
    snprintf(text, sizeof text, SKELETONS
             "class CfgMovesMaleSdr { skeletonName = \"%s\"; class States {\n"
             "  class Walk { file = \"\\a\\walk.rtm\"; speed = 0.5; };\n"
             "}; };\n", skeleton);
    put_pbo(e, "c.pbo", text, 0, NULL);
}

static void rewritten(struct tree_fixture *e, const char *skeleton)
{
    struct rtm_tree_notify n = { NULL, forget_entry, forget_inode };
    config_pbo(e, skeleton);
    forgotten[0] = 0;
    rtm_tree_changed(e->t, "", "c.pbo", &n);
    rtm_tree_changes_done(e->t, &n);
    assert_non_null(strstr(forgotten, ";walk.rtm;"));
}

/* Rewritten while mounted: the views follow, their numbers stay, and the
 * kernel forgets the folders that hold them. */
static void config_rewritten_while_mounted(void **state)
{
    struct tree_fixture *e = *state;
    struct rtm_tree_entry before, after;
    put_pbo(e, "a.pbo", "class CfgPatches { };\n", 1, NULL);   /* the configs in c.pbo */
    config_pbo(e, "Three");
    mount(e, 0);
    skeleton_is(e, "skeleton: Three (");
    char *sk3 = cat(e, "a.pbo/walk.rtm/skeleton.txt");
    assert_int_equal(tree_walk(e->t, "a.pbo/walk.rtm/skeleton.txt", &before), 0);
    rewritten(e, "Two");
    skeleton_is(e, "skeleton: Two (");
    char *sk2 = cat(e, "a.pbo/walk.rtm/skeleton.txt");
    assert_string_not_equal(sk2, sk3);
    rewritten(e, "Three");
    skeleton_is(e, "skeleton: Three (");
    assert_int_equal(tree_walk(e->t, "a.pbo/walk.rtm/skeleton.txt", &after), 0);
    assert_int_equal(after.ino, before.ino);
    char *again = cat(e, "a.pbo/walk.rtm/skeleton.txt");
    assert_string_equal(again, sk3);
    free(sk2);
    free(sk3);
    free(again);
    tree_fixture_unmount(e);
}

/* Step 3 names the config by its path from SOURCE; that name is in the
 * key of the views that use its skeleton, so its folder renamed (between
 * two mounts sharing the persistent index, whose sizes the second takes)
 * gives views that name the new path, each stat size the bytes read. */
static void configs_folder_renamed(void **state)
{
    struct tree_fixture *e = *state;
    static const char *const views[] = { "header.txt", "skeleton.txt", "check.txt" };
    char text[2048], path[128];
    struct rtm_error err;
    snprintf(text, sizeof text, SKELETONS
             "class CfgMovesMaleSdr { skeletonName = \"Three\"; class States {\n"
             "  class Walk { file = \"\\a\\walk.rtm\"; speed = 0.5; };\n"
             "}; };\n");
    assert_int_equal(mkdirat(e->fd, "mod", 0755), 0);
    put_pbo(e, "mod/a.pbo", text, 1, NULL);
    const char *dirs[] = { "mod", "a_longer_folder_name" };
    for (int round = 0; round < 2; round++) {
        assert_int_equal(rtm_skeleton_builtin("ofp2", &e->skel, &err), 0);
        assert_non_null(e->ix = rtm_index_open(e->index, 64u << 20, tree_quiet, NULL));
        tree_fixture_mount(e, 64u << 20);
        e->l.log = tree_quiet;
        e->l.render = "test";
        e->l.skels = skels;
        tree_fixture_tree(e, (struct rtm_tree_config){ .skels = skels, .store = &e->store });
        for (size_t i = 0; i < sizeof views / sizeof *views; i++) {
            snprintf(path, sizeof path, "%s/a.pbo/walk.rtm/%s", dirs[round], views[i]);
            free(cat(e, path));                 /* stat size == bytes read */
        }
        snprintf(path, sizeof path, "%s/a.pbo/walk.rtm/header.txt", dirs[round]);
        char *h = cat(e, path), want[160];
        snprintf(want, sizeof want, "skeleton: Three (skeletonName of %s/a.pbo/config.bin: "
                 "CfgMovesMaleSdr)", dirs[round]);
        if (!strstr(h, want))
            fail_msg("want '%s' in:\n%s", want, h);
        free(h);
        tree_fixture_unmount(e);
        if (round == 0)
            assert_int_equal(renameat(e->fd, "mod", e->fd, "a_longer_folder_name"), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(configs_skeleton_after_listing_and_bones, setup, teardown),
        cmocka_unit_test_setup_teardown(inherit_only_class, setup, teardown),
        cmocka_unit_test_setup_teardown(explicit_skeleton_first, setup, teardown),
        cmocka_unit_test_setup_teardown(model_cfg_before_configs, setup, teardown),
        cmocka_unit_test_setup_teardown(mount_skeleton_last, setup, teardown),
        cmocka_unit_test_setup_teardown(two_classes, setup, teardown),
        cmocka_unit_test_setup_teardown(one_skeleton_two_classes, setup, teardown),
        cmocka_unit_test_setup_teardown(config_rewritten_while_mounted, setup, teardown),
        cmocka_unit_test_setup_teardown(configs_folder_renamed, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
