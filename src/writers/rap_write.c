/* rap_write.c - writes rapified configs (rap.c describes the layout). */
#include "rap_write.h"

#include <stdlib.h>

void rap_put_count(struct rtm_buf *b, uint32_t n)
{
    while (n >= 0x80) {
        rtm_buf_putc(b, (char)(0x80 | (n & 0x7f)));
        n >>= 7;
    }
    rtm_buf_putc(b, (char)n);
}

static int put_asciiz(struct rtm_buf *b, struct cfg_str s)
{
    if (memchr(s.p, 0, s.len))
        return -1;
    rtm_buf_put(b, s.p, s.len);
    rtm_buf_putc(b, 0);
    return 0;
}

static void patch_u32(struct rtm_buf *b, size_t at, size_t v)
{
    uint32_t u = (uint32_t)v;
    if (!b->oom)
        memcpy(b->p + at, &u, 4);
}

static int put_bare(struct rtm_buf *b, const struct cfg *c, const struct cfg_value *v,
                    int depth);

/* The subtype byte a value is written with. */
static char subtype(const struct cfg_value *v)
{
    static const char code[] = { [CFG_T_STRING] = 0, [CFG_T_FLOAT] = 1, [CFG_T_INT] = 2,
                                 [CFG_T_INT64] = 6, [CFG_T_VARIABLE] = 4, [CFG_T_ARRAY] = 3 };
    return v->type <= CFG_T_ARRAY ? code[v->type] : 0;
}

static int put_array(struct rtm_buf *b, const struct cfg *c, const struct cfg_value *v,
                     int depth)
{
    if (depth > CFG_DEPTH_MAX)
        return -1;
    rap_put_count(b, v->n);
    for (uint32_t i = 0; i < v->n; i++) {
        const struct cfg_value *x = &c->v[v->u.first + i];
        rtm_buf_putc(b, subtype(x));
        if (put_bare(b, c, x, depth + 1))
            return -1;
    }
    return 0;
}

/* A value without its subtype byte. */
static int put_bare(struct rtm_buf *b, const struct cfg *c, const struct cfg_value *v,
                    int depth)
{
    int64_t i = v->u.i;
    switch (v->type) {
    case CFG_T_STRING:
    case CFG_T_VARIABLE:
        return put_asciiz(b, v->u.s);
    case CFG_T_FLOAT:
        rtm_buf_put_f32(b, v->u.f);
        return 0;
    case CFG_T_INT:
        rtm_buf_put_u32(b, (uint32_t)(int32_t)i);
        return 0;
    case CFG_T_INT64:
        rtm_buf_put(b, &i, 8);
        return 0;
    default:
        return put_array(b, c, v, depth);
    }
}

static int put_entry(struct rtm_buf *b, const struct cfg *c, const struct cfg_entry *e,
                     size_t *slot)
{
    switch (e->kind) {
    case CFG_CLASS:
        rtm_buf_putc(b, 0);
        if (put_asciiz(b, e->name))
            return -1;
        *slot = b->len;
        rtm_buf_put_u32(b, 0);
        return 0;
    case CFG_VALUE:
        if (e->v.type == CFG_T_ARRAY)
            return -1;
        rtm_buf_putc(b, 1);
        rtm_buf_putc(b, subtype(&e->v));
        return put_asciiz(b, e->name) || put_bare(b, c, &e->v, 0);
    case CFG_ARRAY:
        rtm_buf_putc(b, e->append ? 5 : 2);
        if (e->append)
            rtm_buf_put_u32(b, 1);
        return put_asciiz(b, e->name) || put_array(b, c, &e->v, 1);
    default:
        rtm_buf_putc(b, e->kind == CFG_EXTERN ? 3 : 4);
        return put_asciiz(b, e->name);
    }
}

/* The body of class cls, then its classes' bodies; *end_slot gets where
 * the u32 after its entries lies (the root's is the enum offset). */
static int put_body(struct rtm_buf *b, const struct cfg *c, uint32_t cls, int depth,
                    size_t *end_slot)
{
    const struct cfg_entry *k = &c->e[cls];
    if (depth > CFG_DEPTH_MAX)
        return -1;
    if (put_asciiz(b, k->has_parent ? k->parent : (struct cfg_str){ "", 0 }))
        return -1;
    rap_put_count(b, k->n);
    size_t *slots = calloc(k->n ? k->n : 1, sizeof *slots);
    if (!slots)
        return -1;
    int rc = 0;
    for (uint32_t i = 0; i < k->n && rc == 0; i++)
        rc = put_entry(b, c, &c->e[k->first + i], &slots[i]);
    *end_slot = b->len;
    rtm_buf_put_u32(b, 0);
    for (uint32_t i = 0; i < k->n && rc == 0; i++) {
        if (c->e[k->first + i].kind != CFG_CLASS)
            continue;
        size_t child_end;
        patch_u32(b, slots[i], b->len);
        rc = put_body(b, c, k->first + i, depth + 1, &child_end);
        if (rc == 0)
            patch_u32(b, child_end, b->len);
    }
    free(slots);
    return rc;
}

int rap_write(const struct cfg *c, struct rtm_buf *b)
{
    size_t root_end;
    if (b->len != 0)
        return -1;
    rtm_buf_put(b, "\0raP\0\0\0\0\x08\0\0\0\0\0\0\0", 16);
    if (put_body(b, c, 0, 0, &root_end))
        return -1;
    patch_u32(b, 12, b->len);
    patch_u32(b, root_end, b->len);
    rtm_buf_put_u32(b, c->nenums);
    for (uint32_t i = 0; i < c->nenums; i++) {
        if (put_asciiz(b, c->enums[i].name))
            return -1;
        rtm_buf_put_u32(b, (uint32_t)c->enums[i].value);
    }
    return b->oom || b->len > UINT32_MAX ? -1 : 0;
}
