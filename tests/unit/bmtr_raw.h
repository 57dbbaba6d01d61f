/* bmtr_raw.h - what a BMTR file (versions 3 to 5) stores, read raw and
 * independently of src/rtm/bmtr.c, for comparing stored values with
 * binarise's (test_binarise, bench_binarise): names, motion, phases,
 * properties and each transform's quaternion and translation as stored.
 * v3 and v4 arrays are LZO from 1024 bytes, v5 ones say so in a flag
 * byte; an empty array has no flag.  Returns 0, or -1 on anything it does
 * not expect (the caller says which file). */
#ifndef RTM_BMTR_RAW_H
#define RTM_BMTR_RAW_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lzo.h"

struct bmtr_raw {
    uint32_t version, nbones, nframes, nprops;
    float motion[3];
    char **names;                       /* into the file's bytes, which */
                                        /* must outlive the struct */
    char **prop_name, **prop_value;
    float *prop_phase;
    float *phases;
    int *flags;                         /* phases, then each frame: -1 none */
    int16_t (*q)[4];                    /* nframes * nbones */
    uint16_t (*t)[3];
};

void bmtr_raw_free(struct bmtr_raw *r);

struct bmtr_cur {
    const uint8_t *d;
    size_t len, p;
};

int bmtr_raw_read(const uint8_t *d, size_t len, struct bmtr_raw *r);

/* How far the values of b are from those of a, two files of one
 * animation: a quaternion by its largest component's difference once both
 * are unit length with w >= 0, in units of 1/16384; a translation by the
 * halves' difference in steps of the larger one's binade (the smallest
 * normal's below 2^-14, where a writer may flush to 0). */
struct bmtr_raw_diff {
    int same_names, same_phases, same_motion, same_props;
    uint64_t values, q_over, t_over;    /* transforms compared, beyond 1 */
    double q_max, t_max;
    uint64_t q_over_unit;               /* of q_over, a's quaternion unit */
    double q_max_unit;                  /* q_max of those */
    double t_max_m;                     /* the largest difference, metres */
    uint64_t t_over_normal;             /* of t_over, more than 2^-14 apart */
};

/* A stored quaternion counts as unit length within this: a unit one
 * quantised. */
#define BMTR_RAW_UNIT 6.2e-5           /* 4 components off by half a unit each */

void bmtr_raw_compare(const struct bmtr_raw *a, const struct bmtr_raw *b,
                      struct bmtr_raw_diff *d);

#endif
