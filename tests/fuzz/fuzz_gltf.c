/* fuzz_gltf - libFuzzer target: the glTF reader (gltf.h) through the
 * parse's own entry points, onto ofp2: the input as it is (.gltf text or
 * a GLB), the input as a GLB's JSON chunk with itself as the BIN chunk,
 * with a read_beside that hands back the input for any file; then a head
 * read grown the way a listing grows it, and the clip list.  What it
 * checks: a parse succeeds or fails with a message; a head read agrees
 * with the whole read on bones and frames; the clip list and the parse
 * agree on whether the file is readable.  Seeds: fuzz_seeds' gltf folder
 * (the tests' arm, every variant, as text and GLB). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "glb.h"
#include "rtm.h"
#include "skeleton.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct input {
    const uint8_t *data;
    size_t size;
};

static int beside(void *ctx, const char *name, uint8_t **out, size_t *len, struct rtm_error *err)
{
    const struct input *in = ctx;
    if (strcmp(name, "missing.bin") == 0) {
        rtm_err_nooff(err, "%s: no such file", name);
        return -1;
    }
    *out = malloc(in->size ? in->size : 1);
    if (!*out) {
        rtm_err_oom(err, "out of memory");
        return -1;
    }
    memcpy(*out, in->data, in->size);
    *len = in->size;
    return 0;
}

static void parse_both_ways(const uint8_t *data, size_t size, const struct rtm_parse_opts *o)
{
    struct rtm_anim *a = NULL, *h = NULL;
    struct rtm_error err;
    err.msg[0] = 0;
    int rc = rtm_parse_opts(data, size, o, &a, &err);
    if (rc && !err.msg[0])
        abort();
    uint64_t need = 0;
    size_t len = size < 16 ? size : 16;
    int hr;
    for (;;) {
        err.msg[0] = 0;
        hr = rtm_parse_head(data, len, size, o, &h, &need, &err);
        if (hr != RTM_PARSE_NEED_MORE)
            break;
        if (need <= len || need > size)
            abort();
        len = (size_t)need;
    }
    if (hr == 0 && a && (h->nbones != a->nbones || h->nframes != a->nframes))
        abort();
    if (hr && !err.msg[0])
        abort();
    /* a source of clips knows which of how many; the others have none
     * (rtm.h: an RTM the input may also be parses with nclips 0) */
    if (a && ((a->nclips == 0) != (a->clips == NULL) || (a->nclips && a->clip >= a->nclips)))
        abort();
    rtm_free(a);
    rtm_free(h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct rtm_skeleton *s;
    struct rtm_error err;
    if (!s && rtm_skeleton_builtin("ofp2", &s, &err))
        abort();
    struct input in = { data, size };
    struct rtm_parse_opts o = { .skel = s, .read_beside = beside, .beside_ctx = &in };
    parse_both_ways(data, size, &o);
    o.clip = 1;
    parse_both_ways(data, size, &o);
    o.clip = 0;
    /* the input as JSON in a GLB, with itself as the BIN chunk */
    struct rtm_buf g;
    rtm_buf_init(&g);
    if (size && rtm_glb_join((const char *)data, size, data, size, &g) == 0)
        parse_both_ways((const uint8_t *)g.p, g.len, &o);
    rtm_buf_free(&g);
    return 0;
}
