/* bvhmap.h - the map file beside a BVH animation (rtmfs-views(7), BVH
 * SOURCES: bvh.map in its folder, exactly so on disk, any case beside an
 * archive's entry), which the loader hands the BVH reader (mocap.h).
 * Private to the loader.
 *
 * Contract:
 *  - A loose animation's version names its map by its salt (fileid.h,
 *    loader.h: rtm_loader_salt), as it names its model.cfg; the loader
 *    checks the two together (modelcfg.h).  An archive's entry is of the
 *    archive's version, which holds its map.
 *  - A map is read whole, at most RTM_BVH_MAP_MAX bytes; a bigger one, or
 *    one that cannot be read, is the animation's message.
 */
#ifndef RTM_BVHMAP_H
#define RTM_BVHMAP_H

#include "loader.h"

enum { RTM_BVH_MAP_MAX = 1 << 20 };

struct rtm_bvh_map_file {
    uint8_t *text;                  /* NULL: no map */
    size_t len;
    struct rtm_fileid id;           /* a loose map's version; NONE: none */
    char where[RTM_KEY_MAX];        /* its name beside the animation, as views
                                       and messages say it (rtm_side_file_name:
                                       "bvh.map", or an entry's "BVH.MAP") */
};

/* The map of src (an RTMC_ANIM load of a .bvh; fd the file's or the
 * archive's) into m: 0 with or without one; 1 with msg set when it does
 * not read; or a negative errno. */
int rtm_bvh_map_find(const struct rtm_loader *l, int fd, const struct rtmc_src *src,
                     struct rtm_bvh_map_file *m, char *msg, size_t msglen);
void rtm_bvh_map_release(struct rtm_bvh_map_file *m);

#endif
