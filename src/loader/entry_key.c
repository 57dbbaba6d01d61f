/* entry_key.c - the keys a version is named by (loader.h): an archive
 * entry's cache key, which the loader and the files beside an entry
 * (modelcfg.c, bvhmap.c) both name, and a loose animation's salt from
 * the files beside it. */
#include <stdio.h>
#include <string.h>

#include "loader.h"

void rtm_loader_entry_key(char key[RTM_KEY_MAX], const char *archive, size_t archive_len,
                          const char *entry)
{
    snprintf(key, RTM_KEY_MAX, "%.*s/%s", (int)archive_len, archive, entry);
}

/* ---- the files beside an animation that its version names (loader.h) ---- */

const char *rtm_side_file_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

int rtm_is_bvh_name(const char *name, size_t len)
{
    return rtm_name_ends(name, len, ".bvh");
}

int rtm_bvh_map_beside(const char *path, size_t len, char *out, size_t n)
{
    const char *slash = memrchr(path, '/', len);
    int dir = slash ? (int)(slash - path + 1) : 0;
    return snprintf(out, n, "%.*s" RTM_BVH_MAP, dir, path) >= (int)n ? -1 : 0;
}

uint64_t rtm_loader_salt(const struct rtm_fileid *model_cfg, const struct rtm_fileid *map)
{
    uint64_t salt = rtm_fileid_hash(model_cfg), m = rtm_fileid_hash(map);
    return m ? salt ^ (m * 0xbf58476d1ce4e5b9ull | 1) : salt;   /* no map: as before */
}
