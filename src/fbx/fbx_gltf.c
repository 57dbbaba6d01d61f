/* fbx_gltf.c - the glTF document rtmfs-fbx writes (fbx_gltf.h). */
#include "fbx_gltf.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "glb.h"

int fbx_gltf_init(struct fbx_gltf *g, struct rtm_error *err)
{
    memset(g, 0, sizeof *g);
    rtm_buf_init(&g->bin);
    g->nodes = json_array();
    g->skins = json_array();
    g->animations = json_array();
    g->accessors = json_array();
    g->views = json_array();
    if (!g->nodes || !g->skins || !g->animations || !g->accessors || !g->views) {
        fbx_gltf_free(g);
        rtm_err_oom(err, "out of memory for the glTF document");
        return -1;
    }
    return 0;
}

void fbx_gltf_free(struct fbx_gltf *g)
{
    json_decref(g->nodes);
    json_decref(g->skins);
    json_decref(g->animations);
    json_decref(g->accessors);
    json_decref(g->views);
    rtm_buf_free(&g->bin);
    memset(g, 0, sizeof *g);
}

int fbx_gltf_append(json_t *arr, json_t *json, struct rtm_error *err)
{
    if (!json || json_array_append_new(arr, json) != 0) {
        rtm_err_oom(err, "out of memory for the glTF document");
        return -1;
    }
    return 0;
}

static int comps_of(const char *type)
{
    return !strcmp(type, "SCALAR") ? 1 : !strcmp(type, "VEC3") ? 3 : !strcmp(type, "VEC4") ? 4 : 16;
}

/* min and max of each component, as the float32 values they are (glTF's
 * validator compares them exactly with the data). */
static json_t *bounds(const float *v, size_t count, int comps, int want_max)
{
    json_t *arr = json_array();
    for (int c = 0; arr && c < comps; c++) {
        float b = v[c];
        for (size_t i = 1; i < count; i++) {
            float x = v[i * comps + c];
            b = want_max ? (x > b ? x : b) : (x < b ? x : b);
        }
        if (json_array_append_new(arr, json_real(b)) != 0) {
            json_decref(arr);
            return NULL;
        }
    }
    return arr;
}

long fbx_gltf_accessor(struct fbx_gltf *g, const float *v, size_t count, const char *type,
                       int with_bounds, struct rtm_error *err)
{
    int comps = comps_of(type);
    if (count == 0 || count > UINT32_MAX / 64) {
        rtm_err_nooff(err, "an accessor of %zu elements is beyond what rtmfs-fbx writes", count);
        return -1;
    }
    size_t bytes = count * (size_t)comps * sizeof(float);
    size_t offset = g->bin.len;
    if (offset + bytes > UINT32_MAX) {
        rtm_err_nooff(err, "the glTF buffer would pass 4 GiB");
        return -1;
    }
    rtm_buf_put(&g->bin, v, bytes);
    json_t *view = json_pack("{s:i, s:I, s:I}", "buffer", 0, "byteOffset", (json_int_t)offset,
                             "byteLength", (json_int_t)bytes);
    json_t *acc = json_pack("{s:I, s:i, s:I, s:s}", "bufferView", (json_int_t)json_array_size(g->views),
                            "componentType", 5126, "count", (json_int_t)count, "type", type);
    if (acc && with_bounds) {
        json_t *lo = bounds(v, count, comps, 0), *hi = bounds(v, count, comps, 1);
        if (!lo || !hi || json_object_set_new(acc, "min", lo) || json_object_set_new(acc, "max", hi)) {
            json_decref(acc);
            acc = NULL;
        }
    }
    if (g->bin.oom || !view || !acc) {
        json_decref(view);
        json_decref(acc);
        rtm_err_oom(err, "out of memory for an accessor of %zu elements", count);
        return -1;
    }
    if (fbx_gltf_append(g->views, view, err) || fbx_gltf_append(g->accessors, acc, err))
        return -1;
    return (long)json_array_size(g->accessors) - 1;
}

json_t *fbx_gltf_name(const char *s, size_t len)
{
    json_t *j = json_stringn(s, len);
    if (j)
        return j;
    char *ascii = malloc(len + 1);
    if (!ascii)
        return NULL;
    for (size_t i = 0; i < len; i++)
        ascii[i] = (unsigned char)s[i] < 0x80 ? s[i] : '?';
    j = json_stringn(ascii, len);
    free(ascii);
    return j;
}

/* Moves the arrays that hold anything into doc (glTF forbids empty ones). */
static int put_arrays(struct fbx_gltf *g, json_t *doc)
{
    struct { const char *key; json_t **arr; } parts[] = {
        { "nodes", &g->nodes }, { "skins", &g->skins }, { "animations", &g->animations },
        { "accessors", &g->accessors }, { "bufferViews", &g->views },
    };
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        if (json_array_size(*parts[i].arr) == 0)
            continue;
        if (json_object_set_new(doc, parts[i].key, *parts[i].arr) != 0) {
            *parts[i].arr = NULL;
            return -1;
        }
        *parts[i].arr = NULL;
    }
    return 0;
}

int fbx_gltf_finish(struct fbx_gltf *g, long root, struct rtm_buf *out, struct rtm_error *err)
{
    json_t *doc = json_pack("{s:{s:s, s:s}, s:i, s:[{s:[I]}]}", "asset", "version", "2.0",
                            "generator", "rtmfs-fbx", "scene", 0, "scenes", "nodes", (json_int_t)root);
    if (doc && g->bin.len > 0 &&
        json_object_set_new(doc, "buffers", json_pack("[{s:I}]", "byteLength", (json_int_t)g->bin.len)))
        goto oom;
    if (!doc || put_arrays(g, doc) != 0)
        goto oom;
    /* 17 digits: every float32 written (min and max above all) reads back exactly */
    char *text = json_dumps(doc, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(doc);
    doc = NULL;
    if (!text)
        goto oom;
    int rc = rtm_glb_join(text, strlen(text), (const uint8_t *)g->bin.p, g->bin.len, out);
    free(text);
    if (rc != 0) {
        rtm_err_oom(err, "out of memory for the GLB, or it would pass 4 GiB");
        return -1;
    }
    return 0;
oom:
    json_decref(doc);
    rtm_err_oom(err, "out of memory for the glTF document");
    return -1;
}
