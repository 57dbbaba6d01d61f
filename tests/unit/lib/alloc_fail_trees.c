/* alloc_fail_trees.c - the SOURCE trees test_alloc_fail sweeps
 * (alloc_fail_trees.h): loose animations, an archive and configs; or a
 * glTF of two clips. */
#include "alloc_fail_trees.h"

#include <fcntl.h>
#include <sys/stat.h>

#include "testutil.h"
#include "config.h"
#include "gltf_write.h"
#include "pbo_write.h"
#include "samples.h"


static const char CFG_TEXT[] =
    "class CfgMovesBasic;\n"
    "class CfgMovesMaleSdr : CfgMovesBasic { class States {\n"
    "  class Walk { file = \"\\a\\walk.rtm\"; speed = 0.5; looped = 1; };\n"
    "  class Packed { file = \"\\mod\\anims\\b.rtm\"; speed = -2; looped = 0; };\n"
    "  class Gone { file = \"\\a\\gone.rtm\"; speed = 1; };\n"
    "}; };\n";
static const char PBO_TEXT[] =
    "class CfgMovesMaleSdr { class States {\n"
    "  class FromPbo { file = \"\\mod\\anims\\p.rtm\"; speed = 0.75; looped = 1; };\n"
    "}; };\n";
static const char BIN_TEXT[] =
    "class CfgGesturesMale { class States {\n"
    "  class Binarised { file = \"\\a\\bmtr.rtm\"; speed = 0.25; looped = 1; };\n"
    "  class InPbo { file = \"\\mod\\anims\\p.rtm\"; speed = 1.5; };\n"
    "}; };\n";

static void put_buf(struct tree_fixture *f, const char *name, struct rtm_buf *b)
{
    tree_fixture_write(f, name, b->p, b->len);
}

static void put_animations(struct tree_fixture *f, struct rtm_buf *plain, struct rtm_buf *bmtr)
{
    struct sample_opts op = { 3, 5, 1, 1 }, ob = { 3, 5, 2, 1 };
    rtm_buf_init(plain);
    rtm_buf_init(bmtr);
    assert_int_equal(rtm_sample_plain(&op, plain), 0);
    assert_int_equal(rtm_sample_bmtr(&ob, 5, BMTR_COMPRESS_ALL, bmtr), 0);
    assert_int_equal(mkdirat(f->fd, "a", 0755), 0);
    put_buf(f, "a/walk.rtm", plain);
    put_buf(f, "a/bmtr.rtm", bmtr);
    /* two more, for the workers to size ahead of a walk of the others */
    struct sample_opts o3 = { 2, 4, 3, 0 }, o4 = { 4, 3, 4, 2 };
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_sample_bmtr(&o3, 4, BMTR_COMPRESS_AUTO, &b), 0);
    put_buf(f, "a/run.rtm", &b);
    b.len = 0;
    assert_int_equal(rtm_sample_plain(&o4, &b), 0);
    put_buf(f, "a/idle.rtm", &b);
    tree_fixture_write(f, "a/readme.txt", "a loose file\n", 13);
    rtm_buf_free(&b);
    tree_fixture_write(f, "a/$PBOPREFIX$", "a", 1);    /* their game paths: \a\... */
}

/* A tree of its own for glTF (its clips retarget onto the man's 103
 * bones: a walk of it is as long as the other tree's): .gltf text of two
 * clips (clips/) reading its buffer from the file beside it. */
void af_put_gltf(struct tree_fixture *f)
{
    struct rtm_buf b;
    uint8_t bin[RTM_GLTF_ARM_BIN];
    rtm_buf_init(&b);
    rtm_gltf_arm_json(&b, RTM_ARM_TWO_CLIPS, "arm.bin");
    put_buf(f, "arm.gltf", &b);
    rtm_gltf_arm_bin(bin, RTM_ARM_TWO_CLIPS);
    tree_fixture_write(f, "arm.bin", bin, sizeof bin);
    rtm_buf_free(&b);
}

static void put_configs(struct tree_fixture *f)
{
    struct rtm_buf b;
    assert_int_equal(mkdirat(f->fd, "cfg", 0755), 0);
    tree_fixture_write(f, "cfg/config.cpp", CFG_TEXT, sizeof CFG_TEXT - 1);
    tree_fixture_write(f, "cfg/$PBOPREFIX$", "cfg", 3);    /* loose configs count there */
    rapify_text(BIN_TEXT, &b);
    assert_int_equal(mkdirat(f->fd, "bin", 0755), 0);
    put_buf(f, "bin/config.bin", &b);
    tree_fixture_write(f, "bin/$PBOPREFIX$", "bin", 3);
    rtm_buf_free(&b);
}

static void put_archive(struct tree_fixture *f, const struct rtm_buf *plain, const struct rtm_buf *bmtr)
{
    struct rtm_buf cfg;
    rapify_text(PBO_TEXT, &cfg);
    const struct pbo_write_entry w[] = {
        { "config.bin", (const uint8_t *)cfg.p, cfg.len, PBO_PACK_STORE, 1000000000 },
        { "anims\\p.rtm", (const uint8_t *)plain->p, plain->len, PBO_PACK_STORE, 1000000000 },
        { "anims\\b.rtm", (const uint8_t *)bmtr->p, bmtr->len, PBO_PACK_CPRS, 1100000000 },
        { "texts\\notes.txt", (const uint8_t *)"notes\n", 6, PBO_PACK_STORE, 0 },
    };
    const struct pbo_write_prop props[] = { { "prefix", "mod" } };
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(pbo_write(w, 4, props, 1, 0, &b), 0);
    put_buf(f, "mod.pbo", &b);
    rtm_buf_free(&b);
    rtm_buf_free(&cfg);
}

void af_put_tree(struct tree_fixture *f)
{
    struct rtm_buf plain, bmtr;
    put_animations(f, &plain, &bmtr);
    put_archive(f, &plain, &bmtr);
    put_configs(f);
    rtm_buf_free(&plain);
    rtm_buf_free(&bmtr);
}
