/* timing.h - how long one pass of an animation plays in preview.svg and
 * anim.bvh: the game's time, from the config states that play the file
 * (states.h), or the convention of 30 frames a second; and the sentence
 * that says which, and why, for preview.svg's <desc> (rtmfs-views(7)).
 *
 * The rule (rtm_timing_decide), in this order:
 *  - no state plays the file (none names its game path, or it has none):
 *    the convention, and the sentence says so; it names no game path, so
 *    an archived file and a loose copy that no config names agree;
 *  - the file has fewer than 2 frames: it stays still, whatever the states
 *    say (the sentence says so);
 *  - a state's speed is not a known number (`?`, a string): the
 *    convention ("unknown speed");
 *  - every state's duration (states.h's rule, compared as states.txt
 *    writes it) is the same: one pass lasts it, bounded to
 *    [RTM_TIMING_MIN_S, RTM_TIMING_MAX_S] (a pass out of bounds plays at
 *    the bound, and the sentence says so); that same duration being
 *    "none" (speed = 0) keeps the convention;
 *  - else the states disagree: the convention.
 *
 * Duration rule (rtm_timing_duration), which states.txt writes too: a
 * positive speed is passes per second (one pass lasts 1/speed s), a
 * negative one is the duration in seconds (-speed), 0 has none ("none");
 * anything else (a string, a value not known) is "?".  Durations are
 * written with C's "%.6g": 6 significant digits, trailing zeros dropped
 * (0.06 -> 16.6667, -8 -> 8, 100000 -> 1e-05).
 *
 * Where configs are not read (-o configs=none, -o timing=frames) there
 * is no timing to decide: rtm_timing_alone gives the empty generation,
 * no sentence, the views of the file alone.
 *
 * The sentence is the timing's generation key too: two timings with the
 * same sentence render the same bytes (the seconds are written in it).
 *
 * Contract: pure (no I/O, no global state, any thread); the strings of
 * the states are the caller's, read only during the call.  The sentence
 * is printable ASCII but may hold '<' or '&' from a speed written as a
 * string: the SVG writer escapes it.
 */
#ifndef RTM_TIMING_H
#define RTM_TIMING_H

#include <stddef.h>
#include <stdint.h>

#define RTM_TIMING_MIN_S 0.05           /* a held pose (speed = 100000) */
#define RTM_TIMING_MAX_S 600.0
enum { RTM_TIMING_WHY_MAX = 1536 };

/* A state that names the file. */
struct rtm_timing_state {
    const char *state;                  /* its class path */
    const char *speed;                  /* as written; "?" when not found */
    int known;                          /* speed is a finite number: */
    double value;                       /* that number */
};

struct rtm_timing {
    double seconds;                     /* one pass; 0: the convention */
    char why[RTM_TIMING_WHY_MAX];       /* "": the empty generation */
};

/* The timing of a file of nframes frames played by the n states st. */
void rtm_timing_decide(const struct rtm_timing_state *st, size_t n, uint32_t nframes,
                       struct rtm_timing *out);

/* The duration of one pass for a speed as the config writes it (a
 * number): into out (n bytes), "none" or digits.  -1 for a speed that is
 * no finite number ("?" then). */
int rtm_timing_duration(double speed, char *out, size_t n);

/* The empty generation: the convention, no sentence (no configs read). */
void rtm_timing_alone(struct rtm_timing *out);

/* Whether t is the empty generation (NULL counts as one): the views are
 * then those of the file alone. */
int rtm_timing_empty(const struct rtm_timing *t);

#endif
