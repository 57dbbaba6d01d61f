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
    if (size == 0)
        return 0;
    const struct rtm_skeleton *skel;
    struct rtm_anim *a = whole_parse(data, size, &skel);
    check_heads(data + 1, size - 1, skel, a, 1);
    rtm_free(a);
    return 0;
}
