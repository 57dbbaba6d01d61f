/* bvh.c - the BVH writer (bvh.h). */
#include "bvh.h"

#include <math.h>
#include <stdlib.h>

#include "motion.h"
#include "numfmt.h"
#include "pivots.h"

const struct rtm_name_rule RTM_NAMES_BVH = { " ", 0, 0, 63, RTM_BVH_ROOT };

#define CHANNELS "CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
enum { MAX_INDENT = 32 };               /* deeper joints are not indented further */

struct bvh {
    const struct rtm_anim *a;
    struct rtm_names *names;
    int32_t *parent;            /* per bone: its parent here, or -1 (rtm_root) */
    int32_t *first_child;       /* per bone, and [nbones] for rtm_root */
    int32_t *next_sibling;
    uint32_t *order;            /* the joints in hierarchy order */
    double (*c)[3][3];          /* this frame's rotations, BVH space, column form */
    uint8_t *ok;
    float (*joint)[3];          /* this frame's joints (pivot . M), each made once */
    double (*chan)[6];          /* each joint's channels, kept from frame to frame */
    const struct rtm_rotations *rot;    /* the nearest rotations made once, or NULL */
};

static void bvh_free(struct bvh *h)
{
    rtm_names_free(h->names);
    free(h->parent);
    free(h->first_child);
    free(h->next_sibling);
    free(h->order);
    free(h->c);
    free(h->ok);
    free(h->joint);
    free(h->chan);
}

/* A point of model space in BVH space: z flips. */
static void to_bvh(const double in[3], double out[3])
{
    out[0] = in[0];
    out[1] = in[1];
    out[2] = -in[2];
}

/* The rest offset of joint b from its parent's joint, in BVH space. */
static void rest_offset(const struct bvh *h, uint32_t b, double out[3])
{
    const float *pb = h->a->pivot[b];
    int32_t p = h->parent[b];
    double d[3];
    for (int k = 0; k < 3; k++)
        d[k] = (double)pb[k] - (p >= 0 ? (double)h->a->pivot[p][k] : 0);
    to_bvh(d, out);
}

/* Children lists in file order, and the joints in hierarchy order
 * (depth first, without recursion: a skeleton may be one long chain). */
static int build(struct bvh *h)
{
    const struct rtm_anim *a = h->a;
    uint32_t n = a->nbones;
    size_t nn = (size_t)n + 1;
    h->parent = malloc(nn * sizeof *h->parent);
    h->first_child = malloc(nn * sizeof *h->first_child);
    h->next_sibling = malloc(nn * sizeof *h->next_sibling);
    h->order = malloc(nn * sizeof *h->order);
    h->c = malloc(nn * sizeof *h->c);
    h->ok = malloc(nn);
    h->joint = malloc(nn * sizeof *h->joint);
    h->chan = calloc(nn, sizeof *h->chan);
    h->names = rtm_names_make(a->bones, n, &RTM_NAMES_BVH);
    if (!h->parent || !h->first_child || !h->next_sibling || !h->order || !h->c || !h->ok ||
        !h->joint || !h->chan || !h->names)
        return -1;
    for (uint32_t b = 0; b <= n; b++)
        h->first_child[b] = -1;
    for (uint32_t i = n; i-- > 0;) {
        int32_t p = a->skel_parent ? a->skel_parent[i] : -1;
        h->parent[i] = p;
        uint32_t at = p >= 0 ? (uint32_t)p : n;
        h->next_sibling[i] = h->first_child[at];
        h->first_child[at] = (int32_t)i;
    }
    /* preorder: a bone, then its children's subtrees in order */
    uint32_t k = 0;
    for (int32_t b = h->first_child[n]; b >= 0;) {
        h->order[k++] = (uint32_t)b;
        if (h->first_child[b] >= 0) {
            b = h->first_child[b];
            continue;
        }
        while (b >= 0 && h->next_sibling[b] < 0)
            b = h->parent[b];
        if (b >= 0)
            b = h->next_sibling[b];
    }
    for (uint32_t b = 0; b < n; b++)    /* the rest pose, until a frame says */
        rest_offset(h, b, h->chan[b]);
    return k == n ? 0 : -1;             /* a cycle: cannot happen */
}

static void put_num(struct rtm_buf *b, double v, int digits)
{
    char s[RTM_FLOAT_CHARS];
    rtm_buf_put(b, s, rtm_fmt_fixed(v, digits, s));
}

static void indent(struct rtm_buf *b, uint32_t depth)
{
    for (uint32_t i = 0; i < depth && i < MAX_INDENT; i++)
        rtm_buf_putc(b, '\t');
}

static void put_offset(struct rtm_buf *b, uint32_t depth, const double o[3])
{
    indent(b, depth);
    rtm_buf_puts(b, "OFFSET");
    for (int k = 0; k < 3; k++) {
        rtm_buf_putc(b, ' ');
        put_num(b, o[k], 5);
    }
    rtm_buf_putc(b, '\n');
}

/* A leaf's end: 5 cm on along the way from its parent, or up. */
static void put_end_site(struct rtm_buf *b, uint32_t depth, const double offset[3])
{
    double len = sqrt(offset[0] * offset[0] + offset[1] * offset[1] + offset[2] * offset[2]);
    double e[3] = { 0, 0.05, 0 };
    for (int k = 0; len > 1e-9 && k < 3; k++)
        e[k] = offset[k] / len * 0.05;
    indent(b, depth);
    rtm_buf_puts(b, "End Site\n");
    indent(b, depth);
    rtm_buf_puts(b, "{\n");
    put_offset(b, depth + 1, e);
    indent(b, depth);
    rtm_buf_puts(b, "}\n");
}

static void put_joint_head(const struct bvh *h, struct rtm_buf *b, uint32_t bone,
                           uint32_t depth)
{
    double o[3];
    rest_offset(h, bone, o);
    indent(b, depth);
    rtm_buf_puts(b, "JOINT ");
    rtm_buf_put(b, h->names->form[bone], h->names->len[bone]);
    rtm_buf_putc(b, '\n');
    indent(b, depth);
    rtm_buf_puts(b, "{\n");
    put_offset(b, depth + 1, o);
    indent(b, depth + 1);
    rtm_buf_puts(b, CHANNELS);
    if (h->first_child[bone] < 0)
        put_end_site(b, depth + 1, o);
}

static void put_hierarchy(const struct bvh *h, struct rtm_buf *b)
{
    static const double zero[3] = { 0, 0, 0 };
    uint32_t n = h->a->nbones, depth = 1;
    rtm_buf_puts(b, "HIERARCHY\nROOT " RTM_BVH_ROOT "\n{\n");
    put_offset(b, 1, zero);
    rtm_buf_puts(b, "\t" CHANNELS);
    if (h->first_child[n] < 0)
        put_end_site(b, 1, zero);
    /* walk the preorder, closing braces as the walk climbs */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t bone = h->order[i];
        put_joint_head(h, b, bone, depth);
        if (h->first_child[bone] >= 0) {
            depth++;
            continue;
        }
        for (int32_t up = (int32_t)bone; up >= 0; up = h->parent[up]) {
            indent(b, depth);
            rtm_buf_puts(b, "}\n");
            if (h->next_sibling[up] >= 0)
                break;
            depth--;
        }
    }
    rtm_buf_puts(b, "}\n");
}

/* The rotation of frame f's matrix of bone b in BVH space, column form:
 * S Q^T S, Q its nearest rotation (row form). */
static int rotation(const struct bvh *h, uint32_t f, uint32_t b, double c[3][3])
{
    static const double s[3] = { 1, 1, -1 };
    const struct rtm_anim *a = h->a;
    size_t at = (size_t)f * a->nbones + b;
    double mine[3][3];
    const double (*q)[3] = h->rot ? (const double (*)[3])h->rot->q[at] : (const double (*)[3])mine;
    if (h->rot ? !h->rot->ok[at] : rtm_nearest_rotation(rtm_matrix(a, f, b), mine) != 0)
        return -1;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            c[i][j] = s[i] * q[j][i] * s[j];
    return 0;
}

/* R = Rz(z) Rx(x) Ry(y) on column vectors: the angles, in degrees. */
static void euler_zxy(const double r[3][3], double deg[3])
{
    double sx = r[2][1] > 1 ? 1 : r[2][1] < -1 ? -1 : r[2][1];
    double x = asin(sx), z, y;
    if (sqrt(r[0][1] * r[0][1] + r[1][1] * r[1][1]) > 1e-9) {
        z = atan2(-r[0][1], r[1][1]);
        y = atan2(-r[2][0], r[2][2]);
    } else {                            /* x = +-90 degrees: y folds into z */
        z = atan2(r[1][0], r[0][0]);
        y = 0;
    }
    deg[0] = z * (180 / M_PI);
    deg[1] = x * (180 / M_PI);
    deg[2] = y * (180 / M_PI);
}

/* Joint b's channels in this frame, from its and its parent's joints and
 * rotations. */
static void channels(const struct bvh *h, uint32_t b, double out[6])
{
    int32_t p = h->parent[b];
    static const float origin[3] = { 0, 0, 0 };
    const float *jb = h->joint[b], *jp = p >= 0 ? h->joint[p] : origin;
    double d[3], w[3] = { (double)jb[0] - jp[0], (double)jb[1] - jp[1], (double)jb[2] - jp[2] };
    to_bvh(w, d);
    double rel[3][3];
    for (int i = 0; i < 3; i++) {       /* C_p^T d and C_p^T C_b */
        out[i] = p < 0 ? d[i] : h->c[p][0][i] * d[0] + h->c[p][1][i] * d[1] + h->c[p][2][i] * d[2];
        for (int j = 0; j < 3; j++)
            rel[i][j] = p < 0 ? h->c[b][i][j]
                              : h->c[p][0][i] * h->c[b][0][j] + h->c[p][1][i] * h->c[b][1][j] +
                                    h->c[p][2][i] * h->c[b][2][j];
    }
    euler_zxy(rel, out + 3);
}

/* rtm_root's channels: the motion vector's share of frame f (motion x
 * phase, BVH axes), so that a reader sees the character travel and a
 * reader of rtmfs's own BVH gets the motion vector back (rtm(5)); all 0
 * without motion (or with one not finite). */
static void put_root(const struct rtm_anim *a, uint32_t f, struct rtm_buf *b)
{
    float phase = isfinite(a->phases[f]) ? a->phases[f] : 0;
    int none = !a->motion[0] && !a->motion[1] && !a->motion[2];
    if (none || !isfinite(a->motion[0]) || !isfinite(a->motion[1]) || !isfinite(a->motion[2])) {
        rtm_buf_puts(b, "0 0 0 0 0 0");
        return;
    }
    double m[3] = { a->motion[0], a->motion[1], a->motion[2] }, d[3];
    to_bvh(m, d);
    for (int k = 0; k < 3; k++) {
        if (k)
            rtm_buf_putc(b, ' ');
        put_num(b, d[k] * phase, 5);
    }
    rtm_buf_puts(b, " 0 0 0");
}

static void put_frame(struct bvh *h, uint32_t f, struct rtm_buf *b)
{
    const struct rtm_anim *a = h->a;
    for (uint32_t i = 0; i < a->nbones; i++) {
        h->ok[i] = rotation(h, f, i, h->c[i]) == 0;
        rtm_point_times(a->pivot[i], rtm_matrix(a, f, i), h->joint[i]);
    }
    put_root(a, f, b);
    for (uint32_t k = 0; k < a->nbones; k++) {
        uint32_t bone = h->order[k];
        int32_t p = h->parent[bone];
        if (h->ok[bone] && (p < 0 || h->ok[p]))
            channels(h, bone, h->chan[bone]);
        if (rtm_buf_counts(b)) {            /* sizing: the lengths alone */
            for (int c = 0; c < 6; c++)
                rtm_buf_count(b, 1 + rtm_fixed_len(h->chan[bone][c], 5));
            continue;
        }
        /* written in place: a frame is thousands of numbers */
        if (rtm_buf_reserve(b, 6 * (RTM_FLOAT_CHARS + 1)))
            return;
        char *o = b->p + b->len;
        for (int c = 0; c < 6; c++) {
            *o++ = ' ';
            o += rtm_fmt_fixed(h->chan[bone][c], 5, o);    /* 0.01 mm, 1e-5 degree */
        }
        b->len = (size_t)(o - b->p);
    }
    rtm_buf_putc(b, '\n');
}

int rtm_anim_bvh_write(const struct rtm_anim *a, struct rtm_buf *out)
{
    return rtm_anim_bvh_write_with(a, NULL, NULL, out);
}

int rtm_anim_bvh_write_timed(const struct rtm_anim *a, const struct rtm_timing *tm,
                             struct rtm_buf *out)
{
    return rtm_anim_bvh_write_with(a, NULL, tm, out);
}

/* The Frame Time line: the mean step of one pass when tm times it (bvh.h). */
static void put_frame_time(const struct rtm_anim *a, const struct rtm_timing *tm,
                           struct rtm_buf *out)
{
    if (tm && tm->seconds > 0 && a->nframes >= 2)
        rtm_buf_printf(out, "Frame Time: %.6g\n", tm->seconds / (a->nframes - 1));
    else
        rtm_buf_puts(out, "Frame Time: " RTM_BVH_FRAME_TIME "\n");
}

int rtm_anim_bvh_timed_size(const struct rtm_anim *a, const struct rtm_timing *tm,
                            uint64_t untimed, uint64_t *size)
{
    struct rtm_buf plain, timed;
    rtm_buf_init(&plain);
    rtm_buf_init(&timed);
    put_frame_time(a, NULL, &plain);
    put_frame_time(a, tm, &timed);
    *size = untimed - plain.len + timed.len;
    int rc = plain.oom || timed.oom ? -1 : 0;
    rtm_buf_free(&plain);
    rtm_buf_free(&timed);
    return rc;
}

int rtm_anim_bvh_write_with(const struct rtm_anim *a, const struct rtm_rotations *rot,
                            const struct rtm_timing *tm, struct rtm_buf *out)
{
    if (!a->pivot || a->depth < RTM_DEPTH_FULL)
        return -1;
    struct bvh h = { .a = a, .rot = rot };
    uint32_t *by_phase = NULL;
    int rc = build(&h) || !(by_phase = rtm_phase_order(a)) ? -1 : 0;
    if (!rc) {
        put_hierarchy(&h, out);
        rtm_buf_printf(out, "MOTION\nFrames: %u\n", a->nframes);
        put_frame_time(a, tm, out);
        for (uint32_t i = 0; i < a->nframes; i++)
            put_frame(&h, by_phase[i], out);
    }
    free(by_phase);
    bvh_free(&h);
    return rc || out->oom ? -1 : 0;
}
