/* test_tree_modelcfg.c - the skeleton rule (tree_modelcfg.c, skeleton_cfg.h's
 * rtm_skeleton_pick): an animation beside a model.cfg takes the class that
 * holds every bone of it; of two that do, the better cover of ofp2, then
 * the more bones; of none, the one that holds the most (check.txt says
 * binarise would refuse it, bmtr.rtm stores the bone it lacks as a root);
 * without a model.cfg, or with -o skeleton= given, the mount's; one that
 * does not read says so in the skeleton's name; in an archive, the
 * model.cfg beside the entry; and a model.cfg rewritten while mounted
 * makes the animations beside it new versions, told to the kernel; a
 * later mount, its shapes from the persistent index, keeps the rule. */
#include "testutil.h"
#include "tree_testutil.h"

#include <math.h>

#include "pbo_write.h"

struct env {
    struct tree_fixture f;
    struct rtm_buf bmtr, plain;     /* 30 bones of ofp2, one BMTR, one plain */
    struct rtm_skeleton *ofp2;
};

static int setup(void **state)
{
    struct env *e = calloc(1, sizeof *e);
    struct rtm_error err;
    assert_non_null(e);
    tree_fixture_open(&e->f, "tmcfg");
    assert_int_equal(mkdirat(e->f.fd, "anims", 0755), 0);
    struct sample_opts o = { 6, 30, 4, 2 };
    rtm_buf_init(&e->bmtr);
    rtm_buf_init(&e->plain);
    assert_int_equal(rtm_sample_bmtr(&o, 5, BMTR_COMPRESS_AUTO, &e->bmtr), 0);
    assert_int_equal(rtm_sample_plain(&o, &e->plain), 0);
    tree_fixture_write(&e->f, "anims/walk.rtm", e->bmtr.p, e->bmtr.len);
    tree_fixture_write(&e->f, "anims/pose.rtm", e->plain.p, e->plain.len);
    assert_int_equal(rtm_skeleton_builtin("ofp2", &e->ofp2, &err), 0);
    assert_int_equal(rtm_skeleton_builtin("ofp2", &e->f.skel, &err), 0);
    tree_fixture_mount(&e->f, 64u << 20);
    tree_fixture_tree(&e->f, (struct rtm_tree_config){ 0 });
    *state = e;
    return 0;
}

static int teardown(void **state)
{
    struct env *e = *state;
    tree_fixture_close(&e->f);
    rtm_skeleton_free(e->ofp2);
    rtm_buf_free(&e->bmtr);
    rtm_buf_free(&e->plain);
    free(e);
    return 0;
}

/* A CfgSkeletons class of ofp2's first n bones with their parents, and
 * extra bones of its own ("" none); appended to b. */
static void put_class(struct env *e, struct rtm_buf *b, const char *name, uint32_t n,
                      const char *extra)
{
    rtm_buf_printf(b, "    class %s {\n        skeletonInherit = \"\";\n"
                  "        skeletonBones[] = {\n", name);
    for (uint32_t k = 0; k < n; k++) {
        int32_t p = e->ofp2->parent[k];
        rtm_buf_printf(b, "            \"%s\", \"%s\",\n", e->ofp2->bone[k],
                       p >= 0 ? e->ofp2->bone[p] : "");
    }
    rtm_buf_printf(b, "%s            \"end_of_list\", \"\"\n        };\n    };\n", extra);
}

/* Writes path as a model.cfg of the classes (name, bones, extra). */
static void put_model_cfg(struct env *e, const char *path, const char *const *names,
                          const uint32_t *n, const char *const *extra, int k)
{
    struct rtm_buf b;
    rtm_buf_init(&b);
    rtm_buf_puts(&b, "class CfgSkeletons {\n");
    for (int i = 0; i < k; i++)
        put_class(e, &b, names[i], n[i], extra[i]);
    rtm_buf_puts(&b, "};\nclass CfgModels {};\n");
    tree_fixture_write(&e->f, path, b.p, b.len);
    rtm_buf_free(&b);
}

/* The whole of file path through the tree; its size is what is read. */
static char *read_path(struct env *e, const char *path)
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
    assert_int_equal(te.st.st_size, b.len);
    rtm_buf_putc(&b, 0);
    return b.p;
}

/* header.txt's skeleton line of animation path begins with want. */
static void expect_skeleton(struct env *e, const char *anim, const char *want)
{
    char path[256];
    snprintf(path, sizeof path, "%s/header.txt", anim);
    char *h = read_path(e, path), *line = strstr(h, "\nskeleton: ");
    assert_non_null(line);
    if (strncmp(line + 11, want, strlen(want)))
        fail_msg("%s: %.120s, not %s", anim, line + 1, want);
    free(h);
}

static void without_model_cfg_the_mounts(void **state)
{
    struct env *e = *state;
    expect_skeleton(e, "anims/walk.rtm", "ofp2 (");
    expect_skeleton(e, "anims/pose.rtm", "ofp2 (");
}

static void the_class_with_every_bone(void **state)
{
    struct env *e = *state;
    static const char *const names[] = { "Short", "Mine" }, *const extra[] = { "", "" };
    static const uint32_t n[] = { 10, 30 };
    put_model_cfg(e, "anims/model.cfg", names, n, extra, 2);
    tree_fixture_tree(&e->f, (struct rtm_tree_config){ 0 });
    /* as ls -l: a listing's light entry first, then every view's size,
     * which the cache deepens to a full parse of its own */
    struct rtm_tree_entry te;
    assert_int_equal(tree_walk(e->f.t, "anims/walk.rtm/bones.txt", &te), 0);
    assert_int_equal(tree_walk(e->f.t, "anims/walk.rtm/plain.rtm", &te), 0);
    expect_skeleton(e, "anims/walk.rtm", "Mine from model.cfg (29 of 30 bones composed");
    expect_skeleton(e, "anims/pose.rtm", "Mine from model.cfg (used for pivots and bmtr.rtm");
    /* -o skeleton= given: the mount's, model.cfg or not */
    e->f.l.model_cfg = 0;
    tree_fixture_tree(&e->f, (struct rtm_tree_config){ .skeleton_explicit = 1 });
    expect_skeleton(e, "anims/walk.rtm", "ofp2 (");
}

static void of_two_the_better_cover(void **state)
{
    struct env *e = *state;
    /* both hold every bone; Wide has more bones, but Narrow names more of
     * ofp2's: the cover decides; with the same cover, the more bones */
    static const char *const names[] = { "Wide", "Narrow" };
    static const char *const extra[] = { "            \"x1\", \"\", \"x2\", \"\", \"x3\", \"\",\n",
                                         "" };
    static const uint32_t n[] = { 30, 31 };
    put_model_cfg(e, "anims/model.cfg", names, n, extra, 2);
    tree_fixture_tree(&e->f, (struct rtm_tree_config){ 0 });
    expect_skeleton(e, "anims/walk.rtm", "Narrow from model.cfg");
    static const uint32_t same[] = { 30, 30 };
    put_model_cfg(e, "anims/model.cfg", names, same, extra, 2);
    tree_fixture_tree(&e->f, (struct rtm_tree_config){ 0 });
    expect_skeleton(e, "anims/walk.rtm", "Wide from model.cfg");
}

/* One class lacking the sample's last bone: it is taken (the most held),
 * check.txt says binarise would refuse the plain file, and bmtr.rtm, its
 * lacking bone a root, reads back with that class as the same animation. */
static void one_lacking_a_bone(void **state)
{
    struct env *e = *state;
    static const char *const names[] = { "Lacks" }, *const extra[] = { "" };
    static const uint32_t n[] = { 29 };
    put_model_cfg(e, "anims/model.cfg", names, n, extra, 1);
    tree_fixture_tree(&e->f, (struct rtm_tree_config){ 0 });
    expect_skeleton(e, "anims/pose.rtm", "Lacks from model.cfg");
    char *check = read_path(e, "anims/pose.rtm/check.txt");
    char want[200];
    snprintf(want, sizeof want, "skeleton Lacks from model.cfg lacks 1 of its bones: %s ",
             e->ofp2->bone[29]);
    if (!strstr(check, want))
        fail_msg("check.txt lacks '%s':\n%s", want, check);
    free(check);
    struct rtm_tree_entry te;
    assert_int_equal(tree_walk(e->f.t, "anims/pose.rtm/bmtr.rtm", &te), 0);
    char *bytes = read_path(e, "anims/pose.rtm/bmtr.rtm");
    struct rtm_buf b = { .p = bytes, .len = (size_t)te.st.st_size };
    char text[8192] = "";
    for (uint32_t k = 0; k < 29; k++) {
        int32_t p = e->ofp2->parent[k];
        size_t at = strlen(text);
        snprintf(text + at, sizeof text - at, "%s %s\n", e->ofp2->bone[k],
                 p >= 0 ? e->ofp2->bone[p] : "-");
    }
    struct rtm_anim *back = parse_with_skeleton(&b, text, "lacks");
    struct rtm_anim *orig = parse_ok(&e->plain, "none");
    double worst = 0;
    for (size_t i = 0; i < (size_t)orig->nframes * orig->nbones * 12; i++)
        worst = fmax(worst, fabs(back->matrices[i] - orig->matrices[i]));
    assert_true(worst < 2e-3);
    rtm_free(back);
    rtm_free(orig);
    free(bytes);
}

static void one_that_does_not_read(void **state)
{
    struct env *e = *state;
    tree_fixture_write(&e->f, "anims/model.cfg", "class CfgSkeletons {", 20);
    tree_fixture_tree(&e->f, (struct rtm_tree_config){ 0 });
    expect_skeleton(e, "anims/walk.rtm", "ofp2 (model.cfg not used: ");
}

static void in_an_archive(void **state)
{
    struct env *e = *state;
    struct rtm_buf cfg, pbo;
    rtm_buf_init(&cfg);
    rtm_buf_init(&pbo);
    rtm_buf_puts(&cfg, "class CfgSkeletons {\n");
    put_class(e, &cfg, "Packed", 30, "");
    rtm_buf_puts(&cfg, "};\n");
    struct pbo_write_entry en[] = {
        { "anims\\walk.rtm", (const uint8_t *)e->bmtr.p, e->bmtr.len, PBO_PACK_STORE, 0 },
        { "anims\\MODEL.CFG", (const uint8_t *)cfg.p, cfg.len, PBO_PACK_CPRS, 0 },
        { "other\\walk.rtm", (const uint8_t *)e->bmtr.p, e->bmtr.len, PBO_PACK_STORE, 0 },
    };
    assert_int_equal(pbo_write(en, 3, NULL, 0, 0, &pbo), 0);
    tree_fixture_write(&e->f, "mod.pbo", pbo.p, pbo.len);
    tree_fixture_tree(&e->f, (struct rtm_tree_config){ 0 });
    expect_skeleton(e, "mod.pbo/anims/walk.rtm", "Packed from MODEL.CFG");
    expect_skeleton(e, "mod.pbo/other/walk.rtm", "ofp2 (");
    rtm_buf_free(&cfg);
    rtm_buf_free(&pbo);
}

struct record {
    char log[4096];
};

static void rec_entry(void *ctx, uint64_t parent, const char *name)
{
    struct record *r = ctx;
    size_t at = strlen(r->log);
    snprintf(r->log + at, sizeof r->log - at, "entry %llu %s\n", (unsigned long long)parent,
             name);
}

static void rec_inode(void *ctx, uint64_t ino)
{
    (void)ctx;
    (void)ino;
}

static void rewritten_while_mounted(void **state)
{
    struct env *e = *state;
    static const char *const one[] = { "First" }, *const two[] = { "Second" };
    static const char *const extra[] = { "" };
    static const uint32_t n[] = { 30 };
    put_model_cfg(e, "anims/model.cfg", one, n, extra, 1);
    tree_fixture_tree(&e->f, (struct rtm_tree_config){ 0 });
    struct rtm_tree_entry before, after;
    expect_skeleton(e, "anims/walk.rtm", "First from");
    assert_int_equal(tree_walk(e->f.t, "anims/walk.rtm", &before), 0);
    put_model_cfg(e, "anims/model.cfg", two, n, extra, 1);
    struct record r = { "" };
    struct rtm_tree_notify note = { &r, rec_entry, rec_inode };
    rtm_tree_changed(e->f.t, "anims", "model.cfg", &note);
    assert_non_null(strstr(r.log, " walk.rtm\n"));          /* the kernel forgets them */
    expect_skeleton(e, "anims/walk.rtm", "Second from");
    assert_int_equal(tree_walk(e->f.t, "anims/walk.rtm", &after), 0);
    assert_true(before.ino != after.ino);                   /* a new version */
    assert_int_equal(unlinkat(e->f.fd, "anims/model.cfg", 0), 0);
    rtm_tree_changed(e->f.t, "anims", "model.cfg", &note);
    expect_skeleton(e, "anims/walk.rtm", "ofp2 (");
}

/* A later mount, whose shapes (and sizes) come from the persistent index
 * the first one wrote, still takes the model.cfg's skeleton: a view sized
 * by a full load the cache asks for itself (header.txt at lookup) is
 * loaded with the classes the shape was asked with, and reads its size. */
static void a_later_mount_from_the_index(void **state)
{
    struct env *e = *state;
    struct rtm_error err;
    static const char *const names[] = { "Mine" }, *const extra[] = { "" };
    static const uint32_t n[] = { 30 };
    put_model_cfg(e, "anims/model.cfg", names, n, extra, 1);
    for (int round = 0; round < 2; round++) {
        tree_fixture_unmount(&e->f);
        assert_int_equal(rtm_skeleton_builtin("ofp2", &e->f.skel, &err), 0);
        assert_non_null(e->f.ix = rtm_index_open(e->f.index, 64u << 20, tree_quiet, NULL));
        tree_fixture_mount(&e->f, 64u << 20);
        e->f.l.render = "test";
        e->f.l.log = tree_quiet;
        tree_fixture_tree(&e->f, (struct rtm_tree_config){ .store = &e->f.store });
        struct rtm_tree_entry te;
        assert_int_equal(tree_walk(e->f.t, "anims/walk.rtm", &te), 0);
        expect_skeleton(e, "anims/walk.rtm", "Mine from model.cfg");
        expect_skeleton(e, "anims/pose.rtm", "Mine from model.cfg");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(without_model_cfg_the_mounts, setup, teardown),
        cmocka_unit_test_setup_teardown(the_class_with_every_bone, setup, teardown),
        cmocka_unit_test_setup_teardown(of_two_the_better_cover, setup, teardown),
        cmocka_unit_test_setup_teardown(one_lacking_a_bone, setup, teardown),
        cmocka_unit_test_setup_teardown(one_that_does_not_read, setup, teardown),
        cmocka_unit_test_setup_teardown(in_an_archive, setup, teardown),
        cmocka_unit_test_setup_teardown(rewritten_while_mounted, setup, teardown),
        cmocka_unit_test_setup_teardown(a_later_mount_from_the_index, setup, teardown),
    };
    return run_test_cases(tests, NULL, NULL);
}
