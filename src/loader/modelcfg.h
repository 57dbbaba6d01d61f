/* modelcfg.h - the model.cfg beside an animation the loader parses
 * (loader.h), whose classes give its skeleton (rtmfs-views(7), the
 * skeleton rule): in the animation's folder on disk, or beside its entry
 * in an archive.  Private to the loader.
 *
 * Contract:
 *  - A loose animation's version names its model.cfg (and a BVH's map,
 *    bvhmap.h) by its salt (fileid.h, rtm_loader_salt; the tree sets it):
 *    a model.cfg or map whose version gives another salt is not that
 *    version's (-ESTALE, as for a rewritten file).  An archive's entry is of the
 *    archive's version, which holds its model.cfg.
 *  - The classes are a cache entry (RTMC_SKELETONS) held until
 *    rtm_modelcfg_release(); one that does not read leaves no classes and
 *    a where that says why.
 *  - where never holds a path of SOURCE: the skeleton's name that views
 *    print is of the animation's version, which a folder renamed keeps.
 */
#ifndef RTM_MODELCFG_H
#define RTM_MODELCFG_H

#include "loader.h"

struct rtm_modelcfg {
    struct rtmc_entry *h;           /* the classes' entry, or NULL */
    char where[RTM_KEY_MAX + 1100]; /* its name beside the animation, as a view
                                       says it (rtm_side_file_name: "model.cfg",
                                       or an entry's "MODEL.CFG"), or that and
                                       " not used: WHY" (WHY naming it so too);
                                       "": none */
};

/* Finds the model.cfg of src (an RTMC_ANIM load) when l->model_cfg: 0
 * with or without one, or a negative errno.  A loose file's salt is
 * checked here, against its model.cfg's version and map's (the version of
 * the map read for it, bvhmap.h; NONE: none): -ESTALE when either moved. */
int rtm_modelcfg_find(const struct rtm_loader *l, const struct rtmc_src *src,
                      const struct rtm_fileid *map, struct rtm_modelcfg *m);
void rtm_modelcfg_release(const struct rtm_loader *l, struct rtm_modelcfg *m);
#endif
