/* format_table.c - the source formats' rows (format_table.h): each
 * format's name, extension, signature and readers, and the facts the
 * other layers ask of it.  The readers are plain.c, bmtr.c, BVH's
 * mocap_retarget_source.c and glTF's gltf_source.c (GLB and FBX too); the wrappers here give them one signature. */
#include "format_table.h"
#include "formats.h"
#include "glb.h"
#include "lzo.h"
#include "mocap.h"

#include <stdlib.h>
#include <string.h>

static int sniff_plain(const uint8_t *data, size_t len)
{
    return len >= 8 && (memcmp(data, "RTM_0101", 8) == 0 || memcmp(data, "RTM_MDAT", 8) == 0);
}

static int sniff_bmtr(const uint8_t *data, size_t len)
{
    return len >= 4 && memcmp(data, "BMTR", 4) == 0;
}

static int read_plain(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                      const struct rtm_skeleton **skel, struct rtm_anim **out,
                      struct rtm_error *err)
{
    *skel = NULL;
    return rtm_read_plain(data, len, o, out, err);
}

static int head_plain(const uint8_t *data, size_t len, uint64_t file_size,
                      const struct rtm_parse_opts *o, const struct rtm_skeleton **skel,
                      struct rtm_anim **out, uint64_t *need, struct rtm_error *err)
{
    *skel = NULL;
    return rtm_head_plain(data, len, file_size, o, out, need, err);
}

/* Only the full reader decompresses (LZO); the head reads counts and
 * names, which BMTR stores uncompressed. */
static int read_bmtr(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                     const struct rtm_skeleton **skel, struct rtm_anim **out,
                     struct rtm_error *err)
{
    *skel = NULL;
    if (rtm_lzo_init()) {
        rtm_err_nooff(err, "liblzo2 failed to initialise");
        return -1;
    }
    return rtm_read_bmtr(data, len, o, out, err);
}

static int head_bmtr(const uint8_t *data, size_t len, uint64_t file_size,
                     const struct rtm_parse_opts *o, const struct rtm_skeleton **skel,
                     struct rtm_anim **out, uint64_t *need, struct rtm_error *err)
{
    *skel = NULL;
    return rtm_head_bmtr(data, len, file_size, o, out, need, err);
}

/* In enum rtm_format's order: the dispatch tries the rows in it. */
static const struct rtm_format_row ROWS[] = {
    [RTM_FORMAT_PLAIN] = {
        .id = RTM_FORMAT_PLAIN, .name = "plain", .ext = ".rtm",
        .signature = "RTM_0101, RTM_MDAT",
        .sniff = sniff_plain, .read = read_plain, .head = head_plain,
        .is_plain_rtm = 1, .names_own_case = 1,
    },
    [RTM_FORMAT_BMTR] = {
        .id = RTM_FORMAT_BMTR, .name = "bmtr", .ext = ".rtm", .signature = "BMTR",
        .sniff = sniff_bmtr, .read = read_bmtr, .head = head_bmtr,
        .versioned = 1, .is_bmtr = 1, .composes_bones = 1,
    },
    [RTM_FORMAT_BVH] = {
        .id = RTM_FORMAT_BVH, .name = "bvh", .ext = ".bvh",
        .signature = "(BVH) HIERARCHY", .side_file = "bvh.map",
        .sniff = rtm_mocap_sniff, .read = rtm_read_bvh, .head = rtm_head_bvh,
        .bones_are_skeletons = 1,
    },
    [RTM_FORMAT_GLTF] = {
        .id = RTM_FORMAT_GLTF, .name = "gltf", .ext = ".gltf", .signature = "(glTF) {",
        .side_file = "bvh.map",
        .sniff = rtm_gltf_sniff, .read = rtm_read_gltf, .head = rtm_head_gltf,
        .files = rtm_gltf_files, .bones_are_skeletons = 1,
    },
    [RTM_FORMAT_GLB] = {
        .id = RTM_FORMAT_GLB, .name = "glb", .ext = ".glb", .signature = "glTF",
        .side_file = "bvh.map",
        .sniff = rtm_glb_sniff, .read = rtm_read_glb, .head = rtm_head_glb,
        .bones_are_skeletons = 1,
    },
    [RTM_FORMAT_FBX] = {
        .id = RTM_FORMAT_FBX, .name = "fbx", .ext = ".fbx",
        .signature = "Kaydara FBX Binary", .side_file = "bvh.map",
        .sniff = rtm_fbx_sniff, .read = rtm_read_fbx, .head = rtm_head_fbx,
        .bones_are_skeletons = 1,
    },
};
_Static_assert(sizeof ROWS / sizeof *ROWS == RTM_NFORMATS, "a source format without a row");

const struct rtm_format_row *rtm_format_by_id(uint64_t id)
{
    return id < RTM_NFORMATS ? &ROWS[id] : NULL;
}

const struct rtm_format_row *rtm_format_of(const struct rtm_anim *a)
{
    return rtm_format_by_id(a->format);
}

const struct rtm_format_row *rtm_format_sniff(const uint8_t *data, size_t len)
{
    for (size_t i = 0; i < RTM_NFORMATS; i++)
        if (ROWS[i].sniff(data, len))
            return &ROWS[i];
    return NULL;
}

int rtm_is_anim_name(const char *name, size_t len)
{
    for (size_t i = 0; i < RTM_NFORMATS; i++)
        if (rtm_name_ends(name, len, ROWS[i].ext))
            return 1;
    return 0;
}

const char *rtm_format_side_file(const char *name, size_t len)
{
    for (size_t i = 0; i < RTM_NFORMATS; i++)
        if (ROWS[i].side_file && rtm_name_ends(name, len, ROWS[i].ext))
            return ROWS[i].side_file;
    return NULL;
}

const struct rtm_format_row *rtm_format_naming_files(const char *name, size_t len)
{
    for (size_t i = 0; i < RTM_NFORMATS; i++)
        if (ROWS[i].files && rtm_name_ends(name, len, ROWS[i].ext))
            return &ROWS[i];
    return NULL;
}
