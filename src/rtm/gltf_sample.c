/* gltf_sample.c - a glTF clip's tracks and frames, and the rest pose they
 * turn from (gltf_math.h's pose).
 *
 * The frames are evenly spaced from the clip's first key time to its
 * last, at the rate of its densest sampler's keys (the one with the most):
 * its time span over its keys less one.  Exporters bake evenly spaced keys,
 * where that is the step between them; and it is what the JSON alone says
 * (count, min and max of the input accessor, which glTF requires), so a
 * listing's head read gives the same frame count as the full read.  The
 * count is bounded by the keys: at most four frames a key of all the
 * samplers together (a key is at least four bytes of buffer). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_math.h"

int gltf_oom(struct gltf *g)
{
    rtm_err_oom(g->err, "out of memory reading glTF");
    return -1;
}

/* ---- the tracks ---- */

static uint64_t byte_of(const struct gltf *g, const struct gltf_accessor *a, uint32_t i)
{
    if (a->buffer < 0 || !g->buffer[a->buffer].file_at)
        return 0;
    return g->buffer[a->buffer].file_at + a->offset + a->stride * i;
}

static int fail_at(struct gltf *g, const struct gltf_accessor *a, uint32_t i, const char *what)
{
    uint64_t at = byte_of(g, a, i);
    if (at)
        rtm_err_set(g->err, at, "glTF: accessors[%u][%u]: %s", a->index, i, what);
    else
        rtm_err_nooff(g->err, "glTF: accessors[%u][%u]: %s", a->index, i, what);
    return -1;
}

/* Key times finite and increasing, first and last what min and max say. */
static int check_times(struct gltf *g, const struct gltf_accessor *a)
{
    double prev = 0;
    for (uint32_t i = 0; i < a->count; i++) {
        double t = gltf_get(a, i, 0);
        if (!isfinite(t))
            return fail_at(g, a, i, "a key time that is not a finite number");
        if (i > 0 && !(t > prev))
            return fail_at(g, a, i, "key times do not increase");
        prev = t;
    }
    double lo = gltf_get(a, 0, 0), hi = prev, tol = 1e-4 * fmax(1, fabs(a->max));
    if (fabs(lo - a->min) > tol || fabs(hi - a->max) > tol)
        return fail_at(g, a, 0, "its min and max are not its first and last key times");
    return 0;
}

static int check_values(struct gltf *g, const struct gltf_accessor *a)
{
    for (uint32_t i = 0; i < a->count; i++)
        for (uint32_t k = 0; k < a->ncomp; k++)
            if (!isfinite(gltf_get(a, i, k)))
                return fail_at(g, a, i, "a key value that is not a finite number");
    return 0;
}

static int make_track(struct gltf *g, uint32_t c, struct track *t, int head)
{
    static const uint32_t SCALAR[] = { 1, 0 }, VEC3[] = { 3, 0 }, VEC4[] = { 4, 0 };
    const struct gltf_channel *ch = &g->channel[c];
    const struct gltf_sampler *s = &g->sampler[ch->sampler];
    t->interp = s->interp;
    t->path = ch->path;
    t->node = ch->node;
    if (gltf_accessor(g, s->input, SCALAR, 1, &t->in) ||
        gltf_accessor(g, s->output, ch->path == GLTF_ROTATION ? VEC4 : VEC3,
                      ch->path != GLTF_ROTATION, &t->out))
        return -1;
    if (!t->in.has_minmax)
        return gltf_fail(g, "accessors[%u], a clip's key times, has no min and max (glTF "
                         "requires them)", s->input);
    if (!(t->in.max >= t->in.min) || (t->in.count > 1 && !(t->in.max > t->in.min)))
        return gltf_fail(g, "accessors[%u]: key times do not increase (min %g, max %g)",
                         s->input, t->in.min, t->in.max);
    uint64_t want = (uint64_t)t->in.count * (s->interp == GLTF_CUBICSPLINE ? 3 : 1);
    if (t->out.count != want)
        return gltf_fail(g, "animations[%u].samplers[%u]: %u key times but %u values (%s "
                         "takes %llu)", g->clip, ch->sampler, t->in.count, t->out.count,
                         s->interp == GLTF_CUBICSPLINE ? "CUBICSPLINE" : "it",
                         (unsigned long long)want);
    if (head)
        return 0;
    if (gltf_values(g, &t->in) || gltf_values(g, &t->out))
        return -1;
    return check_times(g, &t->in) || check_values(g, &t->out);
}

/* The frame grid (see the top). */
static void frame_grid(struct pose *p)
{
    const struct track *dense = NULL;
    double first = INFINITY, last = -INFINITY;
    uint64_t keys = 0;
    for (uint32_t k = 0; k < p->ntracks; k++) {
        const struct track *t = &p->track[k];
        if (!dense || t->in.count > dense->in.count)
            dense = t;
        first = fmin(first, t->in.min);
        last = fmax(last, t->in.max);
        keys += t->in.count;
    }
    p->nframes = 1;
    p->frame_time = 1.0 / 30;
    p->first = dense ? first : 0;
    if (!dense || dense->in.count < 2 || !(last > first))
        return;
    double step = (dense->in.max - dense->in.min) / (dense->in.count - 1);
    double n = floor((last - first) / step + 0.5) + 1, most = 4.0 * (double)keys;
    if (!(n <= most))
        n = most;
    if (n > UINT32_MAX / 2)
        n = UINT32_MAX / 2;
    p->nframes = n < 2 ? 2 : (uint32_t)n;
    p->frame_time = (last - first) / (p->nframes - 1);
}

int gltf_tracks(struct gltf *g, struct pose *p, int head)
{
    p->track = calloc(g->nchannels ? g->nchannels : 1, sizeof *p->track);
    p->use = malloc((size_t)g->nnodes * 3 * sizeof *p->use);
    if (!p->track || !p->use)
        return gltf_oom(g);
    for (uint32_t i = 0; i < g->nnodes * 3; i++)
        p->use[i] = -1;
    for (uint32_t c = 0; c < g->nchannels; c++) {
        struct track *t = &p->track[p->ntracks];
        if (make_track(g, c, t, head))
            return -1;
        p->use[t->node * 3 + t->path] = (int32_t)p->ntracks++;
    }
    frame_grid(p);
    return 0;
}

/* ---- the rest pose ---- */

/* The inverse of an affine x (its 3x3 by cofactors); -1 when singular. */
static int invert(const struct xform *x, struct xform *out)
{
    const double(*m)[3] = x->m;
    double c[3][3] = {
        { m[1][1] * m[2][2] - m[1][2] * m[2][1], m[0][2] * m[2][1] - m[0][1] * m[2][2],
          m[0][1] * m[1][2] - m[0][2] * m[1][1] },
        { m[1][2] * m[2][0] - m[1][0] * m[2][2], m[0][0] * m[2][2] - m[0][2] * m[2][0],
          m[0][2] * m[1][0] - m[0][0] * m[1][2] },
        { m[1][0] * m[2][1] - m[1][1] * m[2][0], m[0][1] * m[2][0] - m[0][0] * m[2][1],
          m[0][0] * m[1][1] - m[0][1] * m[1][0] },
    };
    double det = m[0][0] * c[0][0] + m[0][1] * c[1][0] + m[0][2] * c[2][0];
    if (!(fabs(det) > 1e-12) || !isfinite(det))
        return -1;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            out->m[i][j] = c[i][j] / det;
    for (int i = 0; i < 3; i++)
        out->t[i] = -(out->m[i][0] * x->t[0] + out->m[i][1] * x->t[1] + out->m[i][2] * x->t[2]);
    return 0;
}

/* The skin's bind pose: joint k's world is the inverse of its inverse
 * bind matrix.  Joints the skin lacks (a common root added) keep the
 * nodes' rest. */
static int bind_pose(struct gltf *g, struct pose *p)
{
    static const uint32_t MAT4[] = { 16, 0 };
    struct gltf_accessor a;
    if (gltf_accessor(g, (uint32_t)g->ibm, MAT4, 1, &a) || gltf_values(g, &a))
        return -1;
    if (a.count < g->nskin)
        return gltf_fail(g, "skins[0].inverseBindMatrices holds %u matrices for %u joints",
                         a.count, g->nskin);
    for (uint32_t k = 0; k < g->nskin; k++) {
        struct xform ibm, w;
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 3; r++) {
                double v = gltf_get(&a, k, (uint32_t)(4 * c + r));
                if (!isfinite(v))
                    return fail_at(g, &a, k, "an inverse bind matrix that is not finite");
                if (c < 3)
                    ibm.m[r][c] = v;
                else
                    ibm.t[r] = v;
            }
        if (invert(&ibm, &w))
            return fail_at(g, &a, k, "an inverse bind matrix that has no inverse");
        p->rest[p->of[g->skin[k]]] = w;
    }
    return 0;
}

int gltf_rest(struct gltf *g, struct pose *p, int head)
{
    p->rest = malloc(p->njoints * sizeof *p->rest);
    p->world = malloc((size_t)g->nnodes * sizeof *p->world);
    p->lastrot = malloc(p->njoints * sizeof *p->lastrot);
    if (!p->rest || !p->world || !p->lastrot)
        return gltf_oom(g);
    for (uint32_t k = 0; k < p->nchain; k++) {
        uint32_t i = p->chain[k];
        const struct gltf_node *n = &g->node[i];
        struct xform local;
        gm_trs(n->t, n->r, n->s, &local);
        if (n->parent >= 0)
            gm_compose(&p->world[n->parent], &local, &p->world[i]);
        else
            p->world[i] = local;
    }
    for (uint32_t j = 0; j < p->njoints; j++)
        p->rest[j] = p->world[p->joint[j]];
    if (!head && g->nskin && g->ibm >= 0 && bind_pose(g, p))
        return -1;
    for (uint32_t j = 0; j < p->njoints; j++)
        if (gm_rotation(p->rest[j].m, p->rest[j].m))
            return gltf_fail(g, "nodes[%u] has a rest pose of no size (a scale of 0)",
                             p->joint[j]);
    return 0;
}

/* ---- the frames ---- */

/* Key i's value (CUBICSPLINE: the middle of its three). */
static void key(const struct track *t, uint32_t i, uint32_t part, double v[4])
{
    uint32_t e = t->interp == GLTF_CUBICSPLINE ? 3 * i + part : i;
    for (uint32_t k = 0; k < t->out.ncomp; k++)
        v[k] = gltf_get(&t->out, e, k);
}

/* t's value at time x, as its sampler says; times only increase between
 * calls, so the cursor only moves on. */
static void sample(struct track *t, double x, double v[4])
{
    const struct gltf_accessor *in = &t->in;
    while (t->cursor + 1 < in->count && gltf_get(in, t->cursor + 1, 0) <= x)
        t->cursor++;
    uint32_t k = t->cursor;
    double t0 = gltf_get(in, k, 0);
    if (k + 1 >= in->count || x <= t0 || t->interp == GLTF_STEP) {
        key(t, k, 1, v);
        return;
    }
    double t1 = gltf_get(in, k + 1, 0), td = t1 - t0, s = (x - t0) / td;
    double a[4], b[4];
    key(t, k, 1, a);
    key(t, k + 1, 1, b);
    uint32_t n = t->out.ncomp;
    if (t->interp == GLTF_CUBICSPLINE) {
        double out_tan[4], in_tan[4], s2 = s * s, s3 = s2 * s;
        key(t, k, 2, out_tan);
        key(t, k + 1, 0, in_tan);
        for (uint32_t c = 0; c < n; c++)
            v[c] = (2 * s3 - 3 * s2 + 1) * a[c] + (s3 - 2 * s2 + s) * td * out_tan[c] +
                   (-2 * s3 + 3 * s2) * b[c] + (s3 - s2) * td * in_tan[c];
    } else if (t->path == GLTF_ROTATION) {
        rt_slerp(a, b, s, v);
    } else {
        for (uint32_t c = 0; c < n; c++)
            v[c] = a[c] + s * (b[c] - a[c]);
    }
}

/* Every chain node's world at time x into p->world. */
static void pose_at(const struct gltf *g, struct pose *p, double x)
{
    for (uint32_t k = 0; k < p->nchain; k++) {
        uint32_t i = p->chain[k];
        const struct gltf_node *n = &g->node[i];
        double trs[3][4] = { { n->t[0], n->t[1], n->t[2] }, { n->r[0], n->r[1], n->r[2], n->r[3] },
                             { n->s[0], n->s[1], n->s[2] } };
        for (int path = 0; path < 3; path++)
            if (p->use[i * 3 + path] >= 0)
                sample(&p->track[p->use[i * 3 + path]], x, trs[path]);
        struct xform local;
        gm_trs(trs[0], trs[1], trs[2], &local);
        if (n->parent >= 0)
            gm_compose(&p->world[n->parent], &local, &p->world[i]);
        else
            p->world[i] = local;
    }
}

/* One row: the root's place and every joint's turn from its rest, each
 * against its parent's (see gltf_pose.c's top). */
static int put_row(struct gltf *g, struct pose *p, const struct rtm_mocap *m, double *row)
{
    for (uint32_t j = 0; j < p->njoints; j++) {
        const struct xform *w = &p->world[p->joint[j]];
        double r[3][3], local[3][3];
        if (gm_rotation(w->m, r))
            return gltf_fail(g, "nodes[%u] is scaled to nothing in the clip", p->joint[j]);
        gm_mult(r, p->rest[j].m, p->lastrot[j]);            /* W_bvh = R R_rest^T */
        int32_t parent = m->joint[j].parent;
        if (parent >= 0)
            gm_tmul(p->lastrot[parent], p->lastrot[j], local);
        else
            memcpy(local, p->lastrot[j], sizeof local);
        double *v = row + m->joint[j].first;
        if (parent < 0) {
            memcpy(v, w->t, 3 * sizeof *v);
            v += 3;
        } else if (m->joint[j].nchan == 6) {    /* its place in its parent's turned frame */
            const double *pt = p->world[p->joint[parent]].t;
            const double (*pr)[3] = p->lastrot[parent];
            double d[3] = { w->t[0] - pt[0], w->t[1] - pt[1], w->t[2] - pt[2] };
            for (int k = 0; k < 3; k++)
                v[k] = pr[0][k] * d[0] + pr[1][k] * d[1] + pr[2][k] * d[2];
            v += 3;
        }
        gm_euler_zxy(local, v);
    }
    return 0;
}

int gltf_frames(struct gltf *g, struct pose *p, struct rtm_mocap *m)
{
    if (rtm_mocap_alloc_values(m))
        return gltf_oom(g);
    for (uint32_t f = 0; f < p->nframes; f++) {
        double x = f + 1 == p->nframes && f ? p->first + (p->nframes - 1) * p->frame_time
                                            : p->first + f * p->frame_time;
        pose_at(g, p, x);
        if (put_row(g, p, m, m->values + (size_t)f * m->nvalues))
            return -1;
    }
    for (size_t i = 0; i < (size_t)p->nframes * m->nvalues; i++)
        if (!isfinite(m->values[i]))
            return gltf_fail(g, "the clip's motion is not finite (a scale too large?)");
    return 0;
}
