/* states_skeleton.h - the skeleton the game plays an animation with, by
 * the configs: the third step of the skeleton rule (rtmfs-views(7), THE
 * SKELETON RULE).  A state plays its file through its root class (a
 * CfgMoves... or CfgGestures... class), whose skeletonName names a class
 * of CfgSkeletons in any config or model.cfg added to the table, followed
 * through skeletonInherit (skeleton_cfg.h).  The root check.txt finds the
 * same skeletons (states_check.h), so the two never disagree.
 *
 * Contract: as states.h; the answer points into the finished table and
 * lives as long as it does.  A remembered table (the index's) answers as
 * the one made from the configs, and a table whose lines come later
 * (states.h: rtm_states_lines_later) before they are made: it reads none.
 */
#ifndef RTM_STATES_SKELETON_H
#define RTM_STATES_SKELETON_H

#include "skeleton.h"
#include "states.h"

struct rtm_states_skeleton {
    const struct rtm_skeleton *s;   /* named as its CfgSkeletons class */
    const char *where;          /* "CONFIG: CLASS_PATH" of the first state
                                   that plays the file with it */
    size_t states;              /* the states that play the file with it */
    size_t choices;             /* the skeletons that play the file */
    size_t at;                  /* the skeleton's place among the table's */
};

/* The skeleton of the animation at game path key (normalised, lowercase:
 * rtm_states_key), whose bones are bones[0, n): of the skeletons the
 * states that name it play it with, the one that holds the most of its
 * bones, then the one the most states play it with, then the first in
 * states.txt's order.  1 with *out; 0 when no state that names it has a
 * skeleton found under SOURCE (s NULL: no configs read).  The built-in
 * OFP2_ManSkeleton the root check uses where SOURCE defines none is not
 * one: such a file falls to the rule's step 4, the same bones. */
/* Whether any state has a skeleton found under SOURCE: else every file's
 * answer is 0 (a caller may skip finding its game path). */
int rtm_states_skeletons_any(const struct rtm_states *s);
int rtm_states_skeleton(const struct rtm_states *s, const char *key, const struct rtm_str *bones,
                        uint32_t n, struct rtm_states_skeleton *out);

#endif
