/* damaged_int.h - what the damaged trees' two files share (damaged.h):
 * damaged_rtm.c damages and classifies animations, damaged.c lays out the
 * tree, its archives and configs. */
#ifndef RTM_DAMAGED_INT_H
#define RTM_DAMAGED_INT_H

#include "damaged.h"
#include "skeleton.h"
#include "xorshift.h"

struct dmg_gen {
    uint64_t rng;
    struct rtm_skeleton *skel;          /* ofp2: the mount's default */
    const struct damaged_out *out;
    const struct damaged_mix *mix;
    size_t nmix;
    uint16_t max_frames;
    unsigned damaged;                   /* damaged rows noted so far */
    struct rtm_error *err;
};

/* The sample formats. */
enum dmg_fmt { F_PLAIN, F_MDAT, F_V3, F_V4, F_V5_RAW, F_V5_LZO, F_FMTS };
/* What is done to an animation. */
enum dmg_op { OP_CUT, OP_FLIP, OP_FRAMES, OP_BONES, OP_ARRAY, OP_LZO, OP_OPS };

/* A sample into b (empty) of format fmt, or of the mix's next draw when
 * fmt is F_FMTS; desc gets "v5 lzo, 12 frames, 67 bones".  -1: out of memory. */
int dmg_sample(struct dmg_gen *g, enum dmg_fmt fmt, struct rtm_buf *b, char *desc, size_t n);
/* Damages the animation in b with op (or, where op cannot apply, the
 * nearest that can), hint choosing the part it hits; what gets "TAG:
 * details".  -1: out of memory. */
int dmg_animation(struct dmg_gen *g, enum dmg_op op, unsigned hint, struct rtm_buf *b,
                  char *what, size_t n);
/* The kind of an animation's bytes, as the mount's parser sees them; why
 * gets the parser's message when a parse fails ("" else). */
enum damaged_kind dmg_classify(const struct dmg_gen *g, const uint8_t *p, size_t len, char *why,
                               size_t n);

/* The callbacks, counting damaged rows; -1 with err when one fails. */
int dmg_file(struct dmg_gen *g, const char *path, const void *p, size_t len);
int dmg_note(struct dmg_gen *g, const char *path, enum damaged_kind k, const char *what);

#endif
