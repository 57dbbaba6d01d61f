/* views_testutil.h - the animations the view tests share (test_views,
 * test_view_names, test_views_agree): one with counts only, for naming and
 * lookup; a plain file written by hand with awkward bone names (a comma, a
 * quote, a backslash, a byte > 127, junk after a NUL), special numbers, an
 * optional MDAT block and trailing bytes; the writer's BMTR samples; and a
 * view rendered by its path. */
#ifndef RTM_VIEWS_TESTUTIL_H
#define RTM_VIEWS_TESTUTIL_H

#include <math.h>

#include "testutil.h"

/* An anim with only counts, for naming and lookup. */
struct rtm_anim *counts_only(uint32_t nframes);

void put_field(struct rtm_buf *b, const char *raw, size_t n);

/* Awkward bone names: a comma, a quote, a backslash, a byte > 127 and one
 * with junk after its NUL. */
extern const char *const NAMES[];
enum { NB = 5, NF = 3 };

float cell(uint32_t f, uint32_t b, int k);

struct rtm_anim *plain_anim(int props, struct rtm_buf *src);

struct rtm_anim *bmtr_anim(uint32_t version, uint32_t nframes, uint32_t nbones,
                           uint32_t nprops);

char *render_path(const struct rtm_anim *a, const char *path, size_t *len);

#endif
