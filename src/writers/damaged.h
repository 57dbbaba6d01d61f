/* damaged.h - seeded trees of damaged files beside good ones, for the
 * tests and benchmarks that prove the mount against bad input (rtmgen -D,
 * tests/mount/damaged.sh, tests/bench/bench_damaged.sh).
 *
 * From the sample animations (samples.h) drawn from a mix of formats,
 * frames and bones (rtmgen passes the real files' mix), it makes:
 *  - animations cut at every kind of boundary and inside each part (a
 *    plain file's MDAT block, header, bone names, frame times and
 *    matrices; a BMTR file's header, names, properties, array sizes, raw
 *    arrays and LZO streams), with bytes flipped, with frame and bone
 *    counts and array sizes rewritten, with LZO streams broken;
 *  - archives (.pbo) of good and damaged animations, stored and LZSS,
 *    archives damaged themselves (cut in the table or the data, LZSS bytes
 *    flipped, an entry's size rewritten), and the table tricks of
 *    pbo_tricks.h;
 *  - text configs (config.cpp) and rapified ones (config.bin) whole or cut
 *    mid-class, and model.cfg files whole or cut.
 * Each file's kind is a fact, not an intention: it is classified by the
 * project's own readers (rtm_parse_head then rtm_parse_opts with the
 * built-in ofp2 skeleton, pbo_read_table and pbo_entry_data, cfg_read,
 * rtm_skeleton_cfg_classes_of), so "head-ok-full-fails" names exactly the
 * files whose head reads and whose full parse fails.
 *
 * Contract: damaged_tree() hands each file to out->file (its path relative
 * to the tree's root, '/'-separated, and its bytes, borrowed for the call)
 * and each row of the manifest to out->note: every animation (loose or an
 * archive's entry, by the path the mount shows it at), archive and config,
 * with its kind and what was done to it, "TAG: details" (TAG "none" for a
 * file left whole; no tab or newline in it).  It stops once at least
 * o->n rows are damaged (TAG not "none").  The same options give the same
 * files and rows, in the same order, on every run and machine.  Returns 0,
 * or -1 with err (out of memory, or a callback's -1).  No global state. */
#ifndef RTM_DAMAGED_H
#define RTM_DAMAGED_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

enum damaged_kind {
    DMG_GOOD,           /* an animation left whole: it parses */
    DMG_PARSES,         /* a damaged animation that still parses fully */
    DMG_HEAD_FAILS,     /* an animation whose head parse fails */
    DMG_FULL_FAILS,     /* its head reads and its full parse fails */
    DMG_ENTRY_FAILS,    /* an archive's animation whose stored bytes do not decode */
    DMG_PBO_OK,         /* an archive whose table reads whole */
    DMG_PBO_CUT,        /* its table reads, some entries lie past its end */
    DMG_PBO_FAILS,      /* its table does not read */
    DMG_PBO_TRICKS,     /* a table of tricks (pbo_tricks.h) that reads */
    DMG_CONFIG_OK,      /* a config (text or rapified) that reads */
    DMG_CONFIG_FAILS,
    DMG_MODELCFG_OK,    /* a model.cfg whose CfgSkeletons read */
    DMG_MODELCFG_FAILS,
    DMG_KINDS
};
/* "good", "parses", "head-fails", "head-ok-full-fails", "entry-fails",
 * "pbo-ok", "pbo-cut", "pbo-fails", "pbo-tricks", "config-ok",
 * "config-fails", "modelcfg-ok", "modelcfg-fails". */
const char *damaged_kind_name(enum damaged_kind k);

/* One draw of the mix: version 0 plain (else the BMTR version), frames, bones. */
struct damaged_mix {
    uint8_t version;
    uint16_t frames, bones;
};

struct damaged_out {
    int (*file)(void *ctx, const char *path, const uint8_t *data, size_t len);
    int (*note)(void *ctx, const char *path, enum damaged_kind kind, const char *what);
    void *ctx;
};

struct damaged_opts {
    unsigned n;                     /* at least this many damaged rows */
    uint64_t seed;                  /* 0 is taken as 1 */
    const struct damaged_mix *mix;  /* NULL: a small built-in mix */
    size_t nmix;
    uint16_t max_frames;            /* a draw's frames cut to this; 0: 48 */
};

int damaged_tree(const struct damaged_opts *o, const struct damaged_out *out,
                 struct rtm_error *err);

#endif
