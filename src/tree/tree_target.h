/* tree_target.h - tier 1 of the tree (tree_int.h has the map): the tree's
 * own struct, the target a path resolves to, the numbers of an animation's
 * family, and what every tier above uses on a target: its cache entries
 * and keys, an archive's entries below a folder, listings (tree_dirlist.c)
 * and the side files beside an animation, its model.cfg and a BVH's
 * bvh.map (tree_modelcfg.c).  Private to the tree layer (everyone else
 * uses tree.h). */
#ifndef RTM_TREE_TARGET_H
#define RTM_TREE_TARGET_H

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/stat.h>

#include "inodes.h"
#include "loader.h"
#include "pbo.h"
#include "tree.h"
#include "views.h"

#define NLISTINGS 2

struct rtm_states;
struct rtm_gamepaths;
struct tree_ahead;
struct tree_walk_hooks;

struct rtm_tree {
    struct rtm_tree_config cfg;
    char *hidden;                 /* cfg.hidden, copied */
    char *file;                   /* cfg.file, copied */
    struct rtm_inodes *nodes;
    atomic_int unwatched;         /* a watch failed: short timeouts from now on */
    atomic_int skeletons_moved;   /* a change may give animations another
                                     skeleton (rtm_tree_changes_done) */
    atomic_int said_left;         /* the log was told what configs left as written */
    long long epoch;              /* the configs' date and time built-ins: fixed
                                     when the tree is made (cfg_pp.h) */
    atomic_int plus_credit;       /* folders of views still to list with their
                                     attributes (rtm_tree_listed_entries) */
    pthread_mutex_t llock;        /* the last listings built */
    struct { uint64_t ino; struct rtm_dirlist *d; } listing[NLISTINGS];
    unsigned lnext;
    struct tree_states *states;   /* the configs' states (tree_states.c) */
    struct tree_game *game;       /* -o gamepaths: its table, else NULL */
    struct tree_ahead *ahead;     /* sizing ahead (tree_ahead.c), or NULL */
    const struct tree_walk_hooks *walk;   /* its hooks, or NULL */
    struct tree_sides *sides;     /* what watched folders hold beside their
                                     animations (tree_modelcfg.c) */
};

/* ---- what a path shows: the target the resolver fills in ---- */

enum tree_kind {
    TK_DIR, TK_OTHER,             /* a source folder, another source file */
    TK_ANIM,                      /* an animation's folder */
    TK_VIEW_FOLDER,               /* one of its folders of views: frames/, joints/
                                     or tracks/ */
    TK_VIEW,                      /* a view */
    TK_ERROR,                     /* an animation's or archive's error.txt, or
                                     the root's when the SOURCE file is gone */
    TK_GONE,                      /* the root while the SOURCE file is gone */
    TK_PBO, TK_PDIR, TK_PINFO,    /* an archive, a folder in it, its pbo.txt */
    TK_PFILE,                     /* an archive entry shown as it is */
    TK_CONFIG, TK_PCONFIG,        /* a rapified config shown as its text: a
                                     source file (unversioned, as TK_OTHER), an
                                     archive entry (of the archive's version) */
    TK_STATES,                    /* an animation's states.txt: of the configs,
                                     not only of the file (tree_states.c) */
    TK_MISSING,                   /* the root's missing.txt: of the configs and
                                     of every animation (tree_missing.c) */
    TK_ROOTCHECK,                 /* the root's check.txt: of the configs and
                                     of the animations states play */
    TK_CONFLICTS,                 /* -o gamepaths: the root's conflicts.txt */
    TK_CLIPS,                     /* a source of several clips: its clips/ folder,
                                     of the clips but its first (rtm(5)) */
    TK_COUNT                      /* how many kinds: the kind table has a row each */
};

struct tree_target {
    enum tree_kind kind;
    struct stat st;               /* of the source file (or archive) or folder */
    char src[PATH_MAX];           /* source path relative to SOURCE */
    const char *rest;             /* path inside an animation folder, or (for
                                     TK_PBO and TK_PDIR) inside an archive */
    struct rtmc_entry *h;         /* for TK_VIEW_FOLDER, TK_VIEW, TK_ERROR; put it */
    struct rtmc_entry *table;     /* the archive's table, once needed; put it */
    long entry;                   /* the archive entry (TK_PFILE, or an anim's), or -1 */
    struct rtm_view view;
    struct rtm_fileid id;         /* the version shown (pinned, or current) */
    int pinned;                   /* id was asked for: never follow a change */
    enum rtmc_level level;        /* of the anim entry h: RTMC_SHAPE to name and
                                     size things; reads ask for what they need */
    int full_if_parsed;           /* the target can only be a view that needs
                                     matrices: a shape that must be parsed is
                                     parsed full (cache.h) */
    uint32_t clip;                /* which clip of its source (fileid.h): 0, or
                                     a folder of clips/; its anim entry h is of it */
    uint64_t skel;                /* the skeleton the configs chose for its
                                     view (skelreg.h), 0: the loader's rule;
                                     its anim entry h is of it */
    int gone;                     /* TK_GONE, its TK_ERROR: why (an errno) */
    uint64_t member;              /* below an animation's folder: its number in
                                     the folder's family (MEMBER_*), else 0 */
    uint64_t head;                /* the family's head when resolved by it
                                     (tree_resolve_head), else 0 */
    struct timespec newest;       /* TK_PBO, TK_PDIR: the newest time below */
};

/* What a member number of an animation's family (inodes.h) stands for:
 * its error.txt, its folders of views (frames/, joints/, tracks/, in the
 * order of enum rtm_view_kind), and its views in rtm_view_at() order. */
enum { MEMBER_ERROR = 1, MEMBER_FOLDERS = 2, MEMBER_VIEWS = MEMBER_FOLDERS + RTM_NFOLDER_KINDS };
/* Inode numbers are remembered (inodes.h): a new folder kind moves every view's. */
_Static_assert(MEMBER_VIEWS == 5, "a folder kind added: the views' member numbers move");
static inline uint64_t tree_folder_member(enum rtm_view_kind kind)
{
    return MEMBER_FOLDERS + (uint64_t)rtm_view_folder_ordinal(kind);
}
/* states.txt is the family's last possible member: no view's number
 * moves, and the views' numbers stay contiguous (tree_stale tells them as
 * one run, which states.txt, of the configs, is not part of). */
#define MEMBER_STATES (RTM_INO_MEMBERS - 1)
/* clips/ (TK_CLIPS) the one before; its folders are heads of their own. */
#define MEMBER_CLIPS (RTM_INO_MEMBERS - 2)
/* Whether the folder of tg (an animation, anim a) holds clips/: the first
 * clip's folder of a source of several does. */
static inline int tree_shows_clips(const struct tree_target *tg, const struct rtm_anim *a)
{
    return a && a->nclips > 1 && tg->clip == 0;
}
/* The inverse: the kind of folder member k is; -1 when it is no folder. */
static inline int tree_member_folder(uint64_t k, enum rtm_view_kind *kind)
{
    if (k < MEMBER_FOLDERS || k >= MEMBER_VIEWS)
        return -1;
    *kind = rtm_view_folder_kind((size_t)(k - MEMBER_FOLDERS));
    return 0;
}

/* ---- an animation's family (tree_family.c) ---- */

/* What a family's head keeps (inodes.h's aux): enough to resolve it and
 * its members without looking at SOURCE, their version being pinned. */
struct tree_head {
    uint32_t srclen;              /* the source file's part of the head's path:
                                     all of it, or the archive's */
    int32_t entry;                /* the archive's entry, or -1 */
    uint32_t mode, uid, gid;      /* of the source file (or archive) */
    uint32_t clip;                /* the clip its folder shows: 0, or one of
                                     clips/ (the head's path ends in it) */
    int64_t atime_sec, atime_nsec;
};
_Static_assert(sizeof(struct tree_head) == RTM_INO_AUX, "a head's aux is a tree_head");

/* ---- names ---- */

/* Whether name (len bytes) is an animation's (.rtm or .bvh: rtm.h) or an
 * archive's (.pbo), in any case. */
static inline int tree_is_anim_name(const char *name, size_t len)
{
    return rtm_is_anim_name(name, len);
}
static inline int tree_is_pbo_name(const char *name, size_t len)
{
    return rtm_name_ends(name, len, ".pbo");
}

/* ---- a target's entries and keys (tree_target.c) ---- */

/* Puts what tg holds (its entries in the cache). */
void tree_target_done(struct rtm_tree *t, struct tree_target *tg);
/* The cache entry of kind for key (tg->src, or an entry's key) of tg's
 * version: the pinned one, or else the current one, following the file if
 * it changes while it is read. */
int tree_get_entry(struct rtm_tree *t, struct tree_target *tg, const char *key,
                   enum rtmc_kind kind, struct rtmc_entry **h);
/* Gets the animation tg names (a file, or an archive's entry) into tg->h,
 * at tg->level. */
int tree_load_anim(struct rtm_tree *t, struct tree_target *tg);
/* The cache key of archive entry tg->entry. */
void tree_member_key(const struct tree_target *tg, char key[RTM_KEY_MAX]);
/* How many entries folder dir of archive tg->table shows at any depth below
 * it (animations, or every entry with show_other), and the newest of their
 * times into *newest (if not NULL). */
size_t tree_archive_below(struct rtm_tree *t, const struct tree_target *tg, const char *dir,
                          struct timespec *newest);
/* The persistent store, when there is one (it may be opened after the
 * tree: cfg.store says where it is), or NULL. */
const struct rtm_store *tree_store(const struct rtm_tree *t);
/* The store's key of a record of kind (store.h) about archive version id,
 * its salt aside (a fact of the archive's bytes): 0, or -1 when there is
 * no store or the version has no times to be told from another by. */
int tree_archive_key(const struct rtm_tree *t, const struct rtm_fileid *id, uint32_t kind,
                     struct rtm_store_key *k);
/* Archive entry entry's stored time when it has one (seconds since 1970),
 * else the archive's. */
struct timespec tree_entry_time(const struct tree_target *tg, long entry);
static inline struct timespec tree_later(struct timespec a, struct timespec b)
{
    return a.tv_sec > b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec > b.tv_nsec) ? a : b;
}
/* The inode table counts against the cache's budget. */
void tree_account(struct rtm_tree *t);
/* Whether an animation's family is resolved by its mount path, not by
 * what its head keeps: SOURCE is one file, or the tree shows game paths. */
static inline int tree_by_path(const struct rtm_tree *t) { return t->file || t->game; }

/* ---- listings (tree_dirlist.c) ---- */

/* A new listing, of one reference (put it with rtm_tree_listing_put); NULL
 * out of memory. */
struct rtm_dirlist *tree_listing_new(void);
/* One more reference on listing d. */
void tree_listing_ref(struct rtm_tree *t, struct rtm_dirlist *d);
/* An entry could not be told (a read of SOURCE failed): the listing is
 * not to be kept by the kernel. */
void tree_listing_set_unsure(struct rtm_dirlist *d);
int tree_listing_unsure(struct rtm_dirlist *d);
/* The listing kept for ino's enumeration in progress (a reference for the
 * caller), or NULL; and keeping d (which holds the caller's reference) as
 * ino's, in place of the oldest kept. */
struct rtm_dirlist *tree_listing_find(struct rtm_tree *t, uint64_t ino);
void tree_listing_keep(struct rtm_tree *t, uint64_t ino, struct rtm_dirlist *d);
/* Frees the listings kept for enumerations in progress. */
void tree_listings_free(struct rtm_tree *t);
/* Appends name with number ino, which the listing owns from now on (a hold
 * it releases, unless ino is the root's or a member's): 0 or -ENOMEM. */
int tree_list_put(struct rtm_tree *t, struct rtm_dirlist *d, const char *name, mode_t type,
                  uint64_t ino);
/* Appends name, an entry of folder dir of version id, holding its number
 * (a family's head keeping head, when not NULL). */
int tree_list_add(struct rtm_tree *t, struct rtm_dirlist *d, const char *dir, const char *name,
                  mode_t type, const struct rtm_fileid *id, const struct tree_head *head);

/* ---- the files beside an animation: the list of sides.h (tree_modelcfg.c) ---- */

/* Asks for SOURCE folder dir to be watched (rtm_tree_config's watch): the
 * folders the kernel looks up, and those the configs' walk reads; a
 * failure means short timeouts everywhere. */
void tree_watch(struct rtm_tree *t, const char *dir);

/* The salt (fileid.h) of the version of the loose animation at name
 * (relative to dfd; rel: its path relative to SOURCE, on device dev):
 * rtm_loader_salt of the side files beside it that apply to it (sides.h:
 * its folder's model.cfg, none under an explicit -o skeleton=; a BVH's
 * bvh.map), mixed with the files its own bytes name (a .gltf's buffers:
 * rtm_loader_named_salt), into *salt.  In a folder that is watched
 * (tree_sides_watched) on a device inotify sees, the side files looked up
 * are kept until a change in that folder is reported; elsewhere they are
 * looked up every time.  0, or -ENOMEM.  Thread-safe. */
int tree_modelcfg_salt(struct rtm_tree *t, int dfd, const char *name, const char *rel,
                       uint64_t dev, uint64_t *salt);
/* The life of what watched folders hold beside their animations (t->sides):
 * 0 or -ENOMEM. */
int tree_sides_new(struct rtm_tree *t);
void tree_sides_free(struct rtm_tree *t);
/* Folder dir is watched (its watch was just added, or added again): what
 * it holds may be kept from now on. */
void tree_sides_watched(struct rtm_tree *t, const char *dir);
/* The watcher says entry name of folder dir changed (name NULL: dir
 * itself): a side file there is looked up again; a folder renamed,
 * removed or made there is forgotten with every folder below it, and is
 * kept again only once watched under its name. */
void tree_sides_changed(struct rtm_tree *t, const char *dir, const char *name);
/* A version beside rel turned out stale (-ESTALE from the loader): its
 * folder's side files are looked up again (a change not yet reported). */
void tree_sides_stale(struct rtm_tree *t, const char *rel);
/* Every change may have been lost (inotify overflowed; rtm_tree_changed_all):
 * nothing is kept, and no folder is taken as watched until watched again. */
void tree_sides_changed_all(struct rtm_tree *t);
/* A model.cfg or bvh.map (name) in dir changed: the animations beside it
 * are new versions (parent: dir's number, or 0). */
void tree_modelcfg_changed(struct rtm_tree *t, const char *dir, const char *name,
                           uint64_t parent, const struct rtm_tree_notify *n);
/* Whether name, in a folder on disk, is a file beside animations that
 * versions them: a row of the list of side files (sides.h), named exactly
 * so. */
int tree_is_side_file(const char *name);

#endif
