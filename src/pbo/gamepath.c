/* gamepath.c - game paths of archives and loose folders, and rtmcat's
 * project resolver for #include (gamepath.h says the rules). */
#include "gamepath.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "pbo.h"
#include "util.h"

long gamepath_norm(const char *in, size_t len, char *out, size_t n)
{
    return rtm_path_norm(in, len, '\\', out, n);
}

int gamepath_equal(const char *a, const char *b)
{
    char x[PATH_MAX], y[PATH_MAX];
    return gamepath_norm(a, strlen(a), x, sizeof x) >= 0 &&
           gamepath_norm(b, strlen(b), y, sizeof y) >= 0 && strcasecmp(x, y) == 0;
}

int gamepath_archive(const struct pbo *p, const char *archive_path, char *out, size_t n)
{
    const char *pre = p ? pbo_prop(p, "prefix") : NULL;
    if (pre && gamepath_norm(pre, strlen(pre), out, n) > 0)
        return 0;
    const char *base = strrchr(archive_path, '/');
    base = base ? base + 1 : archive_path;
    size_t len = strlen(base);
    if (rtm_name_ends(base, len, ".pbo"))
        len -= 4;
    return gamepath_norm(base, len, out, n) >= 0 ? 0 : -1;
}

/* The asciiz string at head[*at] (before len): its length, *at past its
 * NUL; -1 when it runs past len. */
static long asciiz(const uint8_t *head, size_t len, size_t *at)
{
    const uint8_t *nul = *at < len ? memchr(head + *at, 0, len - *at) : NULL;
    if (!nul)
        return -1;
    long n = (long)(nul - (head + *at));
    *at += (size_t)n + 1;
    return n;
}

int gamepath_head_prefix(const uint8_t *head, size_t len, const char **val, size_t *vlen)
{
    size_t at = 0;
    long n = asciiz(head, len, &at);    /* the first header's name */
    if (n != 0)
        return n < 0 ? -1 : 0;          /* an entry first: no properties */
    if (len - at < 20)
        return -1;
    if (le_u32(head + at) != PBO_METHOD_VERS)
        return 0;                       /* the end header: an empty archive */
    at += 20;
    for (;;) {
        size_t key = at;
        long kl = asciiz(head, len, &at);
        if (kl <= 0)
            return (int)kl;             /* 0: the empty key ends them */
        size_t v = at;
        long vl = asciiz(head, len, &at);
        if (vl < 0)
            return -1;
        if (kl == 6 && memcmp(head + key, "prefix", 6) == 0) {
            *val = (const char *)head + v;
            *vlen = (size_t)vl;
            return 1;
        }
    }
}

static void trim(const char **s, const char **e)
{
    while (*s < *e && (**s == ' ' || **s == '\t' || **s == '\r' || (unsigned char)**s == 0xEF ||
                       (unsigned char)**s == 0xBB || (unsigned char)**s == 0xBF))
        (*s)++;     /* blanks and a UTF-8 byte order mark */
    while (*e > *s && ((*e)[-1] == ' ' || (*e)[-1] == '\t' || (*e)[-1] == '\r'))
        (*e)--;
}

int gamepath_pboprefix(const char *text, size_t len, char *out, size_t n)
{
    const char *end = text + len, *first = NULL, *first_end = NULL;
    int keyed = 0;
    for (const char *s = text; s < end;) {
        const char *nl = memchr(s, '\n', (size_t)(end - s)), *e = nl ? nl : end;
        const char *ls = s, *le = e, *eq = memchr(s, '=', (size_t)(e - s));
        s = nl ? nl + 1 : end;
        trim(&ls, &le);
        if (ls == le)
            continue;
        if (!first) {
            first = ls;
            first_end = le;
        }
        if (!eq)
            continue;
        keyed = 1;
        const char *ke = eq, *vs = eq + 1;
        trim(&ls, &ke);
        trim(&vs, &le);
        if (ke - ls == 6 && strncasecmp(ls, "prefix", 6) == 0)
            return gamepath_norm(vs, (size_t)(le - vs), out, n) > 0 ? 0 : -1;
    }
    if (keyed || !first)
        return -1;
    return gamepath_norm(first, (size_t)(first_end - first), out, n) > 0 ? 0 : -1;
}

/* Folder dir's $PBOPREFIX$ into out: 0; -1 when it has none that reads;
 * -2 when memory ran out reading it (which says nothing of the file). */
static int read_prefix_file(const char *dir, char *out, size_t n)
{
    char path[PATH_MAX];
    uint8_t *data;
    size_t len;
    if (snprintf(path, sizeof path, "%s/$PBOPREFIX$", dir) >= (int)sizeof path)
        return -1;
    if (rtm_slurp_max(path, 64 * 1024, &data, &len))       /* a line or a few */
        return errno == ENOMEM ? -2 : -1;
    int rc = gamepath_pboprefix((const char *)data, len, out, n);
    free(data);
    return rc;
}

int gamepath_loose(const char *path, char *out, size_t n, char *root, size_t rn)
{
    char real[PATH_MAX], dir[PATH_MAX], pre[PATH_MAX], joined[2 * PATH_MAX + 2];
    if (!realpath(path, real))
        return -1;                      /* errno says why */
    memcpy(dir, real, sizeof dir);
    for (;;) {
        struct stat st;
        int rc = stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? read_prefix_file(dir, pre, sizeof pre)
                                                             : -1;
        if (rc == 0)
            break;
        if (rc == -2) {
            errno = ENOMEM;             /* not "none": the caller must not say so */
            return -1;
        }
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir) {
            errno = ENOENT;
            return -1;
        }
        *slash = 0;
    }
    size_t d = strlen(dir);
    snprintf(joined, sizeof joined, "%s\\%s", pre, real[d] ? real + d + 1 : "");
    if (root && snprintf(root, rn, "%s", dir) >= (int)rn)
        return -1;
    return gamepath_norm(joined, strlen(joined), out, n) >= 0 ? 0 : -1;
}

/* ---- the project resolver --------------------------------------------- */

struct addon {
    char *prefix;       /* normalised */
    char *dir;
};

struct gamepath_project {
    struct addon *a;
    size_t n;
    char *include;      /* root/include when it is a folder */
};

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int add_addon(struct gamepath_project *pr, const char *dir, const char *name)
{
    char path[PATH_MAX + 16], pre[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path || !is_dir(path))
        return 0;
    if (read_prefix_file(path, pre, sizeof pre) && gamepath_norm(name, strlen(name), pre, sizeof pre) <= 0)
        return 0;
    struct addon *a = realloc(pr->a, (pr->n + 1) * sizeof *a);
    if (!a)
        return -1;
    pr->a = a;
    a[pr->n].prefix = strdup(pre);
    a[pr->n].dir = strdup(path);
    if (!a[pr->n].prefix || !a[pr->n].dir) {
        free(a[pr->n].prefix);
        free(a[pr->n].dir);
        return -1;
    }
    pr->n++;
    return 0;
}

static int scan_addons(struct gamepath_project *pr, const char *root)
{
    char dir[PATH_MAX + 16];
    snprintf(dir, sizeof dir, "%s/addons", root);
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int rc = 0;
    for (struct dirent *de; rc == 0 && (de = readdir(d));)
        if (de->d_name[0] != '.')
            rc = add_addon(pr, dir, de->d_name);
    closedir(d);
    return rc;
}

int gamepath_project_open(const char *file, struct gamepath_project **out)
{
    char dir[PATH_MAX], probe[PATH_MAX + 16];
    *out = NULL;
    if (!realpath(file, dir))
        return -1;
    for (;;) {
        if (snprintf(probe, sizeof probe, "%s/addons", dir) < (int)sizeof probe && is_dir(probe))
            break;
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir)
            return -1;
        *slash = 0;
    }
    struct gamepath_project *pr = calloc(1, sizeof *pr);
    if (!pr || scan_addons(pr, dir)) {
        gamepath_project_free(pr);
        return -1;
    }
    snprintf(probe, sizeof probe, "%s/include", dir);
    if (is_dir(probe) && !(pr->include = strdup(probe))) {
        gamepath_project_free(pr);
        return -1;
    }
    *out = pr;
    return 0;
}

/* dir joined with rel ('\\'-separated), each part matched without regard
 * to case when the exact name is absent, as the game's names are. */
static int join_nocase(const char *dir, const char *rel, char *out, size_t n)
{
    if (snprintf(out, n, "%s", dir) >= (int)n)
        return -1;
    while (*rel) {
        size_t k = strcspn(rel, "\\");
        size_t at = strlen(out);
        if (at + 1 + k + 1 > n)
            return -1;
        out[at] = '/';
        memcpy(out + at + 1, rel, k);
        out[at + 1 + k] = 0;
        struct stat st;
        if (stat(out, &st) != 0) {
            out[at] = 0;
            DIR *d = opendir(out);
            struct dirent *de = NULL;
            while (d && (de = readdir(d)))
                if (strlen(de->d_name) == k && strncasecmp(de->d_name, rel, k) == 0)
                    break;
            if (de)
                memcpy(out + at + 1, de->d_name, k);
            out[at] = '/';
            if (d)
                closedir(d);
            if (!de)
                return -1;
        }
        rel += k + (rel[k] == '\\');
    }
    return 0;
}

int gamepath_project_resolve(void *arg, const char *gamepath, char *out, size_t n)
{
    const struct gamepath_project *pr = arg;
    char g[PATH_MAX];
    if (!pr || gamepath_norm(gamepath, strlen(gamepath), g, sizeof g) <= 0)
        return -1;
    for (size_t i = 0; i < pr->n; i++) {
        size_t k = strlen(pr->a[i].prefix);
        if (strncasecmp(g, pr->a[i].prefix, k) == 0 && g[k] == '\\' &&
            join_nocase(pr->a[i].dir, g + k + 1, out, n) == 0)
            return 0;
    }
    return -1;
}

const char *gamepath_project_include(const struct gamepath_project *pr)
{
    return pr ? pr->include : NULL;
}

void gamepath_project_free(struct gamepath_project *pr)
{
    if (!pr)
        return;
    for (size_t i = 0; i < pr->n; i++) {
        free(pr->a[i].prefix);
        free(pr->a[i].dir);
    }
    free(pr->a);
    free(pr->include);
    free(pr);
}
