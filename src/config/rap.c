/* rap.c - the rapified config reader ("\0raP", config.bin, binarised
 * .rvmat and mission.sqm).
 *
 * Layout, as the community wiki's "raP File Format" pages describe it and
 * the 57 real files in ../shared/configs show (all integers little-endian):
 *   header: "\0raP", u32 0, u32 8, u32 offset of the enum table;
 *   the root class body at byte 16;
 *   a class body: asciiz parent ("" for none), a compressed count
 *     (7 bits a byte, low bits first, the top bit says another byte
 *     follows), the entries, then a u32 that real files set to the offset
 *     just past this class's subtree (read, never trusted: the wiki is
 *     silent on it and the reader does not need it);
 *   an entry: a type byte, then
 *     0 class:   asciiz name, u32 offset of its body (anywhere in the file)
 *     1 value:   a subtype byte, asciiz name, the value
 *     2 array:   asciiz name, an array
 *     3 extern:  asciiz name            (class NAME;)
 *     4 delete:  asciiz name            (delete NAME;)
 *     5 append:  u32 (1 in files HEMTT and armake write), asciiz name, an
 *                array                  (NAME[] += {..};)
 *   a value by subtype: 0 asciiz string, 1 f32, 2 i32, 4 asciiz expression
 *     name, 6 i64;
 *   an array: a compressed count, then elements, each a subtype byte (as
 *     above, 3 for a nested array) and its value;
 *   the enum table: u32 count, then asciiz name and u32 value each.
 *
 * The walk: a body's entries are read first, then the bodies of its class
 * entries, depth first, at most CFG_DEPTH_MAX deep.  A body offset inside
 * the header, past the end, or inside an enclosing class's body is an
 * error.  Bodies may be shared or overlap only while the bytes read for
 * bodies stay within the file's size, so a file of N bytes costs O(N) work
 * however its offsets point.  The same walk runs twice: counting (no model),
 * then filling a model reserved from the counts, so nothing is allocated
 * before the bytes that justify it have been read.
 */
#include "config.h"

#include <stdlib.h>

struct walk {
    const uint8_t *data;
    size_t len;
    struct cfg *c;              /* NULL while counting */
    uint64_t entries, values, enums, str_bytes, body_bytes;
    uint64_t anc_start[CFG_DEPTH_MAX + 1], anc_end[CFG_DEPTH_MAX + 1];
    struct rtm_error *err;
};

int rap_is_rapified(const uint8_t *data, size_t len)
{
    return len >= 4 && memcmp(data, "\0raP", 4) == 0;
}

static int fail_end(struct walk *w, size_t at, const char *what)
{
    rtm_err_set(w->err, at, "rapified file ends inside %s", what);
    return -1;
}

static int get_u32(struct walk *w, size_t *pos, uint32_t *v, const char *what)
{
    if (w->len - *pos < 4)
        return fail_end(w, *pos, what);
    *v = le_u32(w->data + *pos);
    *pos += 4;
    return 0;
}

/* The compressed count: at most five bytes, a u32. */
static int get_count(struct walk *w, size_t *pos, uint32_t *v, const char *what)
{
    uint64_t x = 0;
    size_t at = *pos;
    for (int i = 0; i < 5; i++) {
        if (*pos >= w->len)
            return fail_end(w, at, what);
        uint8_t b = w->data[(*pos)++];
        x |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            if (x > UINT32_MAX)
                break;
            *v = (uint32_t)x;
            return 0;
        }
    }
    rtm_err_set(w->err, at, "%s: compressed count longer than 32 bits", what);
    return -1;
}

/* The string at *pos, in the file (not copied), counted in str_bytes. */
static int get_str_at(struct walk *w, size_t *pos, struct cfg_str *s, const char *what)
{
    const uint8_t *start = w->data + *pos;
    size_t left = w->len - *pos;
    size_t scan = left < CFG_STR_MAX + 1 ? left : CFG_STR_MAX + 1;
    const uint8_t *nul = memchr(start, 0, scan);
    if (!nul) {
        if (left <= CFG_STR_MAX)
            return fail_end(w, *pos, what);
        rtm_err_set(w->err, *pos, "%s longer than %u bytes", what, CFG_STR_MAX);
        return -1;
    }
    uint32_t n = (uint32_t)(nul - start);
    *pos += n + 1;
    w->str_bytes += n + 1;
    *s = (struct cfg_str){ (const char *)start, n };
    return 0;
}

/* The same, copied into the model while filling it. */
static int get_str(struct walk *w, size_t *pos, struct cfg_str *s, const char *what)
{
    if (get_str_at(w, pos, s, what))
        return -1;
    if (w->c && !(s->p = cfg_strdup(w->c, s->p, s->len))) {
        rtm_err_oom(w->err, "out of memory for a config string");
        return -1;
    }
    return 0;
}

/* Refuses a count that the bytes left cannot hold, each item taking at
 * least min bytes: no allocation trusts a count alone. */
static int count_fits(struct walk *w, size_t at, size_t pos, uint32_t n, unsigned min,
                      const char *what)
{
    if ((uint64_t)n * min <= w->len - pos)
        return 0;
    rtm_err_set(w->err, at, "%s count %u needs more bytes than the file has left", what, n);
    return -1;
}

static int read_array(struct walk *w, size_t *pos, struct cfg_value *out, int depth);

static int read_scalar(struct walk *w, size_t *pos, uint8_t type, struct cfg_value *v,
                       int depth)
{
    uint32_t u;
    switch (type) {
    case 0:
    case 4:
        v->type = type ? CFG_T_VARIABLE : CFG_T_STRING;
        return get_str(w, pos, &v->u.s, type ? "a variable name" : "a string");
    case 1:
        if (get_u32(w, pos, &u, "a float"))
            return -1;
        v->type = CFG_T_FLOAT;
        memcpy(&v->u.f, &u, 4);
        return 0;
    case 2:
        if (get_u32(w, pos, &u, "an int"))
            return -1;
        v->type = CFG_T_INT;
        v->u.i = (int32_t)u;
        return 0;
    case 3:
        return read_array(w, pos, v, depth + 1);
    case 6:
        if (w->len - *pos < 8)
            return fail_end(w, *pos, "a 64-bit int");
        memcpy(&v->u.i, w->data + *pos, 8);
        *pos += 8;
        v->type = CFG_T_INT64;
        return 0;
    default:
        rtm_err_set(w->err, *pos - 1, "unknown value type %u", type);
        return -1;
    }
}

static int read_array(struct walk *w, size_t *pos, struct cfg_value *out, int depth)
{
    size_t at = *pos;
    uint32_t n;
    if (depth > CFG_DEPTH_MAX) {
        rtm_err_set(w->err, at, "arrays nested deeper than %d", CFG_DEPTH_MAX);
        return -1;
    }
    if (get_count(w, pos, &n, "an array's count") ||
        count_fits(w, at, *pos, n, 2, "array element"))
        return -1;
    w->values += n;
    out->type = CFG_T_ARRAY;
    out->n = n;
    long first = 0;
    if (w->c && (first = cfg_add_values(w->c, n)) < 0) {
        rtm_err_oom(w->err, "out of memory for a config array");
        return -1;
    }
    out->u.first = (uint32_t)first;
    for (uint32_t i = 0; i < n; i++) {
        struct cfg_value tmp = { 0 };
        if (*pos >= w->len)
            return fail_end(w, *pos, "an array element");
        uint8_t type = w->data[(*pos)++];
        if (type == 5 || read_scalar(w, pos, type, &tmp, depth)) {
            if (type == 5)
                rtm_err_set(w->err, *pos - 1, "unknown array element type 5");
            return -1;
        }
        if (w->c)
            w->c->v[first + i] = tmp;
    }
    return 0;
}

/* One entry at *pos into e (a scratch entry while counting); a class's
 * body offset goes to *body. */
static int read_entry(struct walk *w, size_t *pos, struct cfg_entry *e, uint32_t *body,
                      int depth)
{
    size_t at = *pos;
    uint8_t type = w->data[(*pos)++];
    uint32_t u;
    switch (type) {
    case 0:
        e->kind = CFG_CLASS;
        return get_str(w, pos, &e->name, "a class name") ||
               get_u32(w, pos, body, "a class body offset");
    case 1:
        if (*pos >= w->len)
            return fail_end(w, *pos, "a value");
        u = w->data[(*pos)++];
        e->kind = CFG_VALUE;
        if (u != 0 && u != 1 && u != 2 && u != 4 && u != 6) {
            rtm_err_set(w->err, *pos - 1, "unknown value type %u", u);
            return -1;
        }
        return get_str(w, pos, &e->name, "a value name") ||
               read_scalar(w, pos, (uint8_t)u, &e->v, depth);
    case 5:
        if (get_u32(w, pos, &u, "an append's flags"))
            return -1;
        e->append = 1;
        /* fall through */
    case 2:
        e->kind = CFG_ARRAY;
        return get_str(w, pos, &e->name, "an array name") || read_array(w, pos, &e->v, 1);
    case 3:
    case 4:
        e->kind = type == 3 ? CFG_EXTERN : CFG_DELETE;
        return get_str(w, pos, &e->name, type == 3 ? "an extern name" : "a delete name");
    default:
        rtm_err_set(w->err, at, "unknown entry type %u", type);
        return -1;
    }
}

static int check_body(struct walk *w, uint32_t off, size_t entry_at, int depth)
{
    if (off < 16 || off >= w->len) {
        rtm_err_set(w->err, entry_at, "class body offset %u outside the file (16..%zu)", off,
                    w->len);
        return -1;
    }
    if (depth > CFG_DEPTH_MAX) {
        rtm_err_set(w->err, entry_at, "classes nested deeper than %d", CFG_DEPTH_MAX);
        return -1;
    }
    for (int d = 0; d < depth; d++)
        if (off >= w->anc_start[d] && off < w->anc_end[d]) {
            rtm_err_set(w->err, entry_at, "class body offset %u loops back into an "
                        "enclosing class's body (at byte %llu)", off,
                        (unsigned long long)w->anc_start[d]);
            return -1;
        }
    return 0;
}

/* The body at off of class entry cls (index in the model; 0 for the root
 * and while counting), at nesting depth. */
static int read_body(struct walk *w, size_t off, uint32_t cls, int depth)
{
    size_t pos = off;
    struct cfg_str parent;
    uint32_t n;
    if (get_str(w, &pos, &parent, "a class's parent name"))
        return -1;
    size_t count_at = pos;
    if (get_count(w, &pos, &n, "a class's entry count") ||
        count_fits(w, count_at, pos, n, 2, "class entry"))
        return -1;
    w->entries += n;
    long first = 0;
    if (w->c) {
        if ((first = cfg_add_entries(w->c, n)) < 0) {
            rtm_err_oom(w->err, "out of memory for config entries");
            return -1;
        }
        struct cfg_entry *k = &w->c->e[cls];
        k->first = (uint32_t)first;
        k->n = n;
        k->has_parent = parent.len > 0;
        k->parent = parent;
    }
    /* Bodies and where their entries point, kept until they are read. */
    uint32_t *bodies = NULL, *at = NULL, nb = 0;
    int rc = 0;
    for (uint32_t i = 0; i < n && rc == 0; i++) {
        if (pos >= w->len) {
            rc = fail_end(w, pos, "a class's entries");
            break;
        }
        struct cfg_entry tmp = { 0 };
        uint32_t body = 0;
        size_t entry_at = pos;
        rc = read_entry(w, &pos, &tmp, &body, depth);
        if (rc == 0 && w->c)
            w->c->e[first + i] = tmp;
        if (rc == 0 && tmp.kind == CFG_CLASS) {
            if (!bodies) {
                bodies = malloc((size_t)(n - i) * sizeof *bodies);
                at = malloc((size_t)(n - i) * 2 * sizeof *at);
                if (!bodies || !at) {
                    rtm_err_oom(w->err, "out of memory reading a config");
                    rc = -1;
                    break;
                }
            }
            bodies[nb] = body;
            at[2 * nb] = i;
            at[2 * nb + 1] = (uint32_t)entry_at;
            nb++;
        }
    }
    w->body_bytes += pos - off;
    if (rc == 0 && w->body_bytes > w->len) {
        rtm_err_set(w->err, off, "class bodies overlap (the body at byte %zu is read again)", off);
        rc = -1;
    }
    w->anc_start[depth] = off;
    w->anc_end[depth] = pos;
    for (uint32_t b = 0; b < nb && rc == 0; b++) {
        rc = check_body(w, bodies[b], at[2 * b + 1], depth + 1);
        if (rc == 0)
            rc = read_body(w, bodies[b], (uint32_t)(first + at[2 * b]), depth + 1);
    }
    free(bodies);
    free(at);
    return rc;
}

static int read_enums(struct walk *w, uint32_t off)
{
    size_t pos = off;
    uint32_t n;
    if (off == 0)
        return 0;   /* no table (every real file has one, maybe empty) */
    if (off < 16 || off >= w->len) {
        rtm_err_set(w->err, 12, "enum table offset %u outside the file (%zu bytes)", off,
                    w->len);
        return -1;
    }
    if (get_u32(w, &pos, &n, "the enum count") || count_fits(w, off, pos, n, 5, "enum"))
        return -1;
    w->enums += n;
    for (uint32_t i = 0; i < n; i++) {
        struct cfg_str name;            /* cfg_add_enum copies it */
        uint32_t v;
        if (get_str_at(w, &pos, &name, "an enum name") ||
            get_u32(w, &pos, &v, "an enum value"))
            return -1;
        if (w->c && cfg_add_enum(w->c, name.p, name.len, (int32_t)v)) {
            rtm_err_oom(w->err, "out of memory for the enum table");
            return -1;
        }
    }
    return 0;
}

static int walk_file(struct walk *w)
{
    if (w->len < 4 || memcmp(w->data, "\0raP", 4) != 0) {
        rtm_err_set(w->err, 0, "not a rapified file (no \\0raP)");
        return -1;
    }
    if (w->len < 16)
        return fail_end(w, 4, "the rapified header");
    if (w->len > UINT32_MAX) {
        rtm_err_set(w->err, 0, "rapified file larger than 4 GiB");
        return -1;
    }
    uint32_t enums = le_u32(w->data + 12);
    if (w->len == 16)
        return fail_end(w, 16, "the root class");
    if (read_body(w, 16, 0, 0))
        return -1;
    return read_enums(w, enums);
}

static size_t model_bytes(const struct walk *w)
{
    return rtm_heap_bytes(sizeof(struct cfg)) +
           rtm_heap_bytes((size_t)(w->entries + 1) * sizeof(struct cfg_entry)) +
           rtm_heap_bytes((size_t)w->values * sizeof(struct cfg_value)) +
           rtm_heap_bytes((size_t)w->enums * sizeof(struct cfg_enum)) +
           rtm_heap_bytes((size_t)w->str_bytes + 64) + 64;
}

int rap_measure(const uint8_t *data, size_t len, size_t *bytes, struct rtm_error *err)
{
    struct walk w = { .data = data, .len = len, .err = err };
    if (walk_file(&w))
        return -1;
    *bytes = model_bytes(&w);
    return 0;
}

int rap_read(const uint8_t *data, size_t len, struct cfg **out, struct rtm_error *err)
{
    struct walk w = { .data = data, .len = len, .err = err };
    *out = NULL;
    if (walk_file(&w))
        return -1;
    struct cfg *c = cfg_new();
    if (!c || cfg_reserve(c, (uint32_t)w.entries + 1, (uint32_t)w.values, (uint32_t)w.enums,
                          (size_t)w.str_bytes + 1) ||
        cfg_add_entries(c, 1) != 0 || !(c->e[0].name.p = cfg_strdup(c, "", 0))) {
        cfg_free(c);
        rtm_err_oom(err, "out of memory for a config of %zu bytes", len);
        return -1;
    }
    c->e[0].kind = CFG_CLASS;
    struct walk fill = { .data = data, .len = len, .c = c, .err = err };
    if (walk_file(&fill)) {
        cfg_free(c);
        return -1;
    }
    cfg_link(c);
    *out = c;
    return 0;
}
