/* fuzz_rtm - libFuzzer target: the RTM parser and every view renderer.
 * The first input byte picks the skeleton (ofp2 or none) so that both
 * conversion paths are fuzzed. */
#include <stdint.h>
#include <stdlib.h>

#include "rtm.h"
#include "skeleton.h"
#include "views.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct rtm_skeleton *skel[2];
    struct rtm_error err;
    if (!skel[0] && (rtm_skeleton_open("ofp2", &skel[0], &err) ||
                     rtm_skeleton_open("none", &skel[1], &err)))
        abort();
    if (size == 0)
        return 0;
    struct rtm_anim *a = NULL;
    if (rtm_parse(data + 1, size - 1, skel[data[0] & 1], &a, &err) != 0) {
        if (a || !err.msg[0])
            abort(); /* a failure must say why and leave nothing behind */
        return 0;
    }
    struct rtm_buf b;
    buf_init(&b);
    for (size_t i = 0; i < rtm_view_count(a); i++) {
        b.len = 0;
        if (rtm_view_render(a, rtm_view_at(a, i), &b))
            abort();
    }
    buf_free(&b);
    rtm_free(a);
    return 0;
}
