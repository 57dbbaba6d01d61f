/* cfg_macro.h - the preprocessor's macro table and expander
 * (cfg_macro.c), shared with the directive and include layer (cfg_pp.c).
 * Private to the two; cfg_pp.h is the interface. */
#ifndef RTM_CFG_MACRO_H
#define RTM_CFG_MACRO_H

#include "cfg_pp.h"

struct cfg_macros;

struct cfg_macros *cfg_macros_new(void);
void cfg_macros_free(struct cfg_macros *m);
/* Defines from the text after "#define": 0, -1 when malformed (no name,
 * bad parameter list), -2 when out of memory. */
int cfg_macro_define(struct cfg_macros *m, const char *s, size_t n);
void cfg_macro_undef(struct cfg_macros *m, const char *name, size_t n);
int cfg_macro_defined(const struct cfg_macros *m, const char *name, size_t n);

struct cfg_macro_expand {
    struct cfg_macros *m;
    struct cfg_pp_counts *counts;
    size_t limit;               /* bytes out may reach; also the bytes all
                                   expansion may produce, arguments and
                                   bodies included, times 4 */
    size_t produced;
    const char *file;           /* for __FILE__ */
    uint32_t line;              /* for __LINE__ */
    uint32_t counter;           /* the next __COUNTER__ (0 at the start) */
    long long timestamp;        /* __TIMESTAMP_UTC__: fixed for the run */
    const char *why;            /* after -1: what went wrong */
};

/* Appends line s (n bytes, comments already out) to out with its macros
 * expanded: 0, or -1 with x->why (nesting, size, memory). */
int cfg_macro_expand_line(struct cfg_macro_expand *x, const char *s, size_t n, struct rtm_buf *out);

static inline int cfg_macro_ident_start(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static inline int cfg_macro_ident(unsigned char c)
{
    return cfg_macro_ident_start(c) || (c >= '0' && c <= '9');
}

#endif
