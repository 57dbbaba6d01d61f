/* glb.c - the GLB container (glb.h): its header and two chunks. */
#include "glb.h"

#include <inttypes.h>

#define GLB_MAGIC 0x46546C67u       /* "glTF" */
#define CHUNK_JSON 0x4E4F534Au      /* "JSON" */
#define CHUNK_BIN 0x004E4942u       /* "BIN\0" */

static size_t pad4(size_t n) { return (n + 3) & ~(size_t)3; }

int rtm_glb_sniff(const uint8_t *data, size_t len)
{
    return len >= 4 && le_u32(data) == GLB_MAGIC;
}

/* The chunk at *at: its type and bytes, *at moved past it. */
static int chunk_at(const uint8_t *data, size_t len, size_t *at, uint32_t *type,
                    const uint8_t **bytes, size_t *n, struct rtm_error *err)
{
    if (len - *at < RTM_GLB_CHUNK_HEADER) {
        rtm_err_set(err, *at, "GLB: chunk header cut short (%zu of 8 bytes)", len - *at);
        return -1;
    }
    uint32_t clen = le_u32(data + *at);
    *type = le_u32(data + *at + 4);
    if (clen % 4) {
        rtm_err_set(err, *at, "GLB: chunk length %" PRIu32 " is not a multiple of 4", clen);
        return -1;
    }
    if (clen > len - *at - RTM_GLB_CHUNK_HEADER) {
        rtm_err_set(err, *at, "GLB: chunk of %" PRIu32 " bytes runs past the file's end "
                    "(%zu left)", clen, len - *at - RTM_GLB_CHUNK_HEADER);
        return -1;
    }
    *bytes = data + *at + RTM_GLB_CHUNK_HEADER;
    *n = clen;
    *at += RTM_GLB_CHUNK_HEADER + clen;
    return 0;
}

static int check_header(const uint8_t *data, size_t len, struct rtm_error *err)
{
    if (len < RTM_GLB_HEADER || !rtm_glb_sniff(data, len)) {
        rtm_err_set(err, 0, len < RTM_GLB_HEADER ? "GLB: header cut short (%zu of 12 bytes)"
                                                 : "GLB: does not start with \"glTF\"", len);
        return -1;
    }
    if (le_u32(data + 4) != 2) {
        rtm_err_set(err, 4, "GLB: version %" PRIu32 ", not 2", le_u32(data + 4));
        return -1;
    }
    if (le_u32(data + 8) != len) {
        rtm_err_set(err, 8, "GLB: header says %" PRIu32 " bytes, the file has %zu",
                    le_u32(data + 8), len);
        return -1;
    }
    return 0;
}

int rtm_glb_split(const uint8_t *data, size_t len, struct rtm_glb *out, struct rtm_error *err)
{
    *out = (struct rtm_glb){ 0 };
    if (check_header(data, len, err))
        return -1;
    size_t at = RTM_GLB_HEADER;
    uint32_t type;
    if (chunk_at(data, len, &at, &type, &out->json, &out->json_len, err))
        return -1;
    if (type != CHUNK_JSON || !out->json_len) {
        rtm_err_set(err, RTM_GLB_HEADER, type != CHUNK_JSON ? "GLB: first chunk is not JSON"
                                                            : "GLB: JSON chunk is empty");
        return -1;
    }
    if (at == len)
        return 0;
    size_t bin_at = at;
    if (chunk_at(data, len, &at, &type, &out->bin, &out->bin_len, err))
        return -1;
    if (type != CHUNK_BIN) {
        rtm_err_set(err, bin_at, "GLB: second chunk is not BIN");
        return -1;
    }
    while (at < len) {          /* later chunks: skipped, but they must fit */
        const uint8_t *skip;
        size_t n;
        if (chunk_at(data, len, &at, &type, &skip, &n, err))
            return -1;
    }
    return 0;
}

uint64_t rtm_glb_size(size_t json_len, size_t bin_len)
{
    uint64_t n = RTM_GLB_HEADER + RTM_GLB_CHUNK_HEADER + (uint64_t)pad4(json_len);
    if (bin_len)
        n += RTM_GLB_CHUNK_HEADER + (uint64_t)pad4(bin_len);
    return n;
}

int rtm_glb_join(const char *json, size_t json_len, const uint8_t *bin, size_t bin_len,
                 struct rtm_buf *out)
{
    uint64_t total = rtm_glb_size(json_len, bin_len);
    if (total > UINT32_MAX)
        return -1;
    static const char spaces[3] = "   ";
    static const uint8_t zeros[3] = { 0 };
    rtm_buf_put_u32(out, GLB_MAGIC);
    rtm_buf_put_u32(out, 2);
    rtm_buf_put_u32(out, (uint32_t)total);
    rtm_buf_put_u32(out, (uint32_t)pad4(json_len));
    rtm_buf_put_u32(out, CHUNK_JSON);
    rtm_buf_put(out, json, json_len);
    rtm_buf_put(out, spaces, pad4(json_len) - json_len);
    if (bin_len) {
        rtm_buf_put_u32(out, (uint32_t)pad4(bin_len));
        rtm_buf_put_u32(out, CHUNK_BIN);
        rtm_buf_put(out, bin, bin_len);
        rtm_buf_put(out, zeros, pad4(bin_len) - bin_len);
    }
    return out->oom ? -1 : 0;
}
