/* mocap_retarget.h - a BVH file's motion (mocap.h) made an animation of a
 * skeleton: the second step of reading BVH as an animation source.
 *
 * Contract (rtm(5), BVH SOURCES, says the rules in full):
 *  - rtm_mocap_retarget() makes a new anim (rtm.h, format RTM_FORMAT_BVH,
 *    depth FULL, or LIGHT with RTM_PARSE_NO_MATRICES, or SHAPE from a head
 *    read: m->values NULL) whose bones are the skeleton's, in the
 *    skeleton's order, from a mocap and its map, with a->bvh saying how it
 *    was read (units, naming, each joint's mapping).  Every depth has the
 *    same bones and nframes.  The skeleton must have pivots (its rest
 *    pose); it is only read during the call.  Not filled here: what
 *    rtm_parse adds to every anim (the skeleton's copy, tracks,
 *    source_bytes).
 *  - Axes: a BVH point (x, y, z) is the model's (x, y, -z) times the unit,
 *    a rotation W is S W S (S = diag(1, 1, -1)): the inverse of anim.bvh
 *    (bvh.h).  A BVH character facing +z with its left at +x (CMU's,
 *    Mixamo's, anim.bvh's) so faces -z with its left at +x, as Arma's do.
 *  - The source's rest is its OFFSET pose.  Each mapped bone is first
 *    turned so that its rest direction is its source joint's (a fixed
 *    rotation a bone: the shortest arc, which adds no twist, for one
 *    direction; where chains branch, pelvis and chest, the best fit of all
 *    the branches' directions, which also sets the twist), then turned, in
 *    world space, by the rotation its source joint makes from its rest in
 *    each frame.  A bone's direction runs from its joint to its next
 *    mapped descendants' (through unmapped bones; a descendant at the same
 *    point on either side passes it on).  A bone with no mapped
 *    descendant keeps its nearest mapped ancestor's fixed turn.
 *  - Unmapped bones (a chain's extra spine bone, the roll bones) keep
 *    their rest against their parent: the whole rotation of a chain goes
 *    to the mapped bone at its top, which keeps the next mapped joint
 *    exactly on the source's direction.  Each joint rides on its parent's
 *    by the skeleton's rest offset: the skeleton's lengths and
 *    proportions, not the actor's.
 *  - The root: the travel is that of the carrier, the mapped joint
 *    nearest the source's root (Hips).  Its net horizontal travel from
 *    the first frame to the last, scaled by the ratio of the hip heights,
 *    is the motion vector (the displacement, model axes: y 0), and each
 *    frame has it taken out in proportion to its phase.  A hip height is
 *    the height of the leg's top mapped joint above the lowest mapped
 *    joint of the rest pose (the same two joints on both sides; the
 *    carrier when no joint lies between).  Vertically the carrier's bone
 *    moves as the carrier since the first frame, scaled by the ratio; then
 *    the whole clip is lifted by one height so that the lowest any mapped
 *    bone's joint goes in any frame is the lowest mapped pivot of the
 *    rest pose (the floor: the feet touch it where the source's touch
 *    its own, whatever each skeleton's feet look like at rest).
 *  - The skeleton's own BVH: some joint has a bone's name (exactly, in
 *    any case), and every joint that has sits within 1 mm of that bone's
 *    pivot in the rest pose (as anim.bvh writes them); judged by names
 *    and places alone, whatever the map says, and then the names are the
 *    map.  Its rotations and positions are taken as they are (stretched
 *    bones survive), less the travel of an unmapped root
 *    (anim.bvh's rtm_root, which carries motion x phase); that root's net
 *    travel, all three axes, is the motion vector.
 *  - Phases are the frame times over the clip's length (i / (n - 1)).
 *    With opts->fps the clip is resampled: round(length x fps) + 1 frames
 *    evenly spread from the first to the last (so the rate is within half
 *    a frame of fps; never more frames than the source), each joint's
 *    local turn slerped and its position channels moved linearly.
 *  - Every number of the result is finite (-1 if one were not).
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

/* Units: opts->unit, or rtm_mocap_unit_infer(). */
int rtm_mocap_retarget(const struct rtm_mocap *m, const struct rtm_mocap_map *map,
                       const struct rtm_skeleton *s, const struct rtm_mocap_opts *o,
                       unsigned flags, struct rtm_anim **out, struct rtm_error *err);

/* The last steps of every source read into a mocap (BVH, glTF; formats.h).
 * rtm_mocap_source_reserve() asks o->reserve for what a parse of head
 * (the joints and counts; values NULL) will hold, with the skeleton o
 * chooses by its joints' names.  rtm_mocap_source_make() maps m onto that
 * skeleton and retargets it with mo (NULL: o->mocap, or zeroed), depth
 * by m and flags; *skel gets the skeleton, the anim format fmt and
 * source_bytes file_size.  -1 with err. */
int rtm_mocap_source_reserve(const struct rtm_parse_opts *o, const struct rtm_mocap *head,
                             struct rtm_error *err);
int rtm_mocap_source_make(const struct rtm_mocap *m, const struct rtm_parse_opts *o,
                          const struct rtm_mocap_opts *mo, unsigned flags, uint64_t file_size,
                          enum rtm_format fmt, const struct rtm_skeleton **skel,
                          struct rtm_anim **out, struct rtm_error *err);

#endif
