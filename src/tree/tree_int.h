/* tree_int.h - the map of the tree layer, and its tiers 3 to 5; private to
 * the layer's files (everyone else uses tree.h).
 *
 * The files form one-way tiers, each using only those below it (the
 * layering test, tests/build/layers.sh, finds no cycle among them):
 *
 *  5  tree.c            the tree's life; lookup, getattr, read, readdir and
 *                       changes in SOURCE: each a resolution, then a row of
 *                       the kind table
 *     tree_ahead.c      sizing ahead of a walk that stats, on worker
 *                       threads; fed by the hooks it sets (t->walk)
 *     watch.c           inotify's reports, turned into changes
 *  4  tree_kinds.c      THE KIND TABLE: for each kind of target, folder or
 *                       file, its attributes, listing, size and bytes
 *     tree_list.c       what each kind of folder lists
 *     tree_read.c       the bytes of views, archive entries and source
 *                       files shown as they are; views' sizes
 *     tree_rootcheck.c  the root's check.txt, which reads animations
 *  3  tree_resolve.c    THE RESOLVER: a mount path or an inode number ->
 *                       the target it shows; it dispatches to the leaves,
 *                       which return a verdict and never resolve again:
 *     tree_family.c       an animation's folder and its family of numbers
 *     tree_archive.c      a path inside an archive
 *     tree_missing.c      the root's missing.txt and check.txt
 *     tree_gamepaths.c    -o gamepaths: a game path -> a path of SOURCE
 *     tree_classify.c   what a source entry is, the kind it shows as, and
 *                       which kinds carry a version
 *  2  tree_states.h     the configs' machinery: tree_config.c,
 *                       tree_states.c, tree_states_walk.c, tree_states_read.c,
 *                       tree_states_index.c
 *  1  tree_target.h     the tree's struct, targets, kinds and member
 *                       numbers; tree_target.c (cache entries and keys),
 *                       tree_dirlist.c (listings), tree_modelcfg.c;
 *                       inodes.c (inodes.h) below them all
 */
#ifndef RTM_TREE_INT_H
#define RTM_TREE_INT_H

#include "tree_states.h"
#include "tree_target.h"

/* ---- 3: what a source entry is (tree_classify.c) ---- */

/* Whether rel is the hidden path or below it: never stat it, as that would
 * ask this very mount (and, single-threaded, wait for itself). */
int tree_is_hidden(const struct rtm_tree *t, const char *rel);
/* Classifies tg->src (rtm_tree_classify): its class (RTM_SRC_DIR, _ANIM,
 * _PBO, _OTHER, _CONFIG), with tg's kind and (unless pinned) version set;
 * -ENOENT for a hidden entry, or a negative errno. */
int tree_classify_target(struct rtm_tree *t, struct tree_target *tg);
/* A kind's traits (a table of tree_classify.c): whether a target of kind k
 * is of one version of its source file, which numbers it (inodes.h),
 * rather than of its path alone; whether it is an animation's folder, the
 * head of a family; whether k has its traits at all.  tree_kinds_complete
 * (tree_kinds.c): whether every kind has them and a row of the kind table
 * (for the tests). */
int tree_kind_versioned(enum tree_kind k);
int tree_kind_is_head(enum tree_kind k);
int tree_kind_traits_known(enum tree_kind k);
int tree_kinds_complete(void);

/* ---- 3: the leaves ---- */

/* tree_family.c.  What a head keeps of source file src (stat st; entry:
 * the archive's entry, or -1), into *hi. */
void tree_head_info(const char *src, const struct stat *st, long entry, struct tree_head *hi);
/* Resolves family head ino (an animation's folder) into tg and its path
 * into path, from what its node keeps: SOURCE is not looked at, the version
 * being pinned (a file rewritten since reads as -ESTALE when loaded). */
int tree_resolve_head(struct rtm_tree *t, uint64_t ino, char path[PATH_MAX],
                      struct tree_target *tg);
/* Resolves member k of the family of animation tg (resolved by
 * tree_resolve_head, holding nothing) by its number alone: path stays the
 * head's.  -ESTALE when k names nothing of that version. */
int tree_resolve_member(struct rtm_tree *t, struct tree_target *tg, uint64_t k);
/* Resolves name in folder parent, a family's head or one of its folders,
 * into tg and its path into path; on failure tg holds nothing. */
int tree_resolve_in_family(struct rtm_tree *t, uint64_t parent, const char *name,
                           char path[PATH_MAX], struct tree_target *tg);
/* Points tg (an animation's, its entry loaded) at its member k: 0, or
 * -ENOENT when k is no view or folder of it. */
int tree_aim_at_member(struct tree_target *tg, uint64_t k);
/* Resolves tg->rest, a path inside the animation folder tg: its error.txt,
 * a view, a folder of views or a file in one.  -ENOENT when it names none. */
int tree_resolve_inner(struct rtm_tree *t, struct tree_target *tg);

/* tree_archive.c.  Resolves inner, a path inside archive tg (its table
 * loaded into tg->table): the archive's own folder, pbo.txt, error.txt, a
 * folder of it, an animation (tg then an anim's) or another entry. */
int tree_resolve_archive(struct rtm_tree *t, struct tree_target *tg, const char *inner);

/* tree_missing.c.  The root shows missing.txt and check.txt when it is a
 * folder or an archive (not an animation's folder, nor the error of a
 * SOURCE file gone), unless SOURCE shows an entry of that name there:
 * what SOURCE holds wins (rtmfs(1)). */
int tree_missing_shown(struct rtm_tree *t);
/* After a resolution of path gave rc (tg holds what it resolved): the
 * root's missing.txt or check.txt, when path names it and SOURCE did not
 * (tg then is it).  rc, or what the rule says. */
int tree_missing_resolve(struct rtm_tree *t, const char *path, struct tree_target *tg, int rc);
/* Its text into b (initialised here), and its time into *when. */
int tree_missing_text(struct rtm_tree *t, struct tree_target *tg, struct rtm_buf *b,
                      struct timespec *when);

/* tree_gamepaths.c.  The table's life (none without cfg.gamepaths): 0 or
 * -ENOMEM. */
int tree_gamepaths_new(struct rtm_tree *t);
void tree_gamepaths_free(struct rtm_tree *t);
/* What game path path is: 1, a folder the game's tree makes up; 0, a
 * source's file or what is below it, whose path in SOURCE's own tree goes
 * into normal; or a negative errno (-ENOENT: nothing). */
int tree_gamepaths_translate(struct rtm_tree *t, const char *path, char normal[PATH_MAX]);
/* The children of game folder path: a malloc'd array into *out (the
 * caller frees it), n of them. */
struct tree_game_child {
    char name[NAME_MAX + 1];
    int dir;
};
int tree_gamepaths_children(struct rtm_tree *t, const char *path, struct tree_game_child **out,
                            size_t *n);
/* conflicts.txt into b (initialised here): reads every archive's table. */
int tree_gamepaths_conflicts(struct rtm_tree *t, struct rtm_buf *b);
/* Something under SOURCE changed: the table is built again at the next
 * need (the caller has the kernel forget every answer). */
void tree_gamepaths_changed(struct rtm_tree *t);

/* ---- 3: the resolver (tree_resolve.c) ---- */

/* Resolves a mount path; id is the version the kernel's inode names
 * (RTM_FILEID_NONE: whatever is current).  On success put tg with
 * tree_target_done; on failure it holds nothing. */
int tree_resolve(struct rtm_tree *t, const char *path, const struct rtm_fileid *id,
                 struct tree_target *tg);
/* The same for the path and version of inode ino (path: PATH_MAX bytes). */
int tree_resolve_ino(struct rtm_tree *t, uint64_t ino, char path[PATH_MAX],
                     struct tree_target *tg);
/* A path of SOURCE's own tree, whatever the mount shows (-o gamepaths). */
int tree_resolve_source(struct rtm_tree *t, const char *path, struct tree_target *tg);
/* The path of folder ino and its version; a folder of views is named
 * without its animation.  -ENOTDIR for a view. */
int tree_dir_path(struct rtm_tree *t, uint64_t ino, char path[PATH_MAX], struct rtm_fileid *id);

/* ---- 4: what the kinds do: the functions of the kind table's rows ---- */

/* A folder's lister: appends the entries of folder tg (number ino, mount
 * path path) to d (tree_list.c). */
typedef int tree_list_fn(struct rtm_tree *t, uint64_t ino, struct tree_target *tg,
                         const char *path, struct rtm_dirlist *d);
tree_list_fn tree_list_dir, tree_list_anim, tree_list_views, tree_list_gone, tree_list_archive,
    tree_list_archive_dir, tree_list_clips;
/* The root's missing.txt and check.txt, last, unless SOURCE showed an
 * entry of that name. */
int tree_list_missing(struct rtm_tree *t, struct rtm_dirlist *d);
/* The root's check.txt into b (initialised here), its time into *when
 * (tree_rootcheck.c). */
int tree_rootcheck_text(struct rtm_tree *t, struct tree_target *tg, struct rtm_buf *b,
                        struct timespec *when);

/* A file's size, and its time into *when (if not NULL) where its kind has
 * one of its own; and its bytes: a count or a negative errno (tree_read.c). */
typedef int tree_size_fn(struct rtm_tree *t, struct tree_target *tg, uint64_t *size,
                         struct timespec *when);
typedef ssize_t tree_read_fn(struct rtm_tree *t, struct tree_target *tg, uint64_t ino,
                             char *buf, size_t size, off_t off);
tree_size_fn tree_view_size, tree_size_member;
tree_read_fn tree_read_view, tree_read_member, tree_read_other;
/* A view's size when known without parsing, rendering or reading a
 * config; else -EAGAIN. */
int tree_view_size_known(struct rtm_tree *t, struct tree_target *tg, uint64_t *size);
/* The part of data (len bytes) at off, into buf: a count. */
ssize_t tree_slice(char *buf, size_t size, const char *data, size_t len, off_t off);
/* A remembered size of tg (inode ino) was wrong: tells the stale hook
 * every view of its animation (their sizes came from one record). */
void tree_stale(struct rtm_tree *t, const struct tree_target *tg, uint64_t ino);

/* ---- 4: the kind table (tree_kinds.c) ---- */

/* tg's attributes as stat gives them (ino its number). */
int tree_kind_attr(struct rtm_tree *t, struct tree_target *tg, uint64_t ino, struct stat *st);
/* Up to size bytes of file tg at off; -EISDIR for a folder. */
ssize_t tree_kind_read(struct rtm_tree *t, struct tree_target *tg, uint64_t ino, char *buf,
                       size_t size, off_t off);
/* The listing of folder tg (number ino, at path): ".", "..", its entries,
 * and at the root missing.txt; -ENOTDIR for a file. */
int tree_kind_list(struct rtm_tree *t, uint64_t ino, struct tree_target *tg, const char *path,
                   struct rtm_dirlist *d);
/* Whether what tg shows follows anything under SOURCE (configs, archives)
 * rather than its version: the kernel keeps it briefly. */
int tree_kind_follows_source(const struct rtm_tree *t, const struct tree_target *tg);
/* Whether tg is a folder of SOURCE, to watch for changes. */
int tree_kind_watched(const struct tree_target *tg);
/* Whether tg's attributes are known without parsing, rendering or reading
 * a config (readdirplus gives only those). */
int tree_kind_size_known(struct rtm_tree *t, struct tree_target *tg);

/* ---- 5: sizing ahead of a walk (tree_ahead.c) ---- */

/* What a listing and a view's size tell the sizing ahead, through
 * t->walk (NULL without it): so the tiers below never call tree_ahead.c. */
struct tree_walk_hooks {
    /* folder ino was listed as d (a reference on d may be kept) */
    void (*listed)(struct rtm_tree *t, uint64_t ino, struct rtm_dirlist *d);
    /* whether a view of animation head is asked a size for the first time
     * since another animation's was (a walk stats many views of one in
     * turn: the first tells) */
    int (*new_head)(struct rtm_tree *t, uint64_t head);
    /* that first view was asked a size that needs a parse, and missed (not
     * known) or not: on a miss the animations listed after it are sized */
    void (*stat)(struct rtm_tree *t, uint64_t head, int missed);
};
/* Its life: none without cfg.ahead threads, or when families are resolved
 * by path (tree_by_path); -ENOMEM.  Free it before what its workers use
 * (the states table, the inodes). */
int tree_ahead_new(struct rtm_tree *t);
void tree_ahead_free(struct rtm_tree *t);

#endif
