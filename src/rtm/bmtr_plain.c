/* bmtr_plain.c - plain.rtm of a BMTR file, converted a frame at a time
 * into the piece being written (bmtr_plain.h).
 *
 * A full parse keeps every frame's matrices, 48 bytes a bone, which the
 * writer then copies out: for a program that writes plain.rtm once and
 * exits (rtmcat), those are fresh pages, a fault each, and a copy.  Here
 * the transforms are kept instead (14 bytes) and each frame's matrices
 * are converted straight into their place in the output.  The bytes are
 * the full parse's by construction: the same reader walks the file
 * (rtm_read_bmtr_raw), the same function converts each frame with the
 * same plan, and the same writer lays the file out (rtm_write_plain_made).
 */
#include "bmtr_plain.h"

#include <stdlib.h>

#include "format_table.h"
#include "formats.h"

/* What makes a frame's matrices: the file's transforms and the plan, and
 * a frame of doubles (the bones' absolute matrices, parents first). */
struct maker {
    const struct rtm_bmtr_raw *raw;
    double *abs;
};

/* rtm_plain_frame_fn: frame f converted in place. */
static void make_frame(void *ctx, uint32_t f, uint8_t *m, size_t stride)
{
    const struct maker *mk = ctx;
    uint32_t nb = mk->raw->anim->nbones;
    rtm_convert_frame_at(&mk->raw->plan,
                         mk->raw->transforms + (size_t)f * nb * RTM_TRANSFORM_BYTES, mk->abs,
                         m, stride);
}

int rtm_bmtr_plain_each(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                        struct rtm_buf *out, size_t chunk, rtm_plain_flush_fn flush, void *ctx,
                        struct rtm_error *err)
{
    const struct rtm_format_row *f = rtm_format_sniff(data, len);
    if (!f || !f->is_bmtr) {
        rtm_err_nooff(err, "not a BMTR file");
        if (o->give_source)
            free((void *)data);
        return -1;
    }
    struct rtm_bmtr_raw raw;
    int rc = rtm_read_bmtr_raw(data, len, o, &raw, err);
    if (o->give_source)             /* read: its pages are the writer's to reuse */
        free((void *)data);
    if (rc)
        return -1;
    uint32_t nb = raw.anim->nbones;
    struct maker mk = { &raw, malloc((nb ? nb : 1) * 12 * sizeof(double)) };
    rc = -2;
    if (mk.abs)
        rc = rtm_write_plain_made(raw.anim, make_frame, &mk, out, chunk, flush, ctx) ? -2 : 0;
    free(mk.abs);
    rtm_bmtr_raw_free(&raw);
    return rc;
}
