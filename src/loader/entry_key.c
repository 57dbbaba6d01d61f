/* entry_key.c - the keys a version is named by (loader.h): an archive
 * entry's cache key, which the loader and the files beside an entry
 * (modelcfg.c, bvhmap.c) both name, and the names of the files beside
 * an animation (sides.c holds their list and the salt). */
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

