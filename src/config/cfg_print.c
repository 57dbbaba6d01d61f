/* cfg_print.c - a config model as text (derapified), written so that
 * cfg_parse_text() reads it back as the same model (config.h says how). */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "cfg_pp.h"
#include "numfmt.h"

static void indent(struct rtm_buf *b, int depth)
{
    for (int i = 0; i < depth; i++)
        rtm_buf_put(b, "    ", 4);
}

static void put_string(struct rtm_buf *b, struct cfg_str s)
{
    rtm_buf_putc(b, '"');
    const char *p = s.p, *end = s.p + s.len;
    while (p < end) {
        const char *q = memchr(p, '"', (size_t)(end - p));
        if (!q) {
            rtm_buf_put(b, p, (size_t)(end - p));
            break;
        }
        rtm_buf_put(b, p, (size_t)(q - p + 1));
        rtm_buf_putc(b, '"');       /* the only escape config syntax has */
        p = q + 1;
    }
    rtm_buf_putc(b, '"');
}

/* The shortest float32 decimal, with a point so that it reads as a float;
 * the non-finite ones in MSVC's spelling, NaN with its bits. */
static void put_float(struct rtm_buf *b, float f)
{
    char s[RTM_FLOAT_CHARS + 8];
    if (isnan(f)) {
        uint32_t bits;
        memcpy(&bits, &f, 4);
        rtm_buf_printf(b, "1.#QNAN(0x%08X)", bits);
        return;
    }
    if (isinf(f)) {
        rtm_buf_puts(b, f < 0 ? "-1.#INF" : "1.#INF");
        return;
    }
    size_t n = rtm_fmt_float(f, s);
    char *e = memchr(s, 'e', n);
    if (memchr(s, '.', n)) {
        rtm_buf_put(b, s, n);
    } else if (e) {
        rtm_buf_put(b, s, (size_t)(e - s));
        rtm_buf_puts(b, ".0");
        rtm_buf_put(b, e, n - (size_t)(e - s));
    } else {
        rtm_buf_put(b, s, n);
        rtm_buf_puts(b, ".0");
    }
}

static void put_value(struct rtm_buf *b, const struct cfg *c, const struct cfg_value *v)
{
    switch (v->type) {
    case CFG_T_STRING:
        put_string(b, v->u.s);
        break;
    case CFG_T_VARIABLE:       /* an expression: as the text that rapifies to one */
        rtm_buf_puts(b, "__EVAL(");
        rtm_buf_put(b, v->u.s.p, v->u.s.len);
        rtm_buf_putc(b, ')');
        break;
    case CFG_T_FLOAT:
        put_float(b, v->u.f);
        break;
    case CFG_T_INT:
    case CFG_T_INT64:
        rtm_buf_printf(b, "%lld", (long long)v->u.i);
        break;
    default:
        rtm_buf_putc(b, '{');
        for (uint32_t i = 0; i < v->n; i++) {
            if (i)
                rtm_buf_put(b, ", ", 2);
            put_value(b, c, &c->v[v->u.first + i]);
        }
        rtm_buf_putc(b, '}');
    }
}

static void put_class(struct rtm_buf *b, const struct cfg *c, uint32_t cls, int depth);

static void put_entry(struct rtm_buf *b, const struct cfg *c, const struct cfg_entry *e,
                      uint32_t at, int depth)
{
    indent(b, depth);
    switch (e->kind) {
    case CFG_CLASS:
        rtm_buf_puts(b, "class ");
        rtm_buf_put(b, e->name.p, e->name.len);
        if (e->has_parent) {
            rtm_buf_puts(b, " : ");
            rtm_buf_put(b, e->parent.p, e->parent.len);
        }
        if (e->n == 0) {
            rtm_buf_puts(b, " {};\n");
            return;
        }
        rtm_buf_putc(b, '\n');
        indent(b, depth);
        rtm_buf_puts(b, "{\n");
        put_class(b, c, at, depth + 1);
        indent(b, depth);
        rtm_buf_puts(b, "};\n");
        return;
    case CFG_EXTERN:
    case CFG_DELETE:
        rtm_buf_puts(b, e->kind == CFG_EXTERN ? "class " : "delete ");
        rtm_buf_put(b, e->name.p, e->name.len);
        rtm_buf_puts(b, ";\n");
        return;
    case CFG_ARRAY:
        rtm_buf_put(b, e->name.p, e->name.len);
        rtm_buf_puts(b, e->append ? "[] += " : "[] = ");
        break;
    default:
        rtm_buf_put(b, e->name.p, e->name.len);
        rtm_buf_puts(b, " = ");
    }
    put_value(b, c, &e->v);
    rtm_buf_puts(b, ";\n");
}

static void put_class(struct rtm_buf *b, const struct cfg *c, uint32_t cls, int depth)
{
    const struct cfg_entry *k = &c->e[cls];
    for (uint32_t i = 0; i < k->n; i++)
        put_entry(b, c, &c->e[k->first + i], k->first + i, depth);
}

void cfg_print_text(const struct cfg *c, struct rtm_buf *b)
{
    cfg_pp_note(&c->pp, b);
    if (c->nenums) {
        rtm_buf_puts(b, "enum\n{\n");
        for (uint32_t i = 0; i < c->nenums; i++) {
            indent(b, 1);
            rtm_buf_put(b, c->enums[i].name.p, c->enums[i].name.len);
            rtm_buf_printf(b, " = %d%s\n", c->enums[i].value, i + 1 < c->nenums ? "," : "");
        }
        rtm_buf_puts(b, "};\n");
    }
    put_class(b, c, 0, 0);
}

uint64_t cfg_text_size(const struct cfg *c)
{
    struct rtm_buf b;
    rtm_buf_init_counting(&b, 4096);
    cfg_print_text(c, &b);
    uint64_t n = rtm_buf_total(&b);
    rtm_buf_free(&b);
    return n;
}

static int plain_word(struct cfg_str s)
{
    if (s.len == 0 || (s.len == 5 && !memcmp(s.p, "class", 5)) ||
        (s.len == 6 && !memcmp(s.p, "delete", 6)) || (s.len == 4 && !memcmp(s.p, "enum", 4)))
        return 0;
    for (uint32_t i = 0; i < s.len; i++) {
        unsigned char ch = (unsigned char)s.p[i];
        if (ch <= ' ' || ch >= 0x7f || ch == '#' || strchr(";:{}[]=,+\"'()/", ch))
            return 0;                   /* the text reader's names are ASCII */
    }
    return 1;
}

/* Whether __EVAL(s) reads back as the expression s: its parentheses
 * balance (so that the value ends at the last one) and no newline or NUL
 * ends the value early. */
static int expr_readable(struct cfg_str s)
{
    long depth = 0;
    for (uint32_t i = 0; i < s.len && depth >= 0; i++) {
        char ch = s.p[i];
        if (ch == '\n' || ch == 0)
            return 0;
        depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
    }
    return depth == 0;
}

/* Whether text reads value v back as it is: not an expression text cannot
 * hold, and not a 64-bit integer that 32 bits hold (text reads that as a
 * 32-bit one). */
static int text_keeps(const struct cfg_value *v)
{
    return !(v->type == CFG_T_VARIABLE && !expr_readable(v->u.s)) &&
           !(v->type == CFG_T_INT64 && v->u.i >= INT32_MIN && v->u.i <= INT32_MAX);
}

int cfg_text_exact(const struct cfg *c)
{
    if (c->e[0].has_parent)
        return 0;   /* a root body that names a parent: text has no place for it */
    for (uint32_t i = 1; i < c->ne; i++) {
        const struct cfg_entry *e = &c->e[i];
        if (!plain_word(e->name) || (e->kind == CFG_CLASS && e->has_parent && !plain_word(e->parent)) ||
            (e->kind == CFG_VALUE && !text_keeps(&e->v)))
            return 0;
    }
    for (uint32_t i = 0; i < c->nv; i++)
        if (!text_keeps(&c->v[i]))
            return 0;
    for (uint32_t i = 0; i < c->nenums; i++)
        if (!plain_word(c->enums[i].name))
            return 0;
    return 1;
}
