/* gltf_source.c - glTF, GLB and FBX as formats of rtm_parse (formats.h):
 * the container opened (GLB: rtm_glb_split; FBX: the caller's converter
 * to GLB), the model read into a mocap (gltf.h), and the mocap mapped and
 * retargeted as BVH's is (mocap_retarget.h: rtm_mocap_source_make).  The
 * the clips' names come from the JSON. */
#include <stdlib.h>
#include <string.h>

#include "formats.h"
#include "glb.h"
#include "gltf.h"
#include "mocap_retarget.h"

/* Where the JSON and BIN are in the file. */
struct container {
    const uint8_t *json;
    size_t json_len;
    uint64_t json_at;
    const uint8_t *bin;
    size_t bin_len;
    uint64_t bin_at;
};

int rtm_gltf_sniff(const uint8_t *data, size_t len)
{
    size_t i = len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
    while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
        i++;
    return i < len && data[i] == '{';
}

int rtm_fbx_sniff(const uint8_t *data, size_t len)
{
    return (len >= 18 && memcmp(data, "Kaydara FBX Binary", 18) == 0) ||
           (len >= 5 && memcmp(data, "; FBX", 5) == 0);
}

/* Which clip a is, of the file's, and their names ("" for one without,
 * and one clip named "" for a skin without animation): header.txt's clip
 * line and the mount's clips/ (rtm_anim_set_clips); and its unit (glTF is
 * metres unless the user says). */
static int note_clip(const struct gltf *g, int unit_set, struct rtm_anim *a, struct rtm_error *err)
{
    if (a->bvh && !unit_set)
        a->bvh->unit_name = "file";
    json_t *list = json_object_get(g->root, "animations");
    uint32_t n = g->nclips ? g->nclips : 1;
    struct rtm_str *names = malloc(n * sizeof *names);
    for (uint32_t i = 0; names && i < n; i++) {
        json_t *nm = i < g->nclips ? json_object_get(json_array_get(list, i), "name") : NULL;
        const char *s = json_is_string(nm) ? json_string_value(nm) : "";
        names[i] = (struct rtm_str){ s, (uint32_t)strnlen(s, UINT32_MAX) };
    }
    int rc = names ? rtm_anim_set_clips(a, g->nclips ? g->clip : 0, n, names) : -1;
    free(names);
    if (rc)
        rtm_err_oom(err, "out of memory");
    return rc;
}

/* The model of c read and made the anim of format fmt. */
static int read_model(const struct container *c, uint64_t file_size, int head,
                      const struct rtm_parse_opts *o, enum rtm_format fmt,
                      const struct rtm_skeleton **skel, struct rtm_anim **out,
                      struct rtm_error *err)
{
    struct gltf g = { .bin = c->bin, .bin_len = c->bin_len, .bin_at = c->bin_at,
                      .file_size = file_size };
    struct rtm_mocap *m = NULL;
    struct rtm_mocap_opts mo = { 0 };
    if (o->mocap)
        mo = *o->mocap;
    int unit_set = mo.unit > 0;
    if (!unit_set)
        mo.unit = 1;
    int rc = gltf_open(&g, c->json, c->json_len, c->json_at, o, err) || gltf_mocap(&g, head, &m);
    if (!rc)
        rc = rtm_mocap_source_make(m, o, &mo, head ? 0 : o->flags, file_size, fmt, skel, out,
                                   err);
    if (!rc && note_clip(&g, unit_set, *out, err)) {
        rtm_free(*out);
        *out = NULL;
        rc = -1;
    }
    rtm_mocap_free(m);
    gltf_close(&g);
    return rc ? -1 : 0;
}

/* ---- .gltf: the file is the JSON ---- */

static struct container gltf_container(const uint8_t *data, size_t len)
{
    return (struct container){ .json = data, .json_len = len };
}

int rtm_read_gltf(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                  const struct rtm_skeleton **skel, struct rtm_anim **out, struct rtm_error *err)
{
    struct container c = gltf_container(data, len);
    *skel = NULL;
    return read_model(&c, len, 0, o, RTM_FORMAT_GLTF, skel, out, err);
}

/* The JSON is the whole file: its head is all of it. */
int rtm_head_gltf(const uint8_t *data, size_t len, uint64_t file_size,
                  const struct rtm_parse_opts *o, const struct rtm_skeleton **skel,
                  struct rtm_anim **out, uint64_t *need, struct rtm_error *err)
{
    *skel = NULL;
    if (len < file_size) {
        *need = file_size;
        return RTM_PARSE_NEED_MORE;
    }
    struct container c = gltf_container(data, len);
    return read_model(&c, file_size, 1, o, RTM_FORMAT_GLTF, skel, out, err);
}

/* ---- .glb: the container's chunks ---- */

static int glb_container(const uint8_t *data, size_t len, struct container *c,
                         struct rtm_error *err)
{
    struct rtm_glb glb;
    if (rtm_glb_split(data, len, &glb, err))
        return -1;
    *c = (struct container){ .json = glb.json, .json_len = glb.json_len,
                             .json_at = (uint64_t)(glb.json - data), .bin = glb.bin,
                             .bin_len = glb.bin_len,
                             .bin_at = glb.bin ? (uint64_t)(glb.bin - data) : 0 };
    return 0;
}

/* A GLB's head: its header and JSON chunk, whose length is at byte 12.
 * Only the first chunk is looked at here; rtm_glb_split checks all of a
 * whole file. */
static int glb_head_container(const uint8_t *data, size_t len, uint64_t file_size,
                              struct container *c, uint64_t *need, struct rtm_error *err)
{
    enum { JSON_AT = RTM_GLB_HEADER + RTM_GLB_CHUNK_HEADER };
    if (len >= file_size)
        return glb_container(data, len, c, err);
    if (len < JSON_AT) {
        *need = JSON_AT;
        return RTM_PARSE_NEED_MORE;
    }
    uint64_t end = JSON_AT + (uint64_t)le_u32(data + RTM_GLB_HEADER);
    if (memcmp(data, "glTF", 4) != 0 || le_u32(data + 4) != 2 ||
        memcmp(data + RTM_GLB_HEADER + 4, "JSON", 4) != 0 || end > file_size)
        return glb_container(data, len, c, err);       /* its message */
    if (len < end) {
        *need = end;
        return RTM_PARSE_NEED_MORE;
    }
    *c = (struct container){ .json = data + JSON_AT, .json_len = (size_t)(end - JSON_AT),
                             .json_at = JSON_AT };
    return 0;
}

static int read_glb_as(const uint8_t *data, size_t len, uint64_t file_size,
                       const struct rtm_parse_opts *o, enum rtm_format fmt,
                       const struct rtm_skeleton **skel, struct rtm_anim **out,
                       struct rtm_error *err)
{
    struct container c;
    *skel = NULL;
    if (glb_container(data, len, &c, err))
        return -1;
    return read_model(&c, file_size, 0, o, fmt, skel, out, err);
}

int rtm_read_glb(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                 const struct rtm_skeleton **skel, struct rtm_anim **out, struct rtm_error *err)
{
    return read_glb_as(data, len, len, o, RTM_FORMAT_GLB, skel, out, err);
}

int rtm_head_glb(const uint8_t *data, size_t len, uint64_t file_size,
                 const struct rtm_parse_opts *o, const struct rtm_skeleton **skel,
                 struct rtm_anim **out, uint64_t *need, struct rtm_error *err)
{
    struct container c;
    *skel = NULL;
    int rc = glb_head_container(data, len, file_size, &c, need, err);
    return rc ? rc : read_model(&c, file_size, 1, o, RTM_FORMAT_GLB, skel, out, err);
}

/* ---- .fbx: through the caller's converter ---- */

static int convert_fbx(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                       uint8_t **glb, size_t *glb_len, struct rtm_error *err)
{
    *glb = NULL;
    if (!o->convert) {
        rtm_err_nooff(err, "reading FBX needs the converter rtmfs-fbx (rtmfs(1), FBX SOURCES)");
        return -1;
    }
    return o->convert(o->convert_ctx, "fbx", data, len, glb, glb_len, err) ? -1 : 0;
}

int rtm_read_fbx(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                 const struct rtm_skeleton **skel, struct rtm_anim **out, struct rtm_error *err)
{
    uint8_t *glb;
    size_t glb_len = 0;
    *skel = NULL;
    if (convert_fbx(data, len, o, &glb, &glb_len, err))
        return -1;
    int rc = read_glb_as(glb, glb_len, len, o, RTM_FORMAT_FBX, skel, out, err);
    free(glb);
    return rc;
}

/* The converter reads the whole file, so the head is all of it. */
int rtm_head_fbx(const uint8_t *data, size_t len, uint64_t file_size,
                 const struct rtm_parse_opts *o, const struct rtm_skeleton **skel,
                 struct rtm_anim **out, uint64_t *need, struct rtm_error *err)
{
    *skel = NULL;
    if (len < file_size) {
        *need = file_size;
        return RTM_PARSE_NEED_MORE;
    }
    uint8_t *glb;
    size_t glb_len = 0;
    if (convert_fbx(data, len, o, &glb, &glb_len, err))
        return -1;
    struct container c;
    int rc = glb_container(glb, glb_len, &c, err);
    if (!rc)
        rc = read_model(&c, file_size, 1, o, RTM_FORMAT_FBX, skel, out, err);
    free(glb);
    return rc ? -1 : 0;
}
