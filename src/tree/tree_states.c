/* tree_states.c - the mount's table of config states (states.h) and what
 * is made of it: each animation's states.txt, the root's missing.txt and
 * check.txt, and the timing of preview.svg and anim.bvh; when the configs are read, and
 * the game path of an animation.  Tier 2 of the tree (tree_states.h);
 * the configs are found and read in tree_states_walk.c.
 *
 * The table is built the first time a
 * states.txt is asked for (stat or read), never at mount time, and built
 * again at the next need after SOURCE changed anything but an animation
 * (rtm_tree_changed): the text is never kept anywhere else, so nothing
 * older than the table is ever served.  preview.svg and anim.bvh take
 * their timing (timing.h) from the same table, at the same times.  The
 * root check.txt's findings cost more than all the rest of the table: a
 * table is built without them until check.txt asks (table_up_to_date).
 * Every table is built without its lines too (tree_states_build):
 * states.txt, missing.txt and the timing make them at the first of their
 * needs (table_lines), under ts->lock as every read of the table, so no
 * reader ever sees a table half made; a header's skeleton and check.txt
 * read none.  A table the index is to remember is written then, or when
 * the mount ends (tree_states_end). */
#include "tree_states.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "array.h"
#include "format_table.h"
#include "gamepath.h"
#include "states.h"
#include "states_check.h"
#include "states_missing.h"
#include "states_skeleton.h"
#include "skelreg.h"
#include "timing.h"

enum { GP_MAX = RTM_STATES_KEY_MAX };

int tree_states_new(struct rtm_tree *t)
{
    if (!(t->states = calloc(1, sizeof *t->states)))
        return -ENOMEM;
    pthread_mutex_init(&t->states->lock, NULL);
    return 0;
}

static void chosen_free(struct tree_states *ts)
{
    for (size_t i = 0; i < ts->nchosen; i++)
        free(ts->chosen[i].name);
    ts->nchosen = 0;
}

static int lines_locked(struct rtm_tree *t);

void tree_states_end(struct rtm_tree *t)
{
    struct tree_states *ts = t->states;
    if (!ts)
        return;
    pthread_mutex_lock(&ts->lock);
    if (ts->table && ts->unremembered && !atomic_load(&ts->dirty))
        lines_locked(t);                /* and remembered: out of memory, not */
    pthread_mutex_unlock(&ts->lock);
}

void tree_states_free(struct rtm_tree *t)
{
    if (!t->states)
        return;
    rtm_states_free(t->states->table);
    rtm_gamepaths_free(t->states->present);
    free(t->states->gen);
    free(t->states->unremembered);
    chosen_free(t->states);
    free(t->states->chosen);
    pthread_mutex_destroy(&t->states->lock);
    free(t->states);
    t->states = NULL;
}

void tree_states_changed(struct rtm_tree *t, const char *name)
{
    /* an animation changes its own views only; anything else may be a
     * config, an include, an archive or a folder holding them */
    if (t->states && !(name && tree_is_anim_name(name, strlen(name))))
        atomic_store(&t->states->dirty, 1);
    if (t->states)                      /* animations are what missing.txt looks for */
        atomic_store(&t->states->present_dirty, 1);
}


/* ---- states.txt ---- */

/* The game path of animation tg into out: 0, -ENOENT when it has none, or
 * -ENOMEM when memory ran out finding it (which says nothing of it). */
static int anim_gamepath(struct rtm_tree *t, const struct tree_target *tg, char *out, size_t n)
{
    char path[PATH_MAX + 64], gp[GP_MAX];
    if (tg->entry >= 0) {
        const struct pbo *p = rtmc_pbo(tg->table);
        if (!p || gamepath_archive(p, tg->src, gp, sizeof gp))
            return -ENOENT;
        int k = snprintf(path, sizeof path, "%s\\%s", gp, p->entries[tg->entry].path);
        return k < 0 || (size_t)k >= sizeof path || gamepath_norm(path, (size_t)k, out, n) < 0
                   ? -ENOENT : 0;
    }
    snprintf(path, sizeof path, "/proc/self/fd/%d/%s", t->cfg.srcfd, tg->src);
    if (gamepath_loose(path, out, n, NULL, 0) == 0)
        return 0;
    return errno == ENOMEM ? -ENOMEM : -ENOENT;
}

/* Builds the table when it is not, or no longer, up to date, or when
 * checked asks for the root check.txt's findings and it was built without
 * them (every other text is made before them: a first header.txt does
 * not wait for the check); ts->lock held.  Unless -o configs=none.  (The
 * game paths present are built at their own need: root_text_begin.)
 * A table built again only for its check keeps its time: its lines, and
 * so every states.txt, are the same. */
static void table_up_to_date(struct rtm_tree *t, struct tree_states *ts, int checked)
{
    int dirty = atomic_exchange(&ts->dirty, 0);
    if (t->cfg.configs_none ||
        (ts->table && !dirty && (!checked || rtm_states_checked(ts->table))))
        return;
    struct timespec now = { 0, 0 }, kept = ts->time;
    if (ts->table && dirty)
        clock_gettime(CLOCK_REALTIME, &now);
    int again = ts->table && !dirty;
    rtm_states_free(ts->table);
    free(ts->unremembered);             /* the table it was of is gone */
    ts->unremembered = NULL;
    chosen_free(ts);                    /* the table's skeletons go with it */
    atomic_store(&ts->skeletons, 0);
    ts->table = tree_states_build(t, checked, &ts->time);
    ts->time = again ? kept : tree_later(ts->time, now);
}

/* The table, built first when it is not (or no longer) up to date
 * (ts->lock held); NULL with -o configs=none.  ready: -EAGAIN instead of
 * a build (*rc); -ENOMEM when memory ran out building it. */
static const struct rtm_states *table_locked(struct rtm_tree *t, int ready, int *rc)
{
    struct tree_states *ts = t->states;
    *rc = 0;
    if (t->cfg.configs_none)
        return NULL;
    if (ready && (!ts->table || atomic_load(&ts->dirty))) {
        *rc = -EAGAIN;
        return NULL;
    }
    table_up_to_date(t, ts, 0);
    if (!ts->table)
        *rc = -ENOMEM;                  /* nothing kept: built again next time */
    return ts->table;
}

/* The table, its lines made, to the index when it is to remember it
 * (ts->unremembered, its generation: the tree's from now on); a
 * generation this mount remembered before is dropped: SOURCE left it. */
static void remember(struct rtm_tree *t)
{
    struct tree_states *ts = t->states;
    const struct rtm_store *ix = tree_store(t);
    if (!ts->unremembered)
        return;
    if (ix) {
        if (ts->gen && strcmp(ts->gen, ts->unremembered))
            tree_states_forget(ix, ts->gen);
        tree_states_remember(ix, ts->unremembered, ts->table);
    }
    free(ts->gen);
    ts->gen = ts->unremembered;
    ts->unremembered = NULL;
}

/* Makes the lines of the table (ts->lock held) when they came later
 * (tree_states_build), counted, and remembers it if it is to be: 0, or
 * -ENOMEM (none made: the table stays, its lines made at the next
 * need). */
static int lines_locked(struct rtm_tree *t)
{
    struct rtm_states *s = t->states->table;
    if (rtm_states_lines_ready(s))
        return 0;
    if (rtm_states_lines_make(s))
        return -ENOMEM;
    rtm_work_add(t->cfg.work, RTM_WORK_STATES_LINES, rtm_states_nlines(s));
    rtmc_trim(t->cfg.cache);            /* the configs kept for them are freed */
    remember(t);
    return 0;
}

/* table_locked, with the lines made (a table whose lines are not counts
 * as not built for ready: -EAGAIN). */
static const struct rtm_states *table_lines(struct rtm_tree *t, int ready, int *rc)
{
    const struct rtm_states *table = table_locked(t, ready, rc);
    if (*rc || !table)
        return table;
    if (ready && !rtm_states_lines_ready(table))
        *rc = -EAGAIN;
    else
        *rc = lines_locked(t);
    return *rc ? NULL : table;
}

/* Ends a text made under ts->lock: 0, or -ENOMEM. */
static int text_done(struct tree_states *ts, struct rtm_buf *b)
{
    pthread_mutex_unlock(&ts->lock);
    if (b->oom) {
        rtm_buf_free(b);
        return -ENOMEM;
    }
    return 0;
}

/* tree_states_text, or with ready only from a table there already
 * (-EAGAIN instead of building it or making its lines). */
static int states_text(struct rtm_tree *t, const struct tree_target *tg, int ready,
                       struct rtm_buf *b, struct timespec *when)
{
    char gp[GP_MAX];
    int found = anim_gamepath(t, tg, gp, sizeof gp), rc;
    struct tree_states *ts = t->states;
    rtm_buf_init(b);
    *when = tg->st.st_mtim;
    if (found == -ENOMEM)
        return -ENOMEM;
    pthread_mutex_lock(&ts->lock);
    const struct rtm_states *table = table_lines(t, ready, &rc);
    if (table)
        *when = tree_later(*when, ts->time);
    if (rc) {
        pthread_mutex_unlock(&ts->lock);
        return rc;
    }
    rtm_states_render(table, found == 0 ? gp : NULL, b);
    return text_done(ts, b);
}

int tree_states_text(struct rtm_tree *t, const struct tree_target *tg, struct rtm_buf *b,
                     struct timespec *when)
{
    return states_text(t, tg, 0, b, when);
}

int tree_states_text_size_ready(struct rtm_tree *t, const struct tree_target *tg,
                                uint64_t *size)
{
    struct rtm_buf b;
    struct timespec when;
    int rc = states_text(t, tg, 1, &b, &when);
    *size = b.len;
    rtm_buf_free(&b);
    return rc;
}

void tree_states_counts(struct rtm_tree *t, uint64_t *parsed, uint64_t *remembered)
{
    *parsed = atomic_load(&t->states->parsed);
    *remembered = atomic_load(&t->states->remembered);
}

/* ---- missing.txt ---- */

/* Takes ts->lock with the table (checked: with the check's findings)
 * and the game paths present up to date, for a text of the root
 * (missing.txt, check.txt): 0, or -ENOMEM (the lock released). */
static int root_text_begin(struct rtm_tree *t, int checked, struct rtm_buf *b,
                           struct timespec *when)
{
    struct tree_states *ts = t->states;
    rtm_buf_init(b);
    pthread_mutex_lock(&ts->lock);
    table_up_to_date(t, ts, checked);
    if (!t->cfg.configs_none && (!ts->present || atomic_exchange(&ts->present_dirty, 0))) {
        struct timespec now = { 0, 0 };
        if (ts->present)                /* an animation came or went */
            clock_gettime(CLOCK_REALTIME, &now);
        rtm_gamepaths_free(ts->present);
        ts->present = tree_states_build_present(t, &ts->present_time);
        ts->present_time = tree_later(tree_later(ts->present_time, now), ts->time);
    }
    if (!t->cfg.configs_none && (!ts->table || !ts->present)) {
        pthread_mutex_unlock(&ts->lock);
        return -ENOMEM;                 /* nothing kept: built again next time */
    }
    if (ts->table)
        *when = tree_later(*when, ts->present_time);
    return 0;
}

int tree_states_missing(struct rtm_tree *t, struct rtm_buf *b, struct timespec *when)
{
    int rc = root_text_begin(t, 0, b, when);
    if (rc)
        return rc;
    if ((rc = lines_locked(t))) {
        pthread_mutex_unlock(&t->states->lock);
        return rc;
    }
    if (!t->cfg.configs_none)
        rtm_missing_render(t->states->table, t->states->present, b);
    return text_done(t->states, b);
}

/* ---- the root's check.txt ---- */

struct bones_by_key {
    const struct rtm_gamepaths *present;
    tree_bones_fn *bones;
    void *ctx;
};

static int bones_by_key(void *ctx, const char *key, rtm_states_bones_visit *visit, void *vctx)
{
    const struct bones_by_key *k = ctx;
    const char *where = rtm_gamepaths_where(k->present, key);
    return where && *where ? k->bones(k->ctx, where, visit, vctx) : -1;
}

int tree_states_check(struct rtm_tree *t, struct rtm_buf *b, struct timespec *when,
                      tree_bones_fn *bones, void *ctx)
{
    int rc = root_text_begin(t, 1, b, when);
    if (rc)
        return rc;
    struct bones_by_key k = { t->states->present, bones, ctx };
    if (!t->cfg.configs_none)
        rtm_states_check_render(t->states->table, bones_by_key, &k, b);
    return text_done(t->states, b);
}

/* ---- timing of preview.svg and anim.bvh ---- */

int tree_states_follow(const struct rtm_tree *t, struct rtm_view v)
{
    return rtm_view_timed(v.kind) && !t->cfg.configs_none && !t->cfg.timing_frames;
}

int tree_states_timing(struct rtm_tree *t, const struct tree_target *tg, int ready,
                       struct rtm_timing *tm, struct timespec *when)
{
    char gp[GP_MAX];
    const struct rtm_anim *a = tg->h ? rtmc_anim(tg->h) : NULL;
    int rc = 0;
    rtm_timing_alone(tm);               /* no configs read: the file alone */
    if (!tree_states_follow(t, tg->view) || !a)
        return 0;
    int found = anim_gamepath(t, tg, gp, sizeof gp);
    if (found) {
        rtm_timing_decide(NULL, 0, a->nframes, tm); /* no game path: no state plays it */
        return found == -ENOMEM ? -ENOMEM : 0;
    }
    pthread_mutex_lock(&t->states->lock);
    const struct rtm_states *table = table_lines(t, ready, &rc);
    if (rc == -ENOMEM) {
        pthread_mutex_unlock(&t->states->lock);
        return rc;
    }
    if (rtm_states_timing(table, gp, a->nframes, tm))
        rc = -ENOMEM;                   /* not the convention: a size would be wrong */
    if (when && table)
        *when = tree_later(*when, t->states->time);
    pthread_mutex_unlock(&t->states->lock);
    return rc;
}

/* ---- the skeleton the configs chose (the skeleton rule's third step) ---- */

int tree_states_may_choose(struct rtm_tree *t)
{
    struct tree_states *ts = t->states;
    if (!t->cfg.skels || t->cfg.configs_none)
        return 0;
    pthread_mutex_lock(&ts->lock);
    int maybe = !ts->table || atomic_load(&ts->dirty) || atomic_load(&ts->skeletons);
    pthread_mutex_unlock(&ts->lock);
    return maybe;
}

int tree_states_chose_any(struct rtm_tree *t)
{
    if (!tree_states_may_choose(t))
        return 0;
    int rc = 0;
    pthread_mutex_lock(&t->states->lock);
    int any = rtm_states_skeletons_any(table_locked(t, 0, &rc));
    pthread_mutex_unlock(&t->states->lock);
    return rc || any;
}

/* The name a chosen skeleton goes by (a->skeleton_name, header.txt): its
 * class, and the config and root class of the first state that plays
 * the file with it ("CONFIG: CLASS_PATH", cut after the root class). */
static void chosen_name(const struct rtm_states_skeleton *c, char *out, size_t n)
{
    const char *colon = strstr(c->where, ": ");
    const char *slash = colon ? strchr(colon + 2, '/') : NULL;
    int len = slash ? (int)(slash - c->where) : (int)strlen(c->where);
    snprintf(out, n, "%s (skeletonName of %.*s)", c->s->name, len, c->where);
}

/* The identity of c in cfg.skels, put there once a table (ts->lock held):
 * 0 when out of memory.  Its name is part of it. */
static uint64_t chosen_id(struct rtm_tree *t, const struct rtm_states_skeleton *c)
{
    struct tree_states *ts = t->states;
    char name[1200];
    chosen_name(c, name, sizeof name);
    for (size_t i = 0; i < ts->nchosen; i++)
        if (ts->chosen[i].at == c->at && strcmp(ts->chosen[i].name, name) == 0)
            return ts->chosen[i].id;
    uint64_t id = rtm_skelreg_put(t->cfg.skels, c->s, name);
    void *arr = ts->chosen;
    char *kept = id ? strdup(name) : NULL;
    if (!kept || rtm_array_grow(&arr, &ts->capchosen, ts->nchosen + 1, sizeof *ts->chosen, 8)) {
        free(kept);
        return id;                      /* found again next time */
    }
    ts->chosen = arr;
    ts->chosen[ts->nchosen++] = (struct chosen_skel){ c->at, kept, id };
    atomic_store(&ts->skeletons, 1);
    return id;
}

int tree_states_skeleton(struct rtm_tree *t, const struct tree_target *tg, int ready,
                         uint64_t *id, struct timespec *when)
{
    char gp[GP_MAX], key[RTM_STATES_KEY_MAX];
    const struct rtm_anim *a = tg->h ? rtmc_anim(tg->h) : NULL;
    struct rtm_states_skeleton c;
    int rc = 0;
    *id = 0;
    /* a BVH's bones are its skeleton's, which its listing names: the
     * mount's rule alone (rtm(5), BVH SOURCES; format_table.h) */
    if (!t->cfg.skels || t->cfg.configs_none || !a || rtm_format_of(a)->bones_are_skeletons)
        return 0;
    pthread_mutex_lock(&t->states->lock);     /* most installs: no skeleton found */
    int any = rtm_states_skeletons_any(table_locked(t, ready, &rc));
    pthread_mutex_unlock(&t->states->lock);
    if (rc || !any)
        return rc;
    int found = anim_gamepath(t, tg, gp, sizeof gp);
    if (found)
        return found == -ENOMEM ? -ENOMEM : 0;
    if (rtm_states_key(gp, strlen(gp), key))
        return 0;
    pthread_mutex_lock(&t->states->lock);
    const struct rtm_states *table = table_locked(t, ready, &rc);
    if (!rc && rtm_states_skeleton(table, key, a->bones, a->nbones, &c)) {
        if (!(*id = chosen_id(t, &c)))
            rc = -ENOMEM;
        else if (when)
            *when = tree_later(*when, t->states->time);
    }
    pthread_mutex_unlock(&t->states->lock);
    return rc;
}
