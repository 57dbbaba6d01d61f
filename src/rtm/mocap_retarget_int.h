/* mocap_retarget_int.h - what the two halves of the retargeting share
 * (mocap_retarget_rest.c: the rest poses compared once; mocap_retarget.c:
 * the frames).
 *
 * Conventions: every rotation here is a 3x3 in column form (v' = R v) and
 * every position a point of Arma's model space in metres (+x left, +y up,
 * facing -z).  A BVH point (x, y, z) in file units is (x, y, -z) * unit
 * there, a BVH rotation W is S W S with S = diag(1, 1, -1): the inverse of
 * what src/views/bvh.c writes.  A file whose up is z, as Blender's BVH
 * exporter writes its world (z up, x right, y back), is read with S the
 * swap of y and z: (x, z, y).  The rotation algebra is rotmath.h's.
 */
#ifndef RTM_MOCAP_RETARGET_INT_H
#define RTM_MOCAP_RETARGET_INT_H

#include <math.h>
#include <stdint.h>

#include "mocap.h"
#include "mocap_retarget.h"
#include "rotmath.h"
#include "skeleton.h"

/* Below this many metres two joints are one point: no direction. */
#define RT_SAME_POINT 1e-4
/* rtm(5): a BVH whose mapped joints sit within this of their pivots is the
 * skeleton's own. */
#define RT_IDENTITY_TOL 0.001

/* The rest poses compared, made once a parse (rt_prepare). */
struct rt {
    const struct rtm_mocap *m;
    const struct rtm_mocap_map *map;
    const struct rtm_skeleton *s;
    double unit;                /* metres a file unit */
    const char *unit_name;      /* "cm", "m", "in", "cmu", or "set" */
    double height;              /* the rest pose's height, file units */
    int identity;               /* the skeleton's own BVH: taken as it is */
    int zup;                    /* the file's up is z (Blender's), not y */
    int32_t *jbone;             /* per joint: the bone it stands for, or -1:
                                   the map's, or on the identity path its
                                   own name's */
    uint8_t *jhow;              /* per joint: enum rtm_mocap_how */
    uint32_t nmapped;           /* joints with a bone */
    int32_t *src;               /* per bone: its source joint, or -1 */
    double (*align)[3][3];      /* per bone: its fixed turn A (rest to rest) */
    double (*rest)[3];          /* per joint: its rest position */
    int32_t carrier;            /* the joint whose travel is the root's */
    int32_t carrier_bone;       /* the bone it maps to (-1: identity path) */
    double ratio;               /* target hip height over the source's */
    uint32_t nframes;           /* frames out (resampled or not) */
};

/* A point of the file (file units) in the model's axes (still in file
 * units), and a rotation W of the file as S W S: see the conventions. */
static inline void rt_point_in(const struct rt *r, const double in[3], double out[3])
{
    double x = in[0], y = in[1], z = in[2];
    out[0] = x;
    out[1] = r->zup ? z : y;
    out[2] = r->zup ? y : -z;
}
static inline void rt_rotation_in(const struct rt *r, const double w[3][3], double out[3][3])
{
    static const int swap[3] = { 0, 2, 1 };
    for (int x = 0; x < 3; x++)
        for (int y = 0; y < 3; y++)
            out[x][y] = r->zup ? w[swap[x]][swap[y]]
                               : w[x][y] * (x == 2 ? -1 : 1) * (y == 2 ? -1 : 1);
}

int rt_prepare(struct rt *r, const struct rtm_mocap *m, const struct rtm_mocap_map *map,
               const struct rtm_skeleton *s, const struct rtm_mocap_opts *o,
               struct rtm_error *err);
void rt_release(struct rt *r);
/* Frames out: every source frame, or the clip's length at fps (at least
 * one step a source frame's worth, evenly spread, first and last kept). */
uint32_t rt_frame_count(const struct rtm_mocap *m, double fps);

#endif
