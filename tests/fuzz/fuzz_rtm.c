/* fuzz_rtm - libFuzzer target: the RTM parser and every view renderer
 * (skeleton.txt, moving.txt, preview.svg, tracks/ and, with ofp2's pivots,
 * joints/ and anim.bvh among them); preview.svg must be one ASCII <svg>
 * element whatever the numbers.  The first input byte picks the skeleton (bit 0: ofp2 or none),
 * the parse (bit 1: full, or without matrices) and how numbers are written
 * (bits 2-5: 0 exact, else digits 0 to 9 or more) so that every path is
 * fuzzed.  Every view is looked up again by its path. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rtm.h"
#include "skeleton.h"
#include "views.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int svg_shaped(const struct rtm_buf *b)
{
    static const char OPEN[] = "<svg ", CLOSE[] = "</svg>\n";
    if (b->len < sizeof OPEN + sizeof CLOSE || memcmp(b->p, OPEN, sizeof OPEN - 1) ||
        memcmp(b->p + b->len - (sizeof CLOSE - 1), CLOSE, sizeof CLOSE - 1))
        return 0;
    for (size_t i = 0; i < b->len; i++)
        if ((b->p[i] < 0x20 || b->p[i] > 0x7e) && b->p[i] != '\n')
            return 0;
    return 1;
}

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
    unsigned flags = data[0] & 2 ? RTM_PARSE_NO_MATRICES : 0;
    if (rtm_parse_flags(data + 1, size - 1, skel[data[0] & 1], flags, &a, &err) != 0) {
        if (a || !err.msg[0])
            abort(); /* a failure must say why and leave nothing behind */
        return 0;
    }
    int digits = (data[0] >> 2) & 15;
    a->digits = digits ? digits - 1 : RTM_DIGITS_EXACT;
    struct rtm_buf b;
    buf_init(&b);
    char path[RTM_VIEW_PATH_MAX];
    for (size_t i = 0; i < rtm_view_count(a); i++) {
        b.len = 0;
        struct rtm_view v = rtm_view_at(a, i), back;
        int skip = !a->has_matrices && rtm_view_needs_matrices(v);
        if (rtm_view_render(a, v, &b) != (skip ? -1 : 0))
            abort();
        if (v.kind == RTM_VIEW_PREVIEW && !skip && !svg_shaped(&b))
            abort();
        rtm_view_path(a, v, path);
        if (rtm_view_lookup(a, path, &back) || rtm_view_index(a, back) != i)
            abort();
    }
    buf_free(&b);
    rtm_free(a);
    return 0;
}
