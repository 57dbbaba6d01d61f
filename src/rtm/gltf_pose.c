/* gltf_pose.c - a glTF model (gltf.h) made the mocap an equivalent BVH
 * file would give (rtm(5), GLTF SOURCES):
 *  - the joints: the first skin's, else the smallest subtree holding
 *    every node the clip moves; either way with the nodes between them
 *    and their common root;
 *  - the rest ("zero rest", as BVH's has no rotations): each joint's
 *    place in world axes (the skin's bind pose, else the nodes' rest
 *    transforms), an offset from its parent's;
 *  - each frame: the world rotation each joint makes from its rest,
 *    W_bvh(t) = R(t) R(rest)^-1, as Euler angles (Zrotation Xrotation
 *    Yrotation) of W_bvh(parent)^-1 W_bvh, so that they compose down the
 *    hierarchy to the same world rotations; the root's world place as
 *    its position channels.
 * glTF's axes (y up, facing +z, metres) are BVH's here, so nothing turns.
 * Scale: places are taken with it (world positions), rotations without
 * (each world matrix's columns made unit and square). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gltf.h"
#include "gltf_math.h"
#include "mocap_retarget.h"

/* ---- which nodes are joints ----
 * With a skin: its joints, and the nodes between them and their common
 * root.  Without: the subtree of the nodes the clip moves, from their
 * common root down (what they carry moves with them). */

static int32_t up(const struct gltf *g, int32_t n)
{
    return g->node[n].parent;
}

/* The deepest node that holds both a and b, or -1 (two trees). */
static int32_t common_root(const struct gltf *g, int32_t a, int32_t b)
{
    while (a >= 0 && b >= 0 && g->node[a].depth > g->node[b].depth)
        a = up(g, a);
    while (a >= 0 && b >= 0 && g->node[b].depth > g->node[a].depth)
        b = up(g, b);
    while (a >= 0 && b >= 0 && a != b) {
        a = up(g, a);
        b = up(g, b);
    }
    return a == b ? a : -1;
}

/* The seeds: the skin's joints, else the nodes the clip moves. */
static uint32_t seeds(const struct gltf *g, uint32_t *out)
{
    if (g->nskin) {
        memcpy(out, g->skin, g->nskin * sizeof *out);
        return g->nskin;
    }
    uint32_t n = 0;
    for (uint32_t c = 0; c < g->nchannels; c++) {
        uint32_t k = 0;
        while (k < n && out[k] != g->channel[c].node)
            k++;
        if (k == n)
            out[n++] = g->channel[c].node;
    }
    return n;
}

static int by_depth(const void *pa, const void *pb, void *ctx)
{
    const struct gltf *g = ctx;
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    if (g->node[a].depth != g->node[b].depth)
        return g->node[a].depth < g->node[b].depth ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* Insertion sort by depth then index: stable, and no qsort_r (not C11). */
static void sort_by_depth(const struct gltf *g, uint32_t *v, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        uint32_t x = v[i], k = i;
        while (k > 0 && by_depth(&v[k - 1], &x, (void *)g) > 0) {
            v[k] = v[k - 1];
            k--;
        }
        v[k] = x;
    }
}

/* The joints (nodes, parents first) into p->joint, p->njoints; the
 * node's joint in p->of (-1 for none). */
static int choose_joints(struct gltf *g, struct pose *p)
{
    uint32_t *seed = malloc((g->nskin + g->nchannels + 1) * sizeof *seed);
    if (!seed)
        return gltf_oom(g);
    uint32_t n = seeds(g, seed);
    if (n == 0) {
        free(seed);
        return gltf_fail(g, "no node to animate");
    }
    int32_t root = (int32_t)seed[0];
    for (uint32_t k = 1; k < n && root >= 0; k++)
        root = common_root(g, root, (int32_t)seed[k]);
    if (root < 0) {
        free(seed);
        return gltf_fail(g, "the %s are in two trees with no common root",
                         g->nskin ? "skin's joints" : "nodes the clip moves");
    }
    for (uint32_t k = 0; k < n; k++)
        for (int32_t a = (int32_t)seed[k]; a >= 0 && p->of[a] < 0; a = a == root ? -1 : up(g, a))
            p->of[a] = 0, p->njoints++;
    free(seed);
    if (!g->nskin)                      /* the whole subtree: what the moved nodes carry */
        for (uint32_t i = 0; i < g->nnodes; i++)
            for (int32_t a = (int32_t)i; a >= 0 && p->of[i] < 0; a = up(g, a))
                if (a == root)
                    p->of[i] = 0, p->njoints++;
    if (p->njoints > RTM_MOCAP_MAX_JOINTS)
        return gltf_fail(g, "%u joints, more than %d", p->njoints, RTM_MOCAP_MAX_JOINTS);
    p->joint = malloc(p->njoints * sizeof *p->joint);
    if (!p->joint)
        return gltf_oom(g);
    uint32_t j = 0;
    for (uint32_t i = 0; i < g->nnodes; i++)
        if (p->of[i] == 0)
            p->joint[j++] = i;
    sort_by_depth(g, p->joint, p->njoints);
    for (j = 0; j < p->njoints; j++)
        p->of[p->joint[j]] = (int32_t)j;
    return 0;
}

/* Every node a joint's world place depends on (joints and all their
 * ancestors), parents first. */
static int choose_chain(struct gltf *g, struct pose *p)
{
    uint8_t *in = calloc(g->nnodes, 1);
    if (!in)
        return gltf_oom(g);
    for (uint32_t j = 0; j < p->njoints; j++)
        for (int32_t a = (int32_t)p->joint[j]; a >= 0 && !in[a]; a = up(g, a))
            in[a] = 1, p->nchain++;
    p->chain = malloc(p->nchain * sizeof *p->chain);
    if (!p->chain) {
        free(in);
        return gltf_oom(g);
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < g->nnodes; i++)
        if (in[i])
            p->chain[k++] = i;
    free(in);
    sort_by_depth(g, p->chain, p->nchain);
    return 0;
}

/* ---- the mocap's hierarchy ---- */

/* Names: the node's, "node<i>" without one, "#<i>" added to a repeat
 * (BVH names are unique). */
static int make_names(struct gltf *g, const struct pose *p, struct rtm_str *name, char *buf)
{
    for (uint32_t j = 0; j < p->njoints; j++) {
        uint32_t i = p->joint[j];
        const char *s = g->node[i].name;
        char *at = buf + (size_t)j * GLTF_NAME_MAX;
        if (!s || !*s)
            snprintf(at, GLTF_NAME_MAX, "node%u", i);
        else
            snprintf(at, GLTF_NAME_MAX, "%s", s);
        for (uint32_t k = 0; k < j; k++)
            if (strcmp(name[k].s, at) == 0) {
                size_t len = strlen(at);
                snprintf(at + (len > GLTF_NAME_MAX - 12 ? GLTF_NAME_MAX - 12 : len), 12,
                         "#%u", i);
                break;
            }
        name[j] = (struct rtm_str){ at, (uint32_t)strlen(at) };
    }
    return 0;
}

static int make_hierarchy(struct gltf *g, const struct pose *p, struct rtm_mocap **out)
{
    struct rtm_str *name = malloc(p->njoints * sizeof *name);
    char *buf = malloc((size_t)p->njoints * GLTF_NAME_MAX);
    struct rtm_mocap *m = name && buf && !make_names(g, p, name, buf)
                              ? rtm_mocap_new(p->njoints, name) : NULL;
    free(name);
    free(buf);
    if (!m)
        return gltf_oom(g);
    uint32_t first = 0;
    for (uint32_t j = 0; j < p->njoints; j++) {
        struct rtm_mocap_joint *jt = &m->joint[j];
        int32_t parent = j == 0 ? -1 : p->of[up(g, (int32_t)p->joint[j])];
        jt->parent = parent;
        for (int k = 0; k < 3; k++)
            jt->offset[k] = p->rest[j].t[k] - (parent >= 0 ? p->rest[parent].t[k] : 0);
        /* the root, and a joint the clip moves (not only turns), carry
         * their place too: a skeleton's own clip (anim.glb's) moves bones */
        int moves = j == 0 || p->use[p->joint[j] * 3 + GLTF_TRANSLATION] >= 0;
        jt->nchan = moves ? 6 : 3;
        memcpy(jt->chan, moves ? "XYZzxy" : "zxy", jt->nchan);
        jt->first = first;
        first += jt->nchan;
    }
    m->nvalues = first;
    *out = m;
    return 0;
}

/* ---- the entry point ---- */

static void pose_free(struct pose *p)
{
    free(p->of);
    free(p->joint);
    free(p->chain);
    free(p->rest);
    free(p->world);
    free(p->track);
    free(p->use);
    free(p->lastrot);
}

int gltf_mocap(struct gltf *g, int head, struct rtm_mocap **out)
{
    struct pose p = { 0 };
    *out = NULL;
    p.of = malloc(g->nnodes * sizeof *p.of);
    if (!p.of)
        return gltf_oom(g);
    for (uint32_t i = 0; i < g->nnodes; i++)
        p.of[i] = -1;
    struct rtm_mocap *m = NULL;
    int rc = choose_joints(g, &p) || choose_chain(g, &p) || gltf_tracks(g, &p, head) ||
             gltf_rest(g, &p, head) || make_hierarchy(g, &p, &m);
    if (!rc) {
        m->nframes = p.nframes;
        m->frame_time = p.frame_time;
        if (!head)
            rc = rtm_mocap_source_reserve(g->o, m, g->err) || gltf_frames(g, &p, m);
    }
    pose_free(&p);
    if (rc) {
        rtm_mocap_free(m);
        return -1;
    }
    *out = m;
    return 0;
}
