/* mocap_retarget_rest.c - the two rest poses compared, once a parse: the
 * source's OFFSET pose in the model's metres, each mapped bone's fixed
 * turn from its rest direction to its source's, the hip heights, and
 * whether the BVH is the skeleton's own (mocap_retarget_int.h). */
#include "mocap_retarget_int.h"

#include <stdlib.h>
#include <string.h>

uint32_t rt_frame_count(const struct rtm_mocap *m, double fps)
{
    if (!(fps > 0) || m->nframes < 2)
        return m->nframes;
    double steps = round((double)(m->nframes - 1) * m->frame_time * fps);
    /* never more frames than the source has: resampling only thins */
    if (!(steps >= 1))
        steps = 1;
    if (steps > m->nframes - 1)
        steps = m->nframes - 1;
    return (uint32_t)steps + 1;
}

/* Each joint's rest position: its OFFSETs summed down the hierarchy, in
 * the model's axes and metres. */
static void rest_positions(struct rt *r)
{
    const struct rtm_mocap *m = r->m;
    for (uint32_t j = 0; j < m->njoints; j++) {
        const struct rtm_mocap_joint *jt = &m->joint[j];
        double o[3];
        rt_point_in(r, jt->offset, o);
        for (int k = 0; k < 3; k++)
            o[k] *= r->unit;
        for (int k = 0; k < 3; k++)
            r->rest[j][k] = (jt->parent >= 0 ? r->rest[jt->parent][k] : 0) + o[k];
    }
}

/* The skeleton's own BVH (rtm(5)): some joint is named as a bone (its
 * exact name, in any case), and every joint so named sits within 1 mm of
 * its bone's pivot.  Judged by the names alone, whatever the map says: a
 * naming that knows the man's names (HumanIK's are largely his) may map
 * them its own way.  Then the names are the map (jbone, jhow). */
static int is_identity(struct rt *r)
{
    const struct rtm_mocap *m = r->m;
    uint32_t named = 0;
    for (uint32_t j = 0; j < m->njoints; j++) {
        int32_t b = rtm_skeleton_find(r->s, m->joint[j].name, strlen(m->joint[j].name));
        if (b < 0)
            continue;
        double d[3];
        for (int k = 0; k < 3; k++)
            d[k] = r->rest[j][k] - (double)r->s->pivot[b][k];
        if (!(rt_dot(d, d) <= RT_IDENTITY_TOL * RT_IDENTITY_TOL))
            return 0;
        named++;
    }
    if (!named)
        return 0;
    r->nmapped = 0;
    for (uint32_t j = 0; j < m->njoints; j++) {
        int32_t b = rtm_skeleton_find(r->s, m->joint[j].name, strlen(m->joint[j].name));
        r->jbone[j] = b;
        r->jhow[j] = b >= 0 ? RTM_MAP_EXACT : RTM_MAP_NONE;
        r->nmapped += b >= 0;
    }
    return 1;
}

/* ---- the fixed turn of a bone ---- */

/* The shortest arc from unit t to unit s: the turn about t x s that adds
 * no twist.  Opposite directions turn half round an axis square to t. */
static void shortest_arc(const double t[3], const double s[3], double out[3][3])
{
    double c = rt_dot(t, s), axis[3];
    rt_cross(t, s, axis);
    double q[4] = { 1 + c, axis[0], axis[1], axis[2] };
    if (c < -1 + 1e-12) {               /* any axis square to t will do */
        double e[3] = { fabs(t[0]) < 0.9 ? 1 : 0, fabs(t[0]) < 0.9 ? 0 : 1, 0 };
        rt_cross(t, e, axis);
        rt_unit(axis, axis, 0);
        q[0] = 0;
        q[1] = axis[0];
        q[2] = axis[1];
        q[3] = axis[2];
    }
    rt_quat_matrix(q, out);
}

/* The eigenvector of the largest eigenvalue of the symmetric 4x4 n, by
 * Jacobi rotations (exact to rounding for so small a matrix). */
static void top_eigenvector(double n[4][4], double v[4])
{
    double e[4][4] = { { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 }, { 0, 0, 0, 1 } };
    for (int sweep = 0; sweep < 50; sweep++) {
        double off = 0;
        for (int p = 0; p < 4; p++)
            for (int q = p + 1; q < 4; q++)
                off += n[p][q] * n[p][q];
        if (off < 1e-30)
            break;
        for (int p = 0; p < 4; p++)
            for (int q = p + 1; q < 4; q++) {
                if (fabs(n[p][q]) < 1e-300)
                    continue;
                double th = (n[q][q] - n[p][p]) / (2 * n[p][q]);
                double t = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1));
                double c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < 4; k++) {       /* n = J^T n J */
                    double a = n[k][p], b = n[k][q];
                    n[k][p] = c * a - s * b;
                    n[k][q] = s * a + c * b;
                }
                for (int k = 0; k < 4; k++) {
                    double a = n[p][k], b = n[q][k];
                    n[p][k] = c * a - s * b;
                    n[q][k] = s * a + c * b;
                }
                for (int k = 0; k < 4; k++) {
                    double a = e[k][p], b = e[k][q];
                    e[k][p] = c * a - s * b;
                    e[k][q] = s * a + c * b;
                }
            }
    }
    int best = 0;
    for (int k = 1; k < 4; k++)
        if (n[k][k] > n[best][best])
            best = k;
    for (int k = 0; k < 4; k++)
        v[k] = e[k][best];
}

/* The rotation that best turns the unit directions t[i] onto s[i] (Horn's
 * quaternion fit: the largest eigenvector of his 4x4). */
static void best_fit(const double (*t)[3], const double (*s)[3], uint32_t n, double out[3][3])
{
    double a[3][3] = { { 0 } };
    for (uint32_t i = 0; i < n; i++)
        for (int x = 0; x < 3; x++)
            for (int y = 0; y < 3; y++)
                a[x][y] += t[i][x] * s[i][y];
    double h[4][4] = {
        { a[0][0] + a[1][1] + a[2][2], a[1][2] - a[2][1], a[2][0] - a[0][2], a[0][1] - a[1][0] },
        { a[1][2] - a[2][1], a[0][0] - a[1][1] - a[2][2], a[0][1] + a[1][0], a[2][0] + a[0][2] },
        { a[2][0] - a[0][2], a[0][1] + a[1][0], -a[0][0] + a[1][1] - a[2][2], a[1][2] + a[2][1] },
        { a[0][1] - a[1][0], a[2][0] + a[0][2], a[1][2] + a[2][1], -a[0][0] - a[1][1] + a[2][2] },
    };
    double q[4];
    top_eigenvector(h, q);
    rt_quat_matrix(q, out);
}

/* Whether the directions span more than a line (3 degrees apart). */
static int spread_out(const double (*d)[3], uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        double c[3];
        rt_cross(d[0], d[i], c);
        if (rt_dot(c, c) > 0.05 * 0.05)
            return 1;
    }
    return 0;
}

/* Children of each bone, for the walk down to the next mapped ones. */
struct tree {
    int32_t *first, *next, *stack;
};

static int tree_make(struct tree *t, const struct rtm_skeleton *s)
{
    size_t n = s->nbones ? s->nbones : 1;
    t->first = malloc(n * sizeof *t->first);
    t->next = malloc(n * sizeof *t->next);
    t->stack = malloc(n * sizeof *t->stack);
    if (!t->first || !t->next || !t->stack)
        return -1;
    for (uint32_t b = 0; b < s->nbones; b++)
        t->first[b] = -1;
    for (uint32_t b = s->nbones; b-- > 0;)
        if (s->parent[b] >= 0) {
            t->next[b] = t->first[s->parent[b]];
            t->first[s->parent[b]] = (int32_t)b;
        }
    return 0;
}

static void tree_free(struct tree *t)
{
    free(t->first);
    free(t->next);
    free(t->stack);
}

/* Bone b's rest directions paired with its source's: to each next mapped
 * descendant (a bone below b with no mapped bone between) whose joint is
 * apart from b's on both sides; one that is not passes the walk on to its
 * own children.  Returns how many pairs (into t and s, nbones each). */
static uint32_t direction_pairs(const struct rt *r, const struct tree *tr, uint32_t b,
                                double (*t)[3], double (*s)[3])
{
    const float *pb = r->s->pivot[b];
    const double *sb = r->rest[r->src[b]];
    uint32_t n = 0, top = 0;
    for (int32_t c = tr->first[b]; c >= 0; c = tr->next[c])
        tr->stack[top++] = c;
    while (top) {
        int32_t c = tr->stack[--top];
        if (r->src[c] >= 0) {
            double dt[3], ds[3];
            for (int k = 0; k < 3; k++) {
                dt[k] = (double)r->s->pivot[c][k] - pb[k];
                ds[k] = r->rest[r->src[c]][k] - sb[k];
            }
            if (rt_unit(dt, t[n], RT_SAME_POINT) && rt_unit(ds, s[n], RT_SAME_POINT)) {
                n++;
                continue;
            }
        }
        for (int32_t g = tr->first[c]; g >= 0; g = tr->next[g])
            tr->stack[top++] = g;
    }
    return n;
}

/* Each mapped bone's fixed turn A: its rest direction onto its source's.
 * One direction: the shortest arc.  Several (a bone where chains branch:
 * pelvis, chest) that span a plane: the best fit of all, which also sets
 * the twist.  None (a chain's end): its nearest mapped ancestor's turn, so
 * that it keeps its rest against it. */
static int alignments(struct rt *r)
{
    const struct rtm_skeleton *s = r->s;
    struct tree tr;
    size_t n = s->nbones ? s->nbones : 1;
    double (*t)[3] = malloc(n * sizeof *t), (*d)[3] = malloc(n * sizeof *d);
    int rc = tree_make(&tr, s) || !t || !d ? -1 : 0;
    for (uint32_t b = 0; !rc && b < s->nbones; b++) {
        int32_t up = s->parent[b];
        while (up >= 0 && r->src[up] < 0)
            up = s->parent[up];
        if (up >= 0)
            memcpy(r->align[b], r->align[up], sizeof r->align[b]);
        else
            rt_identity(r->align[b]);
        if (r->src[b] < 0)
            continue;
        uint32_t k = direction_pairs(r, &tr, b, t, d);
        if (k > 1 && spread_out(t, k) && spread_out(d, k)) {
            best_fit((const double (*)[3])t, (const double (*)[3])d, k, r->align[b]);
        } else if (k) {
            double ts[3] = { 0 }, ss[3] = { 0 };
            for (uint32_t i = 0; i < k; i++)
                for (int x = 0; x < 3; x++) {
                    ts[x] += t[i][x];
                    ss[x] += d[i][x];
                }
            if (rt_unit(ts, ts, 1e-9) && rt_unit(ss, ss, 1e-9))
                shortest_arc(ts, ss, r->align[b]);
        }
    }
    tree_free(&tr);
    free(t);
    free(d);
    return rc;
}

/* ---- the root ---- */

/* The joint whose travel moves the character: the mapped joint nearest
 * the top of the source's hierarchy (its root, usually: Hips). */
static int32_t carrier_joint(const struct rt *r)
{
    const struct rtm_mocap *m = r->m;
    int32_t best = -1;
    uint32_t best_depth = UINT32_MAX;
    for (uint32_t j = 0; j < m->njoints; j++) {
        if (r->jbone[j] < 0)
            continue;
        uint32_t depth = 0;
        for (int32_t p = m->joint[j].parent; p >= 0 && depth < best_depth; p = m->joint[p].parent)
            depth++;
        if (depth < best_depth) {
            best = (int32_t)j;
            best_depth = depth;
        }
    }
    return best;
}

/* The ratio of the hip heights, target over source: the height of the leg
 * (the highest mapped joint below the carrier on the way up from the
 * lowest mapped joint, the hip) above that lowest joint (a toe), measured
 * the same on both skeletons; the carrier's height when no joint lies
 * between.  1 when either is flat. */
static void hip_ratio(struct rt *r)
{
    const struct rtm_mocap *m = r->m;
    int32_t low = -1;
    for (uint32_t j = 0; j < m->njoints; j++)
        if (r->jbone[j] >= 0 && (low < 0 || r->rest[j][1] < r->rest[low][1]))
            low = (int32_t)j;
    int32_t hip = r->carrier;
    for (int32_t j = low; j >= 0 && j != r->carrier; j = m->joint[j].parent)
        if (r->jbone[j] >= 0 && j != low)
            hip = j;
    r->ratio = 1;
    if (low < 0 || hip == low)
        return;
    double hs = r->rest[hip][1] - r->rest[low][1];
    double ht = (double)r->s->pivot[r->jbone[hip]][1] - r->s->pivot[r->jbone[low]][1];
    if (hs > RT_SAME_POINT && ht > RT_SAME_POINT)
        r->ratio = ht / hs;
}

void rt_release(struct rt *r)
{
    free(r->jbone);
    free(r->jhow);
    r->jbone = NULL;
    r->jhow = NULL;
    free(r->src);
    free(r->align);
    free(r->rest);
    r->src = NULL;
    r->align = NULL;
    r->rest = NULL;
}

static int prepare_arrays(struct rt *r)
{
    size_t nb = r->s->nbones ? r->s->nbones : 1, nj = r->m->njoints ? r->m->njoints : 1;
    r->src = malloc(nb * sizeof *r->src);
    r->align = malloc(nb * sizeof *r->align);
    r->rest = malloc(nj * sizeof *r->rest);
    r->jbone = malloc(nj * sizeof *r->jbone);
    r->jhow = malloc(nj);
    if (!r->src || !r->align || !r->rest || !r->jbone || !r->jhow)
        return -1;
    r->nmapped = 0;
    for (uint32_t j = 0; j < r->m->njoints; j++) {
        int32_t b = r->map->bone[j];
        r->jbone[j] = b >= 0 && (uint32_t)b < r->s->nbones ? b : -1;
        r->jhow[j] = r->map->how[j];
        r->nmapped += r->jbone[j] >= 0;
    }
    return 0;
}

/* Each bone's source joint: the first joint that stands for it. */
static void sources(struct rt *r)
{
    for (uint32_t b = 0; b < r->s->nbones; b++)
        r->src[b] = -1;
    for (uint32_t j = r->m->njoints; j-- > 0;)
        if (r->jbone[j] >= 0)
            r->src[r->jbone[j]] = (int32_t)j;
}

/* Whether the joint mapped to the skeleton's head (else nothing) lies
 * above the root more along z than along y, in the file's own axes. */
static int head_along_z(const struct rt *r)
{
    int32_t head = rtm_skeleton_find(r->s, "head", 4);
    for (uint32_t j = 0; head >= 0 && j < r->m->njoints; j++) {
        if (r->map->bone[j] != head)
            continue;
        double v[3] = { 0, 0, 0 };
        for (int32_t k = (int32_t)j; k >= 0; k = r->m->joint[k].parent)
            for (int a = 0; a < 3; a++)
                v[a] += r->m->joint[k].offset[a];
        return fabs(v[2]) > fabs(v[1]);
    }
    return 0;
}

/* Which of the file's axes is up (rtm(5), BVH SOURCES: y, as BVH has it,
 * or z, as Blender's exporter writes it), with the rest poses made in the
 * model's axes: the skeleton's own BVH in either is taken as it is;
 * else z when the head lies above the root along z. */
static void up_axis(struct rt *r)
{
    for (r->zup = 0; r->zup < 2; r->zup++) {
        rest_positions(r);
        if ((r->identity = is_identity(r)))
            return;
    }
    r->zup = head_along_z(r);
    rest_positions(r);
}

int rt_prepare(struct rt *r, const struct rtm_mocap *m, const struct rtm_mocap_map *map,
               const struct rtm_skeleton *s, const struct rtm_mocap_opts *o,
               struct rtm_error *err)
{
    memset(r, 0, sizeof *r);
    r->m = m;
    r->map = map;
    r->s = s;
    if (!rtm_skeleton_has_pivots(s)) {
        rtm_err_nooff(err, "skeleton %s has no pivots (rest pose) to retarget BVH onto: "
                      "use one that has, e.g. ofp2", s ? s->name : "none");
        return -1;
    }
    r->unit = rtm_mocap_unit_infer(m, &r->height, &r->unit_name);
    if (o && o->unit > 0) {
        r->unit = o->unit;
        r->unit_name = "set";
    }
    if (!(r->unit > 0) || !isfinite(r->unit))
        r->unit = 1;
    r->nframes = rt_frame_count(m, o ? o->fps : 0);
    if (prepare_arrays(r)) {
        rt_release(r);
        rtm_err_oom(err, "out of memory retargeting %u joints", m->njoints);
        return -1;
    }
    up_axis(r);
    sources(r);
    if (!r->nmapped) {
        rt_release(r);
        rtm_err_nooff(err, "no joint of the clip maps to a bone of skeleton %s "
                      "(a map file beside it can say which is which)", s->name);
        return -1;
    }
    if (r->identity) {
        for (uint32_t b = 0; b < s->nbones; b++)
            rt_identity(r->align[b]);
        /* the travel is the unmapped root's (anim.bvh's rtm_root), if any */
        r->carrier = r->jbone[0] < 0 ? 0 : -1;
        r->carrier_bone = -1;
        return 0;
    }
    r->carrier = carrier_joint(r);
    r->carrier_bone = r->jbone[r->carrier];
    hip_ratio(r);
    if (alignments(r)) {
        rt_release(r);
        rtm_err_oom(err, "out of memory retargeting %u joints", m->njoints);
        return -1;
    }
    return 0;
}
