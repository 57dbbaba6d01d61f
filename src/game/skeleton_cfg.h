/* skeleton_cfg.h - a skeleton read from a model.cfg's CfgSkeletons, the
 * form the game, Object Builder and the Blender add-on use (rtm(5),
 * SKELETON FILES; rtmfs(1) -o skeleton=), and the skeleton a user's SPEC
 * names.
 *
 * Contract:
 *  - rtm_skeleton_open() accepts "ofp2" and "none" in any case (the
 *    built-ins, skeleton.h), the path of a skeleton file, or a model.cfg
 *    as PATH[:CLASS]: SPEC is a model.cfg when it names a file that ends
 *    in ".cfg" (any case) or starts with "\0raP", or, when SPEC names no
 *    file, when the part before its last ':' does (CLASS is the rest).
 *    Its messages start with "skeleton 'SPEC': ".
 *  - The file is read with cfg_load_file(): rapified when it starts with
 *    "\0raP", else text, preprocessed (#include relative to the file, then
 *    the game paths of the project it lies in, then that project's
 *    include/ folder: gamepath.h).
 *  - Its CfgSkeletons (any case) holds the skeletons.  cls, when not NULL,
 *    names one (ASCII case ignored).  Without it, the class is the best
 *    cover of the built-in ofp2 skeleton's bones: the most of them named;
 *    a tie goes to the class with the most bones, then to the first in
 *    file order.  The skeleton is chosen once, before any animation is
 *    read (a mount has one for every file), so those are the bones it can
 *    be measured against: the ones Arma's character animations address.
 *  - A class's bones: those of the skeleton its skeletonInherit names
 *    (resolved the same way, first, as the game lists them), then its own
 *    skeletonBones[] pairs (BONE, PARENT; "" for a root).  A
 *    skeletonInherit of "OFP2_ManSkeleton" (any case) that the file does
 *    not define is the game's own: the built-in ofp2's bones.  Both values are
 *    looked up through the class's config parents.  A bone listed again
 *    with the same parent is kept once; with another parent, an error.
 *    Bones are put parents first, else in the order listed.
 *  - Pivots: a model.cfg has no rest pose.  Bones named as a bone of the
 *    built-in ofp2 skeleton (ASCII case ignored) take its pivot and its
 *    placed flag; when none is, the skeleton has no pivots; a bone that is
 *    not, among ones that are, is placed by a rule (5 cm beyond its
 *    parent's pivot along the grandparent-to-parent direction, up when
 *    there is none; a root at 0 0 0) and marked placed.
 *  - The skeleton's name says the file, the class and why it was used:
 *    "PATH:CLASS (model.cfg class, named)" or "PATH:CLASS (model.cfg
 *    class, best cover: N of 103 ofp2 bones)".  Its render_id names the
 *    file's identity, the class and a hash of the bones and pivots, for
 *    the persistent index's rendering key.
 *  - Errors (-1, err one line starting "skeleton 'SPEC': "): the file
 *    cannot be read or is no config, no CfgSkeletons, no class of that
 *    name, a skeletonInherit naming no class (but the game's man) or looping, skeletonBones[]
 *    not an even list of strings, a bone name a skeleton file cannot hold
 *    (empty, "-", blank, '#', control bytes, over 255 bytes), a parent not
 *    listed, parents in a loop, more than 4096 bones.
 */
#ifndef RTM_SKELETON_CFG_H
#define RTM_SKELETON_CFG_H

#include "skeleton.h"

/* The skeleton SPEC names (above); the caller frees it with
 * rtm_skeleton_free().  0, or -1 with the message. */
int rtm_skeleton_open(const char *spec, struct rtm_skeleton **out, struct rtm_error *err);

/* Opens the skeleton of path's CfgSkeletons class cls (NULL: the best
 * cover); spec is what the user wrote, for messages. */
int rtm_skeleton_cfg_open(const char *path, const char *cls, const char *spec,
                          struct rtm_skeleton **out, struct rtm_error *err);

/* A model.cfg beside animations (rtmfs-views(7), the skeleton rule): its
 * every CfgSkeletons class, in file order, as the bytes a cache keeps
 * (each class's name, its cover of ofp2's bones and its skeleton text,
 * which rtm_skeleton_pick reads).  0, or -1 with the message ("skeleton
 * 'WHERE': ..."), where being the model.cfg as the user sees it.  ofp2
 * is the built-in ofp2 (rtm_skeleton_builtin) when the caller has it for
 * many configs, or NULL: built here. */
struct cfg;
int rtm_skeleton_cfg_classes(const struct cfg *c, const char *where,
                             const struct rtm_skeleton *ofp2, struct rtm_buf *out,
                             struct rtm_error *err);
/* The same from a model.cfg's bytes: rapified, or text preprocessed
 * without includes (an archive's, or a file read through a folder's fd). */
int rtm_skeleton_cfg_classes_of(const uint8_t *data, size_t len, const char *where,
                                struct rtm_buf *out, struct rtm_error *err);

/* The skeleton of class name (ASCII case ignored) among those bytes, named
 * as the class; NULL when none is (or out of memory). */
struct rtm_skeleton *rtm_skeleton_cfg_class(const uint8_t *classes, size_t len, const char *name);

/* The class an animation takes from those bytes, as rtm_parse_opts.choose
 * (ctx a struct rtm_skeleton_pick): the one that holds the most of its
 * bones (every one, when one does), then the best cover of ofp2's bones,
 * then the most bones, then the first; named "CLASS from WHERE".  The
 * skeleton is kept in the struct, made once, until
 * rtm_skeleton_pick_done(); NULL (the parse's own skeleton then) when the
 * bytes hold no class. */
struct rtm_skeleton_pick {
    const uint8_t *classes;
    size_t len;
    const char *where;
    struct rtm_skeleton *chosen;
    int tried;
    struct rtm_error err;
};
const struct rtm_skeleton *rtm_skeleton_pick(void *ctx, const struct rtm_str *bones, uint32_t n);
void rtm_skeleton_pick_done(struct rtm_skeleton_pick *p);

/* The skeleton rule's file, one place for the mount, the loader and
 * rtmcat (skeleton_open.c; where it lies beside an animation is the
 * loader's list of side files, sides.h):
 *  - a model.cfg that does not read, said as where it is and why, "WHERE
 *    not used: WHY", into n bytes of out;
 *  - an animation read without it, its skeleton named "NAME (WHERE not
 *    used: WHY)": 0, or -1 out of memory (a's name unchanged). */
#define RTM_MODEL_CFG "model.cfg"
struct rtm_anim;
void rtm_model_cfg_unused(char *out, size_t n, const char *where, const char *why);
int rtm_model_cfg_say_unused(struct rtm_anim *a, const char *unused);

#endif
