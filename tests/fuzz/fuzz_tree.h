/* fuzz_tree.h - the input of fuzz_tree (the tree with its sizing-ahead
 * workers), shared with the seed writer (fuzz_seeds.c), which writes
 * inputs in this layout.
 *
 * An input is read front to back; bytes past its end read as 0.
 *   FZ_OPTS   byte 0: the mount's options (FZ_OPT_* bits)
 *   byte 1:   bits 0-1 the cache's budget (fz_budgets), bit 2 digits=3
 *   then one file spec for each of the FZ_NSLOTS slots, in order:
 *     gen    FZ_GEN_*: absent, a writer of the project's (what it writes
 *            depends on the slot: an animation, an archive, a config, a
 *            model.cfg), or raw bytes
 *     param  the writer's parameters (frames, bones, entries, packing)
 *     nmut   low 2 bits: how many mutations follow
 *     nmut times: op (FZ_MUT_*), pos low, pos high, value
 *     (FZ_GEN_RAW instead: len, then len bytes)
 *   then the script, until the input ends or the budget is spent: an
 *   operation byte (FZ_OP_*, modulo FZ_NOPS) and its arguments.
 */
#ifndef RTM_FUZZ_TREE_H
#define RTM_FUZZ_TREE_H

#include "samples.h"

enum {
    FZ_OPT_AHEAD2 = 1,          /* two workers, else one */
    FZ_OPT_SHOW_OTHER = 2,
    FZ_OPT_INDEX = 4,           /* with FZ_OPT_INDEX2: a persistent index */
    FZ_OPT_INDEX2 = 8,
    FZ_OPT_SKELETON = 16,       /* -o skeleton=ofp2 (model.cfg not used) */
    FZ_OPT_CONFIGS_NONE = 32,
    FZ_OPT_RAPIFIED_RAW = 64,
    FZ_OPT_UNWATCHED = 128,     /* the watch fails: short timeouts */
};

/* The files of SOURCE, each at its own path (fuzz_tree_source.h). */
enum { FZ_SLOT_A, FZ_SLOT_B, FZ_SLOT_C, FZ_SLOT_MODELCFG, FZ_SLOT_PBO, FZ_SLOT_CONFIG,
       FZ_SLOT_CONFIGBIN, FZ_SLOT_TOP, FZ_NSLOTS };

enum { FZ_GEN_ABSENT, FZ_GEN_PLAIN, FZ_GEN_PROPS, FZ_GEN_V3, FZ_GEN_V4, FZ_GEN_V5RAW,
       FZ_GEN_V5LZO, FZ_GEN_RAW,
       FZ_GEN_GLB, FZ_GEN_GLTF,     /* the glTF arm (gltf_write.h; param's low bits
                                       its flags: two clips, a skin), read by its
                                       bytes whatever the slot's name */
       FZ_NGENS };

enum { FZ_MUT_CUT, FZ_MUT_FLIP, FZ_MUT_COUNT, FZ_MUT_BYTE, FZ_NMUTS };

/* Operations and their argument bytes. */
enum {
    FZ_OP_LOOKUP,               /* dir pick, name pick */
    FZ_OP_GETATTR,              /* pick */
    FZ_OP_READDIR,              /* dir pick, lookups (bits 0-1 count, 2-7 first),
                                   plus (bit 0; bits 1-7 the range's start) */
    FZ_OP_READ,                 /* file pick, offset, size */
    FZ_OP_CAT,                  /* file pick, chunk: open, read all, release */
    FZ_OP_FORGET,               /* pick, count */
    FZ_OP_WALK,                 /* dir pick, depth: du -a below it */
    FZ_OP_REWRITE,              /* slot, how (bit 0 in place, bit 1 notify), file spec */
    FZ_OP_TRUNCATE,             /* slot, length, notify */
    FZ_OP_REMOVE,               /* slot, notify */
    FZ_OP_RENAME,               /* slot from, slot to, notify */
    FZ_OP_NOTIFY,               /* what: a slot's name, its folder, or everything */
    FZ_OP_RENAME_DIR,           /* notify: anims/ (animations and model.cfg) renamed
                                   away, a new one made, or the two exchanged */
    FZ_OP_REMOUNT,              /* a later mount over the same SOURCE and index */
    FZ_NOPS
};

/* The sample an animation's param gives (fuzz_tree_source.h): 0 to 7
 * frames, 1 to 6 bones, its motion, and with FZ_GEN_PROPS properties.
 * Defined in fuzz_tree_source.c, which the seed writer links too. */
struct sample_opts fz_sample_opts(int gen, uint8_t param);

#endif
