/* fbx_gltf.h - the glTF 2.0 document rtmfs-fbx writes, built piece by
 * piece: nodes, skins and animations go into jansson arrays, their
 * numbers into one BIN buffer, and fbx_gltf_finish() joins the JSON and
 * the buffer into a GLB (glb.h).
 *
 * Every accessor has a buffer view of its own, float32 data (4-byte
 * aligned, so no padding is needed between them) and, where glTF asks
 * for it (animation inputs), its exact min and max.
 *
 * Contract: struct fbx_gltf owns its JSON values and its buffer until
 * fbx_gltf_free(); the GLB that fbx_gltf_finish() appends belongs to the
 * caller's buffer.  Functions return -1 (accessor index functions a
 * negative index) with err set when out of memory or past glTF's bounds.
 * No global state; one thread a document.
 */
#ifndef RTM_FBX_GLTF_H
#define RTM_FBX_GLTF_H

#include <jansson.h>
#include <stddef.h>

#include "util.h"

struct fbx_gltf {
    json_t *nodes, *skins, *animations, *accessors, *views;
    struct rtm_buf bin;
};

int fbx_gltf_init(struct fbx_gltf *g, struct rtm_error *err);
void fbx_gltf_free(struct fbx_gltf *g);
/* Appends count elements of type ("SCALAR", "VEC3", "VEC4", "MAT4":
 * comps floats each) from v; with_bounds adds min and max.  Returns the
 * accessor's index, or -1. */
long fbx_gltf_accessor(struct fbx_gltf *g, const float *v, size_t count, const char *type,
                       int with_bounds, struct rtm_error *err);
/* Appends json to arr, taking its reference; -1 when out of memory. */
int fbx_gltf_append(json_t *arr, json_t *json, struct rtm_error *err);
/* A JSON string of the name's len bytes; bytes that are not UTF-8 become
 * '?', since glTF's JSON is UTF-8.  NULL when out of memory. */
json_t *fbx_gltf_name(const char *s, size_t len);
/* Appends the whole GLB (scene 0 holds node root) to out. */
int fbx_gltf_finish(struct fbx_gltf *g, long root, struct rtm_buf *out, struct rtm_error *err);

#endif
