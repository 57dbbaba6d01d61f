/* tree_states_walk.h - what the two halves of the configs' walk share,
 * private to them: tree_states_walk.c finds the configs and archives under
 * SOURCE (or -o configs=), tree_states_read.c reads them into the table.
 * Tier 2 of the tree (tree_int.h); nothing else includes it. */
#ifndef RTM_TREE_STATES_WALK_H
#define RTM_TREE_STATES_WALK_H

#include <limits.h>
#include <time.h>

#include "cfg_pp.h"
#include "states.h"
#include "states_missing.h"
#include "tree_states.h"

enum { GP_MAX = RTM_STATES_KEY_MAX };

/* A $PBOPREFIX$ folder met by the walk. */
struct prefix {
    char *gp;                   /* normalised */
    char *dir;                  /* absolute */
    size_t rel_len;             /* of the folder's path from the walk's root */
};

/* One walk: what it found, and what reading it gave. */
struct walk {
    struct rtm_tree *t;
    int rootfd;                 /* the folder paths are relative to */
    char root[PATH_MAX];        /* that folder, absolute */
    struct prefix *pre;
    size_t npre, cappre;
    char **loose;               /* configs below a $PBOPREFIX$, from SOURCE */
    size_t nloose, caploose;
    char **pbos;                /* archives, from SOURCE */
    size_t npbos, cappbos;
    struct timespec newest;     /* of those configs and archives */
    struct rtm_gamepaths *present;  /* or NULL: game paths of the animations
                                       and prefixes met (missing.txt) */
    char **gen;                 /* each archive's and config's path and
                                   version: the generation (tree_states_index.c) */
    size_t ngen, capgen;
    int gen_lost;               /* memory ran out making it */
    int oom;                    /* memory ran out walking or reading: what
                                   was left out is not known to be absent,
                                   so nothing made of the walk is kept */
    int unkeyed;                /* configs read whose result the generation
                                   does not key: text that looked for an
                                   include on disk or asked the time */
    struct cfg_pp_counts left;  /* what their preprocessing left as written */
};

/* tree_states_read.c: what w was walking or reading failed (out of memory
 * taints the walk); a game path into w->present (where: the animation's
 * path in SOURCE; NULL for a prefix); whether name is a config the walk
 * reads (config.bin, config.cpp, model.cfg: any case, by the configs'
 * rule, rtmfs-views(7)). */
void tree_walk_failed(struct walk *w, int oom);
void tree_walk_present(struct walk *w, const char *where, const char *gp, size_t len);
int tree_walk_is_config(const char *name);

/* And the config at rel (below a $PBOPREFIX$) into s; every
 * archive the walk found, read on a few threads and added in the walk's
 * order, their configs into s unless it is NULL, their game paths into
 * w->present. */
void tree_walk_read_loose(struct walk *w, struct rtm_states *s, const char *rel);
void tree_walk_read_archives(struct walk *w, struct rtm_states *s);

#endif
