/* mocap_retarget.c - a mocap made an anim of the skeleton, frame by frame
 * (mocap_retarget.h); the rest poses are compared once before, in
 * mocap_retarget_rest.c. */
#include "mocap_retarget_int.h"

#include <stdlib.h>
#include <string.h>

/* One frame of the source, posed: each joint's world rotation and
 * position, in the model's axes and metres (mocap_retarget_int.h). */
struct pose {
    double (*rot)[3][3];
    double (*pos)[3];
    double (*q)[4];             /* world quaternions, BVH axes, while composing */
};

/* A joint's local turn and place in a row: its rotation channels in the
 * order listed (Zrotation Xrotation Yrotation: Rz Rx Ry on column
 * vectors), its position channels in place of its OFFSET. */
static void local_of(const struct rtm_mocap_joint *jt, const double *row, double q[4],
                     double t[3])
{
    q[0] = 1;
    q[1] = q[2] = q[3] = 0;
    for (int k = 0; k < 3; k++)
        t[k] = jt->offset[k];
    for (int c = 0; c < jt->nchan; c++) {
        double v = row[jt->first + c];
        char ch = jt->chan[c];
        if (ch >= 'X' && ch <= 'Z') {
            t[ch - 'X'] = v;
            continue;
        }
        double h = v * (M_PI / 360), r[4] = { cos(h), 0, 0, 0 };
        r[1 + (ch - 'x')] = sin(h);
        rt_quat_mul(q, r, q);
    }
}

/* The source posed at u (source frames from 0; between two frames, each
 * joint's local turn slerped and its place moved linearly). */
static void pose_at(const struct rt *r, double u, struct pose *p)
{
    const struct rtm_mocap *m = r->m;
    uint32_t f0 = u > 0 ? (uint32_t)u : 0;
    double a = u - f0;
    if (f0 + 1 >= m->nframes) {
        f0 = m->nframes - 1;
        a = 0;
    }
    const double *row0 = m->values + (size_t)f0 * m->nvalues;
    const double *row1 = a > 0 ? row0 + m->nvalues : row0;
    for (uint32_t j = 0; j < m->njoints; j++) {
        const struct rtm_mocap_joint *jt = &m->joint[j];
        double q[4], t[3];
        local_of(jt, row0, q, t);
        if (a > 0) {
            double q1[4], t1[3];
            local_of(jt, row1, q1, t1);
            rt_slerp(q, q1, a, q);
            for (int k = 0; k < 3; k++)
                t[k] += a * (t1[k] - t[k]);
        }
        double pos[3] = { t[0], t[1], t[2] };
        if (jt->parent >= 0) {
            double pr[3][3];
            rt_quat_matrix(p->q[jt->parent], pr);
            rt_apply(pr, t, pos);
            for (int k = 0; k < 3; k++)         /* the parent's, still in BVH axes */
                pos[k] = pos[k] + p->pos[jt->parent][k];
            rt_quat_mul(p->q[jt->parent], q, q);
        }
        memcpy(p->q[j], q, sizeof p->q[j]);
        memcpy(p->pos[j], pos, sizeof p->pos[j]);
    }
    /* to the model's axes and metres: points S p, rotations S W S */
    for (uint32_t j = 0; j < m->njoints; j++) {
        double w[3][3], at[3];
        rt_quat_matrix(p->q[j], w);
        rt_rotation_in(r, w, p->rot[j]);
        rt_point_in(r, p->pos[j], at);
        memcpy(p->pos[j], at, sizeof at);
    }
    for (uint32_t j = 0; j < m->njoints; j++)
        for (int k = 0; k < 3; k++)
            p->pos[j][k] *= r->unit;
}

/* Where output frame i samples the source, in source frames. */
static double source_at(const struct rt *r, uint32_t i)
{
    if (r->nframes < 2 || r->nframes == r->m->nframes)
        return i;
    return (double)i * (r->m->nframes - 1) / (r->nframes - 1);
}

static float phase_of(const struct rt *r, uint32_t i)
{
    return r->nframes < 2 ? 0.0f : (float)((double)i / (r->nframes - 1));
}

static int pose_alloc(struct pose *p, uint32_t n)
{
    size_t k = n ? n : 1;
    p->rot = malloc(k * sizeof *p->rot);
    p->pos = malloc(k * sizeof *p->pos);
    p->q = malloc(k * sizeof *p->q);
    return p->rot && p->pos && p->q ? 0 : -1;
}

static void pose_free(struct pose *p)
{
    free(p->rot);
    free(p->pos);
    free(p->q);
}

/* ---- the root ---- */

struct root {
    double first[3], last[3];   /* the carrier's place, first and last frame */
    double motion[3];
};

/* The carrier's travel.  The retargeted motion is its net horizontal
 * travel scaled by the hip heights' ratio; the skeleton's own BVH's is
 * the travel of its unmapped root (anim.bvh's rtm_root carries motion x
 * phase), all three axes.  Only the first and last frames are posed. */
static void measure_root(const struct rt *r, struct pose *p, struct root *rt)
{
    memset(rt, 0, sizeof *rt);
    if (r->carrier < 0 || !r->nframes)
        return;
    pose_at(r, source_at(r, r->nframes - 1), p);
    memcpy(rt->last, p->pos[r->carrier], sizeof rt->last);
    pose_at(r, 0, p);
    memcpy(rt->first, p->pos[r->carrier], sizeof rt->first);
    for (int k = 0; k < 3; k++)
        rt->motion[k] = (rt->last[k] - rt->first[k]) * (r->identity ? 1 : r->ratio);
    if (!r->identity)
        rt->motion[1] = 0;                      /* vertical motion stays */
}

/* ---- the frames ---- */

/* A bone's matrix from its world turn g (column form) and joint place j:
 * rows 1-3 g^T, row 4 j - g pivot, so that pivot . M = j (pivots.h). */
static void put_matrix(float *m, const double g[3][3], const double j[3], const float *pivot)
{
    double pv[3] = { pivot[0], pivot[1], pivot[2] }, gp[3];
    rt_apply(g, pv, gp);
    for (int i = 0; i < 3; i++)
        for (int c = 0; c < 3; c++)
            m[i * 3 + c] = (float)g[c][i];
    for (int c = 0; c < 3; c++)
        m[9 + c] = (float)(j[c] - gp[c]);
}

/* Every bone's turn and joint in this frame, parents first: a mapped bone
 * turns as its source joint (after its fixed turn, or as it is on the
 * identity path); any other keeps its rest against its parent; a bone's
 * joint rides on its parent's (the skeleton's lengths), a root's stays at
 * its pivot; on the identity path a mapped joint goes where its source is. */
static void pose_bones(const struct rt *r, const struct pose *p, const double lift[3],
                       double (*g)[3][3], double (*jp)[3])
{
    const struct rtm_skeleton *s = r->s;
    for (uint32_t b = 0; b < s->nbones; b++) {
        int32_t up = s->parent[b], src = r->src[b];
        if (src >= 0)
            rt_mul(p->rot[src], r->align[b], g[b]);
        else if (up >= 0)
            memcpy(g[b], g[up], sizeof g[b]);
        else
            rt_identity(g[b]);
        if (r->identity && src >= 0) {
            for (int k = 0; k < 3; k++)
                jp[b][k] = p->pos[src][k] - lift[k];
        } else if (up >= 0) {
            double d[3];
            for (int k = 0; k < 3; k++)
                d[k] = (double)s->pivot[b][k] - s->pivot[up][k];
            rt_apply(g[up], d, d);
            for (int k = 0; k < 3; k++)
                jp[b][k] = jp[up][k] + d[k];
        } else {
            for (int k = 0; k < 3; k++)
                jp[b][k] = s->pivot[b][k];
        }
    }
}

/* Where the carrier's bone goes in frame i: its travel since the first
 * frame scaled, less the motion's share by phase; its height since the
 * first frame scaled (the clip is lifted onto the floor afterwards:
 * put_on_floor). */
static void carrier_place(const struct rt *r, const struct root *rt, const struct pose *p,
                          float phase, double out[3])
{
    const float *q = r->s->pivot[r->carrier_bone];
    const double *c = p->pos[r->carrier];
    out[0] = q[0] + r->ratio * (c[0] - rt->first[0]) - rt->motion[0] * phase;
    out[2] = q[2] + r->ratio * (c[2] - rt->first[2]) - rt->motion[2] * phase;
    out[1] = q[1] + r->ratio * (c[1] - rt->first[1]);
}

/* The lowest joint of a mapped bone in the rest pose: the floor. */
static double rest_floor(const struct rt *r)
{
    double low = HUGE_VAL;
    for (uint32_t b = 0; b < r->s->nbones; b++)
        if (r->src[b] >= 0 && r->s->pivot[b][1] < low)
            low = r->s->pivot[b][1];
    return low;
}

/* Lifts every frame by one height, so that the lowest any mapped bone's
 * joint goes in the clip (low) is the rest pose's floor: the feet touch
 * the ground where the source's do, whatever each skeleton's feet look
 * like at rest (the man's toes point down, a mocap's lie flat). */
static void put_on_floor(const struct rt *r, double low, struct rtm_anim *a)
{
    double lift = rest_floor(r) - low;
    if (!isfinite(lift))
        return;
    for (size_t m = 0; m < (size_t)a->nframes * a->nbones; m++)
        a->matrices[m * 12 + 10] = (float)(a->matrices[m * 12 + 10] + lift);
}

static int all_finite(const float *m, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(m[i]))
            return 0;
    return 1;
}

static int write_frames(const struct rt *r, struct pose *p, const struct root *rt,
                        struct rtm_anim *a)
{
    size_t nb = r->s->nbones ? r->s->nbones : 1;
    double (*g)[3][3] = malloc(nb * sizeof *g), (*jp)[3] = malloc(nb * sizeof *jp);
    int rc = g && jp ? 0 : -1;
    double low = HUGE_VAL;
    for (uint32_t i = 0; !rc && i < r->nframes; i++) {
        pose_at(r, source_at(r, i), p);
        double lift[3] = { 0, 0, 0 };
        if (r->identity && r->carrier >= 0)
            memcpy(lift, p->pos[r->carrier], sizeof lift);
        pose_bones(r, p, lift, g, jp);
        double shift[3] = { 0, 0, 0 };
        if (!r->identity && r->carrier_bone >= 0) {
            double want[3];
            carrier_place(r, rt, p, a->phases[i], want);
            for (int k = 0; k < 3; k++)
                shift[k] = want[k] - jp[r->carrier_bone][k];
        }
        for (uint32_t b = 0; b < r->s->nbones; b++) {
            for (int k = 0; k < 3; k++)
                jp[b][k] += shift[k];
            if (r->src[b] >= 0 && jp[b][1] < low)
                low = jp[b][1];
            put_matrix(a->matrices + ((size_t)i * a->nbones + b) * 12, g[b], jp[b],
                       r->s->pivot[b]);
        }
    }
    if (!rc && !r->identity)
        put_on_floor(r, low, a);
    free(g);
    free(jp);
    return rc;
}

/* ---- what header.txt says ---- */

static const char *how_name(uint8_t how)
{
    switch (how) {
    case RTM_MAP_FILE: return "map file";
    case RTM_MAP_EXACT: return "name";
    case RTM_MAP_NAMING: return "naming";
    case RTM_MAP_TAKEN: return "taken";
    default: return NULL;
    }
}

/* The bone joint j lost to a joint nearer the root, or -1. */
static int32_t lost_bone(const struct rt *r, uint32_t j)
{
    if (r->identity || r->jhow[j] != RTM_MAP_TAKEN || !r->map->wanted)
        return -1;
    int32_t b = r->map->wanted[j];
    return b >= 0 && (uint32_t)b < r->s->nbones ? b : -1;
}

static size_t bone_len(const struct rt *r, int32_t b)
{
    return b >= 0 ? strlen(r->s->bone[b]) + 1 : 0;
}

/* Copies bone b's name to *at: its copy, or NULL for none. */
static const char *put_bone(const struct rt *r, int32_t b, char **at)
{
    if (b < 0)
        return NULL;
    size_t n = strlen(r->s->bone[b]) + 1;
    char *s = memcpy(*at, r->s->bone[b], n);
    *at += n;
    return s;
}

static struct rtm_bvh_info *make_info(const struct rt *r, const struct rtm_mocap_opts *o)
{
    const struct rtm_mocap *m = r->m;
    size_t len = 1;
    for (uint32_t j = 0; j < m->njoints; j++)
        len += strlen(m->joint[j].name) + 1 + bone_len(r, r->jbone[j]) +
               bone_len(r, lost_bone(r, j));
    struct rtm_bvh_info *in = calloc(1, sizeof *in);
    if (!in || !(in->names = malloc(len)) ||
        !(in->joint = calloc(m->njoints ? m->njoints : 1, sizeof *in->joint))) {
        rtm_bvh_info_free(in);
        return NULL;
    }
    char *at = in->names;
    for (uint32_t j = 0; j < m->njoints; j++) {
        size_t n = strlen(m->joint[j].name) + 1;
        in->joint[j].name = memcpy(at, m->joint[j].name, n);
        at += n;
        in->joint[j].target = put_bone(r, r->jbone[j], &at);
        in->joint[j].wanted = put_bone(r, lost_bone(r, j), &at);
        in->joint[j].how = how_name(r->jhow[j]);
    }
    in->njoints = m->njoints;
    in->nmapped = r->nmapped;
    in->source_frames = m->nframes;
    in->frame_time = m->frame_time;
    in->fps = o && o->fps > 0 ? o->fps : 0;
    in->unit = r->unit;
    in->unit_name = r->unit_name;
    in->height = r->height;
    in->naming = rtm_mocap_naming_name(r->identity ? RTM_NAMING_SKELETON : r->map->naming);
    in->identity = r->identity;
    in->zup = r->zup;
    in->hip_ratio = r->identity ? 1 : r->ratio;
    return in;
}

/* ---- the anim ---- */

static struct rtm_anim *make_anim(const struct rt *r, enum rtm_depth depth)
{
    const struct rtm_skeleton *s = r->s;
    size_t strings = 0;
    for (uint32_t b = 0; b < s->nbones; b++)
        strings += strlen(s->bone[b]) + 1;
    struct rtm_anim *a = rtm_anim_alloc(RTM_FORMAT_BVH, r->nframes, s->nbones, 0, strings, depth);
    if (!a)
        return NULL;
    for (uint32_t b = 0; b < s->nbones; b++)
        a->bones[b] = rtm_anim_str(a, s->bone[b], (uint32_t)strlen(s->bone[b]));
    for (uint32_t i = 0; depth > RTM_DEPTH_SHAPE && i < r->nframes; i++)
        a->phases[i] = phase_of(r, i);
    return a;
}

static int fill(const struct rt *r, struct rtm_anim *a)
{
    if (a->depth == RTM_DEPTH_SHAPE)
        return 0;
    struct pose p;
    struct root rt;
    int rc = pose_alloc(&p, r->m->njoints);
    if (!rc) {
        measure_root(r, &p, &rt);
        for (int k = 0; k < 3; k++)
            a->motion[k] = (float)rt.motion[k];
        if (a->depth == RTM_DEPTH_FULL)
            rc = write_frames(r, &p, &rt, a);
    }
    pose_free(&p);
    return rc;
}

int rtm_mocap_retarget(const struct rtm_mocap *m, const struct rtm_mocap_map *map,
                       const struct rtm_skeleton *s, const struct rtm_mocap_opts *o,
                       unsigned flags, struct rtm_anim **out, struct rtm_error *err)
{
    *out = NULL;
    struct rt r;
    if (rt_prepare(&r, m, map, s, o, err))
        return -1;
    enum rtm_depth depth = !m->values ? RTM_DEPTH_SHAPE
                           : flags & RTM_PARSE_NO_MATRICES ? RTM_DEPTH_LIGHT : RTM_DEPTH_FULL;
    struct rtm_anim *a = make_anim(&r, depth);
    int rc = !a || !(a->bvh = make_info(&r, o)) || fill(&r, a) ? -1 : 0;
    if (!rc && a->depth == RTM_DEPTH_FULL &&
        !all_finite(a->matrices, (size_t)a->nframes * a->nbones * 12))
        rc = -2;
    if (!rc && !all_finite(a->motion, 3))
        rc = -2;
    rt_release(&r);
    if (rc) {
        rtm_free(a);
        if (rc == -2)
            rtm_err_nooff(err, "retargeting gave a number a float cannot hold: the "
                          "file's positions are too large");
        else
            rtm_err_oom(err, "out of memory retargeting %u frames of %u bones", r.nframes,
                        s->nbones);
        return -1;
    }
    *out = a;
    return 0;
}
