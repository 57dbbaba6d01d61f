/* test_tree_sides.c - the key rule for the files beside an animation
 * (tree_modelcfg.c, loader.h's rtm_side_file_name): a view's bytes depend
 * only on what its version key holds.  With the persistent index giving
 * the sizes of a version already seen, after each change (the animation's
 * folder renamed, its model.cfg renamed away and back, rewritten,
 * removed) every stat size of header.txt, skeleton.txt and check.txt is
 * the bytes a read returns, and the skeleton line names the model.cfg as
 * it lies beside the file.  And in a watched folder what lies beside the
 * animations is kept until the watcher says that folder changed; in one
 * not watched it is looked up again at every lookup. */
#include "testutil.h"
#include "tree_testutil.h"

#include <stdio.h>

struct env {
    struct tree_fixture f;
    struct rtm_buf bmtr;            /* 30 bones of ofp2 */
    struct rtm_skeleton *ofp2;
    int watched;                    /* what the watch callback answers: 1 watched */
};

static const char *const VIEWS[] = { "header.txt", "skeleton.txt", "check.txt" };

static int watch_cb(void *ctx, const char *dir)
{
    const struct env *e = ctx;
    (void)dir;
    return e->watched ? 0 : -1;
}

static void no_entry(void *ctx, uint64_t parent, const char *name)
{
    (void)ctx;
    (void)parent;
    (void)name;
}

static void no_inode(void *ctx, uint64_t ino)
{
    (void)ctx;
    (void)ino;
}

static const struct rtm_tree_notify quiet = { NULL, no_entry, no_inode };

/* A mount over SOURCE with the persistent index (a fresh loader, cache
 * and tree: what a later mount finds), watched or not. */
static void mount(struct env *e)
{
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_builtin("ofp2", &e->f.skel, &err), 0);
    assert_non_null(e->f.ix = rtm_index_open(e->f.index, 64u << 20, tree_quiet, NULL));
    tree_fixture_mount(&e->f, 64u << 20);
    e->f.l.render = "test";
    e->f.l.log = tree_quiet;
    tree_fixture_tree(&e->f, (struct rtm_tree_config){ .store = &e->f.store,
                                                       .watch = watch_cb, .watch_ctx = e });
}

/* model.cfg at path: one class, name, of ofp2's 30 first bones. */
static void put_model_cfg(struct env *e, const char *path, const char *name)
{
    struct rtm_buf b;
    rtm_buf_init(&b);
    rtm_buf_printf(&b, "class CfgSkeletons {\n    class %s {\n        skeletonInherit = \"\";\n"
                   "        skeletonBones[] = {\n", name);
    for (uint32_t k = 0; k < 30; k++) {
        int32_t p = e->ofp2->parent[k];
        rtm_buf_printf(&b, "            \"%s\", \"%s\",\n", e->ofp2->bone[k],
                       p >= 0 ? e->ofp2->bone[p] : "");
    }
    rtm_buf_puts(&b, "            \"end_of_list\", \"\"\n        };\n    };\n};\n");
    tree_fixture_write(&e->f, path, b.p, b.len);
    rtm_buf_free(&b);
}

static int setup(void **state)
{
    struct env *e = calloc(1, sizeof *e);
    struct rtm_error err;
    assert_non_null(e);
    tree_fixture_open(&e->f, "tsides");
    assert_int_equal(mkdirat(e->f.fd, "anims", 0755), 0);
    struct sample_opts o = { 6, 30, 4, 2 };
    rtm_buf_init(&e->bmtr);
    assert_int_equal(rtm_sample_bmtr(&o, 5, BMTR_COMPRESS_AUTO, &e->bmtr), 0);
    tree_fixture_write(&e->f, "anims/walk.rtm", e->bmtr.p, e->bmtr.len);
    assert_int_equal(rtm_skeleton_builtin("ofp2", &e->ofp2, &err), 0);
    put_model_cfg(e, "anims/model.cfg", "Mine");
    e->watched = 1;
    mount(e);
    *state = e;
    return 0;
}

static int teardown(void **state)
{
    struct env *e = *state;
    tree_fixture_close(&e->f);
    rtm_skeleton_free(e->ofp2);
    rtm_buf_free(&e->bmtr);
    free(e);
    return 0;
}

/* The whole of file path (malloc'd, NUL-ended); fails unless stat's size
 * is the bytes read. */
static char *read_exact(struct env *e, const char *path)
{
    struct rtm_tree_entry te;
    assert_int_equal(tree_walk(e->f.t, path, &te), 0);
    struct rtm_buf b;
    rtm_buf_init(&b);
    char chunk[4096];
    ssize_t got;
    while ((got = rtm_tree_read(e->f.t, te.ino, chunk, sizeof chunk, (off_t)b.len)) > 0)
        rtm_buf_put(&b, chunk, (size_t)got);
    assert_int_equal(got, 0);
    if ((size_t)te.st.st_size != b.len)
        fail_msg("%s: stat size %lld, %zu bytes read", path, (long long)te.st.st_size, b.len);
    rtm_buf_putc(&b, 0);
    return b.p;
}

/* Every view of VIEWS of animation anim is exact (stat size == bytes),
 * and header.txt's skeleton line begins with want. */
static void exact(struct env *e, const char *anim, const char *want)
{
    char path[256];
    for (size_t i = 0; i < sizeof VIEWS / sizeof *VIEWS; i++) {
        snprintf(path, sizeof path, "%s/%s", anim, VIEWS[i]);
        char *text = read_exact(e, path), *line = strstr(text, "\nskeleton: ");
        if (i == 0 && (!line || strncmp(line + 11, want, strlen(want))))
            fail_msg("%s: %.100s, not %s", path, line ? line + 1 : "(no skeleton line)", want);
        free(text);
    }
}

/* rename(2) in SOURCE, told to the tree as the watcher tells it. */
static void rename_told(struct env *e, const char *dir, const char *from, const char *to)
{
    char a[256], b[256];
    snprintf(a, sizeof a, "%s%s%s", dir, *dir ? "/" : "", from);
    snprintf(b, sizeof b, "%s%s%s", dir, *dir ? "/" : "", to);
    assert_int_equal(renameat(e->f.fd, a, e->f.fd, b), 0);
    rtm_tree_changed(e->f.t, dir, from, &quiet);
    rtm_tree_changed(e->f.t, dir, to, &quiet);
}

/* A later mount over the same index. */
static void remount(struct env *e)
{
    tree_fixture_unmount(&e->f);
    mount(e);
}

static void folder_renamed(void **state)
{
    struct env *e = *state;
    exact(e, "anims/walk.rtm", "Mine from model.cfg (");
    char *before = read_exact(e, "anims/walk.rtm/header.txt");
    /* a name of another length: a size that named the folder would differ */
    rename_told(e, "", "anims", "a_folder_renamed_while_mounted");
    exact(e, "a_folder_renamed_while_mounted/walk.rtm", "Mine from model.cfg (");
    char *after = read_exact(e, "a_folder_renamed_while_mounted/walk.rtm/header.txt");
    assert_string_equal(before, after);         /* one version, one text */
    /* renamed while unmounted: the next mount's sizes, from the index */
    tree_fixture_unmount(&e->f);
    assert_int_equal(renameat(e->f.fd, "a_folder_renamed_while_mounted", e->f.fd, "x"), 0);
    mount(e);
    exact(e, "x/walk.rtm", "Mine from model.cfg (");
    free(before);
    free(after);
}

static void side_file_renamed(void **state)
{
    struct env *e = *state;
    exact(e, "anims/walk.rtm", "Mine from model.cfg (");
    rename_told(e, "anims", "model.cfg", "model.cfg.off");
    exact(e, "anims/walk.rtm", "ofp2 (");
    rename_told(e, "anims", "model.cfg.off", "model.cfg");
    exact(e, "anims/walk.rtm", "Mine from model.cfg (");
    remount(e);
    exact(e, "anims/walk.rtm", "Mine from model.cfg (");
}

static void side_file_rewritten(void **state)
{
    struct env *e = *state;
    exact(e, "anims/walk.rtm", "Mine from model.cfg (");
    put_model_cfg(e, "anims/model.cfg", "Another_Longer_Name");
    rtm_tree_changed(e->f.t, "anims", "model.cfg", &quiet);
    exact(e, "anims/walk.rtm", "Another_Longer_Name from model.cfg (");
    remount(e);
    exact(e, "anims/walk.rtm", "Another_Longer_Name from model.cfg (");
}

static void side_file_removed(void **state)
{
    struct env *e = *state;
    exact(e, "anims/walk.rtm", "Mine from model.cfg (");
    assert_int_equal(unlinkat(e->f.fd, "anims/model.cfg", 0), 0);
    rtm_tree_changed(e->f.t, "anims", "model.cfg", &quiet);
    exact(e, "anims/walk.rtm", "ofp2 (");
    remount(e);
    exact(e, "anims/walk.rtm", "ofp2 (");
}

/* One that does not read: the message names it as it lies beside the
 * file too, so the folder's name is in no view. */
static void side_file_broken(void **state)
{
    struct env *e = *state;
    tree_fixture_write(&e->f, "anims/model.cfg", "class CfgSkeletons {", 20);
    rtm_tree_changed(e->f.t, "anims", "model.cfg", &quiet);
    exact(e, "anims/walk.rtm", "ofp2 (model.cfg not used: model.cfg");
    char *h = read_exact(e, "anims/walk.rtm/header.txt");
    assert_null(strstr(h, "anims"));
    free(h);
    rename_told(e, "", "anims", "elsewhere");
    exact(e, "elsewhere/walk.rtm", "ofp2 (model.cfg not used: model.cfg");
}

/* The number of animation path's folder (a new version, a new number). */
static uint64_t number_of(struct env *e, const char *path)
{
    struct rtm_tree_entry te;
    assert_int_equal(tree_walk(e->f.t, path, &te), 0);
    return te.ino;
}

/* Watched: a model.cfg rewritten is not looked at again until the watcher
 * says so (the lookup keeps its version); then it is. */
static void kept_until_the_watcher_says(void **state)
{
    struct env *e = *state;
    exact(e, "anims/walk.rtm", "Mine from model.cfg (");
    uint64_t first = number_of(e, "anims/walk.rtm");
    put_model_cfg(e, "anims/model.cfg", "Second");
    assert_int_equal(number_of(e, "anims/walk.rtm"), first);
    rtm_tree_changed(e->f.t, "anims", "model.cfg", &quiet);
    uint64_t second = number_of(e, "anims/walk.rtm");
    assert_true(second != first);
    exact(e, "anims/walk.rtm", "Second from model.cfg (");
    /* its folder's watch gone (the watcher says so as a change in the
     * parent): looked up again */
    put_model_cfg(e, "anims/model.cfg", "Third");
    rtm_tree_changed(e->f.t, "", "anims", &quiet);
    assert_true(number_of(e, "anims/walk.rtm") != second);
    exact(e, "anims/walk.rtm", "Third from model.cfg (");
}

/* Not watched (-o watch=poll, a watch refused): every lookup looks again. */
static void unwatched_looks_every_time(void **state)
{
    struct env *e = *state;
    e->watched = 0;
    remount(e);
    exact(e, "anims/walk.rtm", "Mine from model.cfg (");
    uint64_t first = number_of(e, "anims/walk.rtm");
    put_model_cfg(e, "anims/model.cfg", "Second");
    assert_true(number_of(e, "anims/walk.rtm") != first);
    exact(e, "anims/walk.rtm", "Second from model.cfg (");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(folder_renamed, setup, teardown),
        cmocka_unit_test_setup_teardown(side_file_renamed, setup, teardown),
        cmocka_unit_test_setup_teardown(side_file_rewritten, setup, teardown),
        cmocka_unit_test_setup_teardown(side_file_removed, setup, teardown),
        cmocka_unit_test_setup_teardown(side_file_broken, setup, teardown),
        cmocka_unit_test_setup_teardown(kept_until_the_watcher_says, setup, teardown),
        cmocka_unit_test_setup_teardown(unwatched_looks_every_time, setup, teardown),
    };
    return run_test_cases(tests, NULL, NULL);
}
