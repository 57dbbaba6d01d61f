/* motion.c - nearest rotations and the motion measure (motion.h). */
#include "motion.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static inline double det3(const double x[3][3])
{
    return x[0][0] * (x[1][1] * x[2][2] - x[1][2] * x[2][1]) -
           x[0][1] * (x[1][0] * x[2][2] - x[1][2] * x[2][0]) +
           x[0][2] * (x[1][0] * x[2][1] - x[1][1] * x[2][0]);
}

static inline void load3(const float *m, double x[3][3])
{
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            x[r][c] = m[r * 3 + c];
}

/* Whether all 12 floats are finite: no exponent of all ones, looked at in
 * one pass without a branch (every parse asks it of every matrix). */
static inline int finite12(const float *m)
{
    uint32_t all = 0;
    for (int k = 0; k < 12; k++) {
        uint32_t bits;
        memcpy(&bits, &m[k], 4);
        all |= (bits & 0x7f800000u) == 0x7f800000u;
    }
    return !all;
}

/* Whether the 12 floats are finite and det R > 0. */
static inline int usable(const float *m)
{
    if (!finite12(m))
        return 0;
    double x[3][3];
    load3(m, x);
    return det3(x) > 0;
}

int rtm_matrix_usable(const float *m) { return usable(m); }

enum rtm_matrix_kind rtm_matrix_kind(const float *m)
{
    if (!usable(m))
        return RTM_MATRIX_UNUSABLE;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j <= i; j++) {
            double d = (double)m[i * 3] * m[j * 3] + (double)m[i * 3 + 1] * m[j * 3 + 1] +
                       (double)m[i * 3 + 2] * m[j * 3 + 2] - (i == j);
            if (fabs(d) > RTM_SCALE_TOL)
                return RTM_MATRIX_SCALED;
        }
    return RTM_MATRIX_ROTATION;
}

/* Newton's iteration for the polar factor, X <- (g X + (g X)^-T) / 2, with
 * g = det(X)^(-1/3) so that a bone scaled by 0.01 converges as fast as one
 * that is not: a few steps from any usable matrix. */
int rtm_nearest_rotation(const float *m, double q[3][3])
{
    if (!rtm_matrix_usable(m))
        return -1;
    double x[3][3];
    load3(m, x);
    for (int it = 0; it < 40; it++) {
        double det = det3(x);
        if (!(det > 0) || !isfinite(det))
            return -1;
        double g = cbrt(1.0 / det), gdet = g * det, change = 0, next[3][3];
        /* Element (r, c), its cofactor from constant places: every matrix
         * of a first mount's sizing comes here, and the loops this was
         * took a seventh of the time on their remainders.  The same
         * operations in the same order give the same bits. */
#define NEWTON_STEP(r, c)                                                                   \
    next[r][c] = 0.5 * (g * x[r][c] + (x[((r) + 1) % 3][((c) + 1) % 3] *                     \
                                            x[((r) + 2) % 3][((c) + 2) % 3] -                 \
                                        x[((r) + 1) % 3][((c) + 2) % 3] *                     \
                                            x[((r) + 2) % 3][((c) + 1) % 3]) /                \
                                           gdet);                                           \
    change += fabs(next[r][c] - x[r][c])
        NEWTON_STEP(0, 0);
        NEWTON_STEP(0, 1);
        NEWTON_STEP(0, 2);
        NEWTON_STEP(1, 0);
        NEWTON_STEP(1, 1);
        NEWTON_STEP(1, 2);
        NEWTON_STEP(2, 0);
        NEWTON_STEP(2, 1);
        NEWTON_STEP(2, 2);
#undef NEWTON_STEP
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                x[r][c] = next[r][c];
        if (change < 1e-14)
            break;
    }
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            q[r][c] = x[r][c];
    return 0;
}

/* out = a · b^T, or a when b is NULL. */
static void times_transpose(const double a[3][3], const double (*b)[3], double out[3][3])
{
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            out[r][c] = b ? a[r][0] * b[c][0] + a[r][1] * b[c][1] + a[r][2] * b[c][2] : a[r][c];
}

/* The angle between two rotations from their distance, which unlike
 * acos((trace - 1) / 2) keeps its precision at small angles:
 * |A - B|_F = 2 sqrt(2) sin(angle / 2). */
static double angle_between(const double a[3][3], const double b[3][3])
{
    double s = 0;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            s += (a[r][c] - b[r][c]) * (a[r][c] - b[r][c]);
    double h = sqrt(s) / (2 * sqrt(2.0));
    return 2 * asin(h < 1 ? h : 1);
}

/* p · M in doubles. */
static void point_times(const float p[3], const float *m, double out[3])
{
    for (int k = 0; k < 3; k++)
        out[k] = (double)p[0] * m[k] + (double)p[1] * m[3 + k] + (double)p[2] * m[6 + k] +
                 m[9 + k];
}

struct reference {
    double rel[3][3];
    double drift[3];
    int set;
};

struct measure {
    const struct rtm_anim *a;
    double (*q)[3][3];          /* this frame's nearest rotations */
    uint8_t *ok;
    struct reference *ref;
};

static int32_t parent_of(const struct rtm_anim *a, uint32_t b)
{
    return a->skel_parent ? a->skel_parent[b] : -1;
}

/* The joint's drift from its parent in the parent's frame (motion.h). */
static void drift(const struct measure *ms, uint32_t f, uint32_t b, int32_t p, double d[3])
{
    const struct rtm_anim *a = ms->a;
    double jb[3], jp[3] = { 0, 0, 0 };
    point_times(a->pivot[b], rtm_matrix(a, f, b), jb);
    if (p >= 0)
        point_times(a->pivot[b], rtm_matrix(a, f, (uint32_t)p), jp);
    double v[3] = { jb[0] - jp[0], jb[1] - jp[1], jb[2] - jp[2] };
    for (int k = 0; k < 3; k++)
        d[k] = p < 0 ? v[k] : v[0] * ms->q[p][k][0] + v[1] * ms->q[p][k][1] + v[2] * ms->q[p][k][2];
}

static void measure_bone(struct measure *ms, uint32_t f, uint32_t b, struct rtm_bone_motion *o)
{
    int32_t p = parent_of(ms->a, b);
    if (!ms->ok[b] || (p >= 0 && !ms->ok[p]))
        return;
    struct reference *ref = &ms->ref[b];
    double rel[3][3], d[3] = { 0, 0, 0 };
    times_transpose(ms->q[b], p >= 0 ? (const double (*)[3])ms->q[p] : NULL, rel);
    if (o->has_translation)
        drift(ms, f, b, p, d);
    o->frames++;
    if (!ref->set) {
        memcpy(ref->rel, rel, sizeof rel);
        memcpy(ref->drift, d, sizeof d);
        ref->set = 1;
        return;
    }
    double deg = angle_between(rel, ref->rel) * (180.0 / M_PI);
    double dist = sqrt((d[0] - ref->drift[0]) * (d[0] - ref->drift[0]) +
                       (d[1] - ref->drift[1]) * (d[1] - ref->drift[1]) +
                       (d[2] - ref->drift[2]) * (d[2] - ref->drift[2]));
    if (deg > o->rotation_deg)
        o->rotation_deg = deg;
    if (dist > o->translation_m)
        o->translation_m = dist;
}

int rtm_motion_measure_with(const struct rtm_anim *a, const struct rtm_rotations *r,
                            struct rtm_bone_motion *out)
{
    if (a->depth < RTM_DEPTH_FULL)
        return -1;
    size_t n = a->nbones ? a->nbones : 1;
    struct measure ms = { a, r ? NULL : malloc(n * sizeof *ms.q), r ? NULL : malloc(n),
                          calloc(n, sizeof *ms.ref) };
    int rc = (r || (ms.q && ms.ok)) && ms.ref ? 0 : -1;
    for (uint32_t b = 0; !rc && b < a->nbones; b++)
        out[b] = (struct rtm_bone_motion){ 0, 0, a->pivot && a->in_skeleton[b], 0 };
    for (uint32_t f = 0; !rc && f < a->nframes; f++) {
        if (r) {
            ms.q = r->q + (size_t)f * a->nbones;
            ms.ok = r->ok + (size_t)f * a->nbones;
        }
        for (uint32_t b = 0; !r && b < a->nbones; b++)
            ms.ok[b] = rtm_nearest_rotation(rtm_matrix(a, f, b), ms.q[b]) == 0;
        for (uint32_t b = 0; b < a->nbones; b++)
            measure_bone(&ms, f, b, &out[b]);
    }
    if (!r) {
        free(ms.q);
        free(ms.ok);
    }
    free(ms.ref);
    return rc;
}

int rtm_motion_measure(const struct rtm_anim *a, struct rtm_bone_motion *out)
{
    return rtm_motion_measure_with(a, NULL, out);
}

uint64_t rtm_rotations_bytes(const struct rtm_anim *a)
{
    return (uint64_t)a->nframes * a->nbones * (sizeof(double[3][3]) + 1);
}

/* A slot for a 3x3 part among SAME_SLOTS (a power of two): a word at a
 * time, multiplied in, the top bits taken.  Only a hint (rotation_of
 * compares the floats), so any spread will do, and a bytewise hash of 36
 * bytes cost a sixth of making the rotations. */
enum { SAME_SLOTS = 256, SAME_SLOT_BITS = 8 };
_Static_assert(SAME_SLOTS == 1 << SAME_SLOT_BITS, "SAME_SLOT_BITS picks a slot");
static inline unsigned rotation_slot(const float *m)
{
    uint64_t h = 0;
    for (int k = 0; k < 9; k++) {
        uint32_t bits;
        memcpy(&bits, &m[k], 4);
        h = (h ^ bits) * 0x9e3779b97f4a7c15ull;
    }
    return (unsigned)(h >> (64 - SAME_SLOT_BITS));
}

/* The rotation of bone b in frame f (its place i in r), or the one of an
 * earlier bone of the frame with the same 3x3 part (a rigid chain in model
 * space: a fifth of real files' matrices), which the same floats give
 * bit for bit; same[] holds, by rotation_slot, the last bone + 1 there. */
static void rotation_of(const struct rtm_anim *a, uint32_t f, uint32_t b, size_t i,
                        uint32_t *same, struct rtm_rotations *r)
{
    const float *m = rtm_matrix(a, f, b);
    unsigned k = rotation_slot(m);
    uint32_t j = same[k];
    size_t at = i - b + (j - 1);
    if (j && r->ok[at] && memcmp(rtm_matrix(a, f, j - 1), m, 9 * sizeof *m) == 0 &&
        finite12(m)) {
        memcpy(r->q[i], r->q[at], sizeof r->q[i]);
        r->ok[i] = 1;
        return;
    }
    r->ok[i] = rtm_nearest_rotation(m, r->q[i]) == 0;
    same[k] = b + 1;
}

int rtm_rotations_make(const struct rtm_anim *a, struct rtm_rotations *r)
{
    size_t n = (size_t)a->nframes * a->nbones;
    r->q = a->depth == RTM_DEPTH_FULL ? malloc((n ? n : 1) * sizeof *r->q) : NULL;
    r->ok = r->q ? malloc(n ? n : 1) : NULL;
    if (!r->ok) {
        rtm_rotations_free(r);
        return -1;
    }
    /* a bone that holds still repeats its matrix bit for bit: its
     * rotation is the frame before's (one in seven in real files) */
    uint32_t same[SAME_SLOTS];
    for (uint32_t f = 0; f < a->nframes; f++) {
        memset(same, 0, sizeof same);
        for (uint32_t b = 0; b < a->nbones; b++) {
            size_t i = (size_t)f * a->nbones + b, before = i - a->nbones;
            const float *m = rtm_matrix(a, f, b);
            if (f && memcmp(m, rtm_matrix(a, f - 1, b), 12 * sizeof *m) == 0) {
                memcpy(r->q[i], r->q[before], sizeof r->q[i]);
                r->ok[i] = r->ok[before];
            } else {
                rotation_of(a, f, b, i, same, r);
            }
        }
    }
    return 0;
}

void rtm_rotations_free(struct rtm_rotations *r)
{
    free(r->q);
    free(r->ok);
    r->q = NULL;
    r->ok = NULL;
}

int rtm_bone_moves(const struct rtm_bone_motion *m)
{
    return m->rotation_deg > RTM_MOVE_MIN_DEG ||
           (m->has_translation && m->translation_m > RTM_MOVE_MIN_M);
}
