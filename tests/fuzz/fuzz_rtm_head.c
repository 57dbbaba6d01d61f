/* fuzz_rtm_head - libFuzzer target: the head parse (rtm_parse_head, what a
 * listing reads) on every prefix of the input up to 1 KiB, then grown as
 * the loader grows it (fuzz_head.h): each must ask for more within the
 * file, fail with a message, or parse, and grown it tells the names and
 * counts the whole parse tells.  The first input byte picks the skeleton
 * (bit 0: ofp2 or none) and the whole parse (bit 1: full, or without
 * matrices), as fuzz_rtm's does; nothing is rendered (fuzz_rtm renders,
 * and parses a sample of the prefixes of longer inputs).  fuzz.sh gives it
 * inputs of up to 256 bytes, every cut of which is parsed: a head of
 * several bones' names, and at 1,500 inputs a second (512 bytes: 500). */
#include <stdint.h>
#include <stdlib.h>

#include "rtm.h"
#include "skeleton_cfg.h"

#include "fuzz_head.h"

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
    unsigned flags = data[0] & 2 ? RTM_PARSE_NO_MATRICES : 0;
    int rc = rtm_parse_flags(data + 1, size - 1, skel[data[0] & 1], flags, &a, &err);
    if (rc != 0 && (a || !err.msg[0]))
        abort();                        /* a failure says why, leaves nothing */
    check_heads(data + 1, size - 1, skel[data[0] & 1], a, 1);
    rtm_free(a);
    return 0;
}
