/* tree_int.h - what the files of the tree layer share; private to them
 * (everyone else uses tree.h).  One section a file:
 *   tree.c          the tree's life, attributes, lookups, changes in SOURCE
 *   tree_resolve.c  what a source entry is, and a mount path or an inode
 *                   number -> the source file (or archive entry) and view
 *                   it shows: struct tree_target
 *   tree_family.c   an animation's folder as a family of inode numbers
 *   tree_list.c     folders' listings
 *   tree_read.c     files' bytes
 *   tree_config.c   rapified configs shown as text: names, size, bytes
 *   tree_states.c   the mount's table of config states; states.txt,
 *                   missing.txt's text, the timing of the previews
 *   tree_states_walk.c  finding and reading the configs for that table
 *   tree_states_index.c the table in the persistent index
 *   tree_missing.c  missing.txt at the mount's root: where it shows
 *   tree_ahead.c    sizing ahead of a walk that stats, on worker threads
 * A file cycle on purpose: the files are one module split by request
 * kind, and a path resolves through archives, configs and game paths
 * that each list, read and resolve again.
 */
#ifndef RTM_TREE_INT_H
#define RTM_TREE_INT_H

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/stat.h>

#include "index.h"
#include "loader.h"
#include "pbo.h"
#include "tree.h"
#include "views.h"

#define NLISTINGS 2

struct rtm_states;
struct rtm_gamepaths;
struct tree_ahead;

struct rtm_tree {
    struct rtm_tree_config cfg;
    char *hidden;                 /* cfg.hidden, copied */
    char *file;                   /* cfg.file, copied */
    struct rtm_inodes *nodes;
    atomic_int unwatched;         /* a watch failed: short timeouts from now on */
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
};

/* ---- what a path shows: the target tree_resolve.c fills in ---- */

enum tree_kind {
    TK_DIR, TK_OTHER,             /* a source folder, another source file */
    TK_ANIM, TK_FRAMES, TK_VIEW,  /* an animation's folder, one of its folders
                                     of views (frames/, joints/, tracks/), a view */
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
    TK_CONFLICTS,                 /* -o gamepaths: the root's conflicts.txt */
};

struct tree_target {
    enum tree_kind kind;
    struct stat st;               /* of the source file (or archive) or folder */
    char src[PATH_MAX];           /* source path relative to SOURCE */
    const char *rest;             /* path inside an animation folder, or (for
                                     TK_PBO and TK_PDIR) inside an archive */
    struct rtmc_entry *h;         /* for TK_FRAMES, TK_VIEW, TK_ERROR; put it */
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
    int gone;                     /* TK_GONE, its TK_ERROR: why (an errno) */
    uint64_t member;              /* below an animation's folder: its number in
                                     the folder's family (MEMBER_*), else 0 */
    uint64_t head;                /* the family's head when resolved by it
                                     (tree_resolve_head), else 0 */
    struct timespec newest;       /* TK_PBO, TK_PDIR: the newest time below */
};

/* Kinds that live at or below an animation's or archive's folder carry a
 * version. */
static inline int tree_versioned(enum tree_kind k)
{
    return k != TK_DIR && k != TK_OTHER && k != TK_CONFIG && k != TK_MISSING;
}

/* What a member number of an animation's family (inodes.h) stands for:
 * its error.txt, its folders of views (frames/, joints/, tracks/, in the
 * order of enum rtm_view_kind), and its views in rtm_view_at() order. */
enum { MEMBER_ERROR = 1, MEMBER_FOLDERS = 2, MEMBER_VIEWS = 5 };
static inline uint64_t tree_folder_member(enum rtm_view_kind kind)
{
    return MEMBER_FOLDERS + (uint64_t)(kind - RTM_VIEW_FRAME);
}
/* states.txt is the family's last possible member: no view's number
 * moves, and the views' numbers stay contiguous (tree_stale tells them as
 * one run, which states.txt, of the configs, is not part of). */
#define MEMBER_STATES (RTM_INO_MEMBERS - 1)
/* The inverse: the kind of folder member k is; -1 when it is no folder. */
static inline int tree_member_folder(uint64_t k, enum rtm_view_kind *kind)
{
    if (k < MEMBER_FOLDERS || k >= MEMBER_VIEWS)
        return -1;
    *kind = (enum rtm_view_kind)(RTM_VIEW_FRAME + (k - MEMBER_FOLDERS));
    return 0;
}

/* ---- families (tree_family.c) ---- */

/* What a family's head keeps (inodes.h's aux): enough to resolve it and
 * its members without looking at SOURCE, their version being pinned. */
struct tree_head {
    uint32_t srclen;              /* the source file's part of the head's path:
                                     all of it, or the archive's */
    int32_t entry;                /* the archive's entry, or -1 */
    uint32_t mode, uid, gid;      /* of the source file (or archive) */
    uint32_t pad;
    int64_t atime_sec, atime_nsec;
};
_Static_assert(sizeof(struct tree_head) == RTM_INO_AUX, "a head's aux is a tree_head");

/* What a head keeps of source file src (stat st; entry: the archive's
 * entry, or -1), into *hi. */
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
/* Points tg (an animation's, its entry loaded) at its member k: 0, or -1
 * when k is no view or folder of it. */
int tree_aim_at_member(struct tree_target *tg, uint64_t k);

/* ---- what a path shows (tree_resolve.c) ---- */

/* Whether name (len bytes) is an animation's: ends in .rtm, any case. */
int tree_is_rtm_name(const char *name, size_t len);
/* Sets tg's kind (and version, unless pinned) from a classification of
 * tg->src. */
int tree_classify_target(struct rtm_tree *t, struct tree_target *tg);
/* Resolves a mount path; id is the version the kernel's inode names
 * (RTM_FILEID_NONE: whatever is current).  On success put tg with
 * tree_target_done; on failure it holds nothing. */
int tree_resolve(struct rtm_tree *t, const char *path, const struct rtm_fileid *id,
                 struct tree_target *tg);
/* The same for a path of the normal mount (SOURCE's own tree), whatever
 * the tree shows. */
int tree_resolve_source(struct rtm_tree *t, const char *path, const struct rtm_fileid *id,
                        struct tree_target *tg);
/* The same for the path and version of inode ino (path: PATH_MAX bytes). */
int tree_resolve_ino(struct rtm_tree *t, uint64_t ino, char path[PATH_MAX],
                     struct tree_target *tg);
/* The path of folder ino and its version; a folder of views is named
 * without its animation.  -ENOTDIR for a view. */
int tree_dir_path(struct rtm_tree *t, uint64_t ino, char path[PATH_MAX], struct rtm_fileid *id);
/* Puts what tg holds (its entries in the cache). */
void tree_target_done(struct rtm_tree *t, struct tree_target *tg);
/* Resolves tg->rest, a path inside the animation folder tg: its error.txt,
 * a view, a folder of views or a file in one.  -ENOENT when it names none. */
int tree_resolve_inner(struct rtm_tree *t, struct tree_target *tg);
/* Resolves inner, a path inside archive tg (its table loaded into
 * tg->table): the archive's own folder, pbo.txt, error.txt, a folder of it,
 * an animation (tg then an anim's) or another entry. */
int tree_resolve_archive(struct rtm_tree *t, struct tree_target *tg, const char *inner);
/* The cache entry of kind for key (tg->src, or an entry's key) of tg's
 * version: the pinned one, or else the current one, following the file if
 * it changes while it is read. */
int tree_get_entry(struct rtm_tree *t, struct tree_target *tg, const char *key,
                   enum rtmc_kind kind, struct rtmc_entry **h);
/* Gets the animation tg names (a file, or an archive's entry) into tg->h,
 * at tg->level. */
int tree_load_anim(struct rtm_tree *t, struct tree_target *tg);

/* ---- tree_modelcfg.c: the model.cfg beside an animation ---- */

/* The salt (fileid.h) of the version of the loose animation at name
 * (relative to dfd): its folder's model.cfg's, 0 without one or under an
 * explicit -o skeleton=. */
uint64_t tree_modelcfg_salt(struct rtm_tree *t, int dfd, const char *name);
/* A model.cfg in dir changed: the animations beside it are new versions
 * (parent: dir's number, or 0). */
void tree_modelcfg_changed(struct rtm_tree *t, const char *dir, uint64_t parent,
                           const struct rtm_tree_notify *n);
int tree_is_model_cfg(const char *name);
/* The cache key of archive entry tg->entry. */
void tree_member_key(const struct tree_target *tg, char key[RTM_KEY_MAX]);
/* How many entries folder dir of archive tg->table shows at any depth below
 * it (animations, or every entry with show_other), and the newest of their
 * times into *newest (if not NULL). */
size_t tree_archive_below(struct rtm_tree *t, const struct tree_target *tg, const char *dir,
                          struct timespec *newest);
/* Archive entry entry's stored time when it has one (seconds since 1970),
 * else the archive's. */
struct timespec tree_entry_time(const struct tree_target *tg, long entry);
static inline struct timespec tree_later(struct timespec a, struct timespec b)
{
    return a.tv_sec > b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec > b.tv_nsec) ? a : b;
}

/* ---- rapified configs (tree_config.c) ---- */

/* Under show_other, unless -o rapified=raw, a file or archive entry that
 * cfg_is_candidate_name() takes and whose first four bytes are rapified
 * (no other is opened) shows as its text.  A config.bin shows as
 * config.cpp (the letters of "bin" turned into "cpp" keeping their case),
 * or as config.bin.cpp when the folder holds a config.cpp, or under its
 * own name when it holds that too: a shown name is never one the folder
 * holds, so a lookup of a name that is there never means a config.bin.
 * Other configs keep their names.  Lookups and listings both ask these. */
int tree_config_on(const struct rtm_tree *t);
/* A folder, to ask whether a name is in it: a source folder (dfd, with
 * dir its path from dfd, "" for dfd itself), or one of archive p. */
struct tree_folder {
    int dfd;
    const char *dir;
    const struct pbo *p;
};
/* The name a rapified config named name shows as in folder f. */
void tree_config_shown(const struct tree_folder *f, const char *name, char out[NAME_MAX + 1]);
/* Whether source file name of folder dfd shows as text: a candidate by its
 * name (the last part) whose first bytes are rapified (1), or not (0); a
 * negative errno when those bytes could not be read. */
int tree_config_sniff_file(const struct rtm_tree *t, int dfd, const char *name);
/* After tree_classify_target of path gave rc: a config shown under
 * another name is -ENOENT under its own, and a missing path may be such
 * a name (tg is then that config).  rc, or what the config rule says. */
int tree_config_loose(struct rtm_tree *t, const char *path, struct tree_target *tg, int rc);
/* inner (a path in archive tg) is a file (node PBO_FILE, entry tg->entry)
 * or nothing (PBO_NONE): its kind, TK_PFILE or TK_PCONFIG, in tg, or
 * -ENOENT when no entry shows under that name. */
int tree_config_entry(struct rtm_tree *t, struct tree_target *tg, const char *inner,
                      enum pbo_node node);
/* The name entry (named name, in folder tg->rest of archive tg) shows as. */
void tree_config_entry_name(struct rtm_tree *t, const struct tree_target *tg, long entry,
                            const char *name, char out[NAME_MAX + 1]);
/* The source names whose shown names change with name's presence (name
 * included), when it is a config.bin or a name one shows as; how many. */
int tree_config_related(const char *name, char out[3][NAME_MAX + 1]);
/* The text of config tg: text and len, held by h (from the cache; put it
 * with tree_config_text_put), or, for a config that cannot be read, the
 * comment that says why, in tmp. */
struct tree_config_text {
    struct rtmc_entry *h;
    const char *text;
    size_t len;
    char tmp[1024];
};
int tree_config_text(struct rtm_tree *t, struct tree_target *tg, struct tree_config_text *ct);
void tree_config_text_put(struct rtm_tree *t, struct tree_config_text *ct);

/* ---- config states (tree_states.c) ---- */

/* The mount's table of config states and what goes with it (t->states):
 * tree_states.c keeps it up to date under lock, tree_states_walk.c builds
 * it. */
struct tree_states {
    pthread_mutex_t lock;
    struct rtm_states *table;   /* NULL until first needed */
    atomic_int dirty;           /* SOURCE changed since it was built */
    /* every states.txt's time, at least: the newest config or archive
     * read, or when it was built again after a change (an include or a
     * config gone may change lines without a newer file) */
    struct timespec time;
    /* missing.txt's: the game paths present, built with the table or at
     * its first need; any change in SOURCE (an animation too) makes it
     * built again */
    struct rtm_gamepaths *present;
    atomic_int present_dirty;
    struct timespec present_time;
    atomic_ulong parsed, remembered;    /* configs read; tables the index gave */
    char *gen;                  /* the table's generation in the index, or NULL */
};

/* The table's life: -1 out of memory. */
int tree_states_new(struct rtm_tree *t);
void tree_states_free(struct rtm_tree *t);
/* Entry name (NULL: a folder itself) of SOURCE changed: unless it is an
 * animation, the table is built again at the next need. */
void tree_states_changed(struct rtm_tree *t, const char *name);
/* states.txt of animation tg into b (initialised here), and its time (the
 * animation's, or when the table was built if later) into *when: 0, or
 * -ENOMEM.  Builds the table first when it is not (or no longer) up to
 * date, unless -o configs=none. */
int tree_states_text(struct rtm_tree *t, const struct tree_target *tg, struct rtm_buf *b,
                     struct timespec *when);
/* missing.txt into b (initialised here; empty with -o configs=none), its
 * time into *when (kept when later, else the table's or the game paths'):
 * 0, or -ENOMEM.  Builds the table, and the game paths present (anew
 * after any change in SOURCE), when they are not up to date. */
int tree_states_missing(struct rtm_tree *t, struct rtm_buf *b, struct timespec *when);

/* How the states table was got: configs read (parsed), tables the
 * persistent index gave (no config read). */
void tree_states_counts(struct rtm_tree *t, uint64_t *parsed, uint64_t *remembered);

/* ---- finding and reading the configs (tree_states_walk.c) ---- */

/* Every config under SOURCE (or an archive SOURCE is), as a finished
 * table, from the persistent index when it has this generation of them
 * (t->states->gen, the counters and the index's record follow); the
 * newest of their times into *newest; the game paths present into
 * *present (NULL when the index gave the table, or memory ran out: built
 * at its need).  A table of no states when there are no configs; NULL
 * out of memory. */
struct rtm_states *tree_states_build(struct rtm_tree *t, struct timespec *newest,
                                     struct rtm_gamepaths **present);
/* The game paths present (missing.txt), without reading a config; the
 * newest time of the archives and configs met into *newest.  NULL out of
 * memory. */
struct rtm_gamepaths *tree_states_build_present(struct rtm_tree *t, struct timespec *newest);

/* ---- the states table in the persistent index (tree_states_index.c) ---- */

/* What the generation holds of an archive or config at path (from the
 * walk's root), of stat st: a malloc'd line, or NULL. */
char *tree_states_gen_entry(const char *path, const struct stat *st);
/* The generation of a table: the walk's root and the n entries (sorted
 * here), as one malloc'd string, or NULL. */
char *tree_states_gen(const char *root, char **entries, size_t n);
/* The table the index remembers for generation gen, finished, into *out:
 * 0, or -1 (not known, or not readable). */
int tree_states_recall(struct rtm_index *ix, const char *gen, struct rtm_states **out);
/* Remembers finished table s for generation gen (queued: index.h). */
void tree_states_remember(struct rtm_index *ix, const char *gen, const struct rtm_states *s);
/* The record's value of table s for gen into out (initialised here): 0,
 * or -1 (out of memory, or too big).  And back: the finished table the
 * value val (len bytes) holds for gen into *out: 0, or -1 when the bytes
 * are of another generation or do not read (every length checked). */
int tree_states_pack(const char *gen, const struct rtm_states *s, struct rtm_buf *out);
int tree_states_unpack(const void *val, size_t len, const char *gen, struct rtm_states **out);
/* Drops generation gen's record (a mount that saw it replaced). */
void tree_states_forget(struct rtm_index *ix, const char *gen);

/* ---- missing.txt at the root (tree_missing.c) ---- */

/* The root shows missing.txt when it is a folder or an archive (not an
 * animation's folder, nor the error of a SOURCE file gone), unless SOURCE
 * shows an entry of that name there: what SOURCE holds wins, and the
 * mount's file is then not shown (rtmfs(1)).  root: the root, resolved. */
int tree_missing_at_root(const struct tree_target *root);
/* After tree_resolve of path gave rc (tg holds what it resolved): the
 * root's missing.txt, when path names it and SOURCE did not (tg then is
 * it).  rc, or what the rule says. */
int tree_missing_resolve(struct rtm_tree *t, const char *path, struct tree_target *tg, int rc);
/* The text of a view of the configs, states.txt or missing.txt (tg), into
 * b, and its time into *when: as tree_states_text. */
int tree_configs_text(struct rtm_tree *t, const struct tree_target *tg, struct rtm_buf *b,
                      struct timespec *when);

/* Whether view tg follows the configs: preview.svg or anim.bvh, unless -o
 * configs=none or timing=frames. */
int tree_states_follow(const struct rtm_tree *t, const struct tree_target *tg);
/* The timing (timing.h) of view tg, whose anim entry tg->h is loaded (any
 * level), into tm: the empty generation unless it follows the configs;
 * then the states that name its game path decide it (none without a game
 * path: no state plays it), and *when (if not NULL) becomes the table's
 * time if later.  Builds the table as tree_states_text does, or with
 * ready set returns -EAGAIN instead (tm then the empty generation);
 * -ENOMEM when memory ran out building it or finding the game path. */
struct rtm_timing;
int tree_states_timing(struct rtm_tree *t, const struct tree_target *tg, int ready,
                       struct rtm_timing *tm, struct timespec *when);

/* ---- views' bytes and sizes (tree_read.c) ---- */

/* The size of view tg (TK_VIEW) under its timing, and its time into *when
 * (the anim's, or the configs' when they time it); 0 or a negative errno. */
int tree_view_size(struct rtm_tree *t, struct tree_target *tg, uint64_t *size,
                   struct timespec *when);
/* The same when known without parsing, rendering or reading a config;
 * else -EAGAIN. */
int tree_view_size_known(struct rtm_tree *t, struct tree_target *tg, uint64_t *size);

/* ---- attributes, lookups, changes (tree.c) ---- */

/* pbo.txt of archive tg into b (initialised here): 0, or -1 out of memory. */
int tree_render_info(const struct tree_target *tg, struct rtm_buf *b);
/* The text of error.txt tg (no line end): tmp (n bytes) holds it when made
 * up here. */
const char *tree_error_text(const struct rtm_tree *t, const struct tree_target *tg, char *tmp,
                            size_t n);
/* A remembered size of tg (inode ino) was wrong: tells the stale hook
 * every view of its animation (their sizes came from one record). */
void tree_stale(struct rtm_tree *t, const struct tree_target *tg, uint64_t ino);
/* The inode table counts against the cache's budget. */
void tree_account(struct rtm_tree *t);

/* Whether an animation's family is resolved by its mount path, not by
 * what its head keeps: SOURCE is one file, or the tree shows game paths. */
static inline int tree_by_path(const struct rtm_tree *t) { return t->file || t->game; }

/* ---- listings (tree_list.c) ---- */

/* Frees the listings kept for enumerations in progress. */
void tree_listings_free(struct rtm_tree *t);
/* One more reference on listing d (put it with rtm_tree_listing_put). */
void tree_listing_ref(struct rtm_tree *t, struct rtm_dirlist *d);
/* Appends name, an entry of folder dir of version id, to listing d,
 * holding its number (a family's head keeping head, when not NULL). */
int tree_list_add(struct rtm_tree *t, struct rtm_dirlist *d, const char *dir, const char *name,
                  mode_t type, const struct rtm_fileid *id, const struct tree_head *head);

/* ---- sizing ahead of a walk (tree_ahead.c) ---- */

/* Its life: none without cfg.ahead threads, or when families are resolved
 * by path (tree_by_path); -1 out of memory.  Free it before what its
 * workers use (the states table, the inodes). */
int tree_ahead_new(struct rtm_tree *t);
void tree_ahead_free(struct rtm_tree *t);
/* Folder dir (not an animation's) was listed as d: its animations are the
 * ones to size ahead of a walk in it (a reference on d is kept while it
 * is one of the last folders listed: d holds their numbers). */
void tree_ahead_listed(struct rtm_tree *t, uint64_t dir, struct rtm_dirlist *d);
/* The folder of animation head was listed: a walk is there. */
void tree_ahead_at(struct rtm_tree *t, uint64_t head);
/* Whether a view of animation head is asked a size for the first time
 * since another animation's was (a walk stats many views of one in turn:
 * the first tells). */
int tree_ahead_new_head(struct rtm_tree *t, uint64_t head);
/* The first view of animation head was asked a size that needs a parse,
 * and missed (not known) or not: on a miss the animations listed after it
 * are sized ahead, and the next folder listed is too while the walk stats
 * views there. */
void tree_ahead_stat(struct rtm_tree *t, uint64_t head, int missed);

/* ---- game paths (tree_gamepaths.c) ---- */

/* The table's life (none without cfg.gamepaths): -1 out of memory. */
int tree_gamepaths_new(struct rtm_tree *t);
void tree_gamepaths_free(struct rtm_tree *t);
/* A game path into tg, as tree_resolve says: a made-up folder (TK_DIR of
 * SOURCE's root), conflicts.txt, the root's missing.txt (unless a source
 * shows a file of that name there: tree_missing_resolve), or what the
 * normal mount shows at the source's path of it (tree_resolve_source). */
int tree_gamepaths_resolve(struct rtm_tree *t, const char *path, const struct rtm_fileid *id,
                           struct tree_target *tg);
/* The listing of game folder path into d. */
int tree_gamepaths_list(struct rtm_tree *t, const char *path, struct rtm_dirlist *d);
/* conflicts.txt into b (initialised here): reads every archive's table. */
int tree_gamepaths_conflicts(struct rtm_tree *t, struct rtm_buf *b);
/* Something under SOURCE changed: the table is built again at the next
 * need, and the kernel forgets every answer. */
void tree_gamepaths_changed(struct rtm_tree *t, const struct rtm_tree_notify *n);

#endif
