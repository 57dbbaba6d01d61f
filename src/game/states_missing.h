/* states_missing.h - missing.txt (rtmfs-views(7)): the config states whose
 * `file` names a game path that no animation under SOURCE has, which the
 * game reports as "Animation ... not found or empty".
 *
 * Input: a finished states table (states.h) whose lines are made
 * (rtm_states_lines_ready) and the game paths present (a
 * struct rtm_gamepaths: every animation's game path, and every prefix of
 * an archive or $PBOPREFIX$ folder under SOURCE).  Game paths are compared
 * as states.txt compares them (rtm_states_key: no case, '/' as '\', the
 * leading '\' optional).
 *
 * A line a missing state, ordered by its config's path, then file order:
 *
 *   CLASS_PATH file=FILE config=CONFIG (REASON)
 *
 * FILE as the config writes it (control characters as '?'), CONFIG as in
 * states.txt, REASON one of:
 *   - "prefix \P is under SOURCE, no animation at that path in it": the
 *     longest prefix under SOURCE that leads the file's game path;
 *   - "no archive or $PBOPREFIX$ folder under SOURCE has prefix \L": no
 *     prefix leads it; L is the shortest leading part of the file's
 *     folder, of two parts at least, that no prefix under SOURCE starts
 *     with (\a3\anims_f for the base game, \z\ace\addons\goggles for an
 *     ACE component whose siblings are there);
 *   - "no animation at that game path under SOURCE": a file at the top.
 * P and L are written as the file writes them, normalised.
 *
 * Contract: a set owns copies of what is added; build it on one thread
 * (add, then finish), then read it from any.  Errors are values: -1 out of
 * memory.  No global state.
 */
#ifndef RTM_STATES_MISSING_H
#define RTM_STATES_MISSING_H

#include "states.h"
#include "util.h"

struct rtm_gamepaths;

struct rtm_gamepaths *rtm_gamepaths_new(void);
void rtm_gamepaths_free(struct rtm_gamepaths *g);
/* An animation at game path gp (len bytes), where it is (a path of
 * SOURCE's own tree, which the set keeps a copy of: the root check.txt
 * reads its bones), or a prefix of an archive or $PBOPREFIX$ folder: 0,
 * -1 out of memory (what is no game path is left out). */
int rtm_gamepaths_add_file(struct rtm_gamepaths *g, const char *gp, size_t len,
                           const char *where);
int rtm_gamepaths_add_prefix(struct rtm_gamepaths *g, const char *gp, size_t len);
/* Sorts what was added: 0. */
int rtm_gamepaths_finish(struct rtm_gamepaths *g);
/* Where the animation of key (rtm_states_key's) is, as added; NULL when
 * none is (of a finished set; one of them when several have that key). */
const char *rtm_gamepaths_where(const struct rtm_gamepaths *g, const char *key);
/* How many animations' game paths it holds (distinct). */
size_t rtm_gamepaths_nfiles(const struct rtm_gamepaths *g);

/* missing.txt of the states of s (NULL: none) given the game paths g,
 * appended to b (nothing when none is missing). */
void rtm_missing_render(const struct rtm_states *s, const struct rtm_gamepaths *g,
                        struct rtm_buf *b);

#endif
