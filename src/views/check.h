/* check.h - what the game will complain about in one animation: the
 * findings of check.txt (rtmfs-views(7), check.txt; rtmcat(1), --check).
 *
 * Contract:
 *  - rtm_check_render() appends check.txt: one line a finding,
 *    "LEVEL CODE: message\n", LEVEL "error", "warning" or "note", CODE one
 *    of the codes below; nothing when nothing is found.
 *  - The lines come in the order of the codes below, and within a code in
 *    file order (bone, frame or property).  A code that finds more than
 *    RTM_CHECK_MAX_LINES things writes that many lines and then one more
 *    that counts the rest.
 *  - It is a pure function of the anim (which needs matrices: rtm.h), the
 *    skeleton it was read with (the anim's copy: skeleton_name, in_skeleton,
 *    skel_names, skel_parents) and its digits: the same anim always gives
 *    the same bytes.  Bone checks need a skeleton; read with none (or by a
 *    writer, without rtm_parse) they find nothing.
 *  - Messages are one line: names escaped as rtm_put_name() does, the
 *    skeleton named as the game names it (OFP2_ManSkeleton for "ofp2").
 *  - -1 only when out of memory or when a has no matrices.
 */
#ifndef RTM_CHECK_H
#define RTM_CHECK_H

#include "rtm.h"

enum { RTM_CHECK_MAX_LINES = 20 };

/* The codes, in the order check.txt writes them. */
#define RTM_CHECK_CODES                                                              \
    "bone-not-in-skeleton", "binarise-refuses", "helper-bone", "bone-case", "duplicate-bone", "name-length", \
        "skeleton-bones-left-out", "phase-range", "phase-order", "phase-repeat", "nan",  \
        "scaled-bone", "empty-property"

int rtm_check_render(const struct rtm_anim *a, struct rtm_buf *out);

#endif
