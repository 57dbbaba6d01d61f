/* rtmfs - a read-only FUSE mount that shows every animation of SOURCE
 * (.rtm, plain or BMTR, and .bvh motion capture) as a folder of the views
 * rtmcat prints, and every .pbo archive as a folder of its entries (its
 * animation entries as such folders too).
 *
 * This file is the command line and the mount's life: options, checks,
 * setting up the cache, the tree (tree.h: what the mount shows), the
 * watcher (watch.h: inotify) and the session that runs the operations
 * (fuse_ops.h).  The low-level API is used because it lets rtmfs choose
 * stable inode numbers and tell the kernel what changed in SOURCE.
 */
#include "fuse_ops.h"
#include "rtmfs_options.h"

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
#include "fstype.h"
#include "index.h"
#include "loader.h"
#include "numfmt.h"
#include "skeleton_cfg.h"
#include "tree.h"
#include "version.h"
#include "watch.h"

struct fs {
    int srcfd;                    /* SOURCE, or the folder of a SOURCE file */
    char *dir;                    /* absolute path of that folder */
    char *file;                   /* SOURCE's name in it when it is a file */
    char *source;                 /* absolute path of SOURCE */
    struct rtm_skeleton *skel;
    struct rtm_skelreg *skels;    /* the configs' skeletons (skelreg.h), unless
                                     -o skeleton= is given */
    struct rtm_shared_opts shared;  /* -o skeleton=, digits=, bvh_unit=, bvh_fps=
                                       (shared_opts.h; points into the options) */
    struct rtm_index *index;      /* opened by run(), in the daemon */
    const struct rtm_store *store;  /* the index as the loader's and the tree's
                                       store (rtm_index_store), or NULL */
    char *index_path;             /* where, or NULL: no index */
    size_t index_bound;
    char render[PATH_MAX + 128];    /* the index's rendering key */
    struct rtmc *cache;
    struct rtm_loader loader;
    struct rtm_watch *watch;
    struct rtm_fsmap *fsmap;      /* which devices inotify is blind on */
    struct rtm_tree *tree;
    struct rtmfs_ops_ctx ops;
    struct rtm_work work;         /* what the mount did to SOURCE (RTMFS_STATS) */
};

/* Whether path is where something is mounted: a line of mountinfo names it
 * (field 5, with spaces and the like written as octal escapes). */
static int is_mountpoint(const char *path)
{
    char *want = realpath(path, NULL), *line = NULL;
    size_t cap = 0;
    int found = 0;
    FILE *f = want ? fopen("/proc/self/mountinfo", "re") : NULL;
    while (f && !found && getline(&line, &cap, f) > 0) {
        char mnt[PATH_MAX], *p = mnt;
        if (sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1)
            continue;
        for (const char *q = mnt; *q; p++) {
            unsigned c;
            if (q[0] == '\\' && sscanf(q + 1, "%3o", &c) == 1 && q[1] && q[2] && q[3]) {
                *p = (char)c;
                q += 4;
            } else {
                *p = *q++;
            }
        }
        *p = 0;
        found = strcmp(mnt, want) == 0;
    }
    if (f)
        fclose(f);
    free(line);
    free(want);
    return found;
}

/* Everything that can go wrong before mounting, said plainly. */
static int check_mountpoint(const char *path)
{
    struct stat st;
    if (!path) {
        fprintf(stderr, "rtmfs: missing mount point (try 'rtmfs --help')\n");
        return -1;
    }
    if (stat(path, &st)) {
        fprintf(stderr, "rtmfs: mount point %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        fprintf(stderr, "rtmfs: mount point %s: not a directory\n", path);
        return -1;
    }
    if (is_mountpoint(path))
        fprintf(stderr, "rtmfs: warning: %s is already a mount point; this mount hides "
                "what is mounted there until it is unmounted\n", path);
    return 0;
}

/* SOURCE is a folder, or one .rtm or .pbo file: then the tree reads the
 * file's folder, and the file's name is kept as given (not a symlink's
 * target, whose name may say nothing). */
static int open_source(struct fs *fs, const char *source)
{
    struct stat st;
    if (!source) {
        fprintf(stderr, "rtmfs: missing SOURCE (try 'rtmfs --help')\n");
        return -1;
    }
    if (stat(source, &st)) {
        fprintf(stderr, "rtmfs: SOURCE %s: %s\n", source, strerror(errno));
        return -1;
    }
    const char *slash = strrchr(source, '/'), *name = slash ? slash + 1 : source;
    int named = rtm_is_anim_name(name, strlen(name)) || rtm_name_ends(name, strlen(name), ".pbo");
    if (!S_ISDIR(st.st_mode) && !(S_ISREG(st.st_mode) && named)) {
        fprintf(stderr, "rtmfs: SOURCE %s: neither a folder nor an .rtm, .bvh or .pbo file\n", source);
        return -1;
    }
    int is_dir = S_ISDIR(st.st_mode);
    char *dir = is_dir ? strdup(source)
                : slash ? strndup(source, (size_t)(slash - source) + (slash == source)) : strdup(".");
    errno = 0;
    fs->dir = dir ? realpath(dir, NULL) : NULL;
    free(dir);
    fs->file = is_dir ? NULL : strdup(name);
    if (fs->dir && is_dir)
        fs->source = strdup(fs->dir);
    else if (fs->dir && fs->file && asprintf(&fs->source, "%s%s%s", fs->dir,
                                             strcmp(fs->dir, "/") ? "/" : "", fs->file) < 0)
        fs->source = NULL;
    fs->srcfd = fs->source ? open(fs->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (fs->srcfd < 0) {
        fprintf(stderr, "rtmfs: %s: %s\n", source, strerror(errno ? errno : ENOMEM));
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

static void log_line(void *ctx, const char *msg)
{
    (void)ctx;
    fprintf(stderr, "rtmfs: %s\n", msg);
}

/* -o index=, or $XDG_CACHE_HOME/rtmfs/index.sqlite, or ~/.cache/rtmfs/...;
 * NULL with -o noindex, or when there is no home to keep it in. */
static char *index_path(const struct options *o)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char *p = NULL;
    if (o->noindex)
        return NULL;
    if (o->index)
        return strdup(o->index);
    if (xdg && *xdg == '/' && asprintf(&p, "%s/rtmfs/index.sqlite", xdg) < 0)
        p = NULL;
    else if (!p && home && *home == '/' && asprintf(&p, "%s/.cache/rtmfs/index.sqlite", home) < 0)
        p = NULL;
    if (!p)
        fprintf(stderr, "rtmfs: no $XDG_CACHE_HOME or $HOME: no persistent index\n");
    return p;
}

/* Where the index is, and what the loader keys its records with. */
static int index_setup(struct fs *fs, const struct options *o)
{
    size_t bound = 64u << 20;
    if (o->index_size && rtm_parse_size(o->index_size, &bound)) {
        fprintf(stderr, "rtmfs: bad index_size '%s' (use e.g. 64M, 1G)\n", o->index_size);
        return -1;
    }
    rtm_render_key(fs->render, sizeof fs->render, &fs->shared, fs->skel);
    fs->index_path = index_path(o);
    fs->index_bound = bound;
    return 0;
}

/* Opens the index in the process that serves the mount: its writer
 * thread, and SQLite's locks, would not survive fuse_daemonize's fork
 * (the daemon then hung at unmount, waiting for a thread it did not
 * have).  Without memory for it, the mount goes on without it. */
static void index_open(struct fs *fs)
{
    if (fs->index_path && !(fs->index = rtm_index_open(fs->index_path, fs->index_bound,
                                                        log_line, NULL)))
        log_line(NULL, "index: out of memory; going on without it");
    fs->store = fs->loader.store = rtm_index_store(fs->index);
}

/* Evictions leave free holes between live entries that malloc keeps
 * resident; a walk that replaces a cache full of small entries with large
 * ones (grep, then du, over an install) peaked 25 MiB higher without this. */
enum { TRIM_EVERY = 8 << 20 };
static void trim_malloc(void) { malloc_trim(0); }

/* The options that take one of two words: 0 for the first (the default),
 * 1 for the second, -1 after saying the value is neither. */
static int choice(const char *name, const char *value, const char *first, const char *second)
{
    if (!value || !strcmp(value, first))
        return 0;
    if (!strcmp(value, second))
        return 1;
    fprintf(stderr, "rtmfs: bad %s '%s' (%s or %s)\n", name, value, first, second);
    return -1;
}

/* What fs_setup reads from the options before it makes anything. */
struct settings {
    size_t budget;                      /* -o cache_size= */
    struct rtm_tree_attrs attrs;        /* -o uid= ... fmask= */
    int rapified_raw, configs_none, timing_frames;
    int ahead;
    enum rtm_watch_mode watch;
};

/* Every option read and checked, before anything is opened or made. */
static int read_settings(struct fs *fs, const struct options *o, struct settings *set)
{
    *set = (struct settings){ .budget = 256u << 20, .watch = RTM_WATCH_AUTO };
    if (o->cache_size && rtm_parse_size(o->cache_size, &set->budget)) {
        fprintf(stderr, "rtmfs: bad cache_size '%s' (use e.g. 64M, 1G)\n", o->cache_size);
        return -1;
    }
    if (rtmfs_parse_attrs(o, &set->attrs) || rtmfs_shared_options(o, &fs->shared) ||
        (set->rapified_raw = choice("rapified", o->rapified, "text", "raw")) < 0 ||
        (set->configs_none = choice("configs", o->configs, "all", "none")) < 0 ||
        (set->timing_frames = choice("timing", o->timing, "game", "frames")) < 0)
        return -1;
    if ((set->ahead = rtmfs_ahead_threads(o->ahead)) < 0) {
        fprintf(stderr, "rtmfs: bad ahead '%s' (a number of threads, 0 to %d)\n", o->ahead,
                AHEAD_MAX);
        return -1;
    }
    if (o->watch && rtm_watch_mode_parse(o->watch, &set->watch)) {
        fprintf(stderr, "rtmfs: bad watch '%s' (auto, inotify or poll)\n", o->watch);
        return -1;
    }
    return 0;
}

/* The skeleton, the index's key, SOURCE, and the configs' skeletons
 * unless -o skeleton= names one for all. */
static int open_inputs(struct fs *fs, const struct options *o)
{
    struct rtm_error err = { .msg = "" };
    if (rtm_skeleton_open(rtm_shared_skeleton(&fs->shared), &fs->skel, &err)) {
        fprintf(stderr, "rtmfs: %s\n", err.msg);
        return -1;
    }
    if (index_setup(fs, o) || open_source(fs, o->source))   /* the key names the skeleton */
        return -1;
    if (!fs->shared.skeleton && !(fs->skels = rtm_skelreg_new())) {
        fprintf(stderr, "rtmfs: out of memory\n");
        return -1;
    }
    return 0;
}

/* The loader and the cache it fills, the watcher, and the tree. */
static int make_mount(struct fs *fs, const struct options *o, const struct settings *set,
                      const char *mountpoint)
{
    int skel_given = fs->shared.skeleton != NULL;
    fs->loader = (struct rtm_loader){ .srcfd = fs->srcfd, .skel = fs->skel,
                                      .digits = fs->shared.digits,
                                      .render = fs->render,   /* .store: index_open */
                                      .log = log_line, .model_cfg = !skel_given,
                                      .skels = fs->skels, .mocap = &fs->shared.mocap,
                                      .work = &fs->work };
    fs->cache = fs->loader.cache = rtmc_new(set->budget, rtm_loader_load, &fs->loader);
    if (fs->cache) {
        rtmc_set_store(fs->cache, rtm_loader_store);
        rtmc_set_timed(fs->cache, rtm_loader_timed);
        rtmc_set_trim(fs->cache, trim_malloc, TRIM_EVERY);
    }
    fs->fsmap = rtm_fsmap_new(set->watch, fs->dir);
    fs->loader.fsmap = fs->fsmap;
    fs->watch = fs->cache && fs->fsmap ? rtm_watch_new(fs->dir, set->watch != RTM_WATCH_POLL)
                                       : NULL;
    char *hidden = fs->file ? NULL : mountpoint_inside(fs->dir, mountpoint);
    struct rtm_tree_config cfg = { .srcfd = fs->srcfd, .file = fs->file, .attrs = set->attrs,
                                   .cache = fs->cache, .show_other = o->show_other,
                                   .skeleton_explicit = skel_given, .skels = fs->skels,
                                   .log = log_line, .gamepaths = o->gamepaths,
                                   .rapified_raw = set->rapified_raw,
                                   .configs_none = set->configs_none,
                                   .timing_frames = set->timing_frames, .ahead = set->ahead,
                                   .hidden = hidden, .store = &fs->store,
                                   .watch = rtm_watch_add,
                                   .watch_ctx = fs->watch, .fsmap = fs->fsmap,
                                   .stale = rtmfs_stale,
                                   .stale_ctx = &fs->ops, .work = &fs->work };
    fs->ops.work = &fs->work;
    fs->tree = fs->watch ? rtm_tree_new(&cfg) : NULL;
    free(hidden);
    if (!fs->tree) {
        fprintf(stderr, "rtmfs: out of memory\n");
        return -1;
    }
    fs->ops.tree = fs->tree;
    fs->ops.max_read = o->max_read;
    return 0;
}

static int fs_setup(struct fs *fs, const struct options *o, const char *mountpoint)
{
    struct settings set;
    if (read_settings(fs, o, &set) || open_inputs(fs, o))
        return -1;
    return make_mount(fs, o, &set, mountpoint);
}

/* RTMFS_STATS=FILE: what the cache and the index did, and the work done
 * on SOURCE (work.h), for tests and benchmarks that must tell how much was
 * opened, read, parsed or rendered. */
static void write_stats(struct fs *fs)
{
    const char *file = getenv("RTMFS_STATS");
    FILE *f = file && fs->cache ? fopen(file, "w") : NULL;
    if (!f)
        return;
    struct rtmc_stats c;
    struct rtm_index_stats ix = { 0 };
    rtmc_get_stats(fs->cache, &c);
    if (fs->index) {
        rtm_index_flush(fs->index);
        rtm_index_get_stats(fs->index, &ix);
    }
    fprintf(f, "loads %llu\nremembered %llu\nrenders %llu\nsizings %llu\nmismatches %llu\n"
            "index_hits %llu\nindex_misses %llu\nindex_written %llu\nindex_bytes %llu\n"
            "ahead %llu\n",
            (unsigned long long)c.loads, (unsigned long long)c.remembered,
            (unsigned long long)c.renders, (unsigned long long)c.sizings,
            (unsigned long long)c.mismatches, (unsigned long long)ix.hits,
            (unsigned long long)ix.misses, (unsigned long long)ix.written,
            (unsigned long long)ix.file_bytes, (unsigned long long)c.ahead);
    for (int k = 0; k < RTM_WORK_N; k++)
        fprintf(f, "%s %llu\n", rtm_work_name(k),
                (unsigned long long)rtm_work_get(&fs->work, k));
    fclose(f);
}

static void fs_teardown(struct fs *fs)
{
    rtm_watch_free(fs->watch);          /* first: it must not notify a dead tree */
    rtm_tree_free(fs->tree);
    write_stats(fs);
    rtmc_free(fs->cache);
    rtm_index_close(fs->index);         /* writes what is queued */
    rtm_fsmap_free(fs->fsmap);          /* after the cache: its loader asks it */
    free(fs->index_path);
    rtm_skeleton_free(fs->skel);
    rtm_skelreg_free(fs->skels);        /* after the cache: its loads used them */
    if (fs->srcfd >= 0)
        close(fs->srcfd);
    free(fs->source);
    free(fs->dir);
    free(fs->file);
}

/* Adds -oNAME=VALUE, with commas and backslashes in VALUE escaped the way
 * fuse_opt expects. */
static int add_escaped(struct fuse_args *args, const char *name, const char *value)
{
    char *opt = malloc(strlen(name) + 2 * strlen(value) + 4);
    if (!opt)
        return -1;
    char *p = opt + sprintf(opt, "-o%s=", name);
    for (const char *s = value; *s; s++) {
        if (*s == ',' || *s == '\\')
            *p++ = '\\';
        *p++ = *s;
    }
    *p = 0;
    int rc = fuse_opt_add_arg(args, opt);
    free(opt);
    return rc;
}

/* Options every rtmfs mount gets: read-only, kernel permission checks, and
 * a /proc/mounts line that reads "SOURCE MNT fuse.rtmfs" unless the user
 * named them otherwise. */
static int add_mount_opts(struct fuse_args *args, const struct options *o, const char *source)
{
    if ((o->fsname && !*o->fsname) || (o->subtype && !*o->subtype)) {
        fprintf(stderr, "rtmfs: empty %s\n", o->fsname && !*o->fsname ? "fsname" : "subtype");
        return -1;
    }
    if (fuse_opt_add_arg(args, "-oro,default_permissions") ||
        add_escaped(args, "subtype", o->subtype ? o->subtype : "rtmfs") ||
        add_escaped(args, "fsname", o->fsname ? o->fsname : source)) {
        fprintf(stderr, "rtmfs: out of memory\n");
        return -1;
    }
    return 0;
}

/* Answers the kernel's first request, INIT, before going to the
 * background: a mount option that the kernel or libfuse refuses then fails
 * the start on the terminal, instead of leaving a dead mount behind. */
static int handshake(struct fuse_session *se)
{
    struct fuse_buf buf = { 0 };
    int rc;
    do
        rc = fuse_session_receive_buf(se, &buf);
    while (rc == -EINTR);
    if (rc > 0)
        fuse_session_process_buf(se, &buf);
    free(buf.mem);
    if (rc > 0 && !fuse_session_exited(se))
        return 0;
    fprintf(stderr, "rtmfs: the kernel did not accept the mount%s\n",
            rc > 0 ? " (libfuse says why above)" : "");
    return -1;
}

/* In the background (unless -f): watches SOURCE and answers requests
 * until unmounted or signalled. */
static int run(struct fs *fs, struct fuse_session *se, const struct fuse_cmdline_opts *c)
{
    int rc;
    fuse_daemonize(c->foreground);
    index_open(fs);
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
    rtm_watch_stop(fs->watch);          /* it must not notify a dead session */
    return rc;
}

static int serve(struct fs *fs, struct fuse_args *args, const struct fuse_cmdline_opts *c)
{
    int rc = -1;
    struct fuse_session *se = fuse_session_new(args, &rtmfs_ops, sizeof rtmfs_ops, &fs->ops);
    if (!se)
        return 1;
    fs->ops.se = se;
    if (fuse_set_signal_handlers(se) == 0) {
        if (fuse_session_mount(se, c->mountpoint) == 0) {
            if (handshake(se) == 0)
                rc = run(fs, se, c);
            rtmfs_stale_end(&fs->ops);  /* before the session's fd is closed */
            fuse_session_unmount(se);
        }
        fuse_remove_signal_handlers(se);
    }
    rtmfs_stale_end(&fs->ops);
    fuse_session_destroy(se);
    return rc < 0 ? 1 : 0;      /* > 0: the signal that ended the loop */
}

/* Keeps freed cache memory from lingering in per-thread malloc arenas, so
 * that RSS follows the cache's byte budget (and trim_malloc above).  The
 * thresholds are fixed, not glibc's moving ones; 1 MiB for mmap because
 * sizing an animation makes buffers of 128 KiB to 1 MiB (its entry's
 * bytes, matrices, rotations) and frees them: mmapped, each came back
 * as fresh pages, a fault each 4 KiB.  A first-mount du -s of 1,000
 * animations then took 143,000 faults, now 79,000, and 0.2 s less CPU,
 * for 2 to 3 MB more peak RSS. */
static void tune_malloc(void)
{
    mallopt(M_ARENA_MAX, 2);
    mallopt(M_MMAP_THRESHOLD, 1024 * 1024);
    mallopt(M_TRIM_THRESHOLD, 2 * 1024 * 1024);
}

int main(int argc, char **argv)
{
    struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
    struct options o = { 0 };
    struct fuse_cmdline_opts c = { 0 };
    struct fs fs = { .srcfd = -1 };
    int rc = 1;
    if (fuse_opt_parse(&args, &o, rtmfs_option_spec, rtmfs_opt_proc) || fuse_parse_cmdline(&args, &c))
        goto out;
    if (c.show_help) {
        rtmfs_usage();
        fuse_cmdline_help();
        fuse_lowlevel_help();
        rc = 0;
    } else if (c.show_version) {
        printf("rtmfs %s (libfuse %s, LZO %s)\n", RTMFS_VERSION, fuse_pkgversion(),
               lzo_version_string());
        fflush(stdout);                 /* before fusermount3 -V writes its own line */
        fuse_lowlevel_version();
        rc = 0;
    } else if (check_mountpoint(c.mountpoint) == 0 && fs_setup(&fs, &o, c.mountpoint) == 0 &&
               add_mount_opts(&args, &o, fs.source) == 0) {
        tune_malloc();
        rc = serve(&fs, &args, &c);
    }
    fs_teardown(&fs);
out:
    free(c.mountpoint);
    rtmfs_options_free(&o);
    fuse_opt_free_args(&args);
    return rc;
}
