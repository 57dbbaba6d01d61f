/* states.h - which config states play an animation, and how fast: the
 * lines of states.txt (rtmfs-views(7)), from configs already read.
 *
 * A state is a class C/States/S, for any root class C (CfgMovesMaleSdr,
 * CfgGesturesMale, a mod's own), whose `file`, found in S or through its
 * parents, is a string.  Its line says its class path and, each resolved
 * through `class A : B` by the game's rule (rtm(5), "Base classes": the
 * scope, what it inherits, then outwards; in S's config, then in the
 * other configs added, in path order), `speed` as written,
 * `duration_s` by the duration rule, `looped` as written and `config`, the
 * config's path as added.  Where a chain leaves the configs added (the
 * parent is the base game's), the value is `?` and `inherits=NAME` names
 * the class it would come from.
 *
 * `duration_s` follows timing.h's duration rule.
 *
 * Contract: a table owns the configs added to it: it keeps of each only
 * what resolving reads (its classes and their file, speed and looped) and
 * frees them once every line is made: when finished, or, for a table
 * whose lines come later (rtm_states_lines_later), by
 * rtm_states_lines_make.  Build it on one thread (add, then finish, then
 * make the lines if they come later); once its lines are made it is
 * read-only and may be rendered from several threads.  Game paths are
 * compared ASCII case-insensitively, '/' equal to '\', the leading '\'
 * optional.  Errors are values: -1 out of memory.
 */
#ifndef RTM_STATES_H
#define RTM_STATES_H

#include <stddef.h>

#include "config.h"
#include "timing.h"
#include "util.h"

struct rtm_states;

struct rtm_states *rtm_states_new(void);
void rtm_states_free(struct rtm_states *s);
/* Adds config c (the table owns it from now on, also on failure), read
 * from rel (what config= shows: a path relative to SOURCE).  0, or -1.
 * c may be NULL: a config whose lines are given (rtm_states_add_line),
 * as the persistent index remembers them; it plays no part in resolving. */
int rtm_states_add(struct rtm_states *s, struct cfg *c, const char *rel);
/* rtm_states_add in two halves, so that the costly one runs beside the
 * table's thread (a walk's readers, while it adds what they read).
 * rtm_states_prepare takes c (owned from now on, also on failure) and
 * makes what the table keeps of it: NULL when memory ran out.  It reads
 * of s only what rtm_states_check_later chose (call that first), so it
 * runs on any thread, beside any call on s but rtm_states_finish and
 * rtm_states_free.  rtm_states_add_prepared adds it, on s's thread, and
 * owns it from then on, also on failure (and p NULL: -1).  One never
 * added is freed by rtm_states_prepared_free. */
struct rtm_states_prepared;
struct rtm_states_prepared *rtm_states_prepare(const struct rtm_states *s, struct cfg *c,
                                               const char *rel);
int rtm_states_add_prepared(struct rtm_states *s, struct rtm_states_prepared *p);
void rtm_states_prepared_free(struct rtm_states_prepared *p);
/* Resolves the states of every config added, ordered by the config's
 * path, then in file order: the check's (states_check.h) and the skeleton
 * of each state (states_skeleton.h), and their lines unless they come
 * later.  0, or -1. */
int rtm_states_finish(struct rtm_states *s);
/* Called before rtm_states_finish, the lines come later: the table
 * finishes without them (two fifths of a finish's work), keeping the
 * configs and what looking up their states needs, and reads as holding
 * no line (rtm_states_nlines 0) until rtm_states_lines_make made them.
 * Its check and skeletons (states_check.h, states_skeleton.h) need no
 * line: a header's skeleton is known without them.  lines_make makes
 * them as finish would have (the same lines, in the same order), then
 * frees the configs: 0, at once when they are made (or never came
 * later), or -1 when memory ran out (or s is not finished): then none is
 * made and the table is as it was, to be asked again.  It writes the
 * table: not beside any other call on it.  Whether s's lines are made
 * (or never came later; s NULL: 1): */
void rtm_states_lines_later(struct rtm_states *s);
int rtm_states_lines_make(struct rtm_states *s);
int rtm_states_lines_ready(const struct rtm_states *s);
/* A table finishes with the root check.txt's findings (states_check.h)
 * unless this is called before its first config is added: then it keeps
 * of each config only what the lines and the skeleton each state's class
 * names need, and finishes without the other checks, about a third of
 * the time.  A header's skeleton needs no more; check.txt needs a table
 * built again with them.  Whether s was finished with them: */
void rtm_states_check_later(struct rtm_states *s);
int rtm_states_checked(const struct rtm_states *s);
/* How many configs were added, how many state lines were made (or
 * given), and how many states the configs hold (found when finished: the
 * lines they make, made or to come; 0 in a table given its lines). */
size_t rtm_states_nconfigs(const struct rtm_states *s);
size_t rtm_states_nlines(const struct rtm_states *s);
size_t rtm_states_nstates(const struct rtm_states *s);
/* The bytes the configs added hold until the table's lines are made. */
size_t rtm_states_config_bytes(const struct rtm_states *s);

/* states.txt of an animation of game path gp (normalised or not; NULL: it
 * has none), appended to b: its first line, then (s may be NULL: no
 * configs read) one line a state that names gp.  This, the lines and the
 * timing read a table whose lines are made (rtm_states_lines_ready). */
void rtm_states_render(const struct rtm_states *s, const char *gp, struct rtm_buf *b);

/* The key a game path is compared by: normalised (gamepath.h), ASCII
 * lowercase, into out: 0, or -1 when it is no game path (or too long). */
enum { RTM_STATES_KEY_MAX = 1024 };
int rtm_states_key(const char *gp, size_t len, char out[RTM_STATES_KEY_MAX]);

/* One state line as the table holds it (pointers into the table): the
 * key it is found by (the game path, normalised, lowercase), its text
 * (with its newline), the state's file as written, its speed as the
 * line writes it and whether that is a finite number (what timing.h
 * needs, kept apart so that a table the index gave times views as one
 * made from configs), its config's place in path order
 * (rtm_states_config) and its entry (file order). */
struct rtm_state_line {
    const char *key, *text, *file;
    const char *speed;                  /* as the line writes it */
    int speed_known;                    /* it is a finite number */
    size_t cfg;
    uint32_t entry;
};
/* Line i (< rtm_states_nlines) of a finished table whose lines are made,
 * in key order. */
void rtm_states_line(const struct rtm_states *s, size_t i, struct rtm_state_line *out);
/* Config ci's path as added (NULL past the last); once finished, ci is
 * its place in path order. */
const char *rtm_states_config(const struct rtm_states *s, size_t ci);
/* Appends a copy of line l to an unfinished table whose config l->cfg was
 * added without a model (NULL), in path order: 0, or -1 (no such config,
 * or memory).  Finishing sorts the lines as it sorts made ones. */
int rtm_states_add_line(struct rtm_states *s, const struct rtm_state_line *l);

/* The timing (timing.h) of an animation of game path gp (NULL: none) and
 * nframes frames, from the states that name gp, in states.txt's order,
 * each with its class path and its speed as its line writes it: none
 * names gp (or gp is NULL) gives the convention and its sentence; s NULL
 * (no configs read) the empty generation.  0, or -1 when memory ran out
 * (out is then the empty generation, which no caller may take for the
 * states' timing). */
int rtm_states_timing(const struct rtm_states *s, const char *gp, uint32_t nframes,
                       struct rtm_timing *out);

#endif
