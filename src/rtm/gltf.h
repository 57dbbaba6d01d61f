/* gltf.h - a glTF 2.0 file read as motion capture, private to src/rtm/:
 * its JSON's model (nodes, the first skin, one clip, accessors and the
 * buffers behind them; gltf_model.c, gltf_data.c) and that model made
 * the mocap an equivalent BVH file would give (gltf_pose.c), which
 * gltf_source.c maps and retargets as BVH is (mocap_retarget.h).
 *
 * Contract:
 *  - gltf_open() reads the JSON (json_len bytes at json, which must
 *    outlive the model; json_at is its first byte in the file, for
 *    messages) with jansson, rejecting duplicate keys, and checks what
 *    the rest needs: every node index, each node one parent at most, no
 *    cycle, no node deeper than RTM_MOCAP_MAX_DEPTH (found by walking up
 *    parents, never by recursion on the file's nesting); the first skin's
 *    joints; the clip o->clip of animations[] (channels, samplers, their
 *    accessors' counts and types against their views and buffers, as far
 *    as the JSON tells).  A file with neither skin nor animation fails
 *    with "holds no skin and no animation: nothing to animate".  -1 with
 *    err (the byte of a JSON error, else the JSON path of the problem).
 *  - Buffers are read only when an accessor's values are asked for
 *    (gltf_values): the GLB's BIN chunk (bin, which must outlive the
 *    model), a data: URI (base64), or o->read_beside with the uri
 *    percent-decoded (absolute paths and ".." refused).  The model owns
 *    what it read, freed by gltf_close(), which takes any model that
 *    gltf_open() returned (or failed on).
 *  - gltf_mocap() gives the mocap (mocap.h) of the model: values NULL
 *    with head (the JSON alone: rest pose from the nodes' transforms,
 *    frame count from the input accessors' counts, min and max), else
 *    the rest pose from the skin's inverse bind matrices where it has
 *    one and every frame sampled; the same joints and nframes either
 *    way.  reserve, when set, is asked before the values are allocated.
 *  - No global state; any thread, one model per thread.
 */
#ifndef RTM_GLTF_H
#define RTM_GLTF_H

#include <jansson.h>
#include <stdint.h>

#include "mocap.h"
#include "rtm.h"

enum gltf_path { GLTF_TRANSLATION, GLTF_ROTATION, GLTF_SCALE };
enum gltf_interp { GLTF_LINEAR, GLTF_STEP, GLTF_CUBICSPLINE };

struct gltf_node {
    int32_t parent;             /* -1 for a scene's root */
    uint32_t depth;             /* 0 for a root */
    const char *name;           /* the JSON's (NULL when it has none) */
    double t[3], r[4], s[3];    /* rest transform (a matrix taken apart);
                                   r is (x, y, z, w) as glTF writes it */
};

struct gltf_buffer {
    uint64_t length;            /* byteLength */
    const char *uri;            /* the JSON's, or NULL (the GLB's BIN) */
    const uint8_t *data;        /* once read, at least length bytes */
    uint8_t *owned;             /* what the model allocated for it */
    uint64_t file_at;           /* its first byte in the file (BIN), or 0 */
};

/* An accessor checked against its view and buffer (lengths from the
 * JSON); data set only by gltf_values. */
struct gltf_accessor {
    uint32_t index, count;
    int ctype;                  /* componentType: 5120 ... 5126 */
    uint32_t ncomp;             /* SCALAR 1, VEC3 3, VEC4 4, MAT4 16 */
    int normalized;
    int32_t buffer;             /* -1: no bufferView (all zeros) */
    uint64_t offset;            /* in the buffer */
    uint64_t stride;
    double min, max;            /* min[0], max[0] when has_minmax */
    int has_minmax;
    const uint8_t *data;        /* after gltf_values: the first element */
};

struct gltf_sampler {
    uint32_t input, output;     /* accessor indices */
    enum gltf_interp interp;
};

struct gltf_channel {
    uint32_t node, sampler;
    enum gltf_path path;
};

struct gltf {
    json_t *root;
    struct rtm_error *err;
    const struct rtm_parse_opts *o;
    uint64_t json_at;
    const uint8_t *bin;
    size_t bin_len;
    uint64_t bin_at;
    uint64_t file_size;

    uint32_t nnodes;
    struct gltf_node *node;
    uint32_t nbuffers;
    struct gltf_buffer *buffer;

    uint32_t nskin;             /* the first skin's joints, 0 without one */
    uint32_t *skin;
    int32_t ibm;                /* its inverseBindMatrices accessor, or -1 */

    uint32_t nclips, clip;      /* animations[], and which is read */
    const char *clip_name;      /* NULL when it has none */
    uint32_t nsamplers, nchannels;
    struct gltf_sampler *sampler;
    struct gltf_channel *channel;  /* only those of T, R, S paths */
};

int gltf_open(struct gltf *g, const uint8_t *json, size_t json_len, uint64_t json_at,
              const struct rtm_parse_opts *o, struct rtm_error *err);
void gltf_close(struct gltf *g);
/* The accessors' list in the JSON: n, and each one's name. */
int gltf_fail(struct gltf *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Accessor index checked (gltf_data.c): its type among want_ncomp (0 to
 * end the list) and, when float_only, FLOAT components, else FLOAT or
 * normalized integers; its elements within its view and buffer. */
int gltf_accessor(struct gltf *g, uint32_t index, const uint32_t *want_ncomp, int float_only,
                  struct gltf_accessor *out);
/* Reads the buffer behind a (once) and points a->data at its first
 * element. */
int gltf_values(struct gltf *g, struct gltf_accessor *a);
/* Component k of element i, as a double (normalized integers scaled). */
double gltf_get(const struct gltf_accessor *a, uint32_t i, uint32_t k);

int gltf_mocap(struct gltf *g, int head, struct rtm_mocap **out);

#endif
