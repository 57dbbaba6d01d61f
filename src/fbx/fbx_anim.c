/* fbx_anim.c - assimp's animations as glTF animations (fbx_anim.h). */
#include "fbx_anim.h"

#include <assimp/scene.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One path of one channel: the keys as assimp holds them, reduced to
 * their times and comps values each. */
struct keys {
    const char *path;           /* glTF's: translation, rotation, scale */
    const char *type;           /* VEC3 or VEC4 */
    int comps;
    unsigned n;
    const double *(*time)(const struct aiNodeAnim *ch, unsigned k);
    void (*value)(const struct aiNodeAnim *ch, unsigned k, double *out);
};

static const double *pos_time(const struct aiNodeAnim *ch, unsigned k) { return &ch->mPositionKeys[k].mTime; }
static const double *rot_time(const struct aiNodeAnim *ch, unsigned k) { return &ch->mRotationKeys[k].mTime; }
static const double *scl_time(const struct aiNodeAnim *ch, unsigned k) { return &ch->mScalingKeys[k].mTime; }

static void pos_value(const struct aiNodeAnim *ch, unsigned k, double *o)
{
    const struct aiVector3D *v = &ch->mPositionKeys[k].mValue;
    o[0] = v->x, o[1] = v->y, o[2] = v->z;
}

static void scl_value(const struct aiNodeAnim *ch, unsigned k, double *o)
{
    const struct aiVector3D *v = &ch->mScalingKeys[k].mValue;
    o[0] = v->x, o[1] = v->y, o[2] = v->z;
}

/* glTF's order is x, y, z, w; assimp's quaternion is w, x, y, z.  Made a
 * unit quaternion here (the validator wants one); a zero one is left for
 * the finiteness check to refuse. */
static void rot_value(const struct aiNodeAnim *ch, unsigned k, double *o)
{
    const struct aiQuaternion *q = &ch->mRotationKeys[k].mValue;
    o[0] = q->x, o[1] = q->y, o[2] = q->z, o[3] = q->w;
    double n = sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2] + o[3] * o[3]);
    for (int i = 0; i < 4; i++)
        o[i] = n > 0 ? o[i] / n : NAN;
}

static void keys_of(const struct aiNodeAnim *ch, struct keys k[3])
{
    k[0] = (struct keys){ "translation", "VEC3", 3, ch->mPositionKeys ? ch->mNumPositionKeys : 0,
                          pos_time, pos_value };
    k[1] = (struct keys){ "rotation", "VEC4", 4, ch->mRotationKeys ? ch->mNumRotationKeys : 0,
                          rot_time, rot_value };
    k[2] = (struct keys){ "scale", "VEC3", 3, ch->mScalingKeys ? ch->mNumScalingKeys : 0,
                          scl_time, scl_value };
}

int fbx_anim_moves_root(const struct aiScene *sc, const struct fbx_tree *t)
{
    for (unsigned a = 0; a < sc->mNumAnimations; a++) {
        const struct aiAnimation *an = sc->mAnimations[a];
        for (unsigned c = 0; an && c < an->mNumChannels; c++)
            if (an->mChannels[c] && fbx_tree_find(t, &an->mChannels[c]->mNodeName) == 0)
                return 1;
    }
    return 0;
}

/* The earliest key of the animation, in ticks (0 when none is earlier). */
static double earliest(const struct aiAnimation *an)
{
    double lo = 0;
    for (unsigned c = 0; c < an->mNumChannels; c++) {
        struct keys k[3];
        if (!an->mChannels[c])
            continue;
        keys_of(an->mChannels[c], k);
        for (int p = 0; p < 3; p++)
            for (unsigned i = 0; i < k[p].n; i++)
                if (*k[p].time(an->mChannels[c], i) < lo)
                    lo = *k[p].time(an->mChannels[c], i);
    }
    return lo;
}

struct clip {
    const struct aiAnimation *an;
    double tps, start;          /* ticks a second; the tick of time 0 */
    json_t *samplers, *channels;
};

static int name_err(struct rtm_error *err, const struct clip *c, const struct aiNodeAnim *ch,
                    const char *what, unsigned k)
{
    rtm_err_nooff(err, "animation %.*s, node %.*s: %s key %u is not finite",
                  (int)fbx_name_len(&c->an->mName), c->an->mName.data,
                  (int)fbx_name_len(&ch->mNodeName), ch->mNodeName.data, what, k);
    return -1;
}

/* One sampler and its channel for the keys k of ch, moving node. */
static int add_path(struct fbx_gltf *g, struct clip *c, const struct aiNodeAnim *ch, const struct keys *k,
                    size_t node, struct rtm_error *err)
{
    float *time = malloc((size_t)k->n * sizeof *time);
    float *val = malloc((size_t)k->n * k->comps * sizeof *val);
    size_t n = 0;
    int rc = -1;
    if (!time || !val) {
        rtm_err_oom(err, "out of memory for %u keys", k->n);
        goto done;
    }
    for (unsigned i = 0; i < k->n; i++) {
        double v[4], tick = *k->time(ch, i);
        float s = (float)((tick - c->start) / c->tps);
        k->value(ch, i, v);
        if (!isfinite(tick) || !isfinite(s))
            return free(time), free(val), name_err(err, c, ch, "the time of a", i);
        for (int j = 0; j < k->comps; j++)
            if (!isfinite(v[j]) || !isfinite((float)v[j]))
                return free(time), free(val), name_err(err, c, ch, k->path, i);
        if (n > 0 && !(s > time[n - 1]))
            continue;           /* glTF: strictly increasing */
        time[n] = s;
        for (int j = 0; j < k->comps; j++)
            val[n * k->comps + j] = (float)v[j];
        n++;
    }
    long in = fbx_gltf_accessor(g, time, n, "SCALAR", 1, err);
    long out = in < 0 ? -1 : fbx_gltf_accessor(g, val, n, k->type, 0, err);
    if (out < 0)
        goto done;
    json_int_t sampler = (json_int_t)json_array_size(c->samplers);
    if (fbx_gltf_append(c->samplers, json_pack("{s:I, s:I, s:s}", "input", (json_int_t)in, "output",
                        (json_int_t)out, "interpolation", "LINEAR"), err) ||
        fbx_gltf_append(c->channels, json_pack("{s:I, s:{s:I, s:s}}", "sampler", sampler, "target",
                        "node", (json_int_t)node, "path", k->path), err))
        goto done;
    rc = 0;
done:
    free(time);
    free(val);
    return rc;
}

static int add_channels(struct fbx_gltf *g, struct clip *c, const struct fbx_tree *t, size_t base,
                        char *moved, struct rtm_error *err)
{
    for (unsigned i = 0; i < c->an->mNumChannels; i++) {
        const struct aiNodeAnim *ch = c->an->mChannels[i];
        if (!ch)
            continue;
        long at = fbx_tree_find(t, &ch->mNodeName);
        if (at < 0) {
            rtm_err_nooff(err, "animation %.*s: a channel moves node %.*s, which is not in the tree",
                          (int)fbx_name_len(&c->an->mName), c->an->mName.data,
                          (int)fbx_name_len(&ch->mNodeName), ch->mNodeName.data);
            return -1;
        }
        if (moved[at]++)        /* glTF: one channel a node and path */
            continue;
        struct keys k[3];
        keys_of(ch, k);
        for (int p = 0; p < 3; p++)
            if (k[p].n > 0 && add_path(g, c, ch, &k[p], (size_t)at + base, err) != 0)
                return -1;
    }
    return 0;
}

static int add_clip(struct fbx_gltf *g, const struct aiAnimation *an, const struct fbx_tree *t, size_t base,
                    struct rtm_error *err)
{
    struct clip c = { .an = an, .samplers = json_array(), .channels = json_array() };
    char *moved = calloc(t->n, 1);
    int rc = -1;
    c.tps = an->mTicksPerSecond > 0 && isfinite(an->mTicksPerSecond) ? an->mTicksPerSecond
                                                                    : FBX_DEFAULT_TICKS;
    c.start = earliest(an);
    if (!c.samplers || !c.channels || !moved) {
        rtm_err_oom(err, "out of memory for an animation");
        goto done;
    }
    if (add_channels(g, &c, t, base, moved, err) != 0)
        goto done;
    rc = 0;
    if (json_array_size(c.channels) > 0)
        rc = fbx_gltf_append(g->animations, json_pack("{s:o, s:O, s:O}", "name",
                             fbx_gltf_name(an->mName.data, fbx_name_len(&an->mName)),
                             "channels", c.channels, "samplers", c.samplers), err);
done:
    free(moved);
    json_decref(c.samplers);
    json_decref(c.channels);
    return rc;
}

int fbx_add_animations(struct fbx_gltf *g, const struct aiScene *sc, const struct fbx_tree *t, size_t base,
                       struct rtm_error *err)
{
    for (unsigned a = 0; a < sc->mNumAnimations; a++)
        if (sc->mAnimations[a] && add_clip(g, sc->mAnimations[a], t, base, err) != 0)
            return -1;
    return 0;
}
