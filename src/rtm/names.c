/* names.c - bone names made safe and unique (names.h). */
#include "names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtm.h"

const struct rtm_name_rule RTM_NAMES_FILE = { "/", 1, 1, 251, NULL };

/* A slot of the lookup table the build took for what is not a form. */
#define NOT_A_FORM UINT32_MAX

/* Room a cut form keeps for "~" and up to 10 digits. */
enum { SUFFIX_ROOM = 11 };

static unsigned char fold_byte(unsigned char c, int fold)
{
    return fold ? rtm_ascii_lower(c) : c;
}

static int cmp_bytes(const char *a, size_t alen, const char *b, size_t blen, int fold)
{
    size_t n = alen < blen ? alen : blen;
    for (size_t i = 0; i < n; i++) {
        unsigned char x = fold_byte((unsigned char)a[i], fold);
        unsigned char y = fold_byte((unsigned char)b[i], fold);
        if (x != y)
            return x < y ? -1 : 1;
    }
    return alen < blen ? -1 : alen > blen;
}

/* ---- building: every string lives in one growing buffer, by offset ---- */

struct slot {
    size_t off;             /* into the build's strings; SIZE_MAX when free */
    uint32_t len;
    uint32_t next_k;        /* the next suffix to try for this form */
};

struct build {
    const struct rtm_name_rule *rule;
    struct rtm_buf s;       /* base forms, then forms with suffixes */
    struct slot *table;
    size_t mask;
    unsigned char esc[256]; /* the bytes escaped anywhere in a name */
};

/* The slot holding the form at off (len bytes), or the free slot where it
 * goes. */
static struct slot *slot_of(struct build *b, size_t off, uint32_t len)
{
    const char *p = b->s.p + off;
    for (size_t i = rtm_hash_bytes(p, len, b->rule->fold) & b->mask;; i = (i + 1) & b->mask) {
        struct slot *e = &b->table[i];
        if (e->off == SIZE_MAX ||
            (e->len == len && cmp_bytes(b->s.p + e->off, e->len, p, len, b->rule->fold) == 0))
            return e;
    }
}

/* Claims the form at off when it is free: its slot's place + 1 when it
 * was, else 0. */
static size_t claim(struct build *b, size_t off, uint32_t len)
{
    struct slot *e = slot_of(b, off, len);
    if (e->off != SIZE_MAX)
        return 0;
    *e = (struct slot){ off, len, 2 };
    return (size_t)(e - b->table) + 1;
}

/* The rule's escapes as a table: asked for every byte of every name, and
 * made for every animation loaded, so by ranges rather than byte by byte. */
static void escapes_of(struct build *b)
{
    memset(b->esc, 1, 0x20);
    memset(b->esc + 0x20, 0, 0x7f - 0x20);
    memset(b->esc + 0x7f, 1, 256 - 0x7f);
    b->esc['\\'] = 1;
    for (const char *e = b->rule->escape; *e; e++)
        b->esc[(unsigned char)*e] = 1;
}

static int must_escape(const struct build *b, unsigned char c, uint32_t at)
{
    return b->esc[c] || (at == 0 && c == '.' && b->rule->escape_lead_dot);
}

/* The length of the form at off (len bytes) cut to leave room for a ~N
 * suffix within rule->max, never inside an escape (a backslash in a form
 * always starts one). */
static uint32_t room_for_suffix(const struct build *b, size_t off, size_t len)
{
    size_t n = b->rule->max - SUFFIX_ROOM;
    if (len <= n)
        return (uint32_t)len;
    for (size_t j = n >= 3 ? n - 3 : 0; j < n; j++)
        if (b->s.p[off + j] == '\\')
            return (uint32_t)j;
    return (uint32_t)n;
}

/* Appends name's form (without its NUL); 1 when it had to be cut. */
static int put_base(struct build *b, const struct rtm_str *name)
{
    static const char hex[] = "0123456789abcdef";
    size_t start = b->s.len;
    if (name->len == 0)
        rtm_buf_puts(&b->s, "\\x00");
    const unsigned char *p = (const unsigned char *)name->s;
    for (uint32_t i = 0, end; i < name->len; i = end) {
        for (end = i; end < name->len && !must_escape(b, p[end], end);)
            end++;
        rtm_buf_put(&b->s, name->s + i, end - i);   /* what needs no escape, in one put */
        if (end < name->len) {
            unsigned char c = p[end++];
            char e[4] = { '\\', 'x', hex[c >> 4], hex[c & 15] };
            rtm_buf_put(&b->s, e, 4);
        }
    }
    if (b->s.oom || b->s.len - start <= b->rule->max)
        return 0;
    b->s.len = start + room_for_suffix(b, start, b->s.len - start);
    return 1;
}

uint64_t rtm_names_bytes_max(uint32_t n, uint64_t name_bytes)
{
    return 12 * name_bytes + 160 * (uint64_t)n + 256;
}

/* The result, from each name's form at off[i] in b->s, claimed in slot
 * at[i] of b's table.  r's lookup table is b's, so that nothing is hashed
 * twice (every animation loaded makes its bones' forms): a form's slot
 * holds its index + 1, a slot b took for anything else (rule->reserved, a
 * cut form's base) NOT_A_FORM, which a search passes over. */
static struct rtm_names *finish(struct build *b, const size_t *off, const uint32_t *len,
                                const size_t *at, uint32_t n)
{
    struct rtm_names *r = calloc(1, sizeof *r);
    size_t total = 0;
    for (uint32_t i = 0; i < n; i++)
        total += (size_t)len[i] + 1;
    if (!r || !(r->form = malloc((n ? n : 1) * sizeof *r->form)) ||
        !(r->len = malloc((n ? n : 1) * sizeof *r->len)) ||
        !(r->slots = malloc((b->mask + 1) * sizeof *r->slots)) ||
        !(r->block = malloc(total ? total : 1))) {
        rtm_names_free(r);
        return NULL;
    }
    r->n = n;
    r->fold = b->rule->fold;
    r->mask = b->mask;
    for (size_t k = 0; k <= b->mask; k++)
        r->slots[k] = b->table[k].off == SIZE_MAX ? 0 : NOT_A_FORM;
    char *p = r->block;
    for (uint32_t i = 0; i < n; i++) {
        memcpy(p, b->s.p + off[i], len[i]);
        p[len[i]] = 0;
        r->form[i] = p;
        r->len[i] = len[i];
        r->slots[at[i]] = i + 1;
        p += (size_t)len[i] + 1;
    }
    return r;
}

/* Gives name i, whose base form is at off[i], the first free base~K. */
static int add_suffix(struct build *b, size_t *off, uint32_t *len, size_t *at, uint32_t i)
{
    uint32_t blen = room_for_suffix(b, off[i], len[i]);
    struct slot *base = slot_of(b, off[i], blen);
    if (base->off == SIZE_MAX)          /* a cut form nobody holds */
        *base = (struct slot){ off[i], blen, 2 };
    for (uint32_t k = base->next_k;; k++) {
        size_t from = b->s.len;
        if (rtm_buf_reserve(&b->s, (size_t)blen + SUFFIX_ROOM + 1))
            return -1;
        /* copied after the buffer has grown: the form lives in it too */
        memcpy(b->s.p + from, b->s.p + off[i], blen);
        b->s.len += blen;
        rtm_buf_printf(&b->s, "~%u", k);
        if (b->s.oom)
            return -1;
        uint32_t n = (uint32_t)(b->s.len - from);
        size_t slot = claim(b, from, n);
        if (slot) {                     /* the table never moves: base holds */
            base->next_k = k + 1;
            off[i] = from;
            len[i] = n;
            at[i] = slot - 1;
            return 0;
        }
        b->s.len = from;
    }
}

struct rtm_names *rtm_names_make(const struct rtm_str *names, uint32_t n,
                                 const struct rtm_name_rule *rule)
{
    struct build b = { .rule = rule };
    escapes_of(&b);
    rtm_buf_init(&b.s);
    size_t cap = 16;
    while (cap < 4 * (size_t)n + 4)
        cap *= 2;
    size_t *off = malloc((n ? n : 1) * sizeof *off);
    uint32_t *len = malloc((n ? n : 1) * sizeof *len);
    size_t *at = malloc((n ? n : 1) * sizeof *at);
    uint8_t *taken = calloc(n ? n : 1, 1);
    b.table = malloc(cap * sizeof *b.table);
    b.mask = cap - 1;
    struct rtm_names *r = NULL;
    if (!off || !len || !at || !taken || !b.table)
        goto out;
    for (size_t i = 0; i < cap; i++)
        b.table[i].off = SIZE_MAX;
    if (rule->reserved) {
        rtm_buf_puts(&b.s, rule->reserved);
        if (b.s.oom)
            goto out;
        claim(&b, 0, (uint32_t)b.s.len);
    }
    for (uint32_t i = 0; i < n; i++) {
        off[i] = b.s.len;
        int cut = put_base(&b, &names[i]);
        if (b.s.oom)
            goto out;
        len[i] = (uint32_t)(b.s.len - off[i]);
        taken[i] = !cut;
    }
    for (uint32_t i = 0; i < n; i++) {  /* names first: a suffix never takes one */
        size_t slot = taken[i] ? claim(&b, off[i], len[i]) : 0;
        taken[i] = slot != 0;
        at[i] = slot - (size_t)taken[i];
    }
    for (uint32_t i = 0; i < n; i++)
        if (!taken[i] && add_suffix(&b, off, len, at, i))
            goto out;
    r = finish(&b, off, len, at, n);
out:
    free(off);
    free(len);
    free(at);
    free(taken);
    free(b.table);
    rtm_buf_free(&b.s);
    return r;
}

size_t rtm_names_mem_bytes(const struct rtm_names *r)
{
    size_t block = 0;
    for (uint32_t i = 0; r && i < r->n; i++)
        block += r->len[i] + 1;
    return r ? rtm_heap_bytes(sizeof *r) + rtm_heap_bytes(r->n * sizeof *r->form) +
                   rtm_heap_bytes(r->n * sizeof *r->len) +
                   rtm_heap_bytes(((size_t)r->mask + 1) * sizeof *r->slots) + rtm_heap_bytes(block)
             : 0;
}

void rtm_names_free(struct rtm_names *r)
{
    if (!r)
        return;
    free(r->form);
    free(r->len);
    free(r->slots);
    free(r->block);
    free(r);
}

int64_t rtm_names_find(const struct rtm_names *r, const char *s, size_t len)
{
    for (size_t i = rtm_hash_bytes(s, len, r->fold) & r->mask; r->slots[i];
         i = (i + 1) & r->mask) {
        uint32_t k = r->slots[i] - 1;
        if (r->slots[i] != NOT_A_FORM && r->len[k] == len &&
            cmp_bytes(r->form[k], len, s, len, r->fold) == 0)
            return k;
    }
    return -1;
}
