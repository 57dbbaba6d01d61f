/* fuzz_skeleton - libFuzzer target: the skeleton file reader, every
 * skeleton it accepts used to plan a conversion of its own bone names, and
 * the writer: what it writes reads back as the same skeleton (pivots to
 * its 4 decimals) and writes again as the same bytes. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "convert.h"
#include "skeleton.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What the header promises of every parsed skeleton. */
static void check_shape(const struct rtm_skeleton *s)
{
    if (!s->pivot != !s->placed)
        abort(); /* pivot and placed are NULL together */
    for (uint32_t i = 0; i < s->nbones; i++) {
        if (rtm_skeleton_find(s, s->bone[i], strlen(s->bone[i])) != (int32_t)i)
            abort(); /* every bone must be found at its own index */
        if (s->parent[i] >= (int32_t)i)
            abort(); /* parents come first */
        if (s->pivot && (s->placed[i] > 1 || !isfinite(s->pivot[i][0]) ||
                         !isfinite(s->pivot[i][1]) || !isfinite(s->pivot[i][2])))
            abort();
    }
}

/* a and b are the same skeleton; the writer rounds a pivot by at most
 * 5e-5 and reading the rounded text moves it no further than that. */
static void check_same(const struct rtm_skeleton *a, const struct rtm_skeleton *b)
{
    if (a->nbones != b->nbones || !a->pivot != !b->pivot)
        abort();
    for (uint32_t i = 0; i < a->nbones; i++) {
        if (strcmp(a->bone[i], b->bone[i]) || a->parent[i] != b->parent[i])
            abort();
        if (!a->pivot)
            continue;
        if (a->placed[i] != b->placed[i])
            abort();
        for (int k = 0; k < 3; k++)
            if (!(fabs((double)a->pivot[i][k] - b->pivot[i][k]) <= 1e-4))
                abort();
    }
}

/* write(s) parses back as s, and writing that gives the same bytes. */
static void check_round_trip(const struct rtm_skeleton *s)
{
    struct rtm_buf t1, t2;
    rtm_buf_init(&t1);
    rtm_buf_init(&t2);
    struct rtm_skeleton *back = NULL;
    struct rtm_error err;
    if (rtm_skeleton_write(s, &t1) == 0) {
        if (rtm_skeleton_parse(t1.p ? t1.p : "", t1.len, "again", &back, &err))
            abort(); /* the writer wrote something the reader refuses */
        check_same(s, back);
        if (rtm_skeleton_write(back, &t2) == 0 &&
            (t1.len != t2.len || (t1.len && memcmp(t1.p, t2.p, t1.len))))
            abort();
    }
    rtm_skeleton_free(back);
    rtm_buf_free(&t1);
    rtm_buf_free(&t2);
}

static void check_plan(const struct rtm_skeleton *s)
{
    struct rtm_str *names = calloc(s->nbones + 1, sizeof *names);
    if (!names)
        abort();
    for (uint32_t i = 0; i < s->nbones; i++)
        names[i] = (struct rtm_str){ s->bone[i], (uint32_t)strlen(s->bone[i]) };
    struct rtm_plan plan;
    if (rtm_plan_make(s, names, s->nbones, &plan) == 0)
        rtm_plan_free(&plan);
    free(names);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rtm_skeleton *s = NULL;
    struct rtm_error err;
    if (rtm_skeleton_parse((const char *)data, size, "fuzz", &s, &err)) {
        if (s || !err.msg[0])
            abort();
        return 0;
    }
    check_shape(s);
    check_plan(s);
    check_round_trip(s);
    rtm_skeleton_free(s);
    return 0;
}
