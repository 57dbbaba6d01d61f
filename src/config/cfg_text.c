/* cfg_text.c - the text config parser (class syntax, after preprocessing).
 *
 * A recursive descent over the bytes with a line counter.  A class's
 * members (and an array's elements) are gathered on a scratch stack and
 * copied into the model as one contiguous block when the class (array)
 * ends, so the model's members stay in file order and contiguous.
 * Comments (// and / * * /) and lines that start with '#' (directives the
 * preprocessor left) are space.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cfg_word.h"

struct parser {
    const char *begin, *p, *end;
    uint32_t line;
    const char *name;
    const struct cfg_line_map *map;
    struct cfg *c;
    struct cfg_entry *se;       /* scratch members */
    uint32_t nse, cap_se;
    struct cfg_value *sv;       /* scratch elements */
    uint32_t nsv, cap_sv;
    size_t scratch_mem;
    struct rtm_error *err;
};

void cfg_line_where(const struct cfg_line_map *map, const char *name, uint32_t line,
                    char *out, size_t n)
{
    if (!map || !map->nseg) {
        snprintf(out, n, "%s:%u", name ? name : "<text>", line);
        return;
    }
    size_t lo = 0, hi = map->nseg;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (map->seg[mid].out_line <= line)
            lo = mid;
        else
            hi = mid;
    }
    const struct cfg_line_seg *s = &map->seg[lo];
    const char *f = s->file < map->nfiles ? map->files[s->file] : name;
    uint32_t src = line >= s->out_line ? s->src_line + (line - s->out_line) : line;
    snprintf(out, n, "%s:%u", f ? f : "<text>", src);
}

__attribute__((format(printf, 2, 3)))
static int fail(struct parser *ps, const char *fmt, ...)
{
    char where[512], msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cfg_line_where(ps->map, ps->name, ps->line, where, sizeof where);
    rtm_err_nooff(ps->err, "%s: %s", where, msg);
    return -1;
}

static int oom(struct parser *ps)
{
    rtm_err_oom(ps->err, "out of memory parsing %s", ps->name ? ps->name : "a config");
    return -1;
}

/* Skips blanks, newlines, comments and directive lines: on locals, and
 * a run of blanks (a line's indentation) a word at a time, its last
 * blanks counted in the word (little-endian: util.h). */
static int skip_space_slow(struct parser *ps)
{
    static const uint64_t blanks8 = 0x2020202020202020ull;
    const char *p = ps->p, *e = ps->end;
    uint32_t line = ps->line;
    int bol = p == ps->begin || p[-1] == '\n';
    while (p < e) {
        char ch = *p;
        if (ch == ' ') {
            uint64_t w = 0;
            p++;
            while (e - p >= 8 && (memcpy(&w, p, 8), w ^= blanks8) == 0)
                p += 8;
            if (w)              /* the blanks before the first other byte */
                p += __builtin_ctzll(w) / 8;
        } else if (ch == '\n') {
            line++;
            p++;
            bol = 1;
        } else if (ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v') {
            p++;
        } else if ((ch == '#' && bol) || (ch == '/' && e - p >= 2 && p[1] == '/')) {
            const char *nl = memchr(p, '\n', (size_t)(e - p));
            p = nl ? nl : e;
        } else if (ch == '/' && e - p >= 2 && p[1] == '*') {
            uint32_t at = line;
            p += 2;
            while (p < e && !(*p == '*' && e - p >= 2 && p[1] == '/'))
                line += *p++ == '\n';
            if (p >= e) {
                ps->p = p;
                ps->line = at;
                return fail(ps, "comment never closed");
            }
            p += 2;
        } else {
            break;
        }
    }
    ps->p = p;
    ps->line = line;
    return 0;
}

/* A byte no skipping starts at: not a blank or control byte, and not
 * what may open a comment or a directive line. */
static inline int plain_byte(unsigned char ch)
{
    return ch > ' ' && ch != '#' && ch != '/';
}

/* skip_space_slow, done here where there is nothing to skip or one blank
 * before a token ("a = b"): most of a parser's near million calls. */
static inline int skip_space(struct parser *ps)
{
    const char *p = ps->p;
    if (ps->end - p >= 2) {
        if (plain_byte((unsigned char)p[0]))
            return 0;
        if (p[0] == ' ' && plain_byte((unsigned char)p[1])) {
            ps->p = p + 1;
            return 0;
        }
    }
    return skip_space_slow(ps);
}

/* The bytes a name may hold: above ' ', none of ;:{}[]=,+"'()/ nor DEL
 * (a table: every byte of every name is asked). */
static int is_name_byte(unsigned char ch)
{
    static const uint32_t not_name[8] = {
        0xffffffffu,                            /* 0x00-0x1f */
        (1u << 0) | (1u << ('"' - 32)) | (1u << ('\'' - 32)) | (1u << ('(' - 32)) |
            (1u << (')' - 32)) | (1u << ('+' - 32)) | (1u << (',' - 32)) |
            (1u << ('/' - 32)) | (1u << (':' - 32)) | (1u << (';' - 32)) |
            (1u << ('=' - 32)),                 /* 0x20-0x3f, ' ' too */
        (1u << ('[' - 64)) | (1u << (']' - 64)), /* 0x40-0x5f */
        (1u << ('{' - 96)) | (1u << ('}' - 96)) | (1u << (0x7f - 96)),
    };
    return !(not_name[ch >> 5] >> (ch & 31) & 1);
}

/* A name at the next non-space byte, where it lies in the text (not yet
 * the config's: a keyword never is): 0 with *out, or -1. */
static int scan_name(struct parser *ps, struct cfg_str *out, const char *what)
{
    if (skip_space(ps))
        return -1;
    const char *s = ps->p, *p = s, *e = ps->end;
    while (p < e && (unsigned char)*p < 0x80 && is_name_byte((unsigned char)*p))
        p++;
    ps->p = p;
    if (p < e && (unsigned char)*p >= 0x80) {
        /* CfgConvert's names are ASCII: say which byte is not, by name
         * where an editor hides it */
        int nbsp = e - p >= 2 && (unsigned char)p[0] == 0xC2 && (unsigned char)p[1] == 0xA0;
        char byte[16];
        snprintf(byte, sizeof byte, "byte 0x%02X", (unsigned char)*p);
        return fail(ps, "%s holds %s, which is not ASCII", what,
                    nbsp ? "a non-breaking space (0xC2 0xA0)" : byte);
    }
    if (p == s)
        return fail(ps, "expected %s", what);
    if ((size_t)(p - s) > CFG_STR_MAX)
        return fail(ps, "%s longer than %u bytes", what, CFG_STR_MAX);
    *out = (struct cfg_str){ s, (uint32_t)(p - s) };
    return 0;
}

/* A name scanned, now the config's own copy: 0, or -1. */
static int keep_name(struct parser *ps, struct cfg_str *name)
{
    const char *d = cfg_strdup(ps->c, name->p, name->len);
    if (!d)
        return oom(ps);
    name->p = d;
    return 0;
}

static int get_name(struct parser *ps, struct cfg_str *out, const char *what)
{
    return scan_name(ps, out, what) || keep_name(ps, out);
}

static int word_is(const struct cfg_str *s, const char *w)
{
    return s->len == strlen(w) && memcmp(s->p, w, s->len) == 0;
}

/* The next non-space byte (a NUL byte as 256), 0 at the end, -1 after an
 * error (err set). */
static int peek(struct parser *ps)
{
    if (skip_space(ps))
        return -1;
    if (ps->p >= ps->end)
        return 0;
    return *ps->p ? (unsigned char)*ps->p : 256;
}

/* "found 'x'" for a message, any byte made printable. */
static const char *shown(int ch, char buf[8])
{
    if (ch > ' ' && ch < 0x7f)
        snprintf(buf, 8, "'%c'", ch);
    else
        snprintf(buf, 8, "0x%02X", ch & 0xff);
    return buf;
}

static int expect(struct parser *ps, char ch, const char *ctx)
{
    int got = peek(ps);
    char b[8];
    if (got == -1)
        return -1;
    if (got != ch) {
        if (got == 0)
            return fail(ps, "file ends where '%c' is expected %s", ch, ctx);
        return fail(ps, "expected '%c' %s, found %s", ch, ctx, shown(got, b));
    }
    ps->p++;
    return 0;
}

/* A quoted string at ps->p appended to b: "" (or '' in '...') is one
 * quote; bytes as they are. */
static int quoted_into(struct parser *ps, struct rtm_buf *b)
{
    char q = *ps->p++;
    uint32_t at = ps->line;
    for (;;) {
        const char *s = ps->p;
        while (ps->p < ps->end && *ps->p != q)
            ps->line += *ps->p++ == '\n';
        rtm_buf_put(b, s, (size_t)(ps->p - s));
        if (ps->p >= ps->end) {
            ps->line = at;
            return fail(ps, "string never closed");
        }
        ps->p++;
        if (ps->p < ps->end && *ps->p == q) {
            rtm_buf_putc(b, q);
            ps->p++;
            continue;
        }
        return 0;
    }
}

/* A quoted string, or quoted strings joined by \n outside the quotes
 * ("a" \n "b"), which CfgConvert reads as one string with line breaks:
 * one string with a newline byte (0x0A) where each \n stood.  A \n not
 * followed by a quoted string is left where it is (the caller then finds
 * it). */
/* The common case of get_quoted: a string with no doubled quote and no
 * \n joining another, kept straight from the text: 1 when it was one
 * (v set, or -1 in *rc), else 0 (nothing read). */
static int quoted_plain(struct parser *ps, struct cfg_value *v, int *rc)
{
    char q = *ps->p;
    const char *s = ps->p + 1, *e = memchr(s, q, (size_t)(ps->end - s));
    if (!e || (e + 1 < ps->end && e[1] == q) || (size_t)(e - s) > CFG_STR_MAX)
        return 0;
    const char *after = e + 1;
    while (after < ps->end && (*after == ' ' || *after == '\t' || *after == '\r'))
        after++;
    if (ps->end - after >= 2 && after[0] == '\\' && after[1] == 'n')
        return 0;                       /* maybe joined: the general way */
    const char *d = cfg_strdup(ps->c, s, (size_t)(e - s));
    *rc = d ? 0 : oom(ps);
    for (const char *nl = s; (nl = memchr(nl, '\n', (size_t)(e - nl))); nl++)
        ps->line++;
    ps->p = e + 1;
    v->type = CFG_T_STRING;
    v->u.s = (struct cfg_str){ d, (uint32_t)(e - s) };
    return 1;
}

static int get_quoted(struct parser *ps, struct cfg_value *v)
{
    int plain_rc;
    if (quoted_plain(ps, v, &plain_rc))
        return plain_rc;
    struct rtm_buf b;
    rtm_buf_init(&b);
    int rc = quoted_into(ps, &b);
    while (rc == 0 && b.len <= CFG_STR_MAX) {
        const char *at = ps->p, *q = ps->p;
        uint32_t line = ps->line;
        while (q < ps->end && (*q == ' ' || *q == '\t' || *q == '\r'))
            q++;
        if (ps->end - q < 2 || q[0] != '\\' || q[1] != 'n')
            break;
        ps->p = q + 2;
        int ch = peek(ps);
        if (ch != '"' && ch != '\'') {
            ps->p = at;
            ps->line = line;
            rc = ch == -1 ? -1 : 0;
            break;
        }
        rtm_buf_putc(&b, '\n');
        rc = quoted_into(ps, &b);
    }
    const char *d = rc || b.oom ? NULL : cfg_strdup(ps->c, b.p ? b.p : "", b.len);
    size_t n = b.len;
    int was_oom = b.oom;
    rtm_buf_free(&b);
    if (rc)
        return -1;
    if (!d || was_oom)
        return oom(ps);
    if (n > CFG_STR_MAX)
        return fail(ps, "string longer than %u bytes", CFG_STR_MAX);
    v->type = CFG_T_STRING;
    v->u.s = (struct cfg_str){ d, (uint32_t)n };
    return 0;
}

/* Unquoted text s..e, as cfg_word.h reads it, into v. */
static int classify(struct parser *ps, const char *s, const char *e, struct cfg_value *v)
{
    struct cfg_word w;
    cfg_word_read(s, e, &w);
    switch (w.kind) {
    case CFG_WORD_INT:
        v->type = w.i >= INT32_MIN && w.i <= INT32_MAX ? CFG_T_INT : CFG_T_INT64;
        v->u.i = w.i;
        return 0;
    case CFG_WORD_FLOAT:
        v->type = CFG_T_FLOAT;
        v->u.f = w.f;
        return 0;
    default:
        break;
    }
    const char *p = cfg_strdup(ps->c, w.text, w.len);
    if (!p)
        return oom(ps);
    v->type = w.kind == CFG_WORD_EXPRESSION ? CFG_T_VARIABLE : CFG_T_STRING;
    v->u.s = (struct cfg_str){ p, (uint32_t)w.len };
    return 0;
}

/* A value: quoted, or unquoted up to ';' (in arrays ',' or '}') or the
 * end of the line, outside parentheses, trimmed. */
static int get_scalar(struct parser *ps, struct cfg_value *v, int in_array)
{
    int ch = peek(ps);
    if (ch == -1)
        return -1;
    if (ch == '"' || ch == '\'')
        return get_quoted(ps, v);
    const char *s = ps->p;
    int paren = 0;
    while (ps->p < ps->end && *ps->p != '\n') {
        char k = *ps->p;
        if (paren == 0 && (k == ';' || (in_array && (k == ',' || k == '}'))))
            break;
        if (paren == 0 && k == '/' && ps->end - ps->p >= 2 && (ps->p[1] == '/' || ps->p[1] == '*'))
            break;
        paren += k == '(' ? 1 : k == ')' && paren > 0 ? -1 : 0;
        ps->p++;
    }
    const char *e = ps->p;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
        e--;
    if (e == s)
        return fail(ps, "expected a value");
    if ((size_t)(e - s) > CFG_STR_MAX)
        return fail(ps, "value longer than %u bytes", CFG_STR_MAX);
    return classify(ps, s, e, v);
}

static int push_value(struct parser *ps, const struct cfg_value *v)
{
    void *sv = ps->sv;
    if (rtm_array_grow32(&sv, &ps->cap_sv, (size_t)ps->nsv + 1, sizeof *ps->sv, 64))
        return oom(ps);
    ps->sv = sv;
    ps->sv[ps->nsv++] = *v;
    return 0;
}

/* An array after its '{', elements gathered then placed together. */
static int get_array(struct parser *ps, struct cfg_value *out, int depth)
{
    if (depth > CFG_DEPTH_MAX)
        return fail(ps, "arrays nested deeper than %d", CFG_DEPTH_MAX);
    uint32_t base = ps->nsv;
    for (;;) {
        int ch = peek(ps);
        char b[8];
        if (ch == -1)
            return -1;
        if (ch == '}') {
            ps->p++;
            break;
        }
        if (ch == 0)
            return fail(ps, "file ends inside an array");
        struct cfg_value v = { 0 };
        if (ch == '{') {
            ps->p++;
            if (get_array(ps, &v, depth + 1))
                return -1;
        } else if (get_scalar(ps, &v, 1)) {
            return -1;
        }
        if (push_value(ps, &v))
            return -1;
        ch = peek(ps);
        if (ch == ',')
            ps->p++;
        else if (ch != '}')
            return ch == -1 ? -1 : ch ? fail(ps, "expected ',' or '}' in an array, found %s",
                                             shown(ch, b))
                                      : fail(ps, "file ends inside an array");
    }
    uint32_t n = ps->nsv - base;
    long first = cfg_append_values(ps->c, n ? ps->sv + base : NULL, n);  /* none yet: NULL */
    if (first < 0)
        return oom(ps);
    ps->nsv = base;
    *out = (struct cfg_value){ .type = CFG_T_ARRAY, .n = n, .u.first = (uint32_t)first };
    return 0;
}

static int push_entry(struct parser *ps, const struct cfg_entry *e)
{
    void *se = ps->se;
    if (rtm_array_grow32(&se, &ps->cap_se, (size_t)ps->nse + 1, sizeof *ps->se, 64))
        return oom(ps);
    ps->se = se;
    ps->se[ps->nse++] = *e;
    return 0;
}

static int get_body(struct parser *ps, uint32_t *first, uint32_t *n, int depth, int top);

static int get_class(struct parser *ps, int depth)
{
    struct cfg_entry e = { .kind = CFG_CLASS };
    if (get_name(ps, &e.name, "a class name"))
        return -1;
    int ch = peek(ps);
    if (ch == ':') {
        ps->p++;
        if (get_name(ps, &e.parent, "a parent class name"))
            return -1;
        e.has_parent = 1;
        ch = peek(ps);
    }
    if (ch == ';' && !e.has_parent) {
        ps->p++;
        e.kind = CFG_EXTERN;
        return push_entry(ps, &e);
    }
    if (ch != '{')
        return ch == -1 ? -1 : fail(ps, "expected '{' after class %s", e.name.p);
    ps->p++;
    if (depth + 1 > CFG_DEPTH_MAX)
        return fail(ps, "classes nested deeper than %d", CFG_DEPTH_MAX);
    if (get_body(ps, &e.first, &e.n, depth + 1, 0) || expect(ps, ';', "after a class's '}'"))
        return -1;
    return push_entry(ps, &e);
}

static int get_enum(struct parser *ps)
{
    int32_t next = 0;
    if (expect(ps, '{', "after enum"))
        return -1;
    for (int ch; (ch = peek(ps)) != '}';) {
        struct cfg_str name;
        if (ch <= 0)
            return ch ? -1 : fail(ps, "file ends inside an enum");
        if (get_name(ps, &name, "an enum name"))
            return -1;
        if (peek(ps) == '=') {
            struct cfg_value v = { 0 };
            ps->p++;
            if (get_scalar(ps, &v, 1))
                return -1;
            if (v.type != CFG_T_INT)
                return fail(ps, "enum value of %s is not an integer", name.p);
            next = (int32_t)v.u.i;
        }
        if (cfg_add_enum(ps->c, name.p, name.len, next))
            return oom(ps);
        next = next == INT32_MAX ? INT32_MIN : next + 1;
        if (peek(ps) == ',')
            ps->p++;
    }
    ps->p++;
    return expect(ps, ';', "after an enum's '}'");
}

/* A macro call left as written (NAME(...);) is no statement: skipped. */
static int skip_call(struct parser *ps)
{
    int depth = 0;
    for (; ps->p < ps->end; ps->p++) {
        ps->line += *ps->p == '\n';
        depth += *ps->p == '(' ? 1 : *ps->p == ')' ? -1 : 0;
        if (depth == 0) {
            ps->p++;
            if (peek(ps) == ';')
                ps->p++;
            return 0;
        }
    }
    return fail(ps, "file ends inside a macro call's parentheses");
}

static int get_statement(struct parser *ps, int depth)
{
    struct cfg_entry e = { .kind = CFG_VALUE };
    if (scan_name(ps, &e.name, "a name"))
        return -1;
    if (word_is(&e.name, "class"))
        return get_class(ps, depth);
    if (word_is(&e.name, "delete")) {
        e.kind = CFG_DELETE;
        return get_name(ps, &e.name, "a class name after delete") ||
               expect(ps, ';', "after delete") || push_entry(ps, &e);
    }
    int ch = peek(ps);
    if (word_is(&e.name, "enum") && ch == '{')
        return get_enum(ps);
    if (ch == '(')
        return skip_call(ps);
    if (ch == -1 || keep_name(ps, &e.name))
        return -1;
    if (ch == '[') {
        ps->p++;
        if (expect(ps, ']', "after '['"))
            return -1;
        e.kind = CFG_ARRAY;
        ch = peek(ps);
        if (ch == '+') {
            ps->p++;
            e.append = 1;
        }
        if (expect(ps, '=', e.append ? "after '+'" : "after name[]") ||
            expect(ps, '{', "to open an array"))
            return -1;
        if (get_array(ps, &e.v, 1))
            return -1;
    } else {
        if (expect(ps, '=', "after a name"))
            return -1;
        if (peek(ps) == '{') {
            ps->p++;
            e.kind = CFG_ARRAY;
            if (get_array(ps, &e.v, 1))
                return -1;
        } else if (get_scalar(ps, &e.v, 0)) {
            return -1;
        }
    }
    return expect(ps, ';', "after a value") || push_entry(ps, &e);
}

/* Members up to '}' (or the end at the top), placed as one block. */
static int get_body(struct parser *ps, uint32_t *first, uint32_t *n, int depth, int top)
{
    uint32_t base = ps->nse, open = ps->line;
    for (;;) {
        int ch = peek(ps);
        if (ch == -1)
            return -1;
        if (ch == 0) {
            if (top)
                break;
            ps->line = open;
            return fail(ps, "class opened here never closed");
        }
        if (ch == '}' && !top) {
            ps->p++;
            break;
        }
        if (ch == ';') {
            ps->p++;
            continue;
        }
        if (get_statement(ps, depth))
            return -1;
    }
    *n = ps->nse - base;
    long at = cfg_append_entries(ps->c, *n ? ps->se + base : NULL, *n);  /* none yet: NULL */
    if (at < 0)
        return oom(ps);
    ps->nse = base;
    *first = (uint32_t)at;
    return 0;
}

int cfg_parse_text(const char *text, size_t len, const char *name,
                   const struct cfg_line_map *map, struct cfg **out, struct rtm_error *err)
{
    if (!text)
        text = "";                      /* an empty buffer may have no bytes at all */
    struct parser ps = { .begin = text, .p = text, .end = text + len, .line = 1, .name = name, .map = map,
                         .err = err };
    *out = NULL;
    if (len > UINT32_MAX) {
        rtm_err_nooff(err, "%s: text config larger than 4 GiB", name ? name : "<text>");
        return -1;
    }
    ps.c = cfg_new();
    if (!ps.c || cfg_add_entries(ps.c, 1) != 0 || !(ps.c->e[0].name.p = cfg_strdup(ps.c, "", 0))) {
        cfg_free(ps.c);
        rtm_err_oom(err, "out of memory parsing a config");
        return -1;
    }
    ps.c->e[0].kind = CFG_CLASS;
    uint32_t first, n;
    int rc = get_body(&ps, &first, &n, 0, 1);
    free(ps.se);
    free(ps.sv);
    if (rc) {
        cfg_free(ps.c);
        return -1;
    }
    ps.c->e[0].first = first;
    ps.c->e[0].n = n;
    cfg_link(ps.c);
    *out = ps.c;
    return 0;
}
