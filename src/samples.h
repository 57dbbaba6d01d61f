/* samples.h - synthetic animations written by the project's own writers:
 * fixtures for the tests, seeds for the fuzzers, trees for the benchmarks
 * and the files `make demo` shows.
 *
 * Contract: deterministic for a given options struct; bytes are appended to
 * the caller's buffer; -1 only when out of memory.
 */
#ifndef RTM_SAMPLES_H
#define RTM_SAMPLES_H

#include <stdint.h>

#include "bmtr_write.h"
#include "util.h"

struct sample_opts {
    uint32_t nframes;
    uint32_t nbones;        /* the first nbones of OFP2_ManSkeleton, then extra_N */
    uint32_t seed;          /* varies the motion */
    uint32_t nprops;        /* StepSound-like properties */
};

/* Plain RTM; with nprops > 0 it starts with an RTM_MDAT block. */
int rtm_sample_plain(const struct sample_opts *o, struct rtm_buf *out);
/* BMTR of the given version and compression (bmtr_write.h). */
int rtm_sample_bmtr(const struct sample_opts *o, uint32_t version,
                    enum bmtr_compress compress, struct rtm_buf *out);

#endif
