/* fuzz_head.h - the head parse's promises (rtm_parse_head, what a listing
 * reads), shared by fuzz_rtm (a sample of the prefixes, with every view
 * rendered) and fuzz_rtm_head (every prefix, nothing rendered). */
#ifndef RTM_FUZZ_HEAD_H
#define RTM_FUZZ_HEAD_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rtm.h"
#include "skeleton_cfg.h"
#include "views.h"

/* The whole parse both targets start with: the first byte picks the
 * skeleton (bit 0: ofp2 or none) and the flags (bit 1: without matrices),
 * the rest is the file.  Aborts if a failure leaves an anim or no message;
 * returns the anim (NULL on failure) and in *skel the skeleton used. */
struct rtm_anim *whole_parse(const uint8_t *data, size_t size,
                             const struct rtm_skeleton **skel);

/* The head parse of the first n of len bytes: aborts on a broken promise;
 * returns its anim (or NULL) and in *need what it asked for. */
struct rtm_anim *head(const uint8_t *d, size_t n, size_t len,
                      const struct rtm_skeleton *skel, uint64_t *need);

/* The head parse of d (len bytes) on prefixes up to 1 KiB, then grown as
 * the loader grows it: it must ask for more within the file, fail with a
 * message, or tell the names and counts whole (the whole parse, when it
 * parsed) tells. */
void check_heads(const uint8_t *d, size_t len, const struct rtm_skeleton *skel,
                 const struct rtm_anim *whole, int every);

#endif
