/* mocap_retarget.h - a BVH file's motion (mocap.h) made an animation of a
 * skeleton: the second step of reading BVH as an animation source.
 *
 * Contract (rtm(5), BVH SOURCES, says the rules in full):
 *  - rtm_mocap_retarget() makes a new anim (rtm.h, format RTM_FORMAT_BVH,
 *    depth FULL, or LIGHT with RTM_PARSE_NO_MATRICES) whose bones are the
 *    skeleton's, in the skeleton's order, from a mocap read whole and its
 *    map.  The skeleton must have pivots (its rest pose); it is only read
 *    during the call.
 *  - Each mapped bone is first turned so that its rest direction is its
 *    source joint's rest direction (a fixed rotation a bone), then turned,
 *    in world space, by the rotation its source joint makes from its rest
 *    in each frame.  A bone's direction runs from its joint to its next
 *    mapped descendant's.  Unmapped bones inside a mapped chain share its
 *    rotation as rtm(5) says; a bone with no source keeps its rest
 *    relative to its parent.  Bones keep the skeleton's lengths.
 *  - The root's net horizontal travel from the first frame to the last,
 *    scaled by the ratio of the two hip heights, is the motion vector, and
 *    is taken out of each frame in proportion to its phase.
 *  - A mocap whose joints are the skeleton's own bones with rest offsets
 *    within 1 mm (as rtmfs's anim.bvh writes them) is taken as it is.
 *  - Phases are the frame times over the clip's length; with opts->fps the
 *    motion is resampled to that rate first.
 *  - -1 with err when the skeleton has no pivots, when nothing maps, or
 *    out of memory.  No global state.
 */
#ifndef RTM_MOCAP_RETARGET_H
#define RTM_MOCAP_RETARGET_H

#include "mocap.h"
#include "rtm.h"

/* How a BVH source is read: what a caller (rtmfs's options, rtmcat's)
 * may set.  Zeroed: infer the unit, keep every frame, no map file. */
struct rtm_mocap_opts {
    double unit;                /* metres a file unit; 0: inferred */
    double fps;                 /* resample to this rate; 0: every frame */
    const char *map_text;       /* a map file's bytes (mocap.h), or NULL */
    size_t map_len;
    const char *map_name;       /* its name, for messages */
};

int rtm_mocap_retarget(const struct rtm_mocap *m, const struct rtm_mocap_map *map,
                       const struct rtm_skeleton *s, const struct rtm_mocap_opts *o,
                       unsigned flags, struct rtm_anim **out, struct rtm_error *err);

#endif
