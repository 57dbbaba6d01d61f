/* fuzz_mocap - libFuzzer target: the BVH reader (mocap.h) on the input,
 * whole and as a head read grown the way a listing grows it, then the
 * joint map onto ofp2 (with no map file, and with the input itself as
 * one) and the unit inference.  What it checks: a read succeeds or fails
 * with a "line N" message; what it reads keeps the header's promises
 * (parents first, channels adding up, every value finite); a head read
 * asks for more within the file until it agrees with the whole read;
 * every mapped bone is a bone, held once.  Seeds: fuzz_seeds' mocap
 * folder (the writers' BVH in every naming and style). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mocap.h"
#include "rtm.h"
#include "skeleton.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_shape(const struct rtm_mocap *m, int head)
{
    uint32_t values = 0;
    if (m->njoints == 0 || m->nframes == 0 || !(m->frame_time > 0) || !isfinite(m->frame_time))
        abort();
    for (uint32_t j = 0; j < m->njoints; j++) {
        const struct rtm_mocap_joint *jt = &m->joint[j];
        if (jt->parent >= (int32_t)j || (j > 0) != (jt->parent >= 0) || !jt->name[0])
            abort();
        if ((jt->nchan != 0 && jt->nchan != 3 && jt->nchan != 6) || jt->first != values)
            abort();
        for (int k = 0; k < 3; k++)
            if (!isfinite(jt->offset[k]) || (jt->has_end && !isfinite(jt->end[k])))
                abort();
        values += jt->nchan;
    }
    if (values != m->nvalues || (head != !m->values))
        abort();
    for (size_t i = 0; !head && i < (size_t)m->nframes * m->nvalues; i++)
        if (!isfinite(m->values[i]))
            abort();
}

static void check_map(const struct rtm_mocap *m, const struct rtm_skeleton *s, const char *text,
                      size_t len)
{
    struct rtm_mocap_map map;
    struct rtm_error err;
    err.msg[0] = 0;
    if (rtm_mocap_map(m, s, text, len, "fuzz.map", &map, &err)) {
        if (!text || !err.msg[0])
            abort(); /* only a map file can be wrong */
        return;
    }
    uint8_t *held = calloc(s->nbones, 1);
    uint32_t n = 0;
    for (uint32_t j = 0; j < m->njoints; j++) {
        int32_t b = map.bone[j];
        if (b >= (int32_t)s->nbones || b < -1 || (b >= 0 && held[b]++))
            abort(); /* a bone, held once */
        n += b >= 0;
        if (map.how[j] > RTM_MAP_TAKEN ||
            (map.how[j] == RTM_MAP_TAKEN ? b != -1 || map.wanted[j] < 0 : b != map.wanted[j]))
            abort(); /* TAKEN: lost its bone; else it has the bone it wanted */
    }
    for (uint32_t j = 0; j < m->njoints; j++)
        if (map.how[j] == RTM_MAP_TAKEN && !held[map.wanted[j]])
            abort(); /* lost to a joint that holds it */
    if (n != map.nmapped)
        abort();
    free(held);
    rtm_mocap_map_free(&map);
}

/* A head read from a first bite of size / 3, grown by *need. */
static int grown_head(const uint8_t *data, size_t size, struct rtm_mocap **out)
{
    size_t len = size / 3;
    for (;;) {
        uint64_t need = 0;
        struct rtm_error err;
        int rc = rtm_mocap_read(data, len, size, RTM_MOCAP_HEAD, out, &need, &err);
        if (rc != RTM_PARSE_NEED_MORE)
            return rc;
        if (len >= size || need <= len || need > size)
            abort(); /* more must be more, and within the file */
        len = (size_t)need;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct rtm_skeleton *ofp2;
    struct rtm_error err;
    if (!ofp2 && rtm_skeleton_builtin("ofp2", &ofp2, &err))
        abort();
    struct rtm_mocap *whole = NULL, *head = NULL, *grown = NULL;
    err.msg[0] = 0;
    int rc = rtm_mocap_read(data, size, size, 0, &whole, NULL, &err);
    if (rc != 0 && (rc != -1 || whole || strncmp(err.msg, "line ", 5) != 0))
        abort();
    int hrc = rtm_mocap_read(data, size, size, RTM_MOCAP_HEAD, &head, NULL, &err);
    int grc = grown_head(data, size, &grown);
    if (hrc != grc || (rc == 0 && hrc != 0))
        abort(); /* the head of a good file reads; grown or not, the same */
    if (head) {
        check_shape(head, 1);
        if (head->njoints != grown->njoints || head->motion_at != grown->motion_at ||
            head->nframes != grown->nframes || head->nvalues != grown->nvalues)
            abort();
    }
    if (whole) {
        check_shape(whole, 0);
        if (whole->njoints != head->njoints || whole->motion_at != head->motion_at)
            abort();
        check_map(whole, ofp2, NULL, 0);
        check_map(whole, ofp2, (const char *)data, size);
        double h;
        const char *unit;
        double u = rtm_mocap_unit_infer(whole, &h, &unit);
        if (!(u > 0) || !unit)
            abort();
    }
    rtm_mocap_free(whole);
    rtm_mocap_free(head);
    rtm_mocap_free(grown);
    return 0;
}
