/* rtmcat_gamepath.c - rtmcat -g: a game path under SOURCE to the file it
 * shows, through a tree of game paths (tree.h, cfg.gamepaths) without a
 * mount, so that rtmcat and rtmfs -o gamepaths never disagree. */
#include "rtmcat_gamepath.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader.h"
#include "tree.h"

void rtmcat_gamepath_usage(FILE *f)
{
    fprintf(f, "\n  -g SOURCE GAMEPATH [VIEW]  the file the game sees at GAMEPATH\n"
               "                       (\\z\\ace\\addons\\goggles\\anim\\x.rtm) among the\n"
               "                       archives and $PBOPREFIX$ folders of SOURCE (a\n"
               "                       folder or one .pbo), as rtmfs -o gamepaths shows\n"
               "                       it: its views, or VIEW; a folder's names\n");
}

/* A tree of game paths over SOURCE. */
struct game_tree {
    int srcfd;
    struct rtm_loader loader;
    struct rtmc *cache;
    struct rtm_tree *tree;
};

static int game_open(struct game_tree *g, const char *source)
{
    struct stat st;
    char dir[PATH_MAX];
    const char *slash = strrchr(source, '/'), *file = NULL;
    if (stat(source, &st))
        return -errno;
    snprintf(dir, sizeof dir, "%s", source);
    if (!S_ISDIR(st.st_mode)) {         /* one archive: its folder is SOURCE */
        file = slash ? slash + 1 : source;
        if (slash)
            dir[slash - source + (slash == source)] = 0;
        else
            strcpy(dir, ".");
    }
    if ((g->srcfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
        return -errno;
    g->loader = (struct rtm_loader){ .srcfd = g->srcfd };
    g->cache = g->loader.cache = rtmc_new(SIZE_MAX / 2, rtm_loader_load, &g->loader);
    struct rtm_tree_config cfg = { .srcfd = g->srcfd, .file = file, .cache = g->cache,
                                   .gamepaths = 1, .configs_none = 1 };
    g->tree = g->cache ? rtm_tree_new(&cfg) : NULL;
    return g->tree ? 0 : -ENOMEM;
}

static void game_close(struct game_tree *g)
{
    rtm_tree_free(g->tree);
    rtmc_free(g->cache);
    if (g->srcfd >= 0)
        close(g->srcfd);
}

/* The names in made-up folder path, a folder's with '/': 0 or -errno. */
static int print_folder(struct game_tree *g, const char *path)
{
    char name[PATH_MAX];
    struct rtm_tree_entry e = { .ino = RTM_INO_ROOT };
    struct rtm_dirlist *d;
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, "/");
        snprintf(name, sizeof name, "%.*s", (int)n, p);
        int rc = n ? rtm_tree_lookup(g->tree, e.ino, name, &e) : 0;
        if (rc)
            return rc;
        p += n + (p[n] == '/');
    }
    int rc = rtm_tree_listing(g->tree, e.ino, 0, &d);
    for (size_t i = 2; !rc && i < d->n; i++)        /* after "." and ".." */
        printf("%s%s\n", d->e[i].name, d->e[i].type == S_IFDIR ? "/" : "");
    if (!rc)
        rtm_tree_listing_put(g->tree, d);
    return rc;
}

int rtmcat_gamepath(int n, char **args, int *status)
{
    static char found[2 * PATH_MAX + 2];
    char path[PATH_MAX], normal[PATH_MAX];
    struct game_tree g = { .srcfd = -1 };
    *status = 0;
    if (n < 2 || n > 3) {
        fprintf(stderr, "usage: rtmcat -g SOURCE GAMEPATH [VIEW]\n");
        *status = 2;
        return 0;
    }
    snprintf(path, sizeof path, "%s", args[1]);
    for (char *c = path; *c; c++)       /* the tree's paths are '/'-separated */
        if (*c == '\\')
            *c = '/';
    const char *gp = path + strspn(path, "/");
    int rc = game_open(&g, args[0]);
    if (!rc)
        rc = rtm_tree_source_path(g.tree, gp, normal);
    int listed = 0;
    if (rc == 1 && n == 2)
        rc = (listed = !print_folder(&g, gp)) ? 0 : -ENOENT;
    else if (rc == 1)
        rc = -EISDIR;
    game_close(&g);
    if (listed)
        return 0;
    if (rc) {
        fprintf(stderr, "rtmcat: %s: %s under %s\n", args[1],
                rc == -ENOENT ? "no such game path" : strerror(-rc), args[0]);
        *status = 1;
        return 0;
    }
    snprintf(found, sizeof found, "%s/%s", args[0], normal);
    args[1] = found;
    return 1;
}
