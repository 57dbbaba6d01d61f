/* rtmfs_options.c - rtmfs's command line (rtmfs_options.h). */
#include "rtmfs_options.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OPT(t, p) { t, offsetof(struct options, p), 1 }
const struct fuse_opt rtmfs_option_spec[] = {
    OPT("skeleton=%s", skeleton),
    OPT("cache_size=%s", cache_size),
    OPT("digits=%s", digits),
    OPT("index=%s", index),
    OPT("index_size=%s", index_size),
    OPT("noindex", noindex),
    OPT("show_other", show_other),
    OPT("gamepaths", gamepaths),
    OPT("rapified=%s", rapified),
    OPT("configs=%s", configs),
    OPT("timing=%s", timing),
    OPT("bvh_unit=%s", bvh_unit),
    OPT("bvh_fps=%s", bvh_fps),
    OPT("ahead=%s", ahead),
    OPT("uid=%s", uid),
    OPT("gid=%s", gid),
    OPT("umask=%s", umask),
    OPT("dmask=%s", dmask),
    OPT("fmask=%s", fmask),
    OPT("fsname=%s", fsname),
    OPT("subtype=%s", subtype),
    OPT("watch=%s", watch),
    FUSE_OPT_KEY("max_read=", KEY_MAX_READ),       /* kept for libfuse too */
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

/* A number option: all digits in base (10 or 8), at most max. */
static int parse_num(const char *name, const char *v, int base, unsigned long max,
                     unsigned long *out)
{
    char *end;
    errno = 0;
    unsigned long n = v && *v >= '0' && *v <= '9' ? strtoul(v, &end, base) : 0;
    if (!v || *v < '0' || *v > '9' || *end || errno || n > max) {
        fprintf(stderr, "rtmfs: bad %s '%s' (%s)\n", name, v ? v : "",
                base == 8 ? "an octal mask such as 022" : "a number such as 1000");
        return -1;
    }
    *out = n;
    return 0;
}

int rtmfs_opt_proc(void *data, const char *arg, int key, struct fuse_args *outargs)
{
    struct options *o = data;
    (void)outargs;
    if (key == KEY_MAX_READ) {
        unsigned long n;
        if (parse_num("max_read", arg + strlen("max_read="), 10, UINT_MAX, &n))
            return -1;
        o->max_read = (unsigned)n;
        return 1;
    }
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

void rtmfs_usage(void)
{
    printf("usage: rtmfs [options] SOURCE MOUNTPOINT\n"
           "Mount SOURCE read-only at MOUNTPOINT, showing every .rtm file (and every .bvh\n"
           "motion capture, retargeted onto the skeleton) as a directory of its views,\n");
    rtm_views_usage(stdout, "    ", "    ");
    printf("and every .pbo archive as a directory of its entries and pbo.txt.  SOURCE may\n"
           "also be one .rtm or .pbo file: the mount is then its directory.\n\n"
           "rtmfs options:\n"
           "    -o skeleton=SKEL       " RTM_SKELETON_DEFAULT " (default), " RTM_SKELETON_NONE
           ", FILE or MODEL.cfg[:CLASS]\n"
           "    -o cache_size=SIZE     cache of parsed files and views (K, M, G; default 256M)\n"
           "    -o digits=N            numbers of frames, tracks, joints, phases and props\n"
           "                           with N decimals (0-9), for diff (default: exact)\n"
           "    -o index=PATH          the persistent index of sizes and listings (default:\n"
           "                           $XDG_CACHE_HOME/rtmfs/index.sqlite, or ~/.cache/rtmfs/)\n"
           "    -o index_size=SIZE     its bound, least recently used dropped (default 64M)\n"
           "    -o noindex             no persistent index\n"
           "    -o ahead=N             threads that size views ahead of a walk that stats\n"
           "                           them (0-16; default: one a CPU; 0: none)\n"
           "    -o show_other          pass other files (and archive entries) through\n"
           "    -o rapified=MODE       with show_other: rapified configs as text (default;\n"
           "                           config.bin as config.cpp) or raw (their bytes)\n"
           "    -o gamepaths           the game's file system: every archive and $PBOPREFIX$\n"
           "                           folder at its prefix, conflicts.txt at the root\n"
           "    -o configs=MODE        all (default: states.txt reads the configs under\n"
           "                           SOURCE when first asked for) or none\n"
           "    -o timing=MODE         game (default: preview.svg and anim.bvh play one\n"
           "                           pass as the states that play the file time it) or\n"
           "                           frames (30 frames a second, whatever the configs)\n"
           "    -o bvh_unit=UNIT       a BVH file's unit: m, cm, mm, in, cmu or metres\n"
           "                           (default: inferred from the skeleton's height)\n"
           "    -o bvh_fps=N           resample BVH motion to N frames a second (default:\n"
           "                           every frame kept)\n"
           "    -o uid=N,gid=N         owner shown (default: the source's)\n"
           "    -o umask=M             modes 0777 & ~M, octal (dmask= folders, fmask= files)\n"
           "    -o fsname=NAME         first field of /proc/mounts (default: SOURCE)\n"
           "    -o subtype=NAME        type fuse.NAME in /proc/mounts (default: rtmfs)\n"
           "    -o watch=MODE          auto (default: inotify, but asking again every 0.5 s\n"
           "                           on network and FUSE file systems), inotify, or poll\n\n");
}

/* The strings fuse_opt_parse made. */
void rtmfs_options_free(struct options *o)
{
    char *all[] = { o->skeleton, o->cache_size, o->source, o->digits, o->index,
                    o->index_size, o->uid, o->gid, o->umask, o->dmask, o->fmask, o->fsname,
                    o->subtype, o->watch, o->rapified, o->configs, o->timing, o->ahead,
                    o->bvh_unit, o->bvh_fps };
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        free(all[i]);
}

/* -o ahead=N: threads that size ahead of a walk that stats (tree.h).  By
 * default one a CPU: a walk's requests wait on the kernel and on the
 * walker more than they compute, and the workers yield to them (nice). */
int rtmfs_ahead_threads(const char *s)
{
    if (!s) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        return cpus <= 1 ? 1 : cpus > AHEAD_MAX ? AHEAD_MAX : (int)cpus;
    }
    char *end;
    errno = 0;
    long n = strtol(s, &end, 10);
    return errno || end == s || *end || n < 0 || n > AHEAD_MAX ? -1 : (int)n;
}

int rtmfs_parse_attrs(const struct options *o, struct rtm_tree_attrs *a)
{
    const unsigned long max_id = (uid_t)-2;     /* -1 means "no change" to chown */
    unsigned long uid = 0, gid = 0, umask = 0, dmask = 0, fmask = 0;
    if ((o->uid && parse_num("uid", o->uid, 10, max_id, &uid)) ||
        (o->gid && parse_num("gid", o->gid, 10, max_id, &gid)) ||
        (o->umask && parse_num("umask", o->umask, 8, 0777, &umask)) ||
        (o->dmask && parse_num("dmask", o->dmask, 8, 0777, &dmask)) ||
        (o->fmask && parse_num("fmask", o->fmask, 8, 0777, &fmask)))
        return -1;
    *a = (struct rtm_tree_attrs){
        .uid = (uid_t)uid, .gid = (gid_t)gid,
        .dmask = (mode_t)(o->dmask ? dmask : umask), .fmask = (mode_t)(o->fmask ? fmask : umask),
        .set = (o->uid ? RTM_ATTR_UID : 0u) | (o->gid ? RTM_ATTR_GID : 0u) |
               (o->dmask || o->umask ? RTM_ATTR_DMASK : 0u) |
               (o->fmask || o->umask ? RTM_ATTR_FMASK : 0u),
    };
    return 0;
}

int rtmfs_shared_options(const struct options *o, struct rtm_shared_opts *out)
{
    const struct { const char *name, *value; } given[] = {
        { "skeleton", o->skeleton }, { "digits", o->digits },
        { "bvh_unit", o->bvh_unit }, { "bvh_fps", o->bvh_fps },
    };
    char msg[256];
    *out = (struct rtm_shared_opts)RTM_SHARED_OPTS_INIT;
    for (size_t i = 0; i < sizeof given / sizeof *given; i++) {
        if (given[i].value &&
            rtm_shared_opt_set(out, given[i].name, given[i].value, msg, sizeof msg) < 0) {
            fprintf(stderr, "rtmfs: %s\n", msg);
            return -1;
        }
    }
    return 0;
}
