/* gltf_write.c - the glTF arm the tests, the fuzz seeds and rtmgen -G
 * write (gltf_write.h). */
#include "gltf_write.h"

#include <math.h>
#include <string.h>

#include "glb.h"

static void put_base64(struct rtm_buf *out, const uint8_t *d, size_t n)
{
    static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)d[i] << 16 | (i + 1 < n ? (uint32_t)d[i + 1] << 8 : 0) |
                     (i + 2 < n ? d[i + 2] : 0);
        char c[4] = { A[v >> 18], A[(v >> 12) & 63], i + 1 < n ? A[(v >> 6) & 63] : '=',
                      i + 2 < n ? A[v & 63] : '=' };
        rtm_buf_put(out, c, 4);
    }
}

/* q = turn about z by deg, after rest (about x by 90 when RTM_ARM_REST_TURN) */
static void turn_z(double deg, int rest_turn, float q[4])
{
    double h = deg * M_PI / 360, z[4] = { 0, 0, sin(h), cos(h) };  /* x y z w */
    double r[4] = { rest_turn ? sin(M_PI / 4) : 0, 0, 0, rest_turn ? cos(M_PI / 4) : 1 };
    /* z * r */
    double w = z[3] * r[3] - z[0] * r[0] - z[1] * r[1] - z[2] * r[2];
    double x = z[3] * r[0] + z[0] * r[3] + z[1] * r[2] - z[2] * r[1];
    double y = z[3] * r[1] - z[0] * r[2] + z[1] * r[3] + z[2] * r[0];
    double zz = z[3] * r[2] + z[0] * r[1] - z[1] * r[0] + z[2] * r[3];
    q[0] = (float)x, q[1] = (float)y, q[2] = (float)zz, q[3] = (float)w;
}

void rtm_gltf_arm_bin(uint8_t bin[RTM_GLTF_ARM_BIN], int flags)
{
    float f[RTM_GLTF_ARM_BIN / 4];
    memset(f, 0, sizeof f);
    static const float X[3] = { 0.2f, 0.5f, 0.75f };
    for (int k = 0; k < 3; k++) {
        float *m = f + 16 * k;              /* column-major: T(-x, -1.4, 0), turned */
        m[0] = m[5] = m[10] = m[15] = 1;
        m[12] = -X[k];
        m[13] = -1.4f;
        if (k >= 1 && (flags & RTM_ARM_REST_TURN)) {
            /* world rest R = Rx(90): IBM = R^T T(-p): y -> -z ... */
            m[5] = 0, m[6] = -1, m[9] = 1, m[10] = 0;
            m[13] = 0, m[14] = 1.4f;
        }
    }
    f[48] = 0, f[49] = 0.5f, f[50] = 1;
    for (int k = 0; k < 3; k++)
        turn_z(45.0 * k, flags & RTM_ARM_REST_TURN, f + 51 + 4 * k);
    for (int k = 0; k < 3; k++) {
        f[63 + 3 * k] = 0.2f + 0.1f * (float)k;
        f[64 + 3 * k] = 1.4f;
        f[65 + 3 * k] = 0;
    }
    f[72] = 0, f[73] = 2;
    turn_z(0, 0, f + 74);
    turn_z(30, 0, f + 78);
    memcpy(bin, f, RTM_GLTF_ARM_BIN);
}

/* The JSON; uri NULL: the buffer has none (a GLB's BIN). */
void rtm_gltf_arm_json(struct rtm_buf *j, int flags, const char *uri)
{
    rtm_buf_printf(j, "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
                      "\"nodes\":[{\"name\":\"RightArm\",\"translation\":[0.2,1.4,0],"
                      "\"children\":[1]},{\"name\":\"RightForeArm\",\"translation\":[0.3,0,0],"
                      "%s\"children\":[2]},{\"name\":\"RightHand\",\"translation\":[0.25,0,0]}],",
                   flags & RTM_ARM_REST_TURN ? "\"rotation\":[0.70710678,0,0,0.70710678]," : "");
    if (flags & RTM_ARM_SKIN)
        rtm_buf_puts(j, "\"skins\":[{\"joints\":[0,1,2],\"inverseBindMatrices\":0}],");
    rtm_buf_puts(j, "\"buffers\":[{\"byteLength\":328");
    if (uri)
        rtm_buf_printf(j, ",\"uri\":\"%s\"", uri);
    rtm_buf_puts(j, "}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":328}],\"accessors\":["
                    "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"MAT4\"},"
                    "{\"bufferView\":0,\"byteOffset\":192,\"componentType\":5126,\"count\":3,"
                    "\"type\":\"SCALAR\",\"min\":[0],\"max\":[1]},"
                    "{\"bufferView\":0,\"byteOffset\":204,\"componentType\":5126,\"count\":3,"
                    "\"type\":\"VEC4\"},"
                    "{\"bufferView\":0,\"byteOffset\":252,\"componentType\":5126,\"count\":3,"
                    "\"type\":\"VEC3\"},"
                    "{\"bufferView\":0,\"byteOffset\":288,\"componentType\":5126,\"count\":2,"
                    "\"type\":\"SCALAR\",\"min\":[0],\"max\":[2]},"
                    "{\"bufferView\":0,\"byteOffset\":296,\"componentType\":5126,\"count\":2,"
                    "\"type\":\"VEC4\"}],\"animations\":[{\"name\":\"bend\",\"samplers\":["
                    "{\"input\":1,\"output\":2},{\"input\":1,\"output\":3}],\"channels\":["
                    "{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"rotation\"}}");
    if (!(flags & RTM_ARM_SKIN))
        rtm_buf_puts(j, ",{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"translation\"}}");
    rtm_buf_puts(j, "]}");
    if (flags & RTM_ARM_TWO_CLIPS)
        rtm_buf_puts(j, ",{\"name\":\"lift\",\"samplers\":[{\"input\":4,\"output\":5,"
                        "\"interpolation\":\"STEP\"}],\"channels\":[{\"sampler\":0,"
                        "\"target\":{\"node\":0,\"path\":\"rotation\"}}]}");
    rtm_buf_puts(j, "]}");
}

/* The arm as .gltf text, its buffer in a data: URI. */
void rtm_gltf_arm_text(struct rtm_buf *out, int flags)
{
    uint8_t bin[RTM_GLTF_ARM_BIN];
    rtm_gltf_arm_bin(bin, flags);
    struct rtm_buf uri;
    rtm_buf_init(&uri);
    rtm_buf_puts(&uri, "data:application/octet-stream;base64,");
    put_base64(&uri, bin, sizeof bin);
    rtm_buf_putc(&uri, 0);
    rtm_gltf_arm_json(out, flags, uri.p);
    rtm_buf_free(&uri);
}

/* The arm as a GLB. */
int rtm_gltf_arm_glb(struct rtm_buf *out, int flags)
{
    uint8_t bin[RTM_GLTF_ARM_BIN];
    rtm_gltf_arm_bin(bin, flags);
    struct rtm_buf j;
    rtm_buf_init(&j);
    rtm_gltf_arm_json(&j, flags, NULL);
    int rc = j.oom ? -1 : rtm_glb_join(j.p, j.len, bin, sizeof bin, out);
    rtm_buf_free(&j);
    return rc;
}

