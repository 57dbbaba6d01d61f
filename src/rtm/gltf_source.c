/* gltf_source.c - glTF, GLB and FBX as formats of rtm_parse (formats.h). */
#include "formats.h"
#include "glb.h"

#include <string.h>

int rtm_gltf_sniff(const uint8_t *data, size_t len)
{
    size_t i = len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
    while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
        i++;
    return i < len && data[i] == '{';
}

static int todo(struct rtm_error *err)
{
    rtm_err_nooff(err, "glTF is not read yet");
    return -1;
}

int rtm_read_gltf(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                  const struct rtm_skeleton **skel, struct rtm_anim **out, struct rtm_error *err)
{
    (void)data, (void)len, (void)o, (void)skel, (void)out;
    return todo(err);
}
int rtm_head_gltf(const uint8_t *data, size_t len, uint64_t file_size,
                  const struct rtm_parse_opts *o, const struct rtm_skeleton **skel,
                  struct rtm_anim **out, uint64_t *need, struct rtm_error *err)
{
    (void)data, (void)len, (void)file_size, (void)o, (void)skel, (void)out, (void)need;
    return todo(err);
}
int rtm_clips_gltf(const uint8_t *data, size_t len, uint64_t file_size, struct rtm_clips *out,
                   uint64_t *need, struct rtm_error *err)
{
    (void)data, (void)len, (void)file_size, (void)out, (void)need;
    return todo(err);
}
int rtm_read_glb(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                 const struct rtm_skeleton **skel, struct rtm_anim **out, struct rtm_error *err)
{
    return rtm_read_gltf(data, len, o, skel, out, err);
}
int rtm_head_glb(const uint8_t *data, size_t len, uint64_t file_size,
                 const struct rtm_parse_opts *o, const struct rtm_skeleton **skel,
                 struct rtm_anim **out, uint64_t *need, struct rtm_error *err)
{
    return rtm_head_gltf(data, len, file_size, o, skel, out, need, err);
}
int rtm_clips_glb(const uint8_t *data, size_t len, uint64_t file_size, struct rtm_clips *out,
                  uint64_t *need, struct rtm_error *err)
{
    return rtm_clips_gltf(data, len, file_size, out, need, err);
}
int rtm_fbx_sniff(const uint8_t *data, size_t len)
{
    return (len >= 18 && memcmp(data, "Kaydara FBX Binary", 18) == 0) ||
           (len >= 5 && memcmp(data, "; FBX", 5) == 0);
}
int rtm_read_fbx(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                 const struct rtm_skeleton **skel, struct rtm_anim **out, struct rtm_error *err)
{
    return rtm_read_gltf(data, len, o, skel, out, err);
}
int rtm_head_fbx(const uint8_t *data, size_t len, uint64_t file_size,
                 const struct rtm_parse_opts *o, const struct rtm_skeleton **skel,
                 struct rtm_anim **out, uint64_t *need, struct rtm_error *err)
{
    return rtm_head_gltf(data, len, file_size, o, skel, out, need, err);
}
