/* fuzz_skeleton - libFuzzer target: the skeleton file reader, and every
 * skeleton it accepts used to plan a conversion of its own bone names. */
#include <stdint.h>
#include <stdlib.h>

#include "convert.h"
#include "skeleton.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rtm_skeleton *s = NULL;
    struct rtm_error err;
    if (rtm_skeleton_parse((const char *)data, size, "fuzz", &s, &err)) {
        if (s || !err.msg[0])
            abort();
        return 0;
    }
    struct rtm_str *names = calloc(s->nbones + 1, sizeof *names);
    if (!names)
        abort();
    for (uint32_t i = 0; i < s->nbones; i++) {
        names[i] = (struct rtm_str){ s->bone[i], (uint32_t)strlen(s->bone[i]) };
        if (rtm_skeleton_find(s, names[i].s, names[i].len) != (int32_t)i)
            abort(); /* every bone must be found at its own index */
        if (s->parent[i] >= (int32_t)i)
            abort(); /* parents come first */
    }
    struct rtm_plan plan;
    if (rtm_plan_make(s, names, s->nbones, &plan) == 0)
        rtm_plan_free(&plan);
    free(names);
    rtm_skeleton_free(s);
    return 0;
}
