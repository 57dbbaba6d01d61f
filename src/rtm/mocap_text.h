/* mocap_text.h - the BVH reader's text (mocap_read.c): a cursor that
 * knows its line, the words and numbers of the format, and messages that
 * name the line (and column) where the text is wrong.  Internal to the
 * reader; every function that fails fills r->err and returns -1.
 * Numbers: decimal text ([+-]digits[.digits][e[+-]digits]) to the nearest
 * double, as mocap.h says. */
#ifndef RTM_MOCAP_TEXT_H
#define RTM_MOCAP_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* The text being read: where it is, and its line for messages. */
struct rd {
    const uint8_t *base, *p, *end;
    uint32_t line;
    const uint8_t *line_at;     /* the current line's first byte */
    int cut;                    /* failed because the text ended */
    struct rtm_error *err;
};

/* Messages "line N: ..." at r->p; "line N column C: ..." at at; the
 * _cut one marks a text that ended where more was needed (a head read
 * then asks for more). */
int rtm_bvh_fail(struct rd *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int rtm_bvh_fail_at(struct rd *r, const uint8_t *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int rtm_bvh_fail_cut(struct rd *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A name or token for a message: at most 40 bytes, unprintable bytes as '?'. */
const char *rtm_bvh_shown(const uint8_t *s, size_t n, char out[48]);

static inline int is_blank(uint8_t c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }
static inline int is_eol(uint8_t c) { return c == '\n' || c == '\r'; }
static inline int at_eol(const struct rd *r) { return r->p == r->end || is_eol(*r->p); }

static inline void skip_blanks(struct rd *r)
{
    while (r->p < r->end && is_blank(*r->p))
        r->p++;
}

/* One line end: LF, CR or CRLF. */
static inline void eat_eol(struct rd *r)
{
    if (*r->p++ == '\r' && r->p < r->end && *r->p == '\n')
        r->p++;
    r->line++;
    r->line_at = r->p;
}

/* Blanks and line ends. */
static inline void skip_space(struct rd *r)
{
    for (;;) {
        skip_blanks(r);
        if (r->p == r->end || !is_eol(*r->p))
            return;
        eat_eol(r);
    }
}

/* The next word, across line ends; a brace or colon is a word of its
 * own.  Length 0 at the end of the text. */
size_t rtm_bvh_word(struct rd *r, const uint8_t **w);
/* The next word on this line (not crossing a line end), 0 when none. */
size_t rtm_bvh_word_here(struct rd *r, const uint8_t **w);
/* w (n bytes) is keyword kw in any case. */
int rtm_bvh_is_kw(const uint8_t *w, size_t n, const char *kw);
/* A finite number at r->p ended by a blank or line end: 0 with *v. */
int rtm_bvh_num(struct rd *r, double *v, const char *what);
/* A count: decimal digits that fit 32 bits. */
int rtm_bvh_count(struct rd *r, uint32_t *v, const char *what);

#endif
