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

/* A plain RTM of bones that turn about known pivots, for the pivot
 * estimator's tests: bone k (names[k], parent[k] < k or -1, rest pivot
 * pivot[k]) turns about its pivot relative to its parent by angles up to
 * amp_deg about all three axes, except the bone named hinge, which turns
 * about x only; roots also drift.  noise: uniform noise (metres) added to
 * every translation; outliers: the share of frames in which every bone's
 * translation is off by up to 10 cm, each its own way. */
struct posed_opts {
    uint32_t nframes;
    uint32_t seed;
    float amp_deg;
    float noise;
    float outliers;
    const char *hinge;      /* NULL: none */
};
int rtm_sample_posed(const char *const *names, const int32_t *parent, const float (*pivot)[3],
                     uint32_t nbones, const struct posed_opts *o, struct rtm_buf *out);

/* A figure standing upright, for the tests and the demo of preview.svg: a
 * small humanoid of RTM_FIGURE_BONES bones (Pelvis, Spine, Neck, Head, and
 * Left/Right Arm, ForeArm, Hand, UpLeg, Leg, Foot, ToeBase) in model space
 * (+X its left, +Y up, facing -Z; toes 2 cm above Y = 0, HeadTop 1.7 m) that turns
 * a little about its pivots (rtm_sample_posed, amp_deg 10) over nframes
 * frames, and its skeleton file with those pivots (skeleton.h), to read it
 * with. */
enum { RTM_FIGURE_BONES = 22 };
int rtm_sample_figure(uint32_t nframes, struct rtm_buf *rtm, struct rtm_buf *skeleton);

#endif
