/* gltf_data.c - glTF's accessors, buffer views and buffers (gltf.h): each
 * accessor checked against its view and its buffer by the JSON's lengths
 * before anything is read, and a buffer read only when its values are
 * asked for: the GLB's BIN chunk, a data: URI, or a file beside the
 * source through the caller (rtm_parse_opts.read_beside). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"
#include "gltf.h"

/* Past this, a JSON length is no file's (and sums of them cannot wrap). */
#define GLTF_MAX_LENGTH ((uint64_t)1 << 52)

static int get_length(struct gltf *g, json_t *obj, const char *key, const char *where,
                      int required, uint64_t *out)
{
    json_t *v = json_object_get(obj, key);
    if (!v) {
        if (required)
            return gltf_fail(g, "%s has no %s", where, key);
        return 0;
    }
    if (!json_is_integer(v) || json_integer_value(v) < 0 ||
        (uint64_t)json_integer_value(v) > GLTF_MAX_LENGTH)
        return gltf_fail(g, "%s.%s is not a length", where, key);
    *out = (uint64_t)json_integer_value(v);
    return 0;
}

/* ---- buffers ---- */

static int read_buffer_list(struct gltf *g)
{
    json_t *list = json_object_get(g->root, "buffers");
    if (list && !json_is_array(list))
        return gltf_fail(g, "buffers is not an array");
    size_t n = list ? json_array_size(list) : 0;
    if (n > INT32_MAX)
        return gltf_fail(g, "buffers holds too many items");
    g->buffer = calloc(n ? n : 1, sizeof *g->buffer);
    if (!g->buffer) {
        rtm_err_oom(g->err, "out of memory for %zu buffers", n);
        return -1;
    }
    g->nbuffers = (uint32_t)n;
    for (uint32_t i = 0; i < g->nbuffers; i++) {
        char where[32];
        snprintf(where, sizeof where, "buffers[%u]", i);
        json_t *b = json_array_get(list, i);
        if (!json_is_object(b))
            return gltf_fail(g, "%s is not an object", where);
        if (get_length(g, b, "byteLength", where, 1, &g->buffer[i].length))
            return -1;
        json_t *uri = json_object_get(b, "uri");
        if (uri && !json_is_string(uri))
            return gltf_fail(g, "%s.uri is not a string", where);
        g->buffer[i].uri = uri ? json_string_value(uri) : NULL;
    }
    return 0;
}

static int b64_value(uint8_t c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* Base64 text (padding optional) into a new buffer. */
static int decode_base64(struct gltf *g, uint32_t i, const char *s, struct gltf_buffer *b)
{
    size_t n = strlen(s);
    while (n > 0 && s[n - 1] == '=')
        n--;
    size_t out_len = n / 4 * 3 + (n % 4 ? n % 4 - 1 : 0);
    if (n % 4 == 1)
        return gltf_fail(g, "buffers[%u]: its data: URI's base64 is cut", i);
    b->owned = malloc(out_len ? out_len : 1);
    if (!b->owned) {
        rtm_err_oom(g->err, "out of memory for buffers[%u] (%zu bytes)", i, out_len);
        return -1;
    }
    uint32_t acc = 0;
    size_t o = 0;
    for (size_t k = 0; k < n; k++) {
        int v = b64_value((uint8_t)s[k]);
        if (v < 0)
            return gltf_fail(g, "buffers[%u]: its data: URI holds '%c', not base64, at its "
                             "character %zu", i, s[k] >= 0x20 && s[k] < 0x7f ? s[k] : '?', k);
        acc = acc << 6 | (uint32_t)v;
        if (k % 4 == 3) {
            b->owned[o++] = (uint8_t)(acc >> 16);
            b->owned[o++] = (uint8_t)(acc >> 8);
            b->owned[o++] = (uint8_t)acc;
        }
    }
    if (n % 4 == 2)
        b->owned[o++] = (uint8_t)(acc >> 4);
    else if (n % 4 == 3) {
        b->owned[o++] = (uint8_t)(acc >> 10);
        b->owned[o++] = (uint8_t)(acc >> 2);
    }
    b->data = b->owned;
    return o < b->length ? gltf_fail(g, "buffers[%u] holds %zu bytes; its byteLength says "
                                     "%llu", i, o, (unsigned long long)b->length) : 0;
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = (char)(c | 0x20);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* A uri percent-decoded into out (n bytes), refused when it leaves the
 * source's folder: absolute, a scheme, or a ".." part. */
static int beside_name(struct gltf *g, uint32_t i, const char *uri, char *out, size_t n)
{
    size_t o = 0;
    for (const char *p = uri; *p; p++) {
        char c = *p;
        if (c == '%') {
            int hi = hex_value(p[1]), lo = hi < 0 ? -1 : hex_value(p[2]);
            if (lo < 0)
                return gltf_fail(g, "buffers[%u].uri \"%s\": a %% not followed by two hex "
                                 "digits", i, uri);
            c = (char)(hi * 16 + lo);
            p += 2;
        }
        if (c == 0 || o + 1 >= n)
            return gltf_fail(g, "buffers[%u].uri \"%s\" is no file name", i, uri);
        out[o++] = c;
    }
    out[o] = 0;
    const char *colon = strchr(out, ':'), *slash = strchr(out, '/');
    if (out[0] == '/' || out[0] == '\\' || (colon && (!slash || colon < slash)))
        return gltf_fail(g, "buffers[%u].uri \"%s\" is absolute: only files beside the "
                         "source are read", i, uri);
    for (const char *p = out; *p;) {
        size_t len = strcspn(p, "/\\");
        if (len == 2 && p[0] == '.' && p[1] == '.')
            return gltf_fail(g, "buffers[%u].uri \"%s\" goes up a folder (..): only files "
                             "beside the source are read", i, uri);
        p += len + (p[len] != 0);
    }
    return 0;
}

static int read_beside(struct gltf *g, uint32_t i, struct gltf_buffer *b)
{
    char name[4096];
    if (beside_name(g, i, b->uri, name, sizeof name))
        return -1;
    if (!g->o->read_beside)
        return gltf_fail(g, "buffers[%u] is the file %s, and nothing here reads files beside "
                         "the source", i, name);
    size_t len = 0;
    uint8_t *data = NULL;
    if (g->o->read_beside(g->o->beside_ctx, name, &data, &len, g->err))
        return -1;
    b->owned = data;
    b->data = data;
    if (len < b->length)
        return gltf_fail(g, "buffers[%u]: %s holds %zu bytes; its byteLength says %llu (cut "
                         "short?)", i, name, len, (unsigned long long)b->length);
    return 0;
}

static int load_buffer(struct gltf *g, uint32_t i)
{
    struct gltf_buffer *b = &g->buffer[i];
    if (b->data)
        return 0;
    if (!b->uri) {
        if (i != 0 || !g->bin)
            return gltf_fail(g, "buffers[%u] has no uri and is not a GLB's BIN chunk", i);
        if (g->bin_len < b->length)
            return gltf_fail(g, "buffers[0] says %llu bytes; the BIN chunk holds %zu",
                             (unsigned long long)b->length, g->bin_len);
        b->data = g->bin;
        b->file_at = g->bin_at;
        return 0;
    }
    if (strncmp(b->uri, "data:", 5) == 0) {
        const char *comma = strstr(b->uri, ";base64,");
        if (!comma)
            return gltf_fail(g, "buffers[%u]: a data: URI that is not base64", i);
        return decode_base64(g, i, comma + 8, b);
    }
    return read_beside(g, i, b);
}

/* ---- accessors ---- */

static uint32_t component_size(int ctype)
{
    switch (ctype) {
    case 5120: case 5121: return 1;
    case 5122: case 5123: return 2;
    case 5125: case 5126: return 4;
    default: return 0;
    }
}

static uint32_t type_width(const char *t)
{
    static const struct { const char *name; uint32_t n; } T[] = {
        { "SCALAR", 1 }, { "VEC2", 2 }, { "VEC3", 3 }, { "VEC4", 4 },
        { "MAT2", 4 }, { "MAT3", 9 }, { "MAT4", 16 },
    };
    for (size_t k = 0; k < sizeof T / sizeof *T; k++)
        if (strcmp(t, T[k].name) == 0)
            return T[k].n;
    return 0;
}

/* The accessor's view: where in which buffer its elements lie, each
 * within the view, the view within the buffer. */
static int place_in_view(struct gltf *g, struct gltf_accessor *a, json_t *acc, int32_t view,
                         const char *where, uint64_t elem)
{
    char vw[32];
    snprintf(vw, sizeof vw, "bufferViews[%d]", view);
    json_t *views = json_object_get(g->root, "bufferViews");
    json_t *v = json_is_array(views) ? json_array_get(views, (size_t)view) : NULL;
    if (!json_is_object(v))
        return gltf_fail(g, "%s.bufferView: there is no %s", where, vw);
    uint64_t acc_off = 0, off = 0, len = 0, stride = 0;
    int32_t buf;
    if (get_length(g, acc, "byteOffset", where, 0, &acc_off) ||
        get_length(g, v, "byteOffset", vw, 0, &off) ||
        get_length(g, v, "byteLength", vw, 1, &len) ||
        get_length(g, v, "byteStride", vw, 0, &stride))
        return -1;
    json_t *bv = json_object_get(v, "buffer");
    if (!json_is_integer(bv) || json_integer_value(bv) < 0 ||
        (uint64_t)json_integer_value(bv) >= g->nbuffers)
        return gltf_fail(g, "%s.buffer is not a buffer's index", vw);
    buf = (int32_t)json_integer_value(bv);
    if (stride && (stride < elem || stride > 252))
        return gltf_fail(g, "%s.byteStride %llu: an element is %llu bytes", vw,
                         (unsigned long long)stride, (unsigned long long)elem);
    a->stride = stride ? stride : elem;
    uint64_t span = acc_off + a->stride * (a->count - 1) + elem;
    if (span > len)
        return gltf_fail(g, "%s: %u elements from byte %llu run past %s's %llu bytes", where,
                         a->count, (unsigned long long)acc_off, vw, (unsigned long long)len);
    if (off + len > g->buffer[buf].length)
        return gltf_fail(g, "%s (bytes %llu to %llu) runs past buffers[%d]'s byteLength %llu",
                         vw, (unsigned long long)off, (unsigned long long)(off + len), buf,
                         (unsigned long long)g->buffer[buf].length);
    a->buffer = buf;
    a->offset = off + acc_off;
    return 0;
}

static int check_kind(struct gltf *g, const struct gltf_accessor *a, const char *where,
                      const uint32_t *want_ncomp, int float_only)
{
    int ok = 0;
    for (const uint32_t *w = want_ncomp; *w; w++)
        ok |= *w == a->ncomp;
    if (!ok)
        return gltf_fail(g, "%s has %u components an element, not what its use takes", where,
                         a->ncomp);
    if (a->ctype != 5126 && (float_only || !a->normalized || a->ctype == 5125))
        return gltf_fail(g, "%s.componentType %d: its use takes FLOAT (5126)%s", where,
                         a->ctype, float_only ? "" : " or normalized integers");
    return 0;
}

static int read_minmax(struct gltf *g, json_t *acc, struct gltf_accessor *a, const char *where)
{
    json_t *mn = json_object_get(acc, "min"), *mx = json_object_get(acc, "max");
    if (!mn || !mx)
        return 0;               /* the use says whether it needs them */
    json_t *x = json_array_get(mn, 0), *y = json_array_get(mx, 0);
    if (!json_is_number(x) || !json_is_number(y) || !isfinite(json_number_value(x)) ||
        !isfinite(json_number_value(y)))
        return gltf_fail(g, "%s.min or max is not an array of finite numbers", where);
    a->min = json_number_value(x);
    a->max = json_number_value(y);
    a->has_minmax = 1;
    return 0;
}

int gltf_accessor(struct gltf *g, uint32_t index, const uint32_t *want_ncomp, int float_only,
                  struct gltf_accessor *a)
{
    char where[32];
    snprintf(where, sizeof where, "accessors[%u]", index);
    if (!g->buffer && read_buffer_list(g))
        return -1;
    json_t *list = json_object_get(g->root, "accessors");
    json_t *acc = json_is_array(list) ? json_array_get(list, index) : NULL;
    if (!json_is_object(acc))
        return gltf_fail(g, "%s: there is no such accessor", where);
    memset(a, 0, sizeof *a);
    a->index = index;
    json_t *ct = json_object_get(acc, "componentType"), *ty = json_object_get(acc, "type");
    json_t *cnt = json_object_get(acc, "count");
    a->ctype = json_is_integer(ct) ? (int)json_integer_value(ct) : 0;
    a->ncomp = json_is_string(ty) ? type_width(json_string_value(ty)) : 0;
    if (!component_size(a->ctype))
        return gltf_fail(g, "%s.componentType is not one of glTF's (5120 to 5126)", where);
    if (!a->ncomp)
        return gltf_fail(g, "%s.type is not SCALAR, VEC2 ... MAT4", where);
    if (!json_is_integer(cnt) || json_integer_value(cnt) < 1 ||
        json_integer_value(cnt) > INT32_MAX)
        return gltf_fail(g, "%s.count is not a count of 1 or more", where);
    a->count = (uint32_t)json_integer_value(cnt);
    a->normalized = json_is_true(json_object_get(acc, "normalized"));
    if (json_object_get(acc, "sparse"))
        return gltf_fail(g, "%s is sparse, which is not read", where);
    if (check_kind(g, a, where, want_ncomp, float_only) || read_minmax(g, acc, a, where))
        return -1;
    json_t *view = json_object_get(acc, "bufferView");
    a->buffer = -1;
    if (!view)
        return 0;               /* all zeros, as glTF says */
    if (!json_is_integer(view) || json_integer_value(view) < 0 ||
        json_integer_value(view) > INT32_MAX)
        return gltf_fail(g, "%s.bufferView is not an index", where);
    uint64_t elem = (uint64_t)component_size(a->ctype) * a->ncomp;
    return place_in_view(g, a, acc, (int32_t)json_integer_value(view), where, elem);
}

int gltf_values(struct gltf *g, struct gltf_accessor *a)
{
    if (a->buffer < 0 || a->data)
        return 0;
    if (load_buffer(g, (uint32_t)a->buffer))
        return -1;
    a->data = g->buffer[a->buffer].data + a->offset;
    return 0;
}

double gltf_get(const struct gltf_accessor *a, uint32_t i, uint32_t k)
{
    if (!a->data)
        return 0;
    const uint8_t *p = a->data + a->stride * i + (uint64_t)component_size(a->ctype) * k;
    switch (a->ctype) {
    case 5126: return le_f32(p);
    case 5120: return fmax((int8_t)p[0] / 127.0, -1);
    case 5121: return p[0] / 255.0;
    case 5122: return fmax((int16_t)le_u16(p) / 32767.0, -1);
    case 5123: return le_u16(p) / 65535.0;
    default: return le_u32(p);
    }
}

/* ---- the files a .gltf names (format_table.h: the row's files) ---- */

int rtm_gltf_files(const uint8_t *data, size_t len, char ***names, uint32_t *n,
                   struct rtm_error *err)
{
    json_error_t je;
    struct gltf g = { .err = err };
    *names = NULL;
    *n = 0;
    json_t *root = json_loadb((const char *)data, len, JSON_REJECT_DUPLICATES, &je);
    json_t *list = root ? json_object_get(root, "buffers") : NULL;
    if (!root && json_error_code(&je) == json_error_out_of_memory) {
        rtm_err_oom(err, "out of memory reading glTF's JSON");
        return -1;
    }
    if (!root) {
        rtm_err_set(err, (uint64_t)je.position, "glTF: %s (line %d, column %d)", je.text,
                    je.line, je.column);
        return -1;
    }
    size_t count = json_is_array(list) ? json_array_size(list) : 0, bytes = 0;
    for (size_t i = 0; i < count; i++) {
        json_t *uri = json_object_get(json_array_get(list, i), "uri");
        if (json_is_string(uri) && strncmp(json_string_value(uri), "data:", 5))
            bytes += sizeof **names + json_string_length(uri) + 1;
    }
    char **out = malloc(bytes ? bytes : 1);
    char *at = out ? (char *)out + bytes : NULL;
    int rc = out ? 0 : (rtm_err_oom(err, "out of memory"), -1);
    uint32_t k = 0;
    for (size_t i = 0; i < count; i++) {   /* a name a file: decoded no longer than its uri */
        json_t *uri = json_object_get(json_array_get(list, i), "uri");
        if (rc || !json_is_string(uri) || !strncmp(json_string_value(uri), "data:", 5))
            continue;
        char name[4096];
        rc = beside_name(&g, (uint32_t)i, json_string_value(uri), name, sizeof name);
        if (!rc) {
            at -= strlen(name) + 1;
            out[k++] = memcpy(at, name, strlen(name) + 1);
        }
    }
    json_decref(root);
    if (rc) {
        free(out);
        return -1;
    }
    *names = out;
    *n = k;
    return 0;
}
