/* gltf_model.c - a glTF file's JSON made the model gltf.h describes: the
 * node tree (walked up by parents, never recursively), the first skin and
 * one clip.  Accessors and buffers are gltf_data.c's. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf.h"

int gltf_fail(struct gltf *g, const char *fmt, ...)
{
    char msg[sizeof g->err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    rtm_err_nooff(g->err, "glTF: %s", msg);
    return -1;
}

/* ---- small readers of the JSON ---- */

/* key of obj as an index below limit; absent: *out = -1 (or a failure
 * when required). */
static int get_index(struct gltf *g, json_t *obj, const char *key, uint32_t limit,
                     const char *where, int required, int32_t *out)
{
    json_t *v = json_object_get(obj, key);
    *out = -1;
    if (!v)
        return required ? gltf_fail(g, "%s has no %s", where, key) : 0;
    if (!json_is_integer(v) || json_integer_value(v) < 0 ||
        (uint64_t)json_integer_value(v) >= limit)
        return gltf_fail(g, "%s.%s is not an index below %u", where, key, limit);
    *out = (int32_t)json_integer_value(v);
    return 0;
}

/* An array of n numbers at key of obj into out (absent: left as it is). */
static int get_numbers(struct gltf *g, json_t *obj, const char *key, size_t n,
                       const char *where, double *out)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        return 0;
    if (!json_is_array(v) || json_array_size(v) != n)
        return gltf_fail(g, "%s.%s is not an array of %zu numbers", where, key, n);
    for (size_t i = 0; i < n; i++) {
        json_t *x = json_array_get(v, i);
        if (!json_is_number(x) || !isfinite(json_number_value(x)))
            return gltf_fail(g, "%s.%s[%zu] is not a finite number", where, key, i);
        out[i] = json_number_value(x);
    }
    return 0;
}

/* The array at key of the root (absent: an empty one, NULL). */
static int get_list(struct gltf *g, const char *key, json_t **out, uint32_t *n)
{
    *out = json_object_get(g->root, key);
    *n = 0;
    if (!*out)
        return 0;
    if (!json_is_array(*out))
        return gltf_fail(g, "%s is not an array", key);
    if (json_array_size(*out) > INT32_MAX)
        return gltf_fail(g, "%s holds too many items", key);
    *n = (uint32_t)json_array_size(*out);
    return 0;
}

static const char *get_name(json_t *obj)
{
    json_t *v = json_object_get(obj, "name");
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* ---- nodes ---- */

/* A 4x4 column-major matrix taken apart: translation, the columns'
 * lengths as scale, and the rotation of the columns made unit (shear, if
 * any, is lost; a mirror flips the scale's x). */
static void take_apart(const double m[16], struct gltf_node *n)
{
    double c[3][3];
    for (int k = 0; k < 3; k++) {
        n->t[k] = m[12 + k];
        double len = sqrt(m[4 * k] * m[4 * k] + m[4 * k + 1] * m[4 * k + 1] +
                          m[4 * k + 2] * m[4 * k + 2]);
        n->s[k] = len;
        for (int i = 0; i < 3; i++)
            c[k][i] = len > 0 ? m[4 * k + i] / len : (i == k);
    }
    double det = c[0][0] * (c[1][1] * c[2][2] - c[1][2] * c[2][1]) -
                 c[1][0] * (c[0][1] * c[2][2] - c[0][2] * c[2][1]) +
                 c[2][0] * (c[0][1] * c[1][2] - c[0][2] * c[1][1]);
    if (det < 0) {
        n->s[0] = -n->s[0];
        for (int i = 0; i < 3; i++)
            c[0][i] = -c[0][i];
    }
    /* c[k] is column k: R[i][k] = c[k][i]; quaternion from R */
    double r00 = c[0][0], r11 = c[1][1], r22 = c[2][2], tr = r00 + r11 + r22, q[4];
    if (tr > 0) {
        double s = sqrt(tr + 1) * 2;
        q[3] = s / 4;
        q[0] = (c[1][2] - c[2][1]) / s;
        q[1] = (c[2][0] - c[0][2]) / s;
        q[2] = (c[0][1] - c[1][0]) / s;
    } else if (r00 > r11 && r00 > r22) {
        double s = sqrt(1 + r00 - r11 - r22) * 2;
        q[3] = (c[1][2] - c[2][1]) / s;
        q[0] = s / 4;
        q[1] = (c[1][0] + c[0][1]) / s;
        q[2] = (c[2][0] + c[0][2]) / s;
    } else if (r11 > r22) {
        double s = sqrt(1 + r11 - r00 - r22) * 2;
        q[3] = (c[2][0] - c[0][2]) / s;
        q[0] = (c[1][0] + c[0][1]) / s;
        q[1] = s / 4;
        q[2] = (c[2][1] + c[1][2]) / s;
    } else {
        double s = sqrt(1 + r22 - r00 - r11) * 2;
        q[3] = (c[0][1] - c[1][0]) / s;
        q[0] = (c[2][0] + c[0][2]) / s;
        q[1] = (c[2][1] + c[1][2]) / s;
        q[2] = s / 4;
    }
    memcpy(n->r, q, sizeof q);
}

static int read_node(struct gltf *g, json_t *js, uint32_t i)
{
    char where[32];
    snprintf(where, sizeof where, "nodes[%u]", i);
    struct gltf_node *n = &g->node[i];
    if (!json_is_object(js))
        return gltf_fail(g, "%s is not an object", where);
    n->name = get_name(js);
    double m[16];
    if (json_object_get(js, "matrix")) {
        if (get_numbers(g, js, "matrix", 16, where, m))
            return -1;
        take_apart(m, n);
    }
    if (get_numbers(g, js, "translation", 3, where, n->t) ||
        get_numbers(g, js, "rotation", 4, where, n->r) ||
        get_numbers(g, js, "scale", 3, where, n->s))
        return -1;
    json_t *kids = json_object_get(js, "children");
    if (kids && !json_is_array(kids))
        return gltf_fail(g, "%s.children is not an array", where);
    for (size_t k = 0; kids && k < json_array_size(kids); k++) {
        json_t *c = json_array_get(kids, k);
        if (!json_is_integer(c) || json_integer_value(c) < 0 ||
            (uint64_t)json_integer_value(c) >= g->nnodes)
            return gltf_fail(g, "%s.children[%zu] is not a node's index", where, k);
        uint32_t ci = (uint32_t)json_integer_value(c);
        if (ci == i)
            return gltf_fail(g, "%s is its own child: the node tree has a cycle", where);
        if (g->node[ci].parent >= 0)
            return gltf_fail(g, "nodes[%u] has two parents, nodes[%d] and nodes[%u]", ci,
                             g->node[ci].parent, i);
        g->node[ci].parent = (int32_t)i;
    }
    return 0;
}

/* Each node's depth by walking up its parents (path: the walk's nodes),
 * no recursion; a walk that comes back to itself is a cycle. */
static int measure_depths(struct gltf *g)
{
    enum { UNSEEN = UINT32_MAX, WALKING = UINT32_MAX - 1 };
    uint32_t *path = malloc((g->nnodes ? g->nnodes : 1) * sizeof *path);
    if (!path) {
        rtm_err_oom(g->err, "out of memory for %u nodes", g->nnodes);
        return -1;
    }
    for (uint32_t i = 0; i < g->nnodes; i++)
        g->node[i].depth = UNSEEN;
    int rc = 0;
    for (uint32_t i = 0; i < g->nnodes && !rc; i++) {
        uint32_t n = 0, k = i;
        while (k != UINT32_MAX && g->node[k].depth == UNSEEN) {
            g->node[k].depth = WALKING;
            path[n++] = k;
            k = g->node[k].parent < 0 ? UINT32_MAX : (uint32_t)g->node[k].parent;
        }
        if (k != UINT32_MAX && g->node[k].depth == WALKING) {
            rc = gltf_fail(g, "nodes[%u] is its own ancestor: the node tree has a cycle", k);
            break;
        }
        uint32_t d = k == UINT32_MAX ? 0 : g->node[k].depth + 1;
        while (n > 0) {
            g->node[path[--n]].depth = d++;
            if (d - 1 > RTM_MOCAP_MAX_DEPTH) {
                rc = gltf_fail(g, "nodes[%u] is more than %d nodes deep", path[n],
                               RTM_MOCAP_MAX_DEPTH);
                break;
            }
        }
    }
    free(path);
    return rc;
}

static int read_nodes(struct gltf *g)
{
    json_t *list;
    if (get_list(g, "nodes", &list, &g->nnodes))
        return -1;
    g->node = calloc(g->nnodes ? g->nnodes : 1, sizeof *g->node);
    if (!g->node) {
        rtm_err_oom(g->err, "out of memory for %u nodes", g->nnodes);
        return -1;
    }
    for (uint32_t i = 0; i < g->nnodes; i++) {
        g->node[i] = (struct gltf_node){ .parent = -1, .r = { 0, 0, 0, 1 }, .s = { 1, 1, 1 } };
    }
    for (uint32_t i = 0; i < g->nnodes; i++)
        if (read_node(g, json_array_get(list, i), i))
            return -1;
    return measure_depths(g);
}

/* ---- the first skin ---- */

static int read_skin(struct gltf *g)
{
    json_t *list;
    uint32_t n;
    g->ibm = -1;
    if (get_list(g, "skins", &list, &n) || n == 0)
        return list && !json_is_array(list) ? -1 : 0;
    json_t *skin = json_array_get(list, 0);
    json_t *joints = json_is_object(skin) ? json_object_get(skin, "joints") : NULL;
    if (!json_is_array(joints) || json_array_size(joints) == 0)
        return gltf_fail(g, "skins[0] has no joints");
    if (json_array_size(joints) > RTM_MOCAP_MAX_JOINTS)
        return gltf_fail(g, "skins[0] has %zu joints, more than %d", json_array_size(joints),
                         RTM_MOCAP_MAX_JOINTS);
    g->nskin = (uint32_t)json_array_size(joints);
    g->skin = malloc(g->nskin * sizeof *g->skin);
    uint8_t *seen = calloc(g->nnodes ? g->nnodes : 1, 1);
    int rc = 0;
    if (!g->skin || !seen) {
        rtm_err_oom(g->err, "out of memory for a skin");
        rc = -1;
    }
    for (uint32_t j = 0; !rc && j < g->nskin; j++) {
        json_t *v = json_array_get(joints, j);
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            (uint64_t)json_integer_value(v) >= g->nnodes)
            rc = gltf_fail(g, "skins[0].joints[%u] is not a node's index", j);
        else if (seen[json_integer_value(v)]++)
            rc = gltf_fail(g, "skins[0].joints[%u] names nodes[%lld] twice", j,
                           (long long)json_integer_value(v));
        else
            g->skin[j] = (uint32_t)json_integer_value(v);
    }
    free(seen);
    if (!rc)
        rc = get_index(g, skin, "inverseBindMatrices", UINT32_MAX, "skins[0]", 0, &g->ibm);
    return rc;
}

/* ---- the clip ---- */

static int read_sampler(struct gltf *g, json_t *js, uint32_t c, uint32_t i)
{
    char where[64];
    snprintf(where, sizeof where, "animations[%u].samplers[%u]", c, i);
    struct gltf_sampler *s = &g->sampler[i];
    int32_t in, out;
    if (!json_is_object(js))
        return gltf_fail(g, "%s is not an object", where);
    if (get_index(g, js, "input", INT32_MAX, where, 1, &in) ||
        get_index(g, js, "output", INT32_MAX, where, 1, &out))
        return -1;
    s->input = (uint32_t)in;
    s->output = (uint32_t)out;
    json_t *v = json_object_get(js, "interpolation");
    const char *how = json_is_string(v) ? json_string_value(v) : v ? "" : "LINEAR";
    if (strcmp(how, "LINEAR") == 0)
        s->interp = GLTF_LINEAR;
    else if (strcmp(how, "STEP") == 0)
        s->interp = GLTF_STEP;
    else if (strcmp(how, "CUBICSPLINE") == 0)
        s->interp = GLTF_CUBICSPLINE;
    else
        return gltf_fail(g, "%s.interpolation is not LINEAR, STEP or CUBICSPLINE", where);
    return 0;
}

/* A channel of a T, R or S path is kept; weights (morph targets) and
 * extensions' paths are no joint's motion. */
static int read_channel(struct gltf *g, json_t *js, uint32_t c, uint32_t i)
{
    char where[64];
    snprintf(where, sizeof where, "animations[%u].channels[%u]", c, i);
    json_t *target = json_is_object(js) ? json_object_get(js, "target") : NULL;
    if (!json_is_object(target))
        return gltf_fail(g, "%s has no target", where);
    int32_t sampler, node;
    if (get_index(g, js, "sampler", g->nsamplers, where, 1, &sampler) ||
        get_index(g, target, "node", g->nnodes, where, 0, &node))
        return -1;
    json_t *p = json_object_get(target, "path");
    const char *path = json_is_string(p) ? json_string_value(p) : "";
    static const char *const PATHS[] = { "translation", "rotation", "scale" };
    for (int k = 0; k < 3; k++)
        if (strcmp(path, PATHS[k]) == 0 && node >= 0) {
            g->channel[g->nchannels++] =
                (struct gltf_channel){ (uint32_t)node, (uint32_t)sampler, (enum gltf_path)k };
            return 0;
        }
    if (strcmp(path, "weights") != 0 && node >= 0 && !json_object_get(target, "extensions"))
        return gltf_fail(g, "%s.target.path \"%s\" is none of translation, rotation, scale "
                         "and weights", where, path);
    return 0;
}

static int read_clip(struct gltf *g)
{
    json_t *list;
    if (get_list(g, "animations", &list, &g->nclips))
        return -1;
    if (g->nclips == 0)
        return 0;
    if (g->clip >= g->nclips)
        return gltf_fail(g, "clip %u asked for: the file holds %u (from 0)", g->clip, g->nclips);
    json_t *a = json_array_get(list, g->clip);
    json_t *ch = json_is_object(a) ? json_object_get(a, "channels") : NULL;
    json_t *sa = json_is_object(a) ? json_object_get(a, "samplers") : NULL;
    if (!json_is_array(ch) || !json_is_array(sa) || !json_array_size(ch) || !json_array_size(sa))
        return gltf_fail(g, "animations[%u] has no channels or no samplers", g->clip);
    g->clip_name = get_name(a);
    g->nsamplers = (uint32_t)json_array_size(sa);
    size_t nch = json_array_size(ch);
    g->sampler = calloc(g->nsamplers, sizeof *g->sampler);
    g->channel = calloc(nch, sizeof *g->channel);
    if (!g->sampler || !g->channel) {
        rtm_err_oom(g->err, "out of memory for animations[%u]", g->clip);
        return -1;
    }
    for (uint32_t i = 0; i < g->nsamplers; i++)
        if (read_sampler(g, json_array_get(sa, i), g->clip, i))
            return -1;
    for (uint32_t i = 0; i < nch; i++)
        if (read_channel(g, json_array_get(ch, i), g->clip, i))
            return -1;
    if (g->nchannels == 0)
        return gltf_fail(g, "animations[%u] moves no node (no translation, rotation or scale "
                         "channel)", g->clip);
    return 0;
}

/* ---- the model ---- */

static int read_json(struct gltf *g, const uint8_t *json, size_t len)
{
    json_error_t je;
    g->root = json_loadb((const char *)json, len, JSON_REJECT_DUPLICATES, &je);
    if (!g->root && json_error_code(&je) == json_error_out_of_memory) {
        rtm_err_oom(g->err, "out of memory reading glTF's JSON");
        return -1;
    }
    if (!g->root) {
        rtm_err_set(g->err, g->json_at + (uint64_t)(je.position > 0 ? je.position : 0),
                    "glTF JSON line %d column %d: %s", je.line, je.column, je.text);
        return -1;
    }
    if (!json_is_object(g->root))
        return gltf_fail(g, "the JSON is not an object");
    json_t *asset = json_object_get(g->root, "asset");
    json_t *ver = json_is_object(asset) ? json_object_get(asset, "version") : NULL;
    if (!json_is_string(ver))
        return gltf_fail(g, "asset.version is missing: not a glTF file");
    if (strncmp(json_string_value(ver), "2.", 2) != 0)
        return gltf_fail(g, "asset.version is %s: only glTF 2.x is read",
                         json_string_value(ver));
    return 0;
}

int gltf_open(struct gltf *g, const uint8_t *json, size_t json_len, uint64_t json_at,
              const struct rtm_parse_opts *o, struct rtm_error *err)
{
    struct gltf keep = *g;      /* the caller's bin and file_size */
    memset(g, 0, sizeof *g);
    g->bin = keep.bin;
    g->bin_len = keep.bin_len;
    g->bin_at = keep.bin_at;
    g->file_size = keep.file_size;
    g->err = err;
    g->o = o;
    g->json_at = json_at;
    g->clip = o->clip;
    g->ibm = -1;
    if (read_json(g, json, json_len) || read_nodes(g) || read_skin(g) || read_clip(g))
        return -1;
    if (!g->nskin && !g->nclips)
        return gltf_fail(g, "holds no skin and no animation: nothing to animate");
    return 0;
}

void gltf_close(struct gltf *g)
{
    for (uint32_t b = 0; g->buffer && b < g->nbuffers; b++)
        free(g->buffer[b].owned);
    free(g->buffer);
    free(g->node);
    free(g->skin);
    free(g->sampler);
    free(g->channel);
    json_decref(g->root);
    memset(g, 0, sizeof *g);
}
