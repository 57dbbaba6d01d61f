/* glb_view.c - the anim.glb writer (glb_view.h): a plan of the binary
 * part (which accessor holds what, where), the JSON that describes it, and
 * the floats, made in two passes over the frames (the first decides which
 * bones need a translation channel, the second writes the samples). */
#include "glb_view.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bvh.h"
#include "glb.h"
#include "names.h"
#include "numfmt.h"
#include "pose.h"

#define GL_FLOAT 5126
/* The JSON's bytes kept while it is only counted (util.h). */
enum { GLB_COUNT_WINDOW = 4096 };

/* One accessor and its buffer view (the same number): count elements of
 * size bytes at offset in the BIN chunk. */
struct accessor {
    const char *type;           /* "MAT4", "SCALAR", "VEC3", "VEC4" */
    uint32_t count;
    uint32_t size;
    uint64_t offset;
};

/* One animation channel: node's path sampled by the accessor output. */
struct channel {
    uint32_t node;
    const char *path;
    uint32_t output;
};

struct glb {
    const struct rtm_anim *a;
    struct rtm_pose pose;
    struct rtm_names *names;
    uint32_t *by_phase;         /* the frames in phase order */
    uint8_t *moves;             /* per bone: has a translation channel */
    double (*quat)[4];          /* per bone: the last quaternion written */
    struct accessor *acc;       /* accessor 0 the inverse bind matrices, 1 the times */
    uint32_t nacc;
    struct channel *chan;
    uint32_t nchan;
    uint32_t *first_acc;        /* per bone: its rotation's accessor (+1 translation) */
    double frame_time;
    float last_time;
    uint64_t bin_len;
};

static void glb_free(struct glb *g)
{
    rtm_pose_free(&g->pose);
    rtm_names_free(g->names);
    free(g->by_phase);
    free(g->moves);
    free(g->quat);
    free(g->acc);
    free(g->chan);
    free(g->first_acc);
}

static int glb_init(struct glb *g, const struct rtm_anim *a, const struct rtm_rotations *rot,
                    const struct rtm_timing *tm)
{
    size_t n = a->nbones, nn = n + 1;
    *g = (struct glb){ .a = a, .frame_time = rtm_anim_bvh_frame_time(a, tm) };
    if (rtm_pose_init(&g->pose, a, rot))
        return -1;
    g->names = rtm_names_make(a->bones, a->nbones, &RTM_NAMES_BVH);
    g->by_phase = rtm_phase_order(a);
    g->moves = calloc(nn, 1);
    g->quat = malloc(nn * sizeof *g->quat);
    g->acc = malloc((2 * nn + 1) * sizeof *g->acc);     /* the most: see plan() */
    g->chan = malloc(2 * nn * sizeof *g->chan);
    g->first_acc = malloc(nn * sizeof *g->first_acc);
    return g->names && g->by_phase && g->moves && g->quat && g->acc && g->chan && g->first_acc
               ? 0
               : -1;
}

/* Frame i's time: i x the frame time, or the next float after the time
 * before when rounding would not pass it (glb_view.h). */
static float frame_time(const struct glb *g, uint32_t i, float before)
{
    float t = (float)(i * g->frame_time);
    return i > 0 && !(t > before) ? nextafterf(before, INFINITY) : t;
}

/* The first pass: which bones drift from their rest offset (glb_view.h),
 * and the last frame's time. */
static void scan(struct glb *g)
{
    const struct rtm_anim *a = g->a;
    float t = 0;
    for (uint32_t i = 0; i < a->nframes; i++) {
        t = frame_time(g, i, t);
        rtm_pose_frame(&g->pose, g->by_phase[i]);
        for (uint32_t b = 0; b < a->nbones; b++) {
            double rest[3];
            rtm_pose_rest_offset(&g->pose, b, rest);
            for (int k = 0; k < 3 && !g->moves[b]; k++)
                g->moves[b] = !(fabs(g->pose.offset[b][k] - rest[k]) <= RTM_GLB_STILL_M);
        }
    }
    g->last_time = t;
    rtm_pose_rest(&g->pose);
}

static void add_accessor(struct glb *g, const char *type, uint32_t count, uint32_t size)
{
    g->acc[g->nacc++] = (struct accessor){ type, count, size, g->bin_len };
    g->bin_len += (uint64_t)count * size;
}

static void add_channel(struct glb *g, uint32_t node, const char *path, const char *type,
                        uint32_t size)
{
    g->chan[g->nchan++] = (struct channel){ node, path, g->nacc };
    add_accessor(g, type, g->a->nframes, size);
}

/* Every accessor in BIN order, and the channels they feed. */
static void plan(struct glb *g)
{
    const struct rtm_anim *a = g->a;
    add_accessor(g, "MAT4", a->nbones + 1, 64);
    if (!a->nframes)
        return;
    add_accessor(g, "SCALAR", a->nframes, 4);
    add_channel(g, 0, "translation", "VEC3", 12);
    for (uint32_t b = 0; b < a->nbones; b++) {
        g->first_acc[b] = g->nacc;
        add_channel(g, 1 + b, "rotation", "VEC4", 16);
        if (g->moves[b])
            add_channel(g, 1 + b, "translation", "VEC3", 12);
    }
}

/* ---- the JSON ---- */

static double finite_or_0(double v)
{
    return isfinite(v) ? v : 0;
}

/* v in decimal, as "%" PRIu64 writes it: the JSON is mostly such numbers,
 * hundreds of them an animation, and sizing a walk's worth of anim.glb
 * spent more in printf than in anything else of the view. */
static void put_dec(struct rtm_buf *j, uint64_t v)
{
    char d[20];
    size_t n = sizeof d;
    do {
        d[--n] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    rtm_buf_put(j, d + n, sizeof d - n);
}

/* s, then v in decimal. */
static void put_key_dec(struct rtm_buf *j, const char *s, uint64_t v)
{
    rtm_buf_puts(j, s);
    put_dec(j, v);
}

/* When j only counts (sizing), the lengths alone: printf's digits were
 * most of what sizing anim.glb cost. */
static void put_vec3(struct rtm_buf *j, const double v[3])
{
    if (rtm_buf_counts(j)) {
        rtm_buf_count(j, 4 + rtm_printf_g_len(finite_or_0(v[0]), 9) +
                             rtm_printf_g_len(finite_or_0(v[1]), 9) +
                             rtm_printf_g_len(finite_or_0(v[2]), 9));
        return;
    }
    rtm_buf_printf(j, "[%.9g,%.9g,%.9g]", finite_or_0(v[0]), finite_or_0(v[1]),
                   finite_or_0(v[2]));
}

/* A node's children ("children":[...]), nothing for a leaf. */
static void put_children(const struct glb *g, struct rtm_buf *j, uint32_t parent)
{
    int32_t c = g->pose.first_child[parent];
    if (c < 0)
        return;
    rtm_buf_puts(j, ",\"children\":[");
    for (const char *sep = ""; c >= 0; c = g->pose.next_sibling[c], sep = ",")
        put_key_dec(j, sep, (uint64_t)c + 1);
    rtm_buf_putc(j, ']');
}

static void put_nodes(const struct glb *g, struct rtm_buf *j)
{
    uint32_t n = g->a->nbones;
    rtm_buf_puts(j, "\"nodes\":[{\"name\":\"" RTM_BVH_ROOT "\"");
    put_children(g, j, n);
    rtm_buf_putc(j, '}');
    for (uint32_t b = 0; b < n; b++) {
        double rest[3];
        rtm_pose_rest_offset(&g->pose, b, rest);
        rtm_buf_puts(j, ",{\"name\":");
        rtm_put_json_name(j, (struct rtm_str){ g->names->form[b], g->names->len[b] });
        rtm_buf_puts(j, ",\"translation\":");
        put_vec3(j, rest);
        put_children(g, j, b);
        rtm_buf_putc(j, '}');
    }
    rtm_buf_putc(j, ']');
}

static void put_skin(const struct glb *g, struct rtm_buf *j)
{
    rtm_buf_puts(j, ",\"skins\":[{\"name\":\"" RTM_BVH_ROOT "\",\"inverseBindMatrices\":0,"
                    "\"skeleton\":0,\"joints\":[0");
    for (uint32_t b = 0; b < g->a->nbones; b++)
        put_key_dec(j, ",", (uint64_t)b + 1);
    rtm_buf_puts(j, "]}]");
}

static void put_animation(const struct glb *g, struct rtm_buf *j)
{
    if (!g->nchan)
        return;
    rtm_buf_puts(j, ",\"animations\":[{\"name\":\"rtm\",\"samplers\":[");
    for (uint32_t s = 0; s < g->nchan; s++) {
        put_key_dec(j, s ? ",{\"input\":1,\"output\":" : "{\"input\":1,\"output\":",
                    g->chan[s].output);
        rtm_buf_puts(j, ",\"interpolation\":\"LINEAR\"}");
    }
    rtm_buf_puts(j, "],\"channels\":[");
    for (uint32_t s = 0; s < g->nchan; s++) {
        put_key_dec(j, s ? ",{\"sampler\":" : "{\"sampler\":", s);
        put_key_dec(j, ",\"target\":{\"node\":", g->chan[s].node);
        rtm_buf_puts(j, ",\"path\":\"");
        rtm_buf_puts(j, g->chan[s].path);
        rtm_buf_puts(j, "\"}}");
    }
    rtm_buf_puts(j, "]}]");
}

/* The accessors and their buffer views.  The input's max is written in a
 * fixed width ("%.16e": the float's exact value, 22 characters for every
 * float), so that the JSON's length is the same whatever the timing. */
static void put_accessors(const struct glb *g, struct rtm_buf *j)
{
    rtm_buf_puts(j, ",\"accessors\":[");
    for (uint32_t k = 0; k < g->nacc; k++) {
        const struct accessor *c = &g->acc[k];
        put_key_dec(j, k ? ",{\"bufferView\":" : "{\"bufferView\":", k);
        put_key_dec(j, ",\"componentType\":", GL_FLOAT);
        put_key_dec(j, ",\"count\":", c->count);
        rtm_buf_puts(j, ",\"type\":\"");
        rtm_buf_puts(j, c->type);
        rtm_buf_putc(j, '"');
        if (k == 1)
            rtm_buf_printf(j, ",\"min\":[0],\"max\":[%.16e]", (double)g->last_time);
        rtm_buf_putc(j, '}');
    }
    rtm_buf_puts(j, "],\"bufferViews\":[");
    for (uint32_t k = 0; k < g->nacc; k++) {
        put_key_dec(j, k ? ",{\"buffer\":0,\"byteOffset\":" : "{\"buffer\":0,\"byteOffset\":",
                    g->acc[k].offset);
        put_key_dec(j, ",\"byteLength\":", (uint64_t)g->acc[k].count * g->acc[k].size);
        rtm_buf_putc(j, '}');
    }
    rtm_buf_printf(j, "],\"buffers\":[{\"byteLength\":%" PRIu64 "}]", g->bin_len);
}

static void put_json(const struct glb *g, struct rtm_buf *j)
{
    rtm_buf_puts(j, "{\"asset\":{\"version\":\"2.0\",\"generator\":\"" RTM_GLB_GENERATOR "\"},"
                    "\"scene\":0,\"scenes\":[{\"nodes\":[0]}],");
    put_nodes(g, j);
    put_skin(g, j);
    put_animation(g, j);
    put_accessors(g, j);
    rtm_buf_putc(j, '}');
}

/* ---- the BIN chunk ---- */

static void put_f32(uint8_t *bin, uint64_t at, double v)
{
    float f = (float)v;
    memcpy(bin + at, &f, sizeof f);
}

/* The inverse bind matrices, column-major: a translation by -pivot. */
static void fill_bind(const struct glb *g, uint8_t *bin)
{
    for (uint32_t node = 0; node <= g->a->nbones; node++) {
        double p[3] = { 0, 0, 0 }, world[3] = { 0, 0, 0 };
        for (int k = 0; node && k < 3; k++)
            p[k] = finite_or_0(g->a->pivot[node - 1][k]);
        rtm_pose_axes(p, world);
        uint64_t at = (uint64_t)node * 64;
        for (int e = 0; e < 16; e++)
            put_f32(bin, at + 4 * (uint64_t)e, e % 5 == 0 ? 1 : e >= 12 && e < 15 ? -world[e - 12] : 0);
    }
}

/* A rotation matrix (column form) as a unit quaternion x, y, z, w. */
static void quaternion(const double r[3][3], double q[4])
{
    double tr = r[0][0] + r[1][1] + r[2][2];
    if (tr > 0) {
        double s = 2 * sqrt(tr + 1);
        q[3] = s / 4;
        q[0] = (r[2][1] - r[1][2]) / s;
        q[1] = (r[0][2] - r[2][0]) / s;
        q[2] = (r[1][0] - r[0][1]) / s;
    } else {                            /* the largest diagonal term leads */
        int i = r[1][1] > r[0][0] ? 1 : 0;
        i = r[2][2] > r[i][i] ? 2 : i;
        int j = (i + 1) % 3, k = (i + 2) % 3;
        double s = 2 * sqrt(1 + r[i][i] - r[j][j] - r[k][k]);
        q[i] = s / 4;
        q[j] = (r[j][i] + r[i][j]) / s;
        q[k] = (r[k][i] + r[i][k]) / s;
        q[3] = (r[k][j] - r[j][k]) / s;
    }
    double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int c = 0; c < 4; c++)
        q[c] /= len;
}

/* Bone b's samples of frame i: its rotation, signed as the frame before's,
 * and its offset when it has a translation channel. */
static void fill_bone(struct glb *g, uint8_t *bin, uint32_t i, uint32_t b)
{
    double q[4];
    quaternion((const double (*)[3])g->pose.rel[b], q);
    double dot = 0;
    for (int c = 0; i > 0 && c < 4; c++)
        dot += q[c] * g->quat[b][c];
    for (int c = 0; c < 4; c++) {
        g->quat[b][c] = dot < 0 ? -q[c] : q[c];
        put_f32(bin, g->acc[g->first_acc[b]].offset + 16 * (uint64_t)i + 4 * c, g->quat[b][c]);
    }
    for (int k = 0; g->moves[b] && k < 3; k++)
        put_f32(bin, g->acc[g->first_acc[b] + 1].offset + 12 * (uint64_t)i + 4 * k,
                g->pose.offset[b][k]);
}

/* The second pass: every sample of every frame. */
static void fill(struct glb *g, uint8_t *bin)
{
    const struct rtm_anim *a = g->a;
    fill_bind(g, bin);
    float t = 0;
    for (uint32_t i = 0; i < a->nframes; i++) {
        uint32_t f = g->by_phase[i];
        t = frame_time(g, i, t);
        put_f32(bin, g->acc[1].offset + 4 * (uint64_t)i, t);
        double root[3];
        rtm_pose_root(a, f, root);
        for (int k = 0; k < 3; k++)
            put_f32(bin, g->acc[2].offset + 12 * (uint64_t)i + 4 * k, root[k]);
        rtm_pose_frame(&g->pose, f);
        for (uint32_t b = 0; b < a->nbones; b++)
            fill_bone(g, bin, i, b);
    }
}

/* The GLB of the plan and its JSON j to out; only counted when out counts. */
static int emit(struct glb *g, const struct rtm_buf *j, struct rtm_buf *out)
{
    uint64_t jlen = rtm_buf_total(j);
    if (jlen > UINT32_MAX || rtm_glb_size((size_t)jlen, (size_t)g->bin_len) > UINT32_MAX)
        return -1;
    if (rtm_buf_counts(out)) {
        rtm_buf_count(out, rtm_glb_size((size_t)jlen, (size_t)g->bin_len));
        return 0;
    }
    uint8_t *bin = malloc(g->bin_len);
    if (!bin)
        return -1;
    fill(g, bin);
    int rc = rtm_glb_join(j->p, j->len, bin, (size_t)g->bin_len, out);
    free(bin);
    return rc;
}

int rtm_anim_glb_write(const struct rtm_anim *a, const struct rtm_rotations *rot,
                       const struct rtm_timing *tm, struct rtm_buf *out)
{
    if (!a->pivot || a->depth < RTM_DEPTH_FULL)
        return -1;
    struct glb g;
    struct rtm_buf j;                   /* the JSON: only counted when out counts */
    if (rtm_buf_counts(out))
        rtm_buf_init_counting(&j, GLB_COUNT_WINDOW);
    else
        rtm_buf_init(&j);
    int rc = glb_init(&g, a, rot, tm);
    if (!rc) {
        scan(&g);
        plan(&g);
        put_json(&g, &j);
        rc = j.oom ? -1 : emit(&g, &j, out);
    }
    rtm_buf_free(&j);
    glb_free(&g);
    return rc || out->oom ? -1 : 0;
}

int rtm_anim_glb_timed_size(const struct rtm_anim *a, const struct rtm_timing *tm,
                            uint64_t untimed, uint64_t *size)
{
    (void)a;
    (void)tm;
    *size = untimed;
    return 0;
}
