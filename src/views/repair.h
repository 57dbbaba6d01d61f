/* repair.h - fixed.rtm, the animation repaired: the bones the game and
 * binarise take, and nothing else (rtmfs-views(7), fixed.rtm).  The view
 * kind is RTM_VIEW_REPAIRED, so that it does not read like the "fixed
 * views" (views.h: RTM_NFIXED_VIEWS), the single files of a folder.
 *
 * Contract:
 *  - The repair keeps exactly the file's bones that its skeleton (the
 *    anim's copy, rtm.h: skel_names) holds, without regard to case, in the
 *    file's order, each named as the skeleton names it.  It leaves out a
 *    bone the skeleton lacks (an exporter's "_end" helper counted apart)
 *    and the later of two bones of one name without regard to case.
 *    Everything else - frames, phases, the motion vector, properties and
 *    each kept bone's matrices - is the file's, to the bit
 *    (rtm_write_plain_bones: a plain file rewritten from its own bytes,
 *    any other as plain.rtm writes it).
 *  - An anim without the skeleton's names (read with "none", or made by a
 *    writer) is not repaired: fixed.rtm is plain.rtm.  So is one where
 *    nothing is left out or renamed.
 *  - Pure functions of the anim, which needs matrices (rtm.h: FULL); the
 *    plan owns its arrays (rtm_repair_free); its names point into the
 *    anim, which must outlive it.  Safe from several threads at once.
 */
#ifndef RTM_REPAIR_H
#define RTM_REPAIR_H

#include "rtm.h"

/* What became of a bone, as header.txt counts it. */
enum rtm_repair_fate {
    RTM_REPAIR_KEPT,            /* as it was */
    RTM_REPAIR_RENAMED,         /* kept, named as the skeleton names it */
    RTM_REPAIR_FOREIGN,         /* left out: the skeleton lacks it */
    RTM_REPAIR_HELPER,          /* left out: an exporter's NAME_end tip */
    RTM_REPAIR_DUPLICATE,       /* left out: an earlier bone has its name */
    RTM_REPAIR_NFATES
};

struct rtm_repair {
    int skeleton;               /* 0: no skeleton's names, nothing checked */
    uint32_t n;                 /* bones kept */
    uint32_t *bone;             /* n: their indices, in file order */
    struct rtm_str *name;       /* n: the skeleton's names for them */
    uint8_t *fate;              /* nbones: enum rtm_repair_fate */
    uint32_t count[RTM_REPAIR_NFATES];
};

/* Names compare as the skeleton's do (skeleton.h): ASCII case ignored;
 * <0, 0, >0 as memcmp. */
int rtm_name_casecmp(const char *x, size_t nx, const char *y, size_t ny);
/* Each of a's bones' skeleton bone, without regard to case, in match
 * (nbones; -1 for none), the skeleton's names in sk (skel_nbones of them,
 * pointing into a).  The one rule check.txt and fixed.rtm match by.
 * a must have skel_names.  0, or -1 out of memory. */
int rtm_anim_skeleton_match(const struct rtm_anim *a, const char **sk, int32_t *match);

/* The plan for a: 0, or -1 out of memory (then nothing to free). */
int rtm_repair_plan(const struct rtm_anim *a, struct rtm_repair *r);
void rtm_repair_free(struct rtm_repair *r);
/* Whether the plan changes anything: else fixed.rtm is plain.rtm. */
int rtm_repair_changes(const struct rtm_repair *r);

/* fixed.rtm's bytes; -1 out of memory. */
int rtm_repair_write(const struct rtm_anim *a, struct rtm_buf *out);
/* header.txt's line "fixed: ...\n", what fixed.rtm left out and renamed
 * (or why it is plain.rtm); out->oom when out of memory. */
void rtm_repair_put_header(const struct rtm_anim *a, struct rtm_buf *out);

#endif
