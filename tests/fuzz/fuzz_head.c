/* fuzz_head.c - what fuzz_head.h declares, compiled with each target that
 * uses it (fuzz_rtm, fuzz_rtm_head: FUZZ_OWN_target in the Makefile). */
#include "fuzz_head.h"


/* The whole parse both targets start with: the first byte picks the
 * skeleton (bit 0: ofp2 or none) and the flags (bit 1: without matrices),
 * the rest is the file.  Aborts if a failure leaves an anim or no message;
 * returns the anim (NULL on failure) and in *skel the skeleton used. */
struct rtm_anim *whole_parse(const uint8_t *data, size_t size,
                             const struct rtm_skeleton **skel)
{
    static struct rtm_skeleton *skels[2];
    struct rtm_error err;
    if (!skels[0] && (rtm_skeleton_open("ofp2", &skels[0], &err) ||
                      rtm_skeleton_open("none", &skels[1], &err)))
        abort();
    struct rtm_anim *a = NULL;
    unsigned flags = data[0] & 2 ? RTM_PARSE_NO_MATRICES : 0;
    *skel = skels[data[0] & 1];
    int rc = rtm_parse_flags(data + 1, size - 1, *skel, flags, &a, &err);
    if (rc != 0 && (a || !err.msg[0]))
        abort();                        /* a failure says why, leaves nothing */
    return a;
}

/* The head parse of the first n of len bytes: aborts on a broken promise;
 * returns its anim (or NULL) and in *need what it asked for. */
struct rtm_anim *head(const uint8_t *d, size_t n, size_t len,
                      const struct rtm_skeleton *skel, uint64_t *need)
{
    struct rtm_error err = { .msg = "" };
    struct rtm_parse_opts o = { .skel = skel };
    struct rtm_anim *a = NULL;
    int rc = rtm_parse_head(d, n, len, &o, &a, need, &err);
    if ((rc == RTM_PARSE_NEED_MORE && (a || *need <= n || *need > len)) ||
        (rc == -1 && (a || !err.msg[0])) || (rc == 0 && !a) ||
        (rc != 0 && rc != -1 && rc != RTM_PARSE_NEED_MORE))
        abort();
    return a;
}

/* Whether prefix n (of up to last bytes) is parsed: with every, all of
 * them; else the first 8, every 128th, the last, and the one pick names
 * (the input's choice, so that the fuzzer steers cuts too).  In fuzz_rtm
 * a thousand head parses an input, each formatting its error or building
 * the whole head, made nine tenths of its time; fuzz_rtm_head parses them
 * all, of inputs of up to 256 bytes. */
static int head_tried(size_t n, size_t last, size_t pick, int every)
{
    return every || n < 8 || n % 128 == 0 || n == last || n == pick;
}

/* The head parse of d (len bytes) on prefixes up to 1 KiB, then grown as
 * the loader grows it: it must ask for more within the file, fail with a
 * message, or tell the names and counts whole (the whole parse, when it
 * parsed) tells. */
void check_heads(const uint8_t *d, size_t len, const struct rtm_skeleton *skel,
                 const struct rtm_anim *whole, int every)
{
    uint64_t need;
    size_t last = len < 1024 ? len : 1024;
    size_t pick = len >= 2 ? ((size_t)d[len - 1] << 8 | d[len - 2]) % (last + 1) : 0;
    for (size_t n = 0; n <= last; n++)
        if (head_tried(n, last, pick, every))
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
