/* tree_states.h - tier 2 of the tree (tree_int.h has the map): the
 * configs' machinery.  Which files and archive entries show as a config's
 * text, under which name, and that text (tree_config.c); the mount's table
 * of config states, found and read (tree_states_walk.c) and remembered in
 * the persistent index (tree_states_index.c), with what it gives:
 * states.txt, missing.txt's text and the timing of preview.svg and anim.bvh
 * (tree_states.c).  It uses tier 1 alone: it never resolves a path. */
#ifndef RTM_TREE_STATES_H
#define RTM_TREE_STATES_H

#include "tree_target.h"
#include "states_check.h"

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
/* A missing path (from SOURCE) may be the name a config shows as: the
 * path of the config that would (config.bin for config.cpp) into src, or
 * -ENOENT.  And whether the config at src shows as path (the same folder). */
int tree_config_alias(const struct rtm_tree *t, const char *path, char src[PATH_MAX]);
int tree_config_shown_as(const struct rtm_tree *t, const char *src, const char *path);
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
    /* missing.txt's: the game paths present, built at its first need;
     * any change in SOURCE (an animation too) makes it built again */
    struct rtm_gamepaths *present;
    atomic_int present_dirty;
    struct timespec present_time;
    atomic_ulong parsed, remembered;    /* configs read; tables the index gave */
    char *gen;                  /* the table's generation in the index, or NULL */
    char *unremembered;         /* the generation the index is to remember the
                                   table by once its lines are made, or NULL */
    /* the skeletons the table chose, as put in cfg.skels: one for each of
     * its skeletons and name (tree_states_skeleton) */
    struct chosen_skel {
        size_t at;
        char *name;
        uint64_t id;
    } *chosen;
    size_t nchosen, capchosen;
    atomic_int skeletons;       /* the table chose a skeleton for some file */
};

/* The table's life: -1 out of memory.  tree_states_end, when the mount
 * ends (before anything it uses is freed): a table the index is to
 * remember and has not yet (its lines not made) gets its lines and is
 * remembered now, unless SOURCE changed since it was built. */
int tree_states_new(struct rtm_tree *t);
void tree_states_end(struct rtm_tree *t);
void tree_states_free(struct rtm_tree *t);
/* Entry name (NULL: a folder itself) of SOURCE changed: unless it is an
 * animation, the table is built again at the next need. */
void tree_states_changed(struct rtm_tree *t, const char *name);
/* states.txt of animation tg into b (initialised here), and its time (the
 * animation's, or when the table was built if later) into *when: 0, or
 * -ENOMEM.  Builds the table first when it is not (or no longer) up to
 * date, unless -o configs=none, and makes its lines when they are not
 * (tree_states_build: they may come later). */
int tree_states_text(struct rtm_tree *t, const struct tree_target *tg, struct rtm_buf *b,
                     struct timespec *when);
/* Whether states.txt of animation tg is known without reading a config
 * (the table built and up to date, its lines made): its size then into
 * *size, 0; else -EAGAIN (or -ENOMEM). */
int tree_states_text_size_ready(struct rtm_tree *t, const struct tree_target *tg,
                                uint64_t *size);
/* missing.txt into b (initialised here; empty with -o configs=none), its
 * time into *when (kept when later, else the table's or the game paths'):
 * 0, or -ENOMEM.  Builds the table (and its lines), and the game paths
 * present (anew after any change in SOURCE), when they are not up to
 * date. */
int tree_states_missing(struct rtm_tree *t, struct rtm_buf *b, struct timespec *when);
/* The root's check.txt (states_check.h) into b, as tree_states_missing
 * makes missing.txt; the bones of each state's file come from bones,
 * given where the animation is in SOURCE (a path of SOURCE's own tree),
 * called with the states' lock held (it must not ask for the table).
 * It reads no line of the table: those that come later stay to come. */
typedef int tree_bones_fn(void *ctx, const char *where, rtm_states_bones_visit *visit,
                          void *vctx);
int tree_states_check(struct rtm_tree *t, struct rtm_buf *b, struct timespec *when,
                      tree_bones_fn *bones, void *ctx);

/* How the states table was got: configs read (parsed), tables the
 * persistent index gave (no config read). */
void tree_states_counts(struct rtm_tree *t, uint64_t *parsed, uint64_t *remembered);

/* ---- finding and reading the configs (tree_states_walk.c, _read.c) ---- */

/* Every config under SOURCE (or an archive SOURCE is), as a finished
 * table, from the persistent index when it has this generation of them
 * (t->states->gen, the counters and the index's record follow), its
 * states.txt lines made only when the index gave or remembers it (else
 * they come later: the caller makes them at their first need,
 * rtm_states_lines_make, under the lock it reads the table with); the
 * newest of their times into *newest.  The archives are read on a few
 * threads (tree_states_each), all joined before it returns.  A table of
 * no states when there are no configs; NULL out of memory.  The game
 * paths present are left to tree_states_build_present.  With checked,
 * the table holds the root check.txt's findings; without, it is finished
 * without them (rtm_states_check_later), as everything but check.txt
 * needs. */
struct rtm_states *tree_states_build(struct rtm_tree *t, int checked, struct timespec *newest);
/* The game paths present (missing.txt, check.txt), without reading a
 * config; the newest time of the archives and configs met into *newest.
 * NULL out of memory.  Reads the archives as tree_states_build does. */
struct rtm_gamepaths *tree_states_build_present(struct rtm_tree *t, struct timespec *newest);

/* ---- one job an item, on a few threads (tree_states_each.c) ---- */

/* Calls fn(ctx, i) once for every i below n, on up to nthreads threads
 * (the caller's among them unless then is given: when no other starts,
 * all on it), in no set order; and then(ctx, i), when not NULL, on the
 * caller's thread in the order of i, each once fn(ctx, i) has returned
 * (while later items are still being done).  Returns once every call has
 * returned and every thread started is joined.  fn must be safe to call
 * from several threads at once on different i, and beside then on an
 * earlier one. */
typedef void tree_each_fn(void *ctx, size_t i);
void tree_states_each(size_t n, unsigned nthreads, tree_each_fn *fn, tree_each_fn *then,
                      void *ctx);

/* ---- the states table in the persistent index (tree_states_index.c) ---- */

/* What the generation holds of an archive or config at path (from the
 * walk's root), of stat st: a malloc'd line, or NULL. */
char *tree_states_gen_entry(const char *path, const struct stat *st);
/* The generation of a table: the walk's root and the n entries (sorted
 * here), as one malloc'd string, or NULL. */
char *tree_states_gen(const char *root, char **entries, size_t n);
/* The table the index remembers for generation gen, finished, into *out:
 * 0, or -1 (not known, or not readable). */
int tree_states_recall(const struct rtm_store *ix, const char *gen, struct rtm_states **out);
/* Remembers finished table s for generation gen (queued: index.h). */
void tree_states_remember(const struct rtm_store *ix, const char *gen, const struct rtm_states *s);
/* The record's value of table s for gen into out (initialised here): 0,
 * or -1 (out of memory, or too big).  And back: the finished table the
 * value val (len bytes) holds for gen into *out: 0, or -1 when the bytes
 * are of another generation or do not read (every length checked). */
int tree_states_pack(const char *gen, const struct rtm_states *s, struct rtm_buf *out);
int tree_states_unpack(const void *val, size_t len, const char *gen, struct rtm_states **out);
/* Drops generation gen's record (a mount that saw it replaced). */
void tree_states_forget(const struct rtm_store *ix, const char *gen);

/* Whether view v follows the configs: preview.svg or anim.bvh, unless -o
 * configs=none or timing=frames. */
int tree_states_follow(const struct rtm_tree *t, struct rtm_view v);
/* The timing (timing.h) of view tg, whose anim entry tg->h is loaded (any
 * level), into tm: the empty generation unless it follows the configs;
 * then the states that name its game path decide it (none without a game
 * path: no state plays it), and *when (if not NULL) becomes the table's
 * time if later.  Builds the table as tree_states_text does (and makes
 * its lines), or with ready set returns -EAGAIN instead (tm then the
 * empty generation), also when its lines are not made yet;
 * -ENOMEM when memory ran out building it or finding the game path. */
struct rtm_timing;
int tree_states_timing(struct rtm_tree *t, const struct tree_target *tg, int ready,
                       struct rtm_timing *tm, struct timespec *when);

/* The skeleton the configs chose for animation tg (its anim entry tg->h
 * loaded, at any level) into *id, as put in cfg.skels (0: none chose one,
 * or the step is off: cfg.skels NULL, -o configs=none, or a BVH, whose
 * bones are the skeleton's and named by its listing); *when (if not
 * NULL) becomes the table's time if later and one was chosen.  Builds the
 * table as tree_states_timing does (ready: -EAGAIN instead); -ENOMEM. */
int tree_states_skeleton(struct rtm_tree *t, const struct tree_target *tg, int ready,
                         uint64_t *id, struct timespec *when);
/* Whether the configs may choose a skeleton for some file: the step is on
 * and the table is not built yet, or chose one. */
int tree_states_may_choose(struct rtm_tree *t);
/* Whether the configs do choose a skeleton for some file, building the
 * table when it is not (1 when that fails: not known).  A view that needs
 * a whole parse is then parsed once its skeleton is known, from a shape,
 * not whole with the mount's skeleton first and again with theirs. */
int tree_states_chose_any(struct rtm_tree *t);

#endif
