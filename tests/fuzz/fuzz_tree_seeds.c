/* fuzz_tree_seeds - writes fuzz_tree's seeds: fuzz_tree_seeds DIR.
 * Each is an input in fuzz_tree.h's layout: options, a SOURCE of the
 * project's writers (good files, and files whose head reads but whose
 * full parse fails), and a script that walks, reads, changes SOURCE and
 * reports it, as a mount meets them.  The regression inputs fuzz_tree
 * found are kept here too, byte for byte. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_tree.h"

struct seed {
    uint8_t b[512];
    size_t n;
};

static void add(struct seed *s, const uint8_t *p, size_t n)
{
    if (s->n + n > sizeof s->b)
        abort();
    memcpy(s->b + s->n, p, n);
    s->n += n;
}
#define ADD(s, ...) add(s, (const uint8_t[]){ __VA_ARGS__ }, sizeof((const uint8_t[]){ __VA_ARGS__ }))

static void put(const char *dir, const char *name, const uint8_t *p, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
        perror(path);
        exit(1);
    }
}

/* A BMTR 5 animation whose last LZO stream is cut short: its head
 * (names, counts) reads, its full parse fails (rtmfs-views(7), ERROR.TXT). */
static void cut_bmtr(struct seed *s, uint8_t param)
{
    struct sample_opts o = fz_sample_opts(FZ_GEN_V5LZO, param);
    struct rtm_buf b;
    rtm_buf_init(&b);
    if (rtm_sample_bmtr(&o, 5, BMTR_COMPRESS_ALL, &b))
        abort();
    size_t pos = b.len - 3;             /* inside the last frame's stream */
    ADD(s, FZ_GEN_V5LZO, param, 1, FZ_MUT_CUT, (uint8_t)pos, (uint8_t)(pos >> 8), 0);
    rtm_buf_free(&b);
}

/* A SOURCE of every slot: good animations but b.rtm (cut), a model.cfg,
 * an archive with a model.cfg and a rapified config, both configs. */
static void source(struct seed *s, uint8_t opts, uint8_t cache)
{
    ADD(s, opts, cache);
    ADD(s, FZ_GEN_PLAIN, 0x1b, 0);                  /* anims/a.rtm: 3 frames, 4 bones */
    cut_bmtr(s, 0x2c);                              /* anims/b.rtm */
    ADD(s, FZ_GEN_V4, 0x33, 0);                     /* anims/c.rtm */
    ADD(s, FZ_GEN_PLAIN, 3, 0);                     /* anims/model.cfg */
    ADD(s, FZ_GEN_V5LZO, 0x38, 0);                  /* addon.pbo */
    ADD(s, FZ_GEN_PLAIN, 0, 0);                     /* config.cpp */
    ADD(s, FZ_GEN_PLAIN, 0, 0);                     /* cfg/config.bin */
    ADD(s, FZ_GEN_V5RAW, 0x19, 0);                  /* top.rtm */
}

/* du -a from the root (the root's number is always the first pick): the
 * workers size b.rtm and c.rtm while the walk stats a.rtm's views; then
 * ls of the root with readdirplus and lookups. */
static void walk(struct seed *s)
{
    ADD(s, FZ_OP_WALK, 0, 2, FZ_OP_READDIR, 0, 0x0f, 1, FZ_OP_LOOKUP, 0, 128 + 0 /* anims */);
}

static void reads(struct seed *s)
{
    ADD(s, FZ_OP_READ, 3, 0, 200, FZ_OP_CAT, 4, 5, FZ_OP_CAT, 5, 9, FZ_OP_READ, 7, 40, 3);
    ADD(s, FZ_OP_GETATTR, 6, FZ_OP_FORGET, 5, 1, FZ_OP_CAT, 9, 0);
}

/* SOURCE changes under the kernel's numbers, reported or not. */
static void changes(struct seed *s)
{
    ADD(s, FZ_OP_REWRITE, FZ_SLOT_A, 1 | 2, FZ_GEN_V3, 0x1b, 0);
    ADD(s, FZ_OP_TRUNCATE, FZ_SLOT_C, 200, 1, FZ_OP_CAT, 4, 5);
    ADD(s, FZ_OP_REWRITE, FZ_SLOT_MODELCFG, 2, FZ_GEN_PLAIN, 5, 0, FZ_OP_READ, 3, 0, 200);
    ADD(s, FZ_OP_RENAME, FZ_SLOT_B, FZ_SLOT_C, 1, FZ_OP_REMOVE, FZ_SLOT_PBO, 0);
    ADD(s, FZ_OP_WALK, 1, 1, FZ_OP_NOTIFY, FZ_SLOT_PBO, FZ_OP_NOTIFY, 9);
    ADD(s, FZ_OP_REWRITE, FZ_SLOT_CONFIG, 2, FZ_GEN_V3, 1, 0, FZ_OP_CAT, 7, 3);
}

/* The sizing worker's old crash: a BMTR file whose full parse
 * fails sized ahead (keep_sizes on an entry with no sizes), as fuzz_tree
 * found it before the fix. */
static const uint8_t keep_sizes_null[] = {
    0x1f, 0x03, 0x01, 0x1b, 0x00, 0x06, 0x2a, 0x62, 0x2e, 0x01, 0x00, 0x1f, 0x03, 0x01, 0x1b,
    0x00, 0x06, 0x2a, 0xf5, 0x00, 0xff, 0xff, 0x00, 0x04, 0x00, 0x00, 0x48, 0x48, 0x48, 0x48,
    0x48, 0x48, 0x48, 0x48, 0x48, 0x48, 0x48, 0x48, 0x48, 0x48, 0x48, 0x48, 0x48, 0x48, 0x48,
    0x48, 0x48, 0x48, 0x48, 0x48, 0x48, 0x48, 0x48, 0x48, 0x48, 0x48, 0x48, 0x48, 0x48, 0x48,
    0x48, 0x48, 0x48, 0x50, 0x01, 0x04, 0x33, 0x00, 0x03, 0x01, 0x1b, 0x00, 0x06, 0x2a, 0x01,
    0x00, 0xff, 0xff, 0x00, 0x04, 0x33, 0xd2, 0xfe, 0x00, 0xff, 0xff, 0x34, 0x03, 0xff, 0x06,
    0x00, 0x03, 0x38,
};

/* UndefinedBehaviorSanitizer in cfg_parse_text (NULL + 0): an archive's
 * config.bin entry of no bytes, read as text for states.txt
 * (tree_states_walk.c entry_config), as fuzz_tree found it. */
static const uint8_t empty_config_entry[] = {
    0x00, 0x02, 0x01, 0x1b, 0x00, 0x06, 0x03, 0x00, 0x2c, 0x01, 0x00, 0x00, 0x01, 0x33, 0x33,
    0x04, 0xe0, 0x00, 0x01, 0x02, 0x00, 0x27, 0x38, 0x00, 0x01, 0x1b, 0x00, 0x06, 0x03, 0x00,
    0x2c, 0x01, 0x00, 0x00, 0x01, 0x33, 0x06, 0x05, 0x05, 0x01, 0x73, 0x70, 0x69, 0x6e, 0x65,
    0x32, 0x2e, 0x63, 0x73, 0x04, 0x09, 0x00,
};

/* A damaged BMTR file's error.txt changed size within one version: the
 * head parse said its frames cannot fit, the full parse (after a change
 * report dropped the cache) that its phase array was wrong; both now say
 * the first (bmtr.c frames_fit), as fuzz_tree found it. */
static const uint8_t error_text_agrees[] = {
    0x0e, 0x03, 0x02, 0x01, 0x2b, 0x00, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe,
    0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe,
    0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0x7f, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe,
    0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe,
    0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe,
    0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe, 0xbe,
    0xbe, 0x06, 0x2c, 0x01, 0x00, 0xe0, 0x01, 0x00, 0x04, 0x31, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x0b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x01, 0x1b, 0x00, 0x06, 0x2c,
    0x01, 0x00, 0xe0, 0x01, 0x00, 0x0b, 0x01, 0x0b, 0xfb, 0x0b, 0x09, 0x07, 0x05, 0x02, 0x03,
    0x01, 0x00, 0x04, 0x07, 0x04,
};

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: fuzz_tree_seeds DIR\n");
        return 2;
    }
    static const struct { const char *name; uint8_t opts, cache; int change; } k[] = {
        { "walk", 0, 2, 0 },
        { "walk-two-workers", FZ_OPT_AHEAD2, 0, 0 },
        { "changes", FZ_OPT_AHEAD2 | FZ_OPT_SHOW_OTHER, 2, 1 },
        { "index-remount", FZ_OPT_INDEX | FZ_OPT_INDEX2 | FZ_OPT_SHOW_OTHER, 1, 1 },
        { "skeleton-unwatched", FZ_OPT_SKELETON | FZ_OPT_UNWATCHED | FZ_OPT_RAPIFIED_RAW, 3, 1 },
    };
    for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
        struct seed s = { .n = 0 };
        source(&s, k[i].opts, k[i].cache);
        walk(&s);
        reads(&s);
        if (k[i].change)
            changes(&s);
        if (k[i].opts & FZ_OPT_INDEX)
            ADD(&s, FZ_OP_REMOUNT, FZ_OP_READDIR, 0, 0x0f, 1, FZ_OP_WALK, 1, 1);
        put(argv[1], k[i].name, s.b, s.n);
    }
    /* glTF: a GLB of two clips as anims/a.rtm and one in the archive,
     * .gltf text as c.rtm (read by their bytes), walked and changed */
    struct seed g = { .n = 0 };
    ADD(&g, FZ_OPT_AHEAD2 | FZ_OPT_INDEX | FZ_OPT_INDEX2, 2);
    ADD(&g, FZ_GEN_GLB, 3, 0);                      /* anims/a.rtm: skin, two clips */
    cut_bmtr(&g, 0x2c);                             /* anims/b.rtm */
    ADD(&g, FZ_GEN_GLTF, 6, 0);                     /* anims/c.rtm: two clips, turned */
    ADD(&g, FZ_GEN_PLAIN, 3, 0, FZ_GEN_GLB, 2, 0, FZ_GEN_PLAIN, 0, 0, FZ_GEN_PLAIN, 0, 0,
        FZ_GEN_V5RAW, 0x19, 0);
    walk(&g);
    reads(&g);
    changes(&g);
    ADD(&g, FZ_OP_REMOUNT, FZ_OP_READDIR, 0, 0x0f, 1, FZ_OP_WALK, 1, 3);
    put(argv[1], "gltf", g.b, g.n);
    put(argv[1], "keep-sizes-null", keep_sizes_null, sizeof keep_sizes_null);
    put(argv[1], "empty-config-entry", empty_config_entry, sizeof empty_config_entry);
    put(argv[1], "error-text-agrees", error_text_agrees, sizeof error_text_agrees);
    return 0;
}
