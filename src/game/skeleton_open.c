/* skeleton_open.c - what a skeleton SPEC names (skeleton_cfg.h): a
 * built-in skeleton or a skeleton file (skeleton.h), or a model.cfg's
 * class (skeleton_cfg.c).  Above both readers, so that the skeleton file
 * reader needs nothing of the config layer. */
#include "skeleton_cfg.h"

#include "rtm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* Whether path is a regular file (or a link to one). */
static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Whether the file at path is read as a model.cfg: by its name, or, for a
 * rapified one, by its first four bytes (a skeleton file is text). */
static int model_cfg_file(const char *path)
{
    size_t n = strlen(path);
    if (n >= 4 && strcasecmp(path + n - 4, ".cfg") == 0)
        return 1;
    FILE *f = fopen(path, "rb");
    char magic[4] = { 1 };
    int rap = f && fread(magic, 1, 4, f) == 4 && memcmp(magic, "\0raP", 4) == 0;
    if (f)
        fclose(f);
    return rap;
}

/* A model.cfg spec, PATH or PATH:CLASS (skeleton.h): 0 opened, 1 failed
 * (err), -1 not a model.cfg (a skeleton file, or nothing). */
static int open_model_cfg(const char *spec, struct rtm_skeleton **out, struct rtm_error *err)
{
    if (is_file(spec))
        return model_cfg_file(spec) ? rtm_skeleton_cfg_open(spec, NULL, spec, out, err) != 0
                                    : -1;
    const char *colon = strrchr(spec, ':');
    if (!colon || !colon[1])
        return -1;
    char *path = strndup(spec, (size_t)(colon - spec));
    if (!path) {
        rtm_err_oom(err, "out of memory");
        return 1;
    }
    int rc = is_file(path) ? rtm_skeleton_cfg_open(path, colon + 1, spec, out, err) != 0 : -1;
    free(path);
    return rc;
}

int rtm_skeleton_open(const char *spec, struct rtm_skeleton **out, struct rtm_error *err)
{
    int rc = rtm_skeleton_builtin(spec, out, err);
    if (rc <= 0)
        return rc;
    int cfg = open_model_cfg(spec, out, err);
    if (cfg >= 0)
        return cfg ? -1 : 0;
    return rtm_skeleton_load(spec, out, err);
}

void rtm_model_cfg_unused(char *out, size_t n, const char *where, const char *why)
{
    snprintf(out, n, "%s not used: %s", where, why);
}

int rtm_model_cfg_say_unused(struct rtm_anim *a, const char *unused)
{
    char *name;
    if (asprintf(&name, "%s (%s)", a->skeleton_name, unused) < 0)
        return -1;
    free(a->skeleton_name);
    a->skeleton_name = name;
    return 0;
}
