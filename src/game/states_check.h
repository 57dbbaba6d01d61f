/* states_check.h - the root check.txt (rtmfs-views(7)): the mistakes in the
 * configs' states that the game finds only when it loads or plays them.
 *
 * It checks every state that states.txt lists (states.h), each member read
 * as the game reads it, through the state's base classes.  One line a
 * finding, in the line format of an animation's check.txt:
 *
 *   LEVEL CODE: CONFIG: CLASS_PATH: message
 *
 * CONFIG is the config's path as states.txt writes it, CLASS_PATH the
 * class that writes the member (the state, or the base it inherits the
 * member from: a member inherited by many states is reported once).
 * Lines come in the order of the codes (rtm_states_check_codes), then of
 * the configs' paths, then in file order.  The codes, their levels and
 * where each comes from are in rtmfs-views(7).
 *
 * What needs only the configs is found when the table is finished
 * (states.h's rtm_states_finish); the bones of each state's file are
 * compared with the skeleton of the state's class when the text is made,
 * through a function the caller gives, as the animations are not the
 * configs'.
 *
 * Contract: as states.h.  The render reads a finished table from any
 * thread, its lines made or not (it reads none: rtm_states_lines_later);
 * the bones function is called on the caller's thread.
 */
#ifndef RTM_STATES_CHECK_H
#define RTM_STATES_CHECK_H

#include "states.h"
#include "util.h"

/* Gives the bones of an animation to a visitor. */
typedef void rtm_states_bones_visit(void *vctx, const struct rtm_str *bones, uint32_t n);
/* Calls visit with the bones of the animation at game path key (as
 * states.txt's lines key it: normalised, lowercase) when one is under
 * SOURCE and reads, and returns 0; else -1 (the state's file is missing:
 * missing.txt says so, this does not). */
typedef int rtm_states_bones_fn(void *ctx, const char *key, rtm_states_bones_visit *visit,
                                void *vctx);

/* check.txt of the finished table s (NULL: no configs read; nothing),
 * appended to b.  bones may be NULL: no file's bones are compared. */
void rtm_states_check_render(const struct rtm_states *s, rtm_states_bones_fn *bones, void *ctx,
                             struct rtm_buf *b);

/* What the check keeps, as bytes the persistent index remembers with the
 * lines (tree_states_index.c), and back into an unfinished table that
 * was given its configs without models: 0, or -1 (out of memory, or
 * bytes this did not write).  In states_check_pack.c. */
int rtm_states_check_pack(const struct rtm_states *s, struct rtm_buf *out);
int rtm_states_check_unpack(struct rtm_states *s, const uint8_t *p, size_t len);

#endif
