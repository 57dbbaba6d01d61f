/* rtmfs - a read-only FUSE mount that shows every .rtm file of SOURCE as a
 * folder of the views rtmcat prints, and every .pbo archive as a folder of
 * its entries (its .rtm entries as such folders too).
 *
 * This file is the command line and the mount's life: options, checks,
 * setting up the cache, the tree (tree.h: what the mount shows), the
 * watcher (watch.h: inotify) and the session that runs the operations
 * (fuse_ops.h).  The low-level API is used because it lets rtmfs choose
 * stable inode numbers and tell the kernel what changed in SOURCE.
 */
#include "fuse_ops.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <lzo/lzoconf.h>
#include <malloc.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "loader.h"
#include "skeleton.h"
#include "tree.h"
#include "version.h"
#include "watch.h"

struct fs {
    int srcfd;
    char *source;                 /* absolute path of SOURCE */
    struct rtm_skeleton *skel;
    struct rtmc *cache;
    struct rtm_loader loader;
    struct rtm_watch *watch;
    struct rtm_tree *tree;
    struct rtmfs_ops_ctx ops;
};

/* ---- command line ---- */

struct options {
    char *skeleton, *cache_size, *source;
    int show_other, nonopts;
};

#define OPT(t, p) { t, offsetof(struct options, p), 1 }
static const struct fuse_opt option_spec[] = {
    OPT("skeleton=%s", skeleton),
    OPT("cache_size=%s", cache_size),
    OPT("show_other", show_other),
    /* what fstab and mount(8) pass that means nothing here (ro is forced) */
    FUSE_OPT_KEY("ro", FUSE_OPT_KEY_DISCARD),
    FUSE_OPT_KEY("rw", FUSE_OPT_KEY_DISCARD),
    FUSE_OPT_KEY("user", FUSE_OPT_KEY_DISCARD),
    FUSE_OPT_KEY("nouser", FUSE_OPT_KEY_DISCARD),
    FUSE_OPT_KEY("users", FUSE_OPT_KEY_DISCARD),
    FUSE_OPT_KEY("auto", FUSE_OPT_KEY_DISCARD),
    FUSE_OPT_KEY("noauto", FUSE_OPT_KEY_DISCARD),
    FUSE_OPT_KEY("defaults", FUSE_OPT_KEY_DISCARD),
    FUSE_OPT_KEY("_netdev", FUSE_OPT_KEY_DISCARD),
    FUSE_OPT_KEY("nofail", FUSE_OPT_KEY_DISCARD),
    FUSE_OPT_KEY("exec", FUSE_OPT_KEY_DISCARD),
    FUSE_OPT_KEY("owner", FUSE_OPT_KEY_DISCARD),
    FUSE_OPT_END
};

static int opt_proc(void *data, const char *arg, int key, struct fuse_args *outargs)
{
    struct options *o = data;
    (void)outargs;
    if (key == FUSE_OPT_KEY_OPT)
        return strncmp(arg, "x-", 2) && strncmp(arg, "comment=", 8) ? 1 : 0;
    if (key != FUSE_OPT_KEY_NONOPT)
        return 1;
    if (o->nonopts++ == 0) {
        o->source = strdup(arg);
        return 0;
    }
    if (o->nonopts == 2)
        return 1;                       /* the mount point, for fuse_parse_cmdline */
    fprintf(stderr, "rtmfs: unexpected argument '%s'\n", arg);
    return -1;
}

static void usage(void)
{
    printf("usage: rtmfs [options] SOURCE MOUNTPOINT\n"
           "Mount SOURCE read-only at MOUNTPOINT, showing every .rtm file as a directory\n"
           "of its views (header.txt bones.txt phases.csv props.json plain.rtm frames/)\n"
           "and every .pbo archive as a directory of its entries and pbo.txt.\n\n"
           "rtmfs options:\n"
           "    -o skeleton=SKEL       ofp2 (default), none, or a skeleton file\n"
           "    -o cache_size=SIZE     cache of parsed files and views (K, M, G; default 256M)\n"
           "    -o show_other          pass other files (and archive entries) through\n\n");
}

/* Everything that can go wrong before mounting, said plainly. */
static int check_dir(const char *what, const char *path)
{
    struct stat st;
    if (!path) {
        fprintf(stderr, "rtmfs: missing %s (try 'rtmfs --help')\n", what);
        return -1;
    }
    if (stat(path, &st)) {
        fprintf(stderr, "rtmfs: %s %s: %s\n", what, path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        fprintf(stderr, "rtmfs: %s %s: not a directory\n", what, path);
        return -1;
    }
    return 0;
}

/* The mount point's path inside SOURCE (the mount must neither show nor
 * stat it: that would recurse into the mount itself), or NULL. */
static char *mountpoint_inside(const char *source, const char *mountpoint)
{
    char *mnt = realpath(mountpoint, NULL);
    size_t n = strlen(source);
    char *rel = NULL;
    if (mnt && strncmp(mnt, source, n) == 0 && mnt[n] == '/' && mnt[n + 1])
        rel = strdup(mnt + n + 1);
    else if (mnt && strcmp(source, "/") == 0 && mnt[1])
        rel = strdup(mnt + 1);
    free(mnt);
    return rel;
}

static int fs_setup(struct fs *fs, const struct options *o, const char *mountpoint)
{
    struct rtm_error err = { .msg = "" };
    size_t budget = 256u << 20;
    if (o->cache_size && rtmc_parse_size(o->cache_size, &budget)) {
        fprintf(stderr, "rtmfs: bad cache_size '%s' (use e.g. 64M, 1G)\n", o->cache_size);
        return -1;
    }
    if (rtm_skeleton_open(o->skeleton ? o->skeleton : "ofp2", &fs->skel, &err)) {
        fprintf(stderr, "rtmfs: skeleton: %s\n", err.msg);
        return -1;
    }
    fs->source = realpath(o->source, NULL);
    fs->srcfd = fs->source ? open(fs->source, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (fs->srcfd < 0) {
        fprintf(stderr, "rtmfs: %s: %s\n", o->source, strerror(errno));
        return -1;
    }
    fs->loader = (struct rtm_loader){ .srcfd = fs->srcfd, .skel = fs->skel };
    fs->cache = fs->loader.cache = rtmc_new(budget, rtm_loader_load, &fs->loader);
    fs->watch = fs->cache ? rtm_watch_new(fs->source) : NULL;
    char *hidden = mountpoint_inside(fs->source, mountpoint);
    struct rtm_tree_config cfg = { .srcfd = fs->srcfd, .cache = fs->cache,
                                   .show_other = o->show_other, .hidden = hidden,
                                   .watch = rtm_watch_add, .watch_ctx = fs->watch };
    fs->tree = fs->watch ? rtm_tree_new(&cfg) : NULL;
    free(hidden);
    if (!fs->tree) {
        fprintf(stderr, "rtmfs: out of memory\n");
        return -1;
    }
    fs->ops.tree = fs->tree;
    return 0;
}

static void fs_teardown(struct fs *fs)
{
    rtm_watch_free(fs->watch);          /* first: it must not notify a dead tree */
    rtm_tree_free(fs->tree);
    rtmc_free(fs->cache);
    rtm_skeleton_free(fs->skel);
    if (fs->srcfd >= 0)
        close(fs->srcfd);
    free(fs->source);
}

/* Options every rtmfs mount gets: read-only, kernel permission checks, and
 * a /proc/mounts line that reads "SOURCE MNT fuse.rtmfs".  Commas and
 * backslashes in SOURCE are escaped the way fuse_opt expects. */
static int add_mount_opts(struct fuse_args *args, const char *source)
{
    static const char fixed[] = "-oro,default_permissions,subtype=rtmfs,fsname=";
    char *opt = malloc(sizeof fixed + 2 * strlen(source));
    if (!opt)
        return -1;
    char *p = stpcpy(opt, fixed);
    for (const char *s = source; *s; s++) {
        if (*s == ',' || *s == '\\')
            *p++ = '\\';
        *p++ = *s;
    }
    *p = 0;
    int rc = fuse_opt_add_arg(args, opt);
    free(opt);
    return rc;
}

static int serve(struct fs *fs, struct fuse_args *args, struct fuse_cmdline_opts *c)
{
    int rc = -1;
    struct fuse_session *se = fuse_session_new(args, &rtmfs_ops, sizeof rtmfs_ops, &fs->ops);
    if (!se)
        return 1;
    fs->ops.se = se;
    if (fuse_set_signal_handlers(se) == 0) {
        if (fuse_session_mount(se, c->mountpoint) == 0) {
            fuse_daemonize(c->foreground);
            struct rtm_tree_notify n = rtmfs_notify(&fs->ops);
            if (rtm_watch_start(fs->watch, fs->tree, &n))
                fprintf(stderr, "rtmfs: cannot start the watcher; changes show late\n");
            if (c->singlethread) {
                rc = fuse_session_loop(se);
            } else {
                struct fuse_loop_config *lc = fuse_loop_cfg_create();
                fuse_loop_cfg_set_clone_fd(lc, (unsigned)c->clone_fd);
                fuse_loop_cfg_set_max_threads(lc, c->max_threads);
                rc = fuse_session_loop_mt(se, lc);
                fuse_loop_cfg_destroy(lc);
            }
            rtm_watch_stop(fs->watch);  /* it must not notify a dead session */
            fuse_session_unmount(se);
        }
        fuse_remove_signal_handlers(se);
    }
    fuse_session_destroy(se);
    return rc < 0 ? 1 : 0;      /* > 0: the signal that ended the loop */
}

/* Keeps freed cache memory from lingering in per-thread malloc arenas, so
 * that RSS follows the cache's byte budget. */
static void tune_malloc(void)
{
    mallopt(M_ARENA_MAX, 2);
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    mallopt(M_TRIM_THRESHOLD, 1024 * 1024);
}

int main(int argc, char **argv)
{
    struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
    struct options o = { 0 };
    struct fuse_cmdline_opts c = { 0 };
    struct fs fs = { .srcfd = -1 };
    int rc = 1;
    if (fuse_opt_parse(&args, &o, option_spec, opt_proc) || fuse_parse_cmdline(&args, &c))
        goto out;
    if (c.show_help) {
        usage();
        fuse_cmdline_help();
        fuse_lowlevel_help();
        rc = 0;
    } else if (c.show_version) {
        printf("rtmfs %s (libfuse %s, LZO %s)\n", RTMFS_VERSION, fuse_pkgversion(),
               lzo_version_string());
        fuse_lowlevel_version();
        rc = 0;
    } else if (check_dir("SOURCE", o.source) == 0 && check_dir("mount point", c.mountpoint) == 0 &&
               fs_setup(&fs, &o, c.mountpoint) == 0 && add_mount_opts(&args, fs.source) == 0) {
        tune_malloc();
        rc = serve(&fs, &args, &c);
    }
    fs_teardown(&fs);
out:
    free(c.mountpoint);
    free(o.source);
    free(o.skeleton);
    free(o.cache_size);
    fuse_opt_free_args(&args);
    return rc;
}
