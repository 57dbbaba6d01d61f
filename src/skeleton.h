/* skeleton.h - bone hierarchies used to turn parent-relative BMTR transforms
 * into model-space matrices (FORMAT.md section 6).
 *
 * Contract:
 *  - A skeleton is an ordered list of (bone, parent) pairs, parents first;
 *    names compare case-insensitively (ASCII).
 *  - rtm_skeleton_open() accepts "ofp2" (the built-in Arma 3
 *    OFP2_ManSkeleton), "none" (no hierarchy), both in any case, or the path
 *    of a text file with one "bone parent" pair a line ("-" for a root, '#'
 *    starts a comment).  Its messages start with "skeleton 'SPEC': ".
 *  - The caller owns the returned skeleton and frees it with
 *    rtm_skeleton_free().  A skeleton is immutable once built, so threads may
 *    share it.
 */
#ifndef RTM_SKELETON_H
#define RTM_SKELETON_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

struct rtm_skeleton {
    char *name;        /* "ofp2", "none" or the file path */
    uint32_t nbones;
    char **bone;       /* nbones names */
    int32_t *parent;   /* index into bone[], -1 for a root */
    uint32_t *sorted;  /* indices of bone[] in case-insensitive name order */
};

/* The built-in names, for messages and usage texts. */
#define RTM_SKELETON_BUILTINS "ofp2 or none"

int rtm_skeleton_open(const char *spec, struct rtm_skeleton **out, struct rtm_error *err);
/* Parses skeleton text (the file format above); name is kept for display. */
int rtm_skeleton_parse(const char *text, size_t len, const char *name,
                       struct rtm_skeleton **out, struct rtm_error *err);
void rtm_skeleton_free(struct rtm_skeleton *s);
/* Index of the bone called name (len bytes), or -1. */
int32_t rtm_skeleton_find(const struct rtm_skeleton *s, const char *name, size_t len);

#endif
