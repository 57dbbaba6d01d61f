/* bvh.c - the BVH writer (bvh.h). */
#include "bvh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "numfmt.h"
#include "pose.h"

const struct rtm_name_rule RTM_NAMES_BVH = { " ", 0, 0, 63, RTM_BVH_ROOT };

#define CHANNELS "CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
enum { MAX_INDENT = 32 };               /* deeper joints are not indented further */
enum { FRAME_TIME_CHARS = 32 };         /* "%.6g" of a double, and its NUL */

struct bvh {
    struct rtm_pose pose;       /* the hierarchy and each frame's relative poses */
    struct rtm_names *names;
    double (*chan)[6];          /* each joint's channels, kept from frame to frame */
};

static void bvh_free(struct bvh *h)
{
    rtm_pose_free(&h->pose);
    rtm_names_free(h->names);
    free(h->chan);
}

/* The pose, names, and every joint's channels at rest. */
static int build(struct bvh *h, const struct rtm_anim *a, const struct rtm_rotations *rot)
{
    if (rtm_pose_init(&h->pose, a, rot))
        return -1;
    h->chan = calloc((size_t)a->nbones + 1, sizeof *h->chan);
    h->names = rtm_names_make(a->bones, a->nbones, &RTM_NAMES_BVH);
    if (!h->chan || !h->names)
        return -1;
    for (uint32_t b = 0; b < a->nbones; b++)    /* the rest pose, until a frame says */
        rtm_pose_rest_offset(&h->pose, b, h->chan[b]);
    return 0;
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
    rtm_pose_rest_offset(&h->pose, bone, o);
    indent(b, depth);
    rtm_buf_puts(b, "JOINT ");
    rtm_buf_put(b, h->names->form[bone], h->names->len[bone]);
    rtm_buf_putc(b, '\n');
    indent(b, depth);
    rtm_buf_puts(b, "{\n");
    put_offset(b, depth + 1, o);
    indent(b, depth + 1);
    rtm_buf_puts(b, CHANNELS);
    if (h->pose.first_child[bone] < 0)
        put_end_site(b, depth + 1, o);
}

static void put_hierarchy(const struct bvh *h, struct rtm_buf *b)
{
    static const double zero[3] = { 0, 0, 0 };
    uint32_t n = h->pose.a->nbones, depth = 1;
    rtm_buf_puts(b, "HIERARCHY\nROOT " RTM_BVH_ROOT "\n{\n");
    put_offset(b, 1, zero);
    rtm_buf_puts(b, "\t" CHANNELS);
    if (h->pose.first_child[n] < 0)
        put_end_site(b, 1, zero);
    /* walk the preorder, closing braces as the walk climbs */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t bone = h->pose.order[i];
        put_joint_head(h, b, bone, depth);
        if (h->pose.first_child[bone] >= 0) {
            depth++;
            continue;
        }
        for (int32_t up = (int32_t)bone; up >= 0; up = h->pose.parent[up]) {
            indent(b, depth);
            rtm_buf_puts(b, "}\n");
            if (h->pose.next_sibling[up] >= 0)
                break;
            depth--;
        }
    }
    rtm_buf_puts(b, "}\n");
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

/* rtm_root's channels: the motion vector's share of frame f (pose.h), so
 * that a reader sees the character travel and a reader of rtmfs's own BVH
 * gets the motion vector back (rtm(5)); all 0 without motion. */
static void put_root(const struct rtm_anim *a, uint32_t f, struct rtm_buf *b)
{
    double d[3];
    if (rtm_pose_root(a, f, d)) {
        rtm_buf_puts(b, "0 0 0 0 0 0");
        return;
    }
    for (int k = 0; k < 3; k++) {
        if (k)
            rtm_buf_putc(b, ' ');
        put_num(b, d[k], 5);
    }
    rtm_buf_puts(b, " 0 0 0");
}

static void put_frame(struct bvh *h, uint32_t f, struct rtm_buf *b)
{
    const struct rtm_anim *a = h->pose.a;
    int counts = rtm_buf_counts(b);
    rtm_pose_frame(&h->pose, f);
    put_root(a, f, b);
    for (uint32_t k = 0; k < a->nbones; k++) {
        uint32_t bone = h->pose.order[k];
        if (h->pose.fresh[bone]) {
            for (int i = 0; i < 3; i++)
                h->chan[bone][i] = h->pose.offset[bone][i];
            euler_zxy((const double (*)[3])h->pose.rel[bone], h->chan[bone] + 3);
        }
        if (counts)                         /* sizing: measured below, all at once */
            continue;
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
    if (counts)                             /* a space and a number a channel */
        rtm_buf_count(b, 6 * (uint64_t)a->nbones +
                             rtm_fixed_lens(&h->chan[0][0], 6 * (size_t)a->nbones, 5));
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

/* The Frame Time's number: the mean step of one pass when tm times it
 * (bvh.h), else the convention's. */
static void frame_time_text(const struct rtm_anim *a, const struct rtm_timing *tm,
                            char out[FRAME_TIME_CHARS])
{
    if (tm && tm->seconds > 0 && a->nframes >= 2)
        snprintf(out, FRAME_TIME_CHARS, "%.6g", tm->seconds / (a->nframes - 1));
    else
        snprintf(out, FRAME_TIME_CHARS, "%s", RTM_BVH_FRAME_TIME);
}

static void put_frame_time(const struct rtm_anim *a, const struct rtm_timing *tm,
                           struct rtm_buf *out)
{
    char t[FRAME_TIME_CHARS];
    frame_time_text(a, tm, t);
    rtm_buf_printf(out, "Frame Time: %s\n", t);
}

double rtm_anim_bvh_frame_time(const struct rtm_anim *a, const struct rtm_timing *tm)
{
    char t[FRAME_TIME_CHARS];
    frame_time_text(a, tm, t);
    return strtod(t, NULL);
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
    struct bvh h = { 0 };
    uint32_t *by_phase = NULL;
    int rc = build(&h, a, rot) || !(by_phase = rtm_phase_order(a)) ? -1 : 0;
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
