/* mocap_retarget_source.c - BVH as a format of rtm_parse (formats.h): the
 * reader (mocap.h), the map and the retargeting (mocap_retarget.h) in a
 * row, with the skeleton the parse's options choose and the memory its
 * reserve allows.  The last two steps are shared with glTF's reader
 * (gltf_source.c), which makes its mocap in code. */
#include "formats.h"
#include "mocap.h"
#include "mocap_retarget.h"

#include <stdlib.h>
#include <string.h>

/* The skeleton o gives for a mocap: chosen by its joints' names, as a
 * model.cfg class is chosen by an RTM's bones.  -1 when out of memory. */
static int choose_skeleton(const struct rtm_parse_opts *o, const struct rtm_mocap *m,
                           const struct rtm_skeleton **out)
{
    if (!o->choose) {
        *out = o->skel;
        return 0;
    }
    struct rtm_str *names = malloc((m->njoints ? m->njoints : 1) * sizeof *names);
    if (!names)
        return -1;
    for (uint32_t j = 0; j < m->njoints; j++)
        names[j] = (struct rtm_str){ m->joint[j].name, (uint32_t)strlen(m->joint[j].name) };
    *out = rtm_parse_skeleton(o, names, m->njoints);
    free(names);
    return 0;
}

/* Mapped and retargeted: the anim of m (its depth from m and flags). */
int rtm_mocap_source_make(const struct rtm_mocap *m, const struct rtm_parse_opts *o,
                          const struct rtm_mocap_opts *mo, unsigned flags, uint64_t file_size,
                          enum rtm_format fmt, const struct rtm_skeleton **skel,
                          struct rtm_anim **out, struct rtm_error *err)
{
    static const struct rtm_mocap_opts none;
    if (!mo)
        mo = o->mocap ? o->mocap : &none;
    if (choose_skeleton(o, m, skel)) {
        rtm_err_oom(err, "out of memory");
        return -1;
    }
    if (!rtm_skeleton_has_pivots(*skel)) {
        rtm_err_nooff(err, "skeleton %s has no pivots (rest pose) to retarget BVH onto: "
                      "use one that has, e.g. ofp2", *skel ? (*skel)->name : "none");
        return -1;
    }
    struct rtm_mocap_map map;
    if (rtm_mocap_map(m, *skel, mo->map_text, mo->map_len, mo->map_name, &map, err))
        return -1;
    int rc = rtm_mocap_retarget(m, &map, *skel, mo, flags, out, err);
    rtm_mocap_map_free(&map);
    if (!rc) {
        (*out)->source_bytes = file_size;
        (*out)->format = fmt;
    }
    return rc;
}

/* What a parse will hold: the values read, and the anim (frames out at
 * most the source's: resampling only thins). */
int rtm_mocap_source_reserve(const struct rtm_parse_opts *o, const struct rtm_mocap *head,
                             struct rtm_error *err)
{
    const struct rtm_skeleton *s = NULL;
    if (choose_skeleton(o, head, &s)) {
        rtm_err_oom(err, "out of memory");
        return -1;
    }
    uint64_t values = (uint64_t)head->nframes * head->nvalues * sizeof(double);
    uint64_t nb = s ? s->nbones : 0, per_frame = sizeof(float) + nb * 12 * sizeof(float);
    uint64_t light = values + (uint64_t)head->nframes * sizeof(float) + nb * 64;
    return rtm_reserve(o, o->flags & RTM_PARSE_NO_MATRICES ? light : light + head->nframes * per_frame,
                       light + head->nframes * per_frame, err);
}

int rtm_read_bvh(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                 const struct rtm_skeleton **skel, struct rtm_anim **out,
                 struct rtm_error *err)
{
    struct rtm_mocap *m = NULL;
    uint64_t need = 0;
    *skel = NULL;
    /* the counts first, so that the reserve is asked before the values */
    int rc = rtm_mocap_read(data, len, len, RTM_MOCAP_HEAD, &m, &need, err);
    if (!rc) {
        rc = rtm_mocap_source_reserve(o, m, err);
        rtm_mocap_free(m);
        m = NULL;
    }
    if (!rc)
        rc = rtm_mocap_read(data, len, len, 0, &m, &need, err);
    if (!rc)
        rc = rtm_mocap_source_make(m, o, NULL, o->flags, len, RTM_FORMAT_BVH, skel, out, err);
    rtm_mocap_free(m);
    return rc ? -1 : 0;
}

int rtm_head_bvh(const uint8_t *data, size_t len, uint64_t file_size,
                 const struct rtm_parse_opts *o, const struct rtm_skeleton **skel,
                 struct rtm_anim **out, uint64_t *need, struct rtm_error *err)
{
    struct rtm_mocap *m = NULL;
    *skel = NULL;
    int rc = rtm_mocap_read(data, len, file_size, RTM_MOCAP_HEAD, &m, need, err);
    if (rc)
        return rc;
    rc = rtm_mocap_source_make(m, o, NULL, 0, file_size, RTM_FORMAT_BVH, skel, out, err);
    rtm_mocap_free(m);
    return rc;
}
