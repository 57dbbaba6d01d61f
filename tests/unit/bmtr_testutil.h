/* bmtr_testutil.h - what the BMTR reader's tests share (test_bmtr,
 * test_bmtr_convert): the fixture of names, phases, metadata, properties
 * and random packed transforms (testutil.h's lcg_next) a bmtr_spec
 * borrows, and the expected model: every matrix computed here from
 * rtm(5), Local matrix, with an independent half-float decoder, and
 * compared bit for bit (round_trip writes, parses with "none" and checks
 * it all). */
#ifndef RTM_BMTR_TESTUTIL_H
#define RTM_BMTR_TESTUTIL_H

#include <math.h>

#include "testutil.h"

/* ---- fixtures ---------------------------------------------------------- */

enum { MAX_BONES = 128, MAX_FRAMES = 300 };

/* The arrays a spec borrows, filled deterministically. */
struct fixture {
    char name_buf[MAX_BONES][16];
    const char *names[MAX_BONES];
    float phases[MAX_FRAMES];
    uint8_t *tr;
    uint32_t nf, nb;
};

void fixture_init(struct fixture *fx, uint32_t nf, uint32_t nb, uint32_t seed);

void fixture_free(struct fixture *fx);

struct bmtr_spec spec_of(const struct fixture *fx, uint32_t version);

void write_spec(const struct bmtr_spec *s, struct rtm_buf *b);


int parse_with(const struct rtm_buf *b, const char *skel, struct rtm_anim **a,
               struct rtm_error *err);

/* ---- the expected conversion (rtm(5), BMTR transforms and Local matrix) ---- */

void expect_local(const uint8_t t[14], double m[12]);

void to_floats(const double m[12], float f[12]);

/* Everything the model keeps from the spec. */
void check_model(const struct rtm_anim *a, const struct bmtr_spec *s,
                 const struct fixture *fx, size_t file_len);

/* Writes, parses with "none" and checks the whole model. */
struct rtm_anim *round_trip(const struct bmtr_spec *s, const struct fixture *fx,
                            struct rtm_buf *b);

#endif
