/* modelcfg.c - the model.cfg beside an animation (modelcfg.h). */
#include "loader_int.h"
#include "modelcfg.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "skeleton_cfg.h"

/* text with every "path" in it said as name, into out (n bytes): the
 * model.cfg's message, which names it by its key, as a view says it. */
static void said_as(char *out, size_t n, const char *text, const char *path, const char *name)
{
    size_t pl = strlen(path), at = 0;
    for (const char *p = text; *p && at + 1 < n;) {
        const char *hit = pl ? strstr(p, path) : NULL;
        size_t keep = hit ? (size_t)(hit - p) : strlen(p);
        at += (size_t)snprintf(out + at, n - at, "%.*s%s", (int)keep, p, hit ? name : "");
        at = at < n ? at : n - 1;
        p += keep + (hit ? pl : 0);
    }
    out[at] = 0;
}

/* The RTMC_SKELETONS entry of s into m, where naming it as a view does. */
static int get(const struct rtm_loader *l, const struct rtmc_src *s, struct rtm_modelcfg *m)
{
    int rc = rtmc_get(l->cache, s, &m->h);
    if (rc)
        return rc == -ENOENT ? 0 : rc;
    const char *name = rtm_side_file_name(s->path);
    size_t len;
    if (rtmc_data(m->h, &len)) {
        snprintf(m->where, sizeof m->where, "%s", name);
        return 0;
    }
    char why[1024];
    said_as(why, sizeof why, rtmc_error(m->h), s->path, name);
    rtm_model_cfg_unused(m->where, sizeof m->where, name, why);
    rtmc_put(l->cache, m->h);
    m->h = NULL;
    return 0;
}

/* A loose animation's: the one its salt names, with its map's. */
static int loose(const struct rtm_loader *l, const struct rtmc_src *src,
                 const struct rtm_fileid *map, struct rtm_modelcfg *m)
{
    char key[PATH_MAX];
    struct stat st;
    struct rtm_fileid id = RTM_FILEID_NONE;
    int have = l->model_cfg &&
               !rtm_side_beside(RTM_SIDE_MODEL_CFG, src->path, strlen(src->path), key,
                                sizeof key) &&
               fstatat(l->srcfd, key, &st, 0) == 0 && S_ISREG(st.st_mode);
    if (have)
        id = rtm_fileid_of(&st);
    struct rtm_fileid ids[RTM_NSIDES] = { [RTM_SIDE_MODEL_CFG] = id, [RTM_SIDE_BVH_MAP] = *map };
    uint64_t named;
    int rc = rtm_loader_named_salt(l->work, l->srcfd, src->path, &named);
    if (rc)
        return rc;
    if ((rtm_loader_salt(ids) ^ named) != src->id.salt)
        return -ESTALE;                 /* added, removed or rewritten since */
    if (!have)
        return 0;
    struct rtmc_src s = { .path = key, .id = id, .kind = RTMC_SKELETONS, .level = RTMC_FULL };
    return get(l, &s, m);
}

/* An archive entry's: the entry model.cfg beside it, any case. */
static int in_archive(const struct rtm_loader *l, const struct rtmc_src *src,
                      struct rtm_modelcfg *m)
{
    const char *entry = src->path + src->archive_len + 1;
    char name[PBO_NAME_MAX + 16], key[RTM_KEY_MAX];
    struct rtmc_entry *t;
    long i;
    if (rtm_side_beside(RTM_SIDE_MODEL_CFG, entry, strlen(entry), name, sizeof name))
        return 0;
    int rc = rtm_archive_beside(l, src, name, &t, &i);
    if (rc)
        return rc;
    if (i >= 0) {
        rtm_loader_entry_key(key, src->path, src->archive_len, rtmc_pbo(t)->entries[i].path);
        struct rtmc_src s = { .path = key, .id = src->id, .kind = RTMC_SKELETONS,
                              .level = RTMC_FULL, .archive_len = src->archive_len };
        rc = get(l, &s, m);
    }
    rtmc_put(l->cache, t);
    return rc;
}

int rtm_modelcfg_find(const struct rtm_loader *l, const struct rtmc_src *src,
                      const struct rtm_fileid *map, struct rtm_modelcfg *m)
{
    m->h = NULL;
    m->where[0] = 0;
    if (src->kind != RTMC_ANIM)
        return 0;
    if (src->archive_len)
        return l->model_cfg ? in_archive(l, src, m) : 0;
    return loose(l, src, map, m);
}

void rtm_modelcfg_release(const struct rtm_loader *l, struct rtm_modelcfg *m)
{
    if (m->h)
        rtmc_put(l->cache, m->h);
    m->h = NULL;
}
