/* states_check_pack.c - the root check.txt's findings and skeletons as
 * the index remembers them with a table's lines (states_check.h:
 * rtm_states_check_pack and rtm_states_check_unpack).  The bytes come
 * back from a file that may be damaged: every count and string is
 * checked against the bytes left (base's rtm_cursor) before anything is
 * allocated for it, and a record that does not read whole is refused. */
#include "states_check.h"

#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "states_int.h"

/* The count of findings that says a table was finished without them. */
#define NOT_CHECKED UINT32_MAX

static void put_str(struct rtm_buf *b, const char *s)
{
    rtm_buf_put_u32(b, (uint32_t)strlen(s));
    rtm_buf_put(b, s, strlen(s));
}

static void put_u32s(struct rtm_buf *b, const uint32_t *w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        rtm_buf_put_u32(b, w[i]);
}

int rtm_states_check_pack(const struct rtm_states *s, struct rtm_buf *out)
{
    const struct states_check *k = &s->check;
    rtm_buf_put_u32(out, (uint32_t)k->nk);
    for (size_t i = 0; i < k->nk; i++) {
        struct rtm_buf text;
        rtm_buf_init(&text);
        rtm_skeleton_write(k->k[i].s, &text);
        put_str(out, k->k[i].name);
        rtm_buf_put_u32(out, (uint32_t)k->k[i].game);
        rtm_buf_put_u32(out, (uint32_t)text.len);
        rtm_buf_put(out, text.p, text.len);
        out->oom |= text.oom;
        rtm_buf_free(&text);
    }
    rtm_buf_put_u32(out, s->check_later ? NOT_CHECKED : (uint32_t)k->nf);
    for (size_t i = 0; i < k->nf; i++) {
        const struct check_finding *f = &k->f[i];
        put_u32s(out, (const uint32_t[]){ f->code, (uint32_t)f->cfg, f->entry, f->seq }, 4);
        put_str(out, f->text);
    }
    rtm_buf_put_u32(out, (uint32_t)k->nb);
    for (size_t i = 0; i < k->nb; i++) {
        const struct check_bones *b = &k->b[i];
        put_u32s(out, (const uint32_t[]){ (uint32_t)b->cfg, (uint32_t)b->skel, b->entry }, 3);
        put_str(out, b->key);
        put_str(out, b->where);
        put_str(out, b->file);
    }
    return out->oom ? -1 : 0;
}

/* ---- reading it back ---- */

/* n u32s into w: 0, or -1. */
static int get_u32s(struct rtm_cursor *c, uint32_t *w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (rtm_cur_u32(c, &w[i], "a number"))
            return -1;
    return 0;
}

/* A string's bytes where they lie (*len of them); NULL when they run past
 * the end. */
static const char *get_bytes(struct rtm_cursor *c, size_t *len)
{
    uint32_t n;
    if (rtm_cur_u32(c, &n, "a string's length") || rtm_cur_need(c, n, "a string"))
        return NULL;
    const char *p = (const char *)c->data + c->pos;
    c->pos += n;
    *len = n;
    return p;
}

/* The same, a NUL-terminated copy (malloc'd); NULL when bad or out of
 * memory. */
static char *get_str(struct rtm_cursor *c)
{
    size_t n;
    const char *p = get_bytes(c, &n);
    return p ? strndup(p, n) : NULL;
}

/* A count of items of at least min bytes each that the bytes left can
 * hold, and room for that many more in *arr (cap *cap, have of them
 * there): 0, or -1. */
static int get_count(struct rtm_cursor *c, uint32_t *n, size_t min, void *arr, size_t *cap,
                     size_t have, size_t sz)
{
    if (rtm_cur_u32(c, n, "a count") || (uint64_t)*n * min > rtm_cur_left(c))
        return -1;
    void *a = *(void **)arr;
    int rc = rtm_array_grow(&a, cap, have + *n, sz, 4);
    *(void **)arr = a;
    return rc;
}

static int unpack_skeletons(struct rtm_cursor *c, struct states_check *k)
{
    uint32_t n;
    if (get_count(c, &n, 12, &k->k, &k->capk, k->nk, sizeof *k->k))
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        size_t len;
        uint32_t game;
        char *name = get_str(c);
        const char *text = name && rtm_cur_u32(c, &game, "a skeleton's origin") == 0
                               ? get_bytes(c, &len) : NULL;
        struct rtm_skeleton *sk = NULL;
        struct rtm_error e;
        if (!text || game > 1 || rtm_skeleton_parse(text, len, name, &sk, &e)) {
            free(name);
            return -1;
        }
        k->k[k->nk++] = (struct check_skel){ name, sk, (int)game };
    }
    return 0;
}

static int unpack_findings(struct rtm_cursor *c, struct rtm_states *s)
{
    struct states_check *k = &s->check;
    uint32_t n;
    size_t at = c->pos;
    if (rtm_cur_u32(c, &n, "a count"))
        return -1;
    if (n == NOT_CHECKED) {
        s->check_later = 1;
        return 0;
    }
    c->pos = at;
    if (get_count(c, &n, 20, &k->f, &k->capf, k->nf, sizeof *k->f))
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t w[4];
        char *text = get_u32s(c, w, 4) ? NULL : get_str(c);
        if (!text || w[0] >= NCODES || w[1] >= s->ncfgs) {
            free(text);
            return -1;
        }
        k->f[k->nf++] = (struct check_finding){ text, w[1], w[2], w[3], w[0] };
    }
    return 0;
}

static int unpack_bones(struct rtm_cursor *c, struct states_check *k, size_t ncfgs)
{
    uint32_t n;
    if (get_count(c, &n, 24, &k->b, &k->capb, k->nb, sizeof *k->b))
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t w[3];
        size_t nk, nw, nf;
        const char *key = NULL, *where = NULL, *file = NULL;
        if (get_u32s(c, w, 3) || !(key = get_bytes(c, &nk)) || !(where = get_bytes(c, &nw)) ||
            !(file = get_bytes(c, &nf)) || w[0] >= ncfgs || w[1] >= k->nk)
            return -1;
        struct check_bones *b = &k->b[k->nb];
        *b = (struct check_bones){ .cfg = w[0], .skel = w[1], .entry = w[2] };
        if (states_check_bones_strings(b, key, nk, where, nw, NULL, 0, file, nf))
            return -1;
        k->nb++;
    }
    return 0;
}

int rtm_states_check_unpack(struct rtm_states *s, const uint8_t *p, size_t len)
{
    struct rtm_error err;
    struct rtm_cursor c = { p, len, 0, &err };
    return unpack_skeletons(&c, &s->check) || unpack_findings(&c, s) ||
                   unpack_bones(&c, &s->check, s->ncfgs) || c.pos != len
               ? -1
               : 0;
}
