/* sides.c - the files beside an animation, as one list (sides.h). */
#include "sides.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "format_table.h"
#include "loader.h"
#include "skeleton_cfg.h"

/* The salt's multipliers are fixed: a salt is part of the versions a
 * persistent index remembers, so they never change. */
const struct rtm_side_file RTM_SIDE_FILES[RTM_NSIDES] = {
    [RTM_SIDE_MODEL_CFG] = { RTM_MODEL_CFG, 0, 1, 0 },
    [RTM_SIDE_BVH_MAP] = { RTM_BVH_MAP, 1, 0, 0xbf58476d1ce4e5b9ull },
};

int rtm_side_wanted(enum rtm_side s, const char *anim, size_t len, int skeleton_given)
{
    const struct rtm_side_file *f = &RTM_SIDE_FILES[s];
    const char *taken = f->of_format ? rtm_format_side_file(anim, len) : NULL;
    return !(f->gives_skeleton && skeleton_given) &&
           (!f->of_format || (taken && strcmp(taken, f->name) == 0));
}

int rtm_side_beside(enum rtm_side s, const char *path, size_t len, char *out, size_t n)
{
    const char *slash = memrchr(path, '/', len);
    int dir = slash ? (int)(slash - path + 1) : 0;
    return snprintf(out, n, "%.*s%s", dir, path, RTM_SIDE_FILES[s].name) >= (int)n ? -1 : 0;
}

int rtm_side_named(const char *name, enum rtm_side_where where)
{
    for (int s = 0; name && s < RTM_NSIDES; s++) {
        const char *want = RTM_SIDE_FILES[s].name;
        if (where == RTM_SIDE_ON_DISK ? strcmp(name, want) == 0 : strcasecmp(name, want) == 0)
            return s;
    }
    return -1;
}

uint64_t rtm_loader_salt(const struct rtm_fileid ids[RTM_NSIDES])
{
    uint64_t salt = 0;
    for (int s = 0; s < RTM_NSIDES; s++) {
        uint64_t h = rtm_fileid_hash(&ids[s]), mix = RTM_SIDE_FILES[s].mix;
        salt ^= !mix ? h : h ? h * mix | 1 : 0;
    }
    return salt;
}
