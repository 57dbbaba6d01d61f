/* fuzz_rtm - libFuzzer target: the RTM parser and every view renderer
 * (skeleton.txt, moving.txt, preview.svg, tracks/ and, with ofp2's pivots,
 * joints/ and anim.bvh among them); preview.svg must be one ASCII <svg>
 * element whatever the numbers.  The first input byte picks the skeleton (bit 0: ofp2 or none),
 * the parse (bit 1: full, or without matrices) and how numbers are written
 * (bits 2-5: 0 exact, else digits 0 to 9 or more) so that every path is
 * fuzzed.  Every view is looked up again by its path.  The head parse
 * (rtm_parse_head, what a listing reads) runs on every prefix up to 1 KiB
 * and grown as the loader grows it: it must ask for more within the file,
 * fail with a message, or tell the names and counts the whole file tells.
 * Sizes, which are measured, not rendered (rtm_view_sizes,
 * rtm_view_timed_size), must equal the rendered lengths for any numbers.
 * Whatever reads also binarises: bmtr.rtm reads back as BMTR with the same
 * bones (lower case) and frames. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rtm.h"
#include "skeleton_cfg.h"
#include "timing.h"
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

/* Each view's measured size against its rendered length, untimed and timed
 * by a pass of seconds (with a sentence, as the configs give). */
static void check_sizes(const struct rtm_anim *a, double seconds, struct rtm_buf *b)
{
    size_t n = rtm_view_count(a);
    uint64_t *sizes = malloc((n ? n : 1) * sizeof *sizes), timed;
    struct rtm_timing tm = { .seconds = seconds, .why = "Timing: fuzzed." };
    if (!sizes || rtm_view_sizes(a, sizes))
        abort();
    for (size_t i = 0; i < n; i++) {
        struct rtm_view v = rtm_view_at(a, i);
        b->len = 0;
        if (rtm_view_render(a, v, b) || b->len != sizes[i])
            abort();
        if (!rtm_view_timed(v.kind))
            continue;
        b->len = 0;
        if (rtm_view_render_timed(a, v, &tm, b) ||
            rtm_view_timed_size(a, v, &tm, sizes[i], &timed) || timed != b->len)
            abort();
    }
    free(sizes);
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

/* The head parse of the first n of len bytes: aborts on a broken promise;
 * returns its anim (or NULL) and in *need what it asked for. */
static struct rtm_anim *head(const uint8_t *d, size_t n, size_t len,
                             const struct rtm_skeleton *skel, uint64_t *need)
{
    struct rtm_error err = { .msg = "" };
    struct rtm_parse_opts o = { .skel = skel };
    struct rtm_anim *a = NULL;
    int rc = rtm_parse_head(d, n, len, &o, &a, need, &err);
    if ((rc == RTM_PARSE_NEED_MORE && (a || *need <= n || *need > len)) ||
        (rc == -1 && (a || !err.msg[0])) || (rc == 0 && !a) || (rc != 0 && rc != -1 && rc != RTM_PARSE_NEED_MORE))
        abort();
    return a;
}

static void check_heads(const uint8_t *d, size_t len, const struct rtm_skeleton *skel,
                        const struct rtm_anim *whole)
{
    uint64_t need;
    for (size_t n = 0; n <= len && n <= 1024; n++)
        rtm_free(head(d, n, len, skel, &need));
    struct rtm_anim *a = NULL;
    for (size_t n = 0; !a; n = (size_t)need) {
        need = 0;
        a = head(d, n, len, skel, &need);
        if (!a && !need)
            break;                      /* failed: the head is damaged */
    }
    if (whole && (!a || a->nbones != whole->nbones || a->nframes != whole->nframes ||
                  rtm_view_count(a) != rtm_view_count(whole)))
        abort();
    for (uint32_t b = 0; whole && b < whole->nbones; b++)
        if (a->bones[b].len != whole->bones[b].len ||
            memcmp(a->bones[b].s, whole->bones[b].s, whole->bones[b].len))
            abort();
    rtm_free(a);
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
    int rc = rtm_parse_flags(data + 1, size - 1, skel[data[0] & 1], flags, &a, &err);
    check_heads(data + 1, size - 1, skel[data[0] & 1], a);
    if (rc != 0) {
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
    if (a->has_matrices) {
        check_sizes(a, 0.05 + (double)(data[size - 1]) * 2.3, &b);
        check_binarised(a, skel[data[0] & 1], &b);
    }
    buf_free(&b);
    rtm_free(a);
    return 0;
}
