/* tree.h - what the mount shows, decided without FUSE.
 *
 * Where a request goes: `cat mod.pbo/anims/walk.rtm/frames/003.csv` reads
 * an inode number that names frame 3 in walk.rtm's family (inodes.h), down
 * the layers of src/ (fuse/ -> tree/ -> loader/ -> cache/ -> views/ -> rtm/,
 * pbo/):
 *   fuse/fuse_ops.c      op_read -> rtm_tree_read (tree.c)
 *   tree/tree.c          every request: resolve, then ask the kind table
 *   tree/tree_resolve.c  tree_resolve_ino -> tree_resolve_head (tree_family.c):
 *                        the archive's path, entry and version from the
 *                        family head's node; the archive's table from the
 *                        cache (cache/cache.c rtmc_get; loader/loader.c loads
 *                        it from the index or the archive's header,
 *                        pbo/pbo_file.c)
 *   tree/tree_family.c   tree_resolve_member: member -> the view
 *                        frames/003.csv, named from the animation's shape
 *                        (loader/shape.c): a target of kind TK_VIEW
 *   tree/tree_kinds.c    the kind table: TK_VIEW's row reads with
 *                        tree_read_view (tree/tree_read.c)
 *   tree/tree_read.c     frames need a full parse (cache/cache_sizes.c
 *                        rtmc_view_level): the cache's full entry
 *                        "mod.pbo/anims/walk.rtm", which loader/loader.c reads
 *                        from the entry's own bytes and parses (rtm/parse.c:
 *                        rtm/plain.c or rtm/bmtr.c + rtm/convert.c)
 *   cache/cache.c        rtmc_view_get renders the view once (views/views.c)
 *                        and keeps it
 *   tree/tree_read.c     copies the bytes asked for; fuse_ops.c replies.
 * stat and readdir go the same way: tree.c resolves, and the target's row
 * of the kind table gives its attributes (tree_kind_attr) or its listing
 * (tree_kind_list).  tree_int.h maps the layer's files, in tiers.
 *
 * This layer decides which source entries appear and as what, the inode
 * number and attributes of every path, the listings of folders, the bytes
 * of every file, and what to tell the kernel when SOURCE changes.  The FUSE
 * glue only decodes requests, calls these and replies; tests call them
 * directly.
 *
 * Contract:
 *  - Thread-safe.  Every function returns 0 (or a byte count) or a negative
 *    errno, as FUSE replies want it.
 *  - The mount never dies: nothing reachable from SOURCE's bytes, its
 *    changes or the kernel's requests aborts, asserts or exits.  A file
 *    that does not read is a folder of error.txt; a view that cannot be
 *    made fails with EIO and its folder then lists error.txt; a name gone
 *    is ENOENT; an old version's number ESTALE; out of memory ENOMEM,
 *    never remembered.  The workers sizing ahead meet the same bad input,
 *    faults and changes as a request, leave what they meet as a request
 *    would (error.txt, sizes unknown) and go on to the next animation.
 *  - With cfg.ahead, the tree owns that many worker threads that size the
 *    views of the next animations of a folder while a walk stats them
 *    (tree_ahead.c).  They start at the first size that needs a parse (so
 *    after rtmfs forked, and never for a walk that asks none) and are
 *    joined by rtm_tree_free.  Source folders list in the order of their
 *    names (bytes), as ls shows them, which is the order they follow.
 *  - Paths are relative to SOURCE, "" being its root.  Inside archives,
 *    folders without an animation anywhere below are not shown (unless
 *    show_other), and times are the entries' own (a folder: the newest
 *    below it).  Inside an animation's
 *    or archive's folder, everything is of the version (struct rtm_fileid)
 *    the folder was looked up in: a rewrite of the source file gives new
 *    numbers, and an old number reads its old version or fails with ESTALE.
 *  - One classification of a source entry (rtm_tree_classify) serves both
 *    lookup and readdir, so the two never disagree on what an entry is or
 *    on its number.
 *  - Under show_other, rapified configs (config.bin, *.rvmat, ...: the
 *    name rule of config.h, then the magic of their first four bytes) read
 *    as their text, as rtmcat prints it, sized exactly; config.bin shows
 *    as config.cpp (config.bin.cpp when there is a config.cpp).  One that
 *    does not read shows a one-line comment saying why.  -o rapified=raw
 *    shows their bytes under their own names.
 *  - An animation's folder also holds states.txt (tree_states.c): which
 *    config states play it.  It, and preview.svg and anim.bvh (timed by
 *    those states: timing.h), depend on more than the file: on the
 *    configs under SOURCE, read into one table per tree when a
 *    states.txt is first stat'ed or read, and again after SOURCE changed;
 *    never cached, and given short timeouts.  The persistent store (cfg.store)
 *    remembers the table by the versions of the configs read
 *    (tree_states_index.c).  The root also holds missing.txt (tree_missing.c),
 *    of the same table and of every animation's game path.
 *  - Names, listings and sizes come from an animation's shape (cache.h:
 *    RTMC_SHAPE, which the persistent index may give without reading the
 *    file); reading a view loads what it needs.
 *  - The tree owns its inode table and listings; the cache (cache.h) is the
 *    caller's and must outlive the tree.  The inode table's bytes count
 *    against the cache's budget (rtmc_set_outside).
 */
#ifndef RTM_TREE_H
#define RTM_TREE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "cache.h"
#include "fstype.h"
#include "inodes.h"

struct rtm_tree;
struct rtm_store;
struct rtm_skelreg;

/* What a broken animation's or archive's folder holds, saying why (and
 * the root, while a SOURCE file is missing). */
#define RTM_TREE_ERROR_NAME "error.txt"
/* Which config states play an animation (rtmfs-views(7)): in every
 * animation's folder, after its views; the one file there that depends on
 * the configs under SOURCE, not only on the animation. */
#define RTM_TREE_STATES_NAME "states.txt"
/* The other clips of a source that holds several (glTF, FBX: rtm(5)): a
 * folder in the source's own, which shows its first clip; in it, a folder
 * of every view a clip, named as the clip is (its name made a file's). */
#define RTM_TREE_CLIPS_NAME "clips"
/* Which config states name an animation that is not there (rtmfs-views(7)):
 * at the root, unless SOURCE shows an entry of that name there. */
#define RTM_TREE_MISSING_NAME "missing.txt"
/* The mistakes in the configs' states the game would find (rtmfs-views(7),
 * ROOT CHECK.TXT): beside missing.txt, on the same terms. */
#define RTM_TREE_CHECK_NAME "check.txt"
/* Under -o gamepaths, at the root: every game path more than one source
 * gives, with every source, the shown one first (gamefs.h). */
#define RTM_TREE_CONFLICTS_NAME "conflicts.txt"

/* What the mount shows as owner and permissions instead of the source's
 * (-o uid=, gid=, umask=, dmask=, fmask=): each field counts when its bit
 * is in set.  A mask gives mode 0777 & ~mask, as vfat and libfuse's
 * high-level API do; without one, modes are the source's, read-only. */
#define RTM_ATTR_UID 1u
#define RTM_ATTR_GID 2u
#define RTM_ATTR_DMASK 4u
#define RTM_ATTR_FMASK 8u
struct rtm_tree_attrs {
    unsigned set;
    uid_t uid;
    gid_t gid;
    mode_t dmask, fmask;
};

struct rtm_tree_config {
    int srcfd;                    /* SOURCE's folder, open O_DIRECTORY */
    const char *file;             /* NULL: SOURCE is that folder.  Else SOURCE
                                     is this .rtm or .pbo file in it, and the
                                     mount's root is the file's folder (while
                                     the file is missing: only error.txt). */
    struct rtm_tree_attrs attrs;
    struct rtmc *cache;           /* loads with rtm_loader_load on srcfd */
    int show_other;               /* pass other files through */
    int skeleton_explicit;        /* -o skeleton= was given: every animation
                                     takes the loader's skeleton; else one
                                     beside a model.cfg takes that file's
                                     (tree_modelcfg.c) */
    struct rtm_skelreg *skels;    /* where the skeletons the configs choose are
                                     kept for the loader (skelreg.h), shared
                                     with it; NULL: the skeleton rule's third
                                     step is off (-o skeleton= given) */
    int rapified_raw;             /* with show_other: rapified configs as their
                                     bytes, not as their text (-o rapified=raw) */
    int gamepaths;                /* the tree is the game's file system: every
                                     archive and $PBOPREFIX$ folder at its prefix
                                     (tree_gamepaths.c), conflicts.txt at the root */
    int configs_none;             /* read no config: states.txt has its first
                                     line only (-o configs=none) */
    int timing_frames;            /* preview.svg and anim.bvh keep 30 frames a
                                     second, whatever the configs (-o
                                     timing=frames) */
    int ahead;                    /* threads that size the views of the next
                                     animations of a folder once a walk asks
                                     sizes that need a parse (tree_ahead.c,
                                     -o ahead=N); 0: none */
    const char *configs_from;     /* read the configs in this folder or archive
                                     (a path on disk; config= is relative to
                                     it) instead of SOURCE's; NULL: SOURCE's;
                                     "": none (no state plays any file).
                                     The caller keeps it for the tree's life */
    const struct rtm_store *const *store;  /* where the persistent store is
                                     (store.h; it may be opened after the
                                     tree, after a fork), to
                                     remember the states table by the versions
                                     of the configs read, and with gamepaths
                                     archives' prefixes; NULL: none */
    const char *hidden;           /* a path in SOURCE the mount never shows nor
                                     stats (its own mount point), or NULL */
    rtm_ino_hash_fn hash;         /* NULL: rtm_ino_hash (tests inject others) */
    struct rtm_work *work;        /* counts what the tree reads of SOURCE itself
                                     (configs, archives' tables and prefixes,
                                     files shown as they are; work.h); the
                                     loader counts its own.  The caller's;
                                     NULL: none */
    /* Called for each source folder the kernel looks up; returns whether
     * changes in it will be reported (rtm_tree_changed).  NULL: none are. */
    int (*watch)(void *ctx, const char *dir);
    void *watch_ctx;
    /* Which devices inotify is blind on (fstype.h), checked for SOURCE and
     * for every device a request meets below it (a mount point).  Where it
     * is blind, everything gets short timeouts: the kernel asks again, and
     * a request resolves the path against SOURCE's current version.  NULL:
     * inotify is trusted everywhere. */
    struct rtm_fsmap *fsmap;
    /* Told n numbers, ino and those after it (rtm_ino_after), of files
     * whose sizes the persistent index may have given wrong (the stat or
     * read that found a wrong one failed with EIO, once; the others came
     * from the same record): the kernel must forget their attributes and
     * pages, asynchronously, never from inside the request.  NULL: nobody
     * is told. */
    void (*stale)(void *ctx, uint64_t ino, uint64_t n);
    void *stale_ctx;
    /* Told lines for the user (rtmfs: stderr): once a mount, what the
     * preprocessor left as written in the text configs read (cfg_pp.h);
     * at rtm_tree_free, inode numbers taken back that were never counted
     * (inodes.h: a miscount survived, which is a bug).  NULL: nobody. */
    void (*log)(void *ctx, const char *line);
    void *log_ctx;
};

/* How long the kernel may trust an answer: long where changes are
 * reported, short (so that a change shows within a second) elsewhere: on
 * a blind device, or everywhere once a watch failed.  A source folder's
 * attributes carry its mtime, so the kernel drops its cached listing when
 * a refreshed getattr shows that mtime changed. */
#define RTM_TREE_TIMEOUT_WATCHED 3600.0
#define RTM_TREE_TIMEOUT_UNWATCHED 0.5

struct rtm_tree *rtm_tree_new(const struct rtm_tree_config *cfg);
void rtm_tree_free(struct rtm_tree *t);

/* ---- what a source entry is ---- */

enum rtm_src_kind {
    RTM_SRC_HIDDEN,               /* not shown: symlinked folders, devices, the
                                     mount point, other files without show_other */
    RTM_SRC_DIR,                  /* a folder of SOURCE */
    RTM_SRC_ANIM,                 /* an animation (.rtm, or a .bvh source;
                                     rtm_is_anim_name): a folder of views */
    RTM_SRC_PBO,                  /* a .pbo file: a folder of its entries */
    RTM_SRC_OTHER,                /* another file, passed through */
    RTM_SRC_CONFIG,               /* a rapified config (by name, then its first
                                     bytes), shown as its text: tree_int.h */
};

/* Classifies entry name of folder dir (dfd open on it), rel being its path
 * relative to SOURCE.  d_type is readdir's hint (DT_UNKNOWN: none); it only
 * saves a stat, never changes the answer.  Symlinks are followed to files
 * and hidden when they lead to folders (loops).  *st is the entry's stat
 * (followed), *id its version for ANIM and PBO, RTM_FILEID_NONE otherwise.
 * Returns the kind, or a negative errno when it cannot be told. */
int rtm_tree_classify(struct rtm_tree *t, int dfd, const char *name, const char *rel,
                      unsigned char d_type, struct stat *st, struct rtm_fileid *id);

/* ---- the operations ---- */

struct rtm_tree_entry {
    uint64_t ino;
    struct stat st;
    double timeout;               /* for the entry and its attributes */
};

/* Looks up name in folder parent and counts the lookup (forget it later). */
int rtm_tree_lookup(struct rtm_tree *t, uint64_t parent, const char *name,
                    struct rtm_tree_entry *out);
void rtm_tree_forget(struct rtm_tree *t, uint64_t ino, uint64_t nlookup);
int rtm_tree_getattr(struct rtm_tree *t, uint64_t ino, struct rtm_tree_entry *out);

/* A folder's listing: ".", "..", then its entries with the numbers lookup
 * gives them and their types (S_IFDIR or S_IFREG). */
struct rtm_dirent {
    char *name;
    uint64_t ino;
    mode_t type;
};
struct rtm_dirlist {
    struct rtm_dirent *e;         /* n entries, owned by the listing: read
                                     them, never change them */
    size_t n;
};
/* The listing of folder ino for a readdir at offset off: built at offset 0,
 * and kept for the rest of that enumeration (a large folder is read in many
 * calls, which must neither rebuild it each time nor see it change midway).
 * Put it back with rtm_tree_listing_put. */
int rtm_tree_listing(struct rtm_tree *t, uint64_t ino, off_t off, struct rtm_dirlist **out);
/* How many folders of views list their files' attributes after a lookup
 * in one (a walk that stats is at work; tree.c says why). */
#define RTM_TREE_PLUS_CREDIT 1024
/* For readdirplus: out[i - from] is the entry of listed entry i of folder
 * dir's listing d, for from <= i < to, counted as a lookup, where its
 * attributes are known without parsing (in an archive's folder, its
 * animations' folders; in an animation's folder, its folders of views,
 * bones.txt, rendered from the shape the listing loaded, the views whose
 * sizes the cache or the persistent index has, and states.txt once the
 * configs' table is there; in frames/, joints/
 * and tracks/ the same, but only while a lookup in such a folder was
 * recent: RTM_TREE_PLUS_CREDIT); elsewhere its ino is 0, and the
 * kernel looks it up when it needs to. */
void rtm_tree_listed_entries(struct rtm_tree *t, uint64_t dir, const struct rtm_dirlist *d,
                             size_t from, size_t to, struct rtm_tree_entry *out);
void rtm_tree_listing_put(struct rtm_tree *t, struct rtm_dirlist *d);

/* Reads up to size bytes of file ino at off into buf; the count, or a
 * negative errno (-EISDIR for folders, -EIO for a damaged archive entry). */
ssize_t rtm_tree_read(struct rtm_tree *t, uint64_t ino, char *buf, size_t size, off_t off);

/* The filesystem SOURCE is on. */
struct statvfs;
int rtm_tree_statfs(struct rtm_tree *t, struct statvfs *sv);

/* Under cfg.gamepaths: the path in SOURCE's own tree (as a mount without
 * the option names it) that game path path shows, into out (PATH_MAX
 * bytes): 0, 1 when path is a folder the game's tree makes up (out ""),
 * or a negative errno.  -EINVAL without the option. */
int rtm_tree_source_path(struct rtm_tree *t, const char *path, char *out);

/* ---- changes in SOURCE ---- */

/* What the caller tells the kernel: forget a name in a folder, or an
 * inode's attributes and pages. */
struct rtm_tree_notify {
    void *ctx;
    void (*entry)(void *ctx, uint64_t parent, const char *name);
    void (*inode)(void *ctx, uint64_t ino);
};
/* Entry name of source folder dir changed (name NULL: the folder itself):
 * drops what the cache holds of it and says what the kernel must forget. */
void rtm_tree_changed(struct rtm_tree *t, const char *dir, const char *name,
                      const struct rtm_tree_notify *n);
/* After a batch of changes (one read of inotify's queue): what they call
 * for once.  A change that is no animation may be a config that gives
 * animations another skeleton (rtmfs-views(7), THE SKELETON RULE): the
 * kernel then forgets the entry of every animation's folder it holds, so
 * that their views are looked up again (their numbers stay; a view whose
 * skeleton changed has a new size and time). */
void rtm_tree_changes_done(struct rtm_tree *t, const struct rtm_tree_notify *n);
/* Changes were lost (an inotify queue overflow): drops everything cached
 * and tells the kernel to forget every inode's attributes, entries and
 * pages.  An animation's views are named through its folder's entry and
 * their numbers are of its version, whose bytes never change: forgetting
 * the folder's entry is enough for them. */
void rtm_tree_changed_all(struct rtm_tree *t, const struct rtm_tree_notify *n);

/* ---- open and opendir ---- */

/* What the kernel can do without open/opendir round trips, in rtmfs's
 * own terms (the glue maps FUSE_CAP_NO_OPEN_SUPPORT and
 * FUSE_CAP_NO_OPENDIR_SUPPORT to these). */
#define RTM_CAP_NO_OPEN 1u
#define RTM_CAP_NO_OPENDIR 2u
struct rtm_open_policy {
    int open_enosys;              /* answer open with ENOSYS: the kernel then
                                     never opens and keeps pages */
    int opendir_enosys;           /* likewise for folders, caching listings */
};
/* Without the capability, open succeeds and asks for the same caching with
 * keep_cache (files) and cache_readdir + keep_cache (folders). */
struct rtm_open_policy rtm_tree_open_policy(unsigned capable);

#endif
