/* timing.c - the game's time of one pass, or the convention (timing.h). */
#include "timing.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum { DUR_MAX = 32, LISTED_MAX = 3 };

int rtm_timing_duration(double speed, char *out, size_t n)
{
    if (!isfinite(speed)) {
        snprintf(out, n, "?");
        return -1;
    }
    if (speed == 0)
        snprintf(out, n, "none");
    else
        snprintf(out, n, "%.6g", speed > 0 ? 1.0 / speed : -speed);
    return 0;
}

void rtm_timing_alone(struct rtm_timing *out)
{
    out->seconds = 0;
    out->why[0] = 0;
}

int rtm_timing_empty(const struct rtm_timing *t)
{
    return !t || !t->why[0];
}

/* Appends to out->why, cut at its size. */
static void say(struct rtm_timing *out, const char *fmt, ...)
{
    size_t len = strlen(out->why);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->why + len, sizeof out->why - len, fmt, ap);
    va_end(ap);
}

static const char CONVENTION[] = "Timing: 30 frames a second (the convention): ";

/* "A (speed=S)", or "A (speed=S: D s)" with its duration. */
static void say_state(struct rtm_timing *out, const struct rtm_timing_state *s, const char *dur)
{
    say(out, "%s (speed=%s%s%s%s)", s->state, s->speed, dur ? ": " : "", dur ? dur : "",
        dur && strcmp(dur, "none") ? " s" : "");
}

/* The states disagree: the first LISTED_MAX of them with their durations. */
static void say_disagree(struct rtm_timing *out, const struct rtm_timing_state *st, size_t n,
                         char (*dur)[DUR_MAX])
{
    say(out, "%sthe %zu states that play this file disagree: ", CONVENTION, n);
    for (size_t i = 0; i < n && i < LISTED_MAX; i++) {
        say(out, "%s", i ? ", " : "");
        say_state(out, &st[i], dur[i]);
    }
    say(out, "%s.", n > LISTED_MAX ? ", ..." : "");
}

/* One known duration d (seconds, as written: text) agreed by all n. */
static void say_timed(struct rtm_timing *out, const struct rtm_timing_state *st, size_t n,
                      double d, const char *text)
{
    double bound = fmin(fmax(d, RTM_TIMING_MIN_S), RTM_TIMING_MAX_S);
    out->seconds = bound;
    if (bound != d) {
        say(out, "Timing: one pass in %g s, the %s played: ", bound,
            d < bound ? "shortest" : "longest");
        say_state(out, &st[0], text);
    } else {
        say(out, "Timing: one pass in %s s, from ", text);
        say_state(out, &st[0], NULL);
    }
    if (n > 1)
        say(out, " and %zu more state%s that agree%s", n - 1, n == 2 ? "" : "s",
            n == 2 ? "s" : "");
    say(out, ".");
}

void rtm_timing_decide(const struct rtm_timing_state *st, size_t n, uint32_t nframes,
                       struct rtm_timing *out)
{
    char dur[LISTED_MAX + 1][DUR_MAX];
    rtm_timing_alone(out);
    if (!n) {                           /* no game path named: the same for every copy */
        say(out, "%sno config state plays this file.", CONVENTION);
        return;
    }
    if (nframes < 2) {
        say(out, "Timing: none, a still pose of %u frame%s, played by ", nframes,
            nframes == 1 ? "" : "s");
        say_state(out, &st[0], NULL);
        say(out, ".");
        return;
    }
    for (size_t i = 0; i < n; i++)
        if (!st[i].known) {
            say(out, "%sthe speed of ", CONVENTION);
            say_state(out, &st[i], NULL);
            say(out, " is unknown.");
            return;
        }
    int agree = 1;
    for (size_t i = 0; i < n; i++) {
        char d[DUR_MAX];
        rtm_timing_duration(st[i].value, d, sizeof d);
        agree &= i == 0 || strcmp(d, dur[0]) == 0;
        if (i <= LISTED_MAX)
            memcpy(dur[i], d, sizeof d);
    }
    if (!agree) {
        say_disagree(out, st, n, dur);
    } else if (st[0].value == 0) {
        say(out, "%s", CONVENTION);
        say_state(out, &st[0], NULL);
        say(out, " has no duration.");
    } else {
        say_timed(out, st, n, st[0].value > 0 ? 1.0 / st[0].value : -st[0].value, dur[0]);
    }
}
