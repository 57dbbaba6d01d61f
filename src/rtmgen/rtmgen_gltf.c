/* rtmgen_gltf.c - rtmgen -G DIR: glTF animations for the tests of glTF as
 * a source (gltf_write.h): the arm as a GLB with a skin and two clips, as
 * .gltf text whose buffer is the file beside it, and as .gltf text with
 * its buffer inline and no skin. */
#include <stdio.h>

#include "gltf_write.h"
#include "rtmgen.h"

static int write_buf(const char *dir, const char *name, const struct rtm_buf *b)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (b->oom) {
        fprintf(stderr, "rtmgen: out of memory\n");
        return -1;
    }
    return rtmgen_write_file(path, b, b->len);
}

int rtmgen_gltf(const char *dir)
{
    struct rtm_buf glb, text, beside, inline_text;
    uint8_t bin[RTM_GLTF_ARM_BIN];
    const int both = RTM_ARM_SKIN | RTM_ARM_TWO_CLIPS;
    rtm_buf_init(&glb);
    rtm_buf_init(&text);
    rtm_buf_init(&beside);
    rtm_buf_init(&inline_text);
    rtm_gltf_arm_glb(&glb, both);
    rtm_gltf_arm_json(&text, both, "arm%20data.bin");     /* a uri percent-encoded */
    rtm_gltf_arm_bin(bin, both);
    rtm_buf_put(&beside, bin, sizeof bin);
    rtm_gltf_arm_text(&inline_text, 0);
    int rc = write_buf(dir, "arm.glb", &glb) || write_buf(dir, "arm.gltf", &text) ||
             write_buf(dir, "arm data.bin", &beside) ||
             write_buf(dir, "arm_inline.gltf", &inline_text);
    rtm_buf_free(&glb);
    rtm_buf_free(&text);
    rtm_buf_free(&beside);
    rtm_buf_free(&inline_text);
    return rc ? 1 : 0;
}
