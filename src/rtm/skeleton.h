/* skeleton.h - bone hierarchies used to turn parent-relative BMTR transforms
 * into model-space matrices (rtm(5), CONVERSION and SKELETON FILES).
 *
 * Contract:
 *  - A skeleton is an ordered list of (bone, parent) pairs, parents first;
 *    names compare case-insensitively (ASCII).
 *  - rtm_skeleton_builtin() gives "ofp2" (the built-in Arma 3
 *    OFP2_ManSkeleton) and "none" (no hierarchy), both in any case;
 *    rtm_skeleton_load() reads a skeleton file.  Its messages start with
 *    "skeleton 'PATH': ".  What a user's SPEC names, a model.cfg too, is
 *    rtm_skeleton_open()'s (skeleton_cfg.h).
 *  - A skeleton file has one bone a line, "BONE PARENT [X Y Z [placed]]":
 *    "-" as PARENT for a root, parents on earlier lines, '#' starts a
 *    comment.  X Y Z, the bone's pivot, are finite decimal numbers; either
 *    every bone line has them or none does.  "placed" marks a pivot placed
 *    by a rule rather than measured.  Errors name the line.
 *  - A pivot is the point where the bone joins its parent, in the model's
 *    rest pose: metres, +X left of the character, +Y up, the character
 *    facing -Z.  pivot and placed are NULL when the skeleton has none ("none"
 *    never has; "ofp2" always has, from its generated table, whose floats
 *    are the ones its "%.4f" text reads back as), else nbones entries each.
 *  - The skeleton owns every array in it.  The caller owns the returned
 *    skeleton and frees it with rtm_skeleton_free().  A skeleton is
 *    immutable once built, so threads may share it.
 *  - rtm_skeleton_write() writes the file format back, one bone a line in
 *    the skeleton's order; parsing what it wrote gives the same bones,
 *    parents, placed flags and pivots to its 4 decimals (within 1e-4).
 */
#ifndef RTM_SKELETON_H
#define RTM_SKELETON_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

struct rtm_skeleton {
    char *name;        /* "ofp2", "none" or the file path */
    uint32_t nbones;
    char **bone;       /* nbones names, each its own allocation unless
                        * name_block is set */
    char *name_block;  /* NULL, or the one block every bone[i] points into
                        * (the built-in ofp2: one allocation, not 103) */
    int32_t *parent;   /* index into bone[], -1 for a root */
    uint32_t *slots;   /* bone[] by case-insensitive name, 0 for a free slot
                        * (skeleton.c's own: rtm_skeleton_find) */
    uint32_t nslots;   /* a power of 2, or 0 */
    float (*pivot)[3]; /* nbones rest-pose joint positions (x, y, z), or NULL */
    uint8_t *placed;   /* nbones: 1 when the pivot was placed by a rule; NULL
                        * exactly when pivot is */
    char *render_id;   /* NULL, or for a model.cfg skeleton its file's
                        * identity, class and bones (the index's key) */
};

/* The built-in skeletons' names: the game's OFP2_ManSkeleton, which is
 * also the one used when none is given, and none.  The list is for
 * messages and usage texts. */
#define RTM_SKELETON_OFP2 "ofp2"
#define RTM_SKELETON_NONE "none"
#define RTM_SKELETON_DEFAULT RTM_SKELETON_OFP2
#define RTM_SKELETON_BUILTINS RTM_SKELETON_OFP2 " or " RTM_SKELETON_NONE

/* Whether name is a built-in skeleton's, in any case. */
int rtm_skeleton_is_builtin(const char *name);

/* 0 with *out, or -1 (out of memory), for a built-in name; 1 for any
 * other name (*out NULL). */
int rtm_skeleton_builtin(const char *name, struct rtm_skeleton **out, struct rtm_error *err);
/* The skeleton file at path: 0 with *out, or -1 with the message. */
int rtm_skeleton_load(const char *path, struct rtm_skeleton **out, struct rtm_error *err);
/* Parses skeleton text (the file format above); name is kept for display. */
int rtm_skeleton_parse(const char *text, size_t len, const char *name,
                       struct rtm_skeleton **out, struct rtm_error *err);
void rtm_skeleton_free(struct rtm_skeleton *s);
/* For each bone k of s, the first of bones[0, n) with its name, or -1: a
 * new array of s->nbones (at least 1) the caller frees; NULL when out of
 * memory. */
struct rtm_str;
int32_t *rtm_skeleton_first_bones(const struct rtm_skeleton *s, const struct rtm_str *bones,
                                  uint32_t n);
/* The same, and when index is not NULL each bone's rtm_skeleton_find()
 * in index[0, n) (caller-owned): one lookup a bone for both. */
int32_t *rtm_skeleton_match(const struct rtm_skeleton *s, const struct rtm_str *bones,
                            uint32_t n, int32_t *index);
/* Index of the bone called name (len bytes), or -1. */
int32_t rtm_skeleton_find(const struct rtm_skeleton *s, const char *name, size_t len);
/* How many of bones[0, n) s holds (names matched as rtm_skeleton_find does). */
uint32_t rtm_skeleton_held(const struct rtm_skeleton *s, const struct rtm_str *bones, uint32_t n);
/* Whether s has pivots (0 for a NULL s). */
int rtm_skeleton_has_pivots(const struct rtm_skeleton *s);
/* Appends s in the file format to out: "BONE PARENT", then " X Y Z" as %.4f
 * (never "-0.0000") and " placed" where placed.  -1 only when out of memory. */
/* " X Y Z[ placed]" of one bone line, as rtm_skeleton_write writes it. */
void rtm_skeleton_put_pivot(struct rtm_buf *out, const float xyz[3], int placed);
int rtm_skeleton_write(const struct rtm_skeleton *s, struct rtm_buf *out);

#endif
