/* fuzz_rtm - libFuzzer target: the RTM parser and every view renderer
 * (skeleton.txt, moving.txt, preview.svg, tracks/ and, with ofp2's pivots,
 * joints/ and anim.bvh among them); preview.svg must be one ASCII <svg>
 * element whatever the numbers.  The first input byte picks the skeleton (bit 0: ofp2 or none),
 * the parse (bit 1: full, or without matrices) and how numbers are written
 * (bits 2-5: 0 exact, else digits 0 to 9 or more) so that every path is
 * fuzzed.  Every view is looked up again by its path.  The head parse
 * (rtm_parse_head, what a listing reads) runs grown as the loader grows
 * it, and on a sample of the prefixes up to 1 KiB (fuzz_head.h; every
 * prefix of inputs of up to 256 bytes is fuzz_rtm_head's): it must ask
 * for more within the file, fail with a message, or tell the names and
 * counts the whole file tells.
 * Sizes, which are measured, not rendered (rtm_view_sizes,
 * rtm_view_timed_size), must equal the rendered lengths for any numbers
 * (each view rendered once for both checks).  An animation of more than
 * ALL_VIEWS_MAX matrices renders its fixed views and the first and last
 * file of each folder, not all (every view is still looked up).
 * Whatever reads also binarises: bmtr.rtm reads back as BMTR with the same
 * bones (lower case) and frames.  And repairs: fixed.rtm reads back as a
 * plain file of the bones the repair kept (repair.h), none of them left
 * out again, with the same frames. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "repair.h"
#include "rtm.h"
#include "skeleton_cfg.h"
#include "timing.h"
#include "views.h"

#include "fuzz_head.h"

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

/* View v's measured size (sizes[i], of rtm_view_sizes) against its
 * rendered length (b holds it), and timed by a pass of seconds (with a
 * sentence, as the configs give) against the timed rendering. */
static void check_size(const struct rtm_anim *a, struct rtm_view v, const uint64_t *sizes,
                       size_t i, double seconds, struct rtm_buf *b)
{
    uint64_t timed;
    struct rtm_timing tm = { .seconds = seconds, .why = "Timing: fuzzed." };
    if (b->len != sizes[i])
        abort();
    if (!rtm_view_timed(v.kind))
        return;
    b->len = 0;
    if (rtm_view_render_timed(a, v, &tm, b) ||
        rtm_view_timed_size(a, v, &tm, sizes[i], &timed) || timed != b->len)
        abort();
}

/* Whether view v of a is rendered: every view of an animation of up to
 * ALL_VIEWS_MAX matrices (frames times bones); of a larger one the fixed
 * views and the first and last file of each folder, so that every kind is
 * still rendered, sized and looked up for every input at a bounded cost. */
#define ALL_VIEWS_MAX 256u
static int view_tried(const struct rtm_anim *a, struct rtm_view v)
{
    if ((uint64_t)a->nframes * a->nbones <= ALL_VIEWS_MAX)
        return 1;
    if (v.kind == RTM_VIEW_FRAME || v.kind == RTM_VIEW_JOINTS)
        return v.frame == 0 || v.frame + 1 == a->nframes;
    if (v.kind == RTM_VIEW_TRACK)
        return v.bone == 0 || v.bone + 1 == a->nbones;
    return 1;
}

/* bmtr.rtm of a (which has matrices) read back with the skeleton it was
 * read with. */
static void check_binarised(const struct rtm_anim *a, const struct rtm_skeleton *skel,
                            struct rtm_buf *b)
{
    struct rtm_anim *back = NULL;
    struct rtm_error err;
    b->len = 0;
    if (rtm_view_render(a, (struct rtm_view){ .kind = RTM_VIEW_BMTR }, b) ||
        rtm_parse((const uint8_t *)b->p, b->len, skel, &back, &err) ||
        back->format != RTM_FORMAT_BMTR || back->nbones != a->nbones ||
        back->nframes != a->nframes)
        abort();
    for (uint32_t i = 0; i < a->nbones; i++) {
        size_t n = strlen(a->bones[i].s);       /* BMTR names end at a NUL */
        if (back->bones[i].len != n)
            abort();
        for (size_t k = 0; k < n; k++)
            if (rtm_ascii_lower((unsigned char)back->bones[i].s[k]) !=
                rtm_ascii_lower((unsigned char)a->bones[i].s[k]))
                abort();
    }
    rtm_free(back);
}

/* fixed.rtm of a (which has matrices) read back with the same skeleton:
 * the bones the plan kept, which a second repair keeps all of. */
static void check_repaired(const struct rtm_anim *a, const struct rtm_skeleton *skel,
                           struct rtm_buf *b)
{
    struct rtm_anim *back = NULL;
    struct rtm_error err;
    struct rtm_repair r, again;
    b->len = 0;
    if (rtm_repair_plan(a, &r) ||
        rtm_view_render(a, (struct rtm_view){ .kind = RTM_VIEW_REPAIRED }, b) ||
        rtm_parse((const uint8_t *)b->p, b->len, skel, &back, &err) ||
        back->format != RTM_FORMAT_PLAIN || back->nframes != a->nframes)
        abort();
    uint32_t kept = r.skeleton ? r.n : a->nbones;
    if (back->nbones != kept || rtm_repair_plan(back, &again))
        abort();
    /* names longer than a plain field are cut (then nothing is asked) */
    int whole = 1;
    for (uint32_t i = 0; r.skeleton && i < kept; i++) {
        whole &= r.name[i].len <= 32;
        if (r.name[i].len <= 32 && (back->bones[i].len != r.name[i].len ||
                                    memcmp(back->bones[i].s, r.name[i].s, r.name[i].len)))
            abort();
    }
    if (r.skeleton && whole && (again.n != kept || rtm_repair_changes(&again)))
        abort();
    rtm_repair_free(&r);
    rtm_repair_free(&again);
    rtm_free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const struct rtm_skeleton *skel;
    struct rtm_anim *a = whole_parse(data, size, &skel);
    check_heads(data + 1, size - 1, skel, a, 0);
    if (!a)
        return 0;
    int digits = (data[0] >> 2) & 15;
    a->digits = digits ? digits - 1 : RTM_DIGITS_EXACT;
    struct rtm_buf b;
    rtm_buf_init(&b);
    char path[RTM_VIEW_PATH_MAX];
    size_t n = rtm_view_count(a);
    uint64_t *sizes = malloc((n ? n : 1) * sizeof *sizes);
    if (!sizes || (a->depth == RTM_DEPTH_FULL && rtm_view_sizes(a, sizes)))
        abort();
    for (size_t i = 0; i < n; i++) {
        b.len = 0;
        struct rtm_view v = rtm_view_at(a, i), back;
        rtm_view_path(a, v, path);
        if (rtm_view_lookup(a, path, &back) || rtm_view_index(a, back) != i)
            abort();
        if (!view_tried(a, v))
            continue;
        int skip = rtm_view_depth(v.kind) > a->depth;
        if (rtm_view_render(a, v, &b) != (skip ? -1 : 0))
            abort();
        if (v.kind == RTM_VIEW_PREVIEW && !skip && !svg_shaped(&b))
            abort();
        if (a->depth == RTM_DEPTH_FULL)
            check_size(a, v, sizes, i, 0.05 + (double)(data[size - 1]) * 2.3, &b);
    }
    free(sizes);
    if (a->depth == RTM_DEPTH_FULL) {
        check_binarised(a, skel, &b);
        check_repaired(a, skel, &b);
    }
    rtm_buf_free(&b);
    rtm_free(a);
    return 0;
}
