/* states_visit.c - the states of a table's configs (states_int.h), found
 * once for the check when a table is finished and again for the lines
 * (states.c) when they are made, and the key they are found by
 * (states.h). */
#include "states_int.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gamepath.h"

int rtm_states_key(const char *gp, size_t len, char out[RTM_STATES_KEY_MAX])
{
    long n = gamepath_norm(gp, len, out, RTM_STATES_KEY_MAX);
    if (n <= 0)
        return -1;
    rtm_ascii_lower_bytes(out, (size_t)n);
    return 0;
}

int states_file_keys(const struct cfg *c, struct one_cfg *oc)
{
    struct rtm_buf keys;
    rtm_buf_init(&keys);
    if (!(oc->file_key = calloc(c->ne ? c->ne : 1, sizeof *oc->file_key)))
        return -1;
    for (uint32_t i = 0; i < c->ne; i++) {
        const struct cfg_entry *e = &c->e[i];
        char key[GP_MAX];
        if (e->kind != CFG_VALUE || e->v.type != CFG_T_STRING || e->name.len != 4 ||
            strcasecmp(e->name.p, "file") || rtm_states_key(e->v.u.s.p, e->v.u.s.len, key))
            continue;
        if (keys.len >= UINT32_MAX - GP_MAX)
            break;                      /* the others made when asked */
        oc->file_key[i] = (uint32_t)keys.len + 1;
        rtm_buf_put(&keys, key, strlen(key) + 1);
    }
    if (keys.oom) {
        states_file_keys_free(oc);
        rtm_buf_free(&keys);
        return -1;
    }
    size_t n;
    oc->key_bytes = c->ne * sizeof *oc->file_key + keys.len;
    oc->keys = rtm_buf_take(&keys, &n);
    return 0;
}

void states_file_keys_free(struct one_cfg *oc)
{
    free(oc->file_key);
    free(oc->keys);
    oc->file_key = NULL;
    oc->keys = NULL;
    oc->key_bytes = 0;
}

/* The key of file value f found at at: the one made when its config was
 * prepared, else made into buf (NULL: not a game path). */
static const char *key_of(const struct rtm_states *s, struct found at,
                          const struct cfg_value *f, char buf[GP_MAX])
{
    const struct one_cfg *oc = &s->cfgs[at.cfg];
    uint32_t k = oc->file_key ? oc->file_key[at.entry] : 0;
    if (k)
        return oc->keys + k - 1;
    return rtm_states_key(f->u.s.p, f->u.s.len, buf) ? NULL : buf;
}

int states_each(const struct rtm_states *s, size_t ci, states_each_fn *fn, void *ctx)
{
    const struct cfg *c = s->cfgs[ci].c;
    if (!c)
        return 0;                       /* a line-only table's: its lines are given */
    const struct cfg_entry *root = &c->e[0];
    for (uint32_t i = root->first; i < root->first + root->n; i++) {
        if (c->e[i].kind != CFG_CLASS)
            continue;
        long st = cfg_member(c, i, "States");
        if (st < 0 || c->e[st].kind != CFG_CLASS)
            continue;
        for (uint32_t k = c->e[st].first; k < c->e[st].first + c->e[st].n; k++) {
            char buf[GP_MAX];
            const char *key;
            if (c->e[k].kind != CFG_CLASS)
                continue;
            struct found at = states_lookup(s, ci, k, "file", 0);
            const struct cfg_value *f = states_value_of(s, at);
            if (!f || f->type != CFG_T_STRING || !(key = key_of(s, at, f, buf)))
                continue;
            int rc = fn(ctx, ci, k, key, f);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* ---- for the check ---- */

struct visit_ctx {
    states_visit_fn *fn;
    void *ctx;
};

static int visit_one(void *ctx, size_t ci, uint32_t cls, const char *key,
                     const struct cfg_value *file)
{
    const struct visit_ctx *v = ctx;
    struct state_ref r = { key, file->u.s.p, file->u.s.len, ci, cls };
    return v->fn(v->ctx, &r);
}

int states_visit(const struct rtm_states *s, states_visit_fn *fn, void *ctx)
{
    int rc = 0;
    struct visit_ctx v = { fn, ctx };
    if (s->lines_later) {               /* no line yet: the configs' states */
        for (size_t i = 0; !rc && i < s->ncfgs; i++)
            rc = states_each(s, i, visit_one, &v);
        return rc;
    }
    for (size_t i = 0; !rc && i < s->nlines; i++) {
        const struct line *l = &s->lines[i];
        struct state_ref r = { l->key, l->file, strlen(l->file), l->cfg, l->entry };
        if (s->cfgs[l->cfg].c)          /* not a line given */
            rc = fn(ctx, &r);
    }
    return rc;
}

