/* mocap_build.c - a mocap made in code (mocap.h: rtm_mocap_new), for a
 * reader of another format that says what an equivalent BVH would. */
#include <stdlib.h>
#include <string.h>

#include "mocap.h"

struct rtm_mocap *rtm_mocap_new(uint32_t njoints, const struct rtm_str *name)
{
    if (njoints > RTM_MOCAP_MAX_JOINTS)
        return NULL;
    size_t bytes = 1;
    for (uint32_t j = 0; j < njoints; j++)
        bytes += (size_t)name[j].len + 1;
    struct rtm_mocap *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->joint = calloc(njoints ? njoints : 1, sizeof *m->joint);
    m->arena = malloc(bytes);
    if (!m->joint || !m->arena) {
        rtm_mocap_free(m);
        return NULL;
    }
    char *at = m->arena;
    for (uint32_t j = 0; j < njoints; j++) {
        size_t n = name[j].len;
        const char *nul = memchr(name[j].s, 0, n);
        if (nul)
            n = (size_t)(nul - name[j].s);
        memcpy(at, name[j].s, n);
        at[n] = 0;
        m->joint[j].name = at;
        at += n + 1;
    }
    m->njoints = njoints;
    return m;
}

int rtm_mocap_alloc_values(struct rtm_mocap *m)
{
    size_t n = (size_t)m->nframes * m->nvalues;
    if (m->nvalues && n / m->nvalues != m->nframes)
        return -1;
    free(m->values);
    m->values = calloc(n ? n : 1, sizeof *m->values);
    return m->values ? 0 : -1;
}
