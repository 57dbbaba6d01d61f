/* tree_int.h - what the files of the tree layer (tree.c: entries, paths,
 * attributes, lookups and changes; tree_resolve.c: what a path shows;
 * tree_family.c: an animation's folder as a family of numbers; tree_list.c:
 * listings; tree_read.c: reads) share.
 * Private to them: everyone else uses tree.h.
 */
#ifndef RTM_TREE_INT_H
#define RTM_TREE_INT_H

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/stat.h>

#include "pbo.h"
#include "tree.h"
#include "views.h"

#define ERROR_NAME "error.txt"
#define NLISTINGS 2

struct rtm_tree {
    struct rtm_tree_config cfg;
    char *hidden;                 /* cfg.hidden, copied */
    char *file;                   /* cfg.file, copied */
    struct rtm_inodes *nodes;
    atomic_int unwatched;         /* a watch failed: short timeouts from now on */
    atomic_int plus_credit;       /* folders of views still to list with their
                                     attributes (rtm_tree_listed_entries) */
    pthread_mutex_t llock;        /* the last listings built */
    struct { uint64_t ino; struct rtm_dirlist *d; } listing[NLISTINGS];
    unsigned lnext;
};

/* ---- mount path -> source file and view (tree_resolve.c) ---- */

enum kind {
    K_DIR, K_OTHER,               /* a source folder, another source file */
    K_ANIM, K_FRAMES, K_VIEW,     /* an animation's folder, one of its folders
                                     of frames (frames/, joints/), its views */
    K_ERROR,                      /* an animation's or archive's error.txt, or
                                     the root's when the SOURCE file is gone */
    K_GONE,                       /* the root while the SOURCE file is gone */
    K_PBO, K_PDIR, K_PINFO,       /* an archive, a folder in it, its pbo.txt */
    K_PFILE,                      /* an archive entry shown as it is */
};

struct target {
    enum kind kind;
    struct stat st;               /* of the source file (or archive) or folder */
    char src[PATH_MAX];           /* source path relative to SOURCE */
    const char *rest;             /* path inside an animation folder, or (for
                                     K_PBO and K_PDIR) inside an archive */
    struct rtmc_entry *h;         /* for K_FRAMES, K_VIEW, K_ERROR; put it */
    struct rtmc_entry *table;     /* the archive's table, once needed; put it */
    long entry;                   /* the archive entry (K_PFILE, or an anim's), or -1 */
    struct rtm_view view;
    struct rtm_fileid id;         /* the version shown (pinned, or current) */
    int pinned;                   /* id was asked for: never follow a change */
    enum rtmc_level level;        /* of the anim entry h: RTMC_SHAPE to name and
                                     size things; reads ask for what they need */
    int gone;                     /* K_GONE, its K_ERROR: why (an errno) */
    uint64_t member;              /* below an animation's folder: its number in
                                     the folder's family (MEMBER_*), else 0 */
    struct timespec newest;       /* K_PBO, K_PDIR: the newest time below */
};

/* What a member number of an animation's family (inodes.h) stands for:
 * its error.txt, its folders of views (frames/, joints/, tracks/, in the
 * order of enum rtm_view_kind), and its views in rtm_view_at() order. */
enum { MEMBER_ERROR = 1, MEMBER_FOLDERS = 2, MEMBER_VIEWS = 5 };
static inline uint64_t tree_folder_member(enum rtm_view_kind kind)
{
    return MEMBER_FOLDERS + (uint64_t)(kind - RTM_VIEW_FRAME);
}
/* The inverse: the kind of folder member k is; -1 when it is no folder. */
static inline int tree_member_folder(uint64_t k, enum rtm_view_kind *kind)
{
    if (k < MEMBER_FOLDERS || k >= MEMBER_VIEWS)
        return -1;
    *kind = (enum rtm_view_kind)(RTM_VIEW_FRAME + (k - MEMBER_FOLDERS));
    return 0;
}

/* What a family's head keeps (inodes.h's aux): enough to resolve it and
 * its members without looking at SOURCE, their version being pinned. */
struct head_info {
    uint32_t srclen;              /* the source file's part of the head's path:
                                     all of it, or the archive's */
    int32_t entry;                /* the archive's entry, or -1 */
    uint32_t mode, uid, gid;      /* of the source file (or archive) */
    uint32_t pad;
    int64_t atime_sec, atime_nsec;
};
_Static_assert(sizeof(struct head_info) == RTM_INO_AUX, "a head's aux is a head_info");
/* ---- families (tree_family.c) ---- */

void tree_head_info(const char *src, const struct stat *st, long entry, struct head_info *hi);
/* Resolves name in folder parent, a family's head or one of its folders,
 * into tg and its path into path; on failure tg holds nothing. */
int tree_resolve_in_family(struct rtm_tree *t, uint64_t parent, const char *name,
                           char path[PATH_MAX], struct target *tg);
/* Points tg (an animation's, its entry loaded) at its member k: 0, or -1
 * when k is no view or folder of it. */
int tree_aim_at_member(struct target *tg, uint64_t k);

/* A cache key for an archive entry: "ARCHIVE/ENTRY" */
enum { KEY_MAX = PATH_MAX + PBO_NAME_MAX + 2 };

/* Kinds that live at or below an animation's or archive's folder carry a
 * version. */
static inline int tree_versioned(enum kind k) { return k != K_DIR && k != K_OTHER; }

int tree_is_rtm_name(const char *name, size_t len);
/* dir/name into out (PATH_MAX bytes); -ENAMETOOLONG when it does not fit. */
int tree_child_path(char *out, const char *dir, const char *name);
/* The path of inode ino and its version; a folder of views is named
 * without its animation.  -ENOTDIR for a view. */
int tree_dir_path(struct rtm_tree *t, uint64_t ino, char path[PATH_MAX], struct rtm_fileid *id);
/* Resolves a mount path; id is the version the kernel's inode names
 * (RTM_FILEID_NONE: whatever is current).  On success put tg with
 * tree_target_done; on failure it holds nothing. */
int tree_resolve(struct rtm_tree *t, const char *path, const struct rtm_fileid *id,
                 struct target *tg);
/* The same for the path and version of inode ino (path: PATH_MAX bytes). */
int tree_resolve_ino(struct rtm_tree *t, uint64_t ino, char path[PATH_MAX], struct target *tg);
void tree_target_done(struct rtm_tree *t, struct target *tg);
/* Resolves tg->rest, a path inside the animation folder tg (see tree_resolve.c). */
int tree_resolve_inner(struct rtm_tree *t, struct target *tg);
/* The cache entry of kind for key, of tg's version (see tree_resolve.c). */
int tree_get_entry(struct rtm_tree *t, struct target *tg, const char *key,
                   enum rtmc_kind kind, struct rtmc_entry **h);
int tree_load_anim(struct rtm_tree *t, struct target *tg);
int tree_resolve_archive(struct rtm_tree *t, struct target *tg, const char *inner);
void tree_member_key(const struct target *tg, char key[KEY_MAX]);
int tree_render_info(const struct target *tg, struct rtm_buf *b);
/* The text of error.txt tg (no line end): tmp holds it when made up here. */
const char *tree_error_text(const struct rtm_tree *t, const struct target *tg, char *tmp,
                            size_t n);
/* How many entries folder dir of archive tg->table shows at any depth below
 * it (animations, or every entry with show_other), and the newest of their
 * times into *newest (if not NULL). */
size_t tree_archive_below(struct rtm_tree *t, const struct target *tg, const char *dir,
                          struct timespec *newest);
/* Archive entry entry's stored time when it has one (seconds since 1970),
 * else the archive's. */
struct timespec tree_entry_time(const struct target *tg, long entry);
static inline struct timespec tree_later(struct timespec a, struct timespec b)
{
    return a.tv_sec > b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec > b.tv_nsec) ? a : b;
}
/* A remembered size of tg (inode ino) was wrong: tells the stale hook
 * every view of its animation (their sizes came from one record). */
void tree_stale(struct rtm_tree *t, const struct target *tg, uint64_t ino);
/* The inode table counts against the cache's budget. */
void tree_account(struct rtm_tree *t);

/* ---- listings (tree_list.c) ---- */

/* Frees the listings kept for enumerations in progress. */
void tree_listings_free(struct rtm_tree *t);

#endif
