/* sides.h - the files beside an animation that its views depend on, as one
 * list (rtmfs-views(7): the skeleton rule, BVH SOURCES): a row a file,
 * its name and which animations it applies to.
 *  - model.cfg: every animation, unless -o skeleton= (rtmcat -s) names the
 *    skeleton; its classes give the skeleton (modelcfg.h, skeleton_cfg.h);
 *  - bvh.map: the sources whose format's row names it (BVH, glTF, GLB,
 *    FBX), whose joints it maps (bvhmap.h).
 * A format that needs a file of its own beside its animations adds a row
 * (and a reader of it, as bvhmap.c): the tree's watch, its per-folder
 * memory of side files and the version's salt follow the list.
 *
 * The name rule, one for every row (rtmfs-views(7) says it of the
 * model.cfg): the name exactly so in a folder on disk; any case beside an
 * archive's entry, as the game finds names (pbo_find).
 *
 * The key rule: a loose animation's version (fileid.h) carries in its salt
 * the versions of the side files beside it that apply to it, so one added,
 * written, removed or renamed makes a new version; an archive entry's side
 * files are of the archive's version, which changes with any entry.
 *
 * Contract: pure (no I/O, no global state but the constant list, any
 * thread); out buffers are the caller's. */
#ifndef RTM_SIDES_H
#define RTM_SIDES_H

#include <stddef.h>
#include <stdint.h>

#include "fileid.h"

enum rtm_side { RTM_SIDE_MODEL_CFG, RTM_SIDE_BVH_MAP, RTM_NSIDES };

struct rtm_side_file {
    const char *name;                   /* as on disk, e.g. "model.cfg" */
    int of_format;                      /* 1: only beside an animation whose
                                           format takes it (its row's side
                                           file, format_table.h); 0: every one */
    int gives_skeleton;                 /* 1: not used where -o skeleton=
                                           names the skeleton */
    uint64_t mix;                       /* its hash's odd multiplier in the
                                           salt; 0: the hash as it is */
};
extern const struct rtm_side_file RTM_SIDE_FILES[RTM_NSIDES];

#define RTM_BVH_MAP "bvh.map"

/* Whether side file s applies to the animation named anim (len bytes: a
 * path or a name), the skeleton given or not. */
int rtm_side_wanted(enum rtm_side s, const char *anim, size_t len, int skeleton_given);

/* The path of side file s beside the animation at path (len bytes; a path
 * in SOURCE, or an archive's entry): "DIR/NAME" for "DIR/ANIM", "NAME"
 * for "ANIM", into n bytes of out; 0, or -1 when it does not fit. */
int rtm_side_beside(enum rtm_side s, const char *path, size_t len, char *out, size_t n);

/* Which side file name (a last component) is, by the name rule: its row,
 * or -1 for none (or NULL). */
enum rtm_side_where { RTM_SIDE_ON_DISK, RTM_SIDE_IN_ARCHIVE };
int rtm_side_named(const char *name, enum rtm_side_where where);

/* The salt of a loose animation's version (fileid.h) from the versions of
 * its side files, ids[s] for row s (RTM_FILEID_NONE: none there, or not
 * applying).  0 when none; a file whose row's mix is 0 (the model.cfg)
 * gives its hash, others their hash mixed, so that no two rows' files of
 * one version cancel. */
uint64_t rtm_loader_salt(const struct rtm_fileid ids[RTM_NSIDES]);

#endif
