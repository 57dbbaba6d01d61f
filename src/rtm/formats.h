/* formats.h - one reader per on-disk format, behind rtm_parse() (parse.c):
 * plain RTM, BMTR, BVH (read, mapped and retargeted), and glTF, GLB
 * and FBX (read into BVH's model, then the same).  Each is named
 * by its format's row (format_table.c), which parse.c dispatches by.
 *
 * Each reader gets the whole source and fills a new anim, or returns -1
 * with err set.  The caller has already matched the signature.
 */
#ifndef RTM_FORMATS_H
#define RTM_FORMATS_H

#include "convert.h"
#include "rtm.h"
#include "skeleton.h"

int rtm_read_plain(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                   struct rtm_anim **out, struct rtm_error *err);
int rtm_read_bmtr(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                  struct rtm_anim **out, struct rtm_error *err);

/* A BMTR file read as a light parse reads it (the same checks, readings
 * and errors; the anim at RTM_DEPTH_LIGHT, made by the reader alone: no
 * skeleton's copy, no tracks), with every frame's transforms kept
 * unconverted, nframes * nbones * 14 bytes in file order, and the plan
 * that converts them (convert.h): a full parse's matrices, a frame at a
 * time, from a quarter of their memory (bmtr_plain.h). */
struct rtm_bmtr_raw {
    struct rtm_anim *anim;
    uint8_t *transforms;
    struct rtm_plan plan;
};
int rtm_read_bmtr_raw(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                      struct rtm_bmtr_raw *out, struct rtm_error *err);
void rtm_bmtr_raw_free(struct rtm_bmtr_raw *r);

/* BVH motion capture (mocap.h), retargeted onto the skeleton the options
 * choose by its joints' names (mocap_retarget.h); *skel gets that
 * skeleton, for what the parse copies of it.  The head reads the
 * hierarchy and the Frames lines only and gives the same bones and
 * nframes. */
int rtm_read_bvh(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                 const struct rtm_skeleton **skel, struct rtm_anim **out,
                 struct rtm_error *err);
int rtm_head_bvh(const uint8_t *data, size_t len, uint64_t file_size,
                 const struct rtm_parse_opts *o, const struct rtm_skeleton **skel,
                 struct rtm_anim **out, uint64_t *need, struct rtm_error *err);

/* glTF 2.0 (gltf.h): a .gltf's JSON text or a .glb container, the clip
 * o->clip read into a mocap as an equivalent BVH would be and then mapped
 * and retargeted as BVH is (mocap_retarget.h).  Buffers come from the GLB's
 * BIN chunk, data: URIs, or o->read_beside.  The heads read the JSON
 * alone (counts and accessors' min/max) and give the same bones and
 * nframes; the clip lists are the JSON's animations[]. */
int rtm_read_gltf(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                  const struct rtm_skeleton **skel, struct rtm_anim **out,
                  struct rtm_error *err);
int rtm_head_gltf(const uint8_t *data, size_t len, uint64_t file_size,
                  const struct rtm_parse_opts *o, const struct rtm_skeleton **skel,
                  struct rtm_anim **out, uint64_t *need, struct rtm_error *err);
int rtm_read_glb(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                 const struct rtm_skeleton **skel, struct rtm_anim **out,
                 struct rtm_error *err);
int rtm_head_glb(const uint8_t *data, size_t len, uint64_t file_size,
                 const struct rtm_parse_opts *o, const struct rtm_skeleton **skel,
                 struct rtm_anim **out, uint64_t *need, struct rtm_error *err);
/* Its first non-blank byte (after a UTF-8 BOM) is '{'. */
int rtm_gltf_sniff(const uint8_t *data, size_t len);
/* The files beside it a .gltf's buffers name (format_table.h: files). */
int rtm_gltf_files(const uint8_t *data, size_t len, char ***names, uint32_t *n,
                   struct rtm_error *err);

/* FBX: o->convert turns it into GLB, read as rtm_read_glb reads one (the
 * anim's format then FBX); without it the parse fails saying so.  The
 * head needs the whole file (the converter reads it all). */
int rtm_read_fbx(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                 const struct rtm_skeleton **skel, struct rtm_anim **out,
                 struct rtm_error *err);
int rtm_head_fbx(const uint8_t *data, size_t len, uint64_t file_size,
                 const struct rtm_parse_opts *o, const struct rtm_skeleton **skel,
                 struct rtm_anim **out, uint64_t *need, struct rtm_error *err);
/* Binary ("Kaydara FBX Binary") or ASCII ("; FBX" first) FBX. */
int rtm_fbx_sniff(const uint8_t *data, size_t len);

/* The same from the first len of file_size bytes: names and counts only
 * (rtm_parse_head).  RTM_PARSE_NEED_MORE when they need more bytes, with
 * *need set when the reader knows how many (else left alone). */
int rtm_head_plain(const uint8_t *data, size_t len, uint64_t file_size,
                   const struct rtm_parse_opts *o, struct rtm_anim **out, uint64_t *need,
                   struct rtm_error *err);
int rtm_head_bmtr(const uint8_t *data, size_t len, uint64_t file_size,
                  const struct rtm_parse_opts *o, struct rtm_anim **out, uint64_t *need,
                  struct rtm_error *err);

/* Asks o->reserve for bytes (see rtm_parse_opts); 0 when there is no limit. */
static inline int rtm_reserve(const struct rtm_parse_opts *o, uint64_t bytes, uint64_t full,
                              struct rtm_error *err)
{
    return o->reserve ? o->reserve(o->reserve_ctx, bytes, full, err) : 0;
}

#endif
