/* json_mini.c - what json_mini.h declares, compiled once into librtmtest.a. */
#include "json_mini.h"


void jm_free(struct jm_value *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->n; i++) {
        jm_free(v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->text);
    free(v);
}

static struct jm_value *jm_fail(struct jm_parser *ps, const char *what)
{
    if (ps->err && !ps->err[0])
        snprintf(ps->err, ps->errlen, "%s", what);
    return NULL;
}

static void jm_ws(struct jm_parser *ps)
{
    while (ps->p < ps->end &&
           (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
        ps->p++;
}

static int jm_hex4(struct jm_parser *ps, uint32_t *out)
{
    if (ps->end - ps->p < 4)
        return -1;
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        char c = *ps->p++;
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (uint32_t)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (uint32_t)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (uint32_t)(c - 'A' + 10);
        else
            return -1;
    }
    *out = v;
    return 0;
}

/* Appends the UTF-8 form of code point cp; out has room for 4 bytes. */
static size_t jm_utf8(uint32_t cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | cp >> 12);
        out[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | cp >> 18);
    out[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    out[2] = (char)(0x80 | (cp >> 6 & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* A string at ps->p (the opening quote); decoded into a new buffer. */
static char *jm_string(struct jm_parser *ps, size_t *len)
{
    ps->p++;
    /* the decoded form is never longer than the source */
    const char *q = ps->p;
    while (q < ps->end && *q != '"')
        q += *q == '\\' && q + 1 < ps->end ? 2 : 1;
    if (q >= ps->end)
        return jm_fail(ps, "unterminated string"), NULL;
    char *s = malloc((size_t)(q - ps->p) + 1), *o = s;
    if (!s)
        return jm_fail(ps, "out of memory"), NULL;
    while (*ps->p != '"') {
        unsigned char c = (unsigned char)*ps->p++;
        if (c < 0x20)
            goto bad;
        if (c != '\\') {
            *o++ = (char)c;
            continue;
        }
        char e = *ps->p++;
        uint32_t cp;
        switch (e) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '/': *o++ = '/'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u':
            if (jm_hex4(ps, &cp))
                goto bad;
            if (cp >= 0xD800 && cp < 0xDC00 && ps->end - ps->p >= 6 &&
                ps->p[0] == '\\' && ps->p[1] == 'u') {
                uint32_t lo;
                ps->p += 2;
                if (jm_hex4(ps, &lo) || lo < 0xDC00 || lo > 0xDFFF)
                    goto bad;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
            /* "\uXXXX" is 6 source bytes and at most 3 UTF-8 bytes; a pair is
             * 12 source bytes and 4 UTF-8 bytes: the buffer is big enough */
            o += jm_utf8(cp, o);
            break;
        default:
            goto bad;
        }
    }
    ps->p++;
    *o = 0;
    *len = (size_t)(o - s);
    return s;
bad:
    free(s);
    return jm_fail(ps, "bad string"), NULL;
}

static struct jm_value *jm_new(struct jm_parser *ps, enum jm_type t)
{
    struct jm_value *v = calloc(1, sizeof *v);
    if (!v)
        return jm_fail(ps, "out of memory");
    v->type = t;
    return v;
}

static int jm_push(struct jm_value *v, struct jm_value *item, char *key)
{
    if ((v->n & (v->n - 1)) == 0) { /* grow at powers of two */
        size_t cap = v->n ? v->n * 2 : 1;
        struct jm_value **it = realloc(v->items, cap * sizeof *it);
        if (!it)
            return -1;
        v->items = it;
        if (v->type == JM_OBJ) {
            char **k = realloc(v->keys, cap * sizeof *k);
            if (!k)
                return -1;
            v->keys = k;
        }
    }
    v->items[v->n] = item;
    if (v->type == JM_OBJ)
        v->keys[v->n] = key;
    v->n++;
    return 0;
}

static struct jm_value *jm_value_at(struct jm_parser *ps);

static struct jm_value *jm_container(struct jm_parser *ps, int obj)
{
    struct jm_value *v = jm_new(ps, obj ? JM_OBJ : JM_ARR);
    if (!v)
        return NULL;
    if (++ps->depth > JM_MAX_DEPTH) {
        jm_free(v);
        return jm_fail(ps, "nested too deep");
    }
    ps->p++;
    jm_ws(ps);
    if (ps->p < ps->end && *ps->p == (obj ? '}' : ']')) {
        ps->p++;
        ps->depth--;
        return v;
    }
    for (;;) {
        char *key = NULL;
        size_t klen;
        jm_ws(ps);
        if (obj) {
            if (ps->p >= ps->end || *ps->p != '"' || !(key = jm_string(ps, &klen)))
                goto bad;
            jm_ws(ps);
            if (ps->p >= ps->end || *ps->p != ':') {
                free(key);
                goto bad;
            }
            ps->p++;
        }
        struct jm_value *item = jm_value_at(ps);
        if (!item || jm_push(v, item, key)) {
            jm_free(item);
            free(key);
            goto bad;
        }
        jm_ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == (obj ? '}' : ']')) {
            ps->p++;
            ps->depth--;
            return v;
        }
        goto bad;
    }
bad:
    jm_free(v);
    return jm_fail(ps, obj ? "bad object" : "bad array");
}

static int jm_word(struct jm_parser *ps, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, w, n) != 0)
        return 0;
    ps->p += n;
    return 1;
}

static struct jm_value *jm_number(struct jm_parser *ps)
{
    const char *s = ps->p;
    if (ps->p < ps->end && *ps->p == '-')
        ps->p++;
    size_t digits = 0;
    while (ps->p < ps->end && strchr("0123456789.eE+-", *ps->p)) {
        digits += *ps->p >= '0' && *ps->p <= '9';
        ps->p++;
    }
    if (!digits)
        return jm_fail(ps, "bad value");
    struct jm_value *v = jm_new(ps, JM_NUM);
    if (!v)
        return NULL;
    v->len = (size_t)(ps->p - s);
    if (!(v->text = malloc(v->len + 1))) {
        jm_free(v);
        return jm_fail(ps, "out of memory");
    }
    memcpy(v->text, s, v->len);
    v->text[v->len] = 0;
    char *endp;
    v->num = strtod(v->text, &endp);
    if (*endp) {
        jm_free(v);
        return jm_fail(ps, "bad number");
    }
    return v;
}

static struct jm_value *jm_value_at(struct jm_parser *ps)
{
    jm_ws(ps);
    if (ps->p >= ps->end)
        return jm_fail(ps, "unexpected end");
    struct jm_value *v;
    switch (*ps->p) {
    case '{': return jm_container(ps, 1);
    case '[': return jm_container(ps, 0);
    case '"':
        if (!(v = jm_new(ps, JM_STR)))
            return NULL;
        if (!(v->text = jm_string(ps, &v->len))) {
            jm_free(v);
            return NULL;
        }
        return v;
    case 'n':
        return jm_word(ps, "null") ? jm_new(ps, JM_NULL) : jm_fail(ps, "bad value");
    case 't':
    case 'f':
        if (!jm_word(ps, *ps->p == 't' ? "true" : "false"))
            return jm_fail(ps, "bad value");
        if ((v = jm_new(ps, JM_BOOL)))
            v->boolean = ps->p[-1] == 'e' && ps->p[-2] == 'u';
        return v;
    default:
        return jm_number(ps);
    }
}

struct jm_value *jm_parse(const char *text, size_t len, char *err, size_t errlen)
{
    struct jm_parser ps = { text, text + len, err, errlen, 0 };
    if (err && errlen)
        err[0] = 0;
    struct jm_value *v = jm_value_at(&ps);
    jm_ws(&ps);
    if (v && ps.p != ps.end) {
        jm_free(v);
        v = jm_fail(&ps, "text after the value");
    }
    if (!v && err && errlen)
        snprintf(err + strlen(err), errlen - strlen(err), " at byte %zu",
                 (size_t)(ps.p - text));
    return v;
}

const struct jm_value *jm_get(const struct jm_value *obj, const char *key)
{
    if (!obj || obj->type != JM_OBJ)
        return NULL;
    for (size_t i = 0; i < obj->n; i++)
        if (strcmp(obj->keys[i], key) == 0)
            return obj->items[i];
    return NULL;
}
