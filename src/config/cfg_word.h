/* cfg_word.h - what an unquoted word of a text config is, as BI's tools
 * read it (rtm(5), RAPIFIED CONFIGS, "Text syntax"): a decimal or 0x
 * integer (signed, up to INT64's range), a float in C's decimal spelling
 * or one of the non-finite spellings CfgConvert and DeRap write (1.#INF,
 * -1.#IND, 1.#QNAN(0x7FC00000)...), an expression __EVAL(...) (which
 * rapifies to one, as HEMTT's rapifier writes it), else a string.
 *
 * Contract: pure functions of the bytes given; nothing is allocated, and
 * text points into them. */
#ifndef RTM_CFG_WORD_H
#define RTM_CFG_WORD_H

#include <stddef.h>
#include <stdint.h>

enum cfg_word_kind { CFG_WORD_INT, CFG_WORD_FLOAT, CFG_WORD_EXPRESSION, CFG_WORD_STRING };

struct cfg_word {
    enum cfg_word_kind kind;
    int64_t i;                  /* CFG_WORD_INT */
    float f;                    /* CFG_WORD_FLOAT */
    const char *text;           /* the expression inside __EVAL( ), or the */
    size_t len;                 /* string: the word itself */
};

/* The word s..e (trimmed by the caller) into *out. */
void cfg_word_read(const char *s, const char *e, struct cfg_word *out);

#endif
