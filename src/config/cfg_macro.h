/* cfg_macro.h - the preprocessor's macro table (cfg_define.c) and
 * expander with #if (cfg_macro.c), shared with the directive and include
 * layer (cfg_pp.c).  Private to the three; cfg_pp.h is the interface. */
#ifndef RTM_CFG_MACRO_H
#define RTM_CFG_MACRO_H

#include "cfg_pp.h"

struct cfg_macros;

enum { CFG_PARAMS_MAX = 64 };

struct cfg_macro {
    struct cfg_macro *next;
    char *name;
    int nparams;                /* -1: object-like */
    char *params[CFG_PARAMS_MAX];
    char *body;                 /* '\n' where its lines began when lines */
    int lines;                  /* it has #if lines, evaluated as it expands */
    int active;                 /* being expanded: not again inside itself */
};

struct cfg_macros *cfg_macros_new(void);
void cfg_macros_free(struct cfg_macros *m);
/* Defines from the text after "#define": 0, -1 when malformed (no name,
 * bad parameter list), -2 when out of memory.  A '\n' in s marks where a
 * continued source line ended (its backslash and newline taken out): a
 * line of the body that begins with #if, #ifdef, #ifndef, #elif, #else or
 * #endif is evaluated each time the macro expands, after its arguments
 * are put in (rtm(5)); the marks are otherwise nothing. */
int cfg_macro_define(struct cfg_macros *m, const char *s, size_t n);
void cfg_macro_undef(struct cfg_macros *m, const char *name, size_t n);
/* Whether NAME is defined: a macro, or a built-in the expander knows. */
int cfg_macro_defined(const struct cfg_macros *m, const char *name, size_t n);
/* Whether every macro defined is named __... (as those the game defines
 * in every file): a text without "__" then calls none. */
int cfg_macros_only_underscored(const struct cfg_macros *m);
/* The macro NAME (n bytes), or NULL. */
struct cfg_macro *cfg_macro_find(const struct cfg_macros *m, const char *name, size_t n);

/* The conditional directive the line s..e is (after its blanks): its
 * kind, one past its word in *arg; CFG_C_NONE when it is none. */
enum { CFG_C_NONE, CFG_C_IF, CFG_C_IFDEF, CFG_C_IFNDEF, CFG_C_ELIF, CFG_C_ELSE, CFG_C_ENDIF };
int cfg_macro_cond_kind(const char *s, const char *e, const char **arg);

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
    int time_used;              /* set once a date or time built-in expanded */
    /* __has_include("PATH") in #if: 1 when #include would find PATH */
    int (*has_include)(void *arg, const char *path);
    void *arg;
    const char *why;            /* after -1: what went wrong */
    int oom;                    /* after -1: it was out of memory */
    char whybuf[240];           /* (private) where why is put together */
};

/* Appends line s (n bytes, comments already out) to out with its macros
 * expanded: 0, or -1 with x->why (nesting, size, memory). */
int cfg_macro_expand_line(struct cfg_macro_expand *x, const char *s, size_t n, struct rtm_buf *out);

/* The value of an #if or #elif expression s (n bytes): defined(NAME) (or
 * defined NAME) and __has_include("PATH") (or <PATH>) replaced by 0 or 1,
 * then macros expanded, then evaluated (cfg_expr.h): 0 and *yes, or -1
 * with x->why ("#if cannot be evaluated: ...", "#if: ..."). */
int cfg_macro_if(struct cfg_macro_expand *x, const char *s, size_t n, int *yes);

/* The #if blocks open at a point: what is kept, as both the file's lines
 * (cfg_pp.c) and a macro's body lines are read. */
enum { CFG_COND_MAX = 256 };
struct cfg_cond {
    uint8_t active[CFG_COND_MAX], taken[CFG_COND_MAX], seen_else[CFG_COND_MAX];
    int n;
};

static inline int cfg_cond_active(const struct cfg_cond *c)
{
    return c->n == 0 || c->active[c->n - 1];
}
/* Opens a block (#if, #ifdef, #ifndef) whose condition is yes: 0, or -1
 * when CFG_COND_MAX are open already. */
int cfg_cond_push(struct cfg_cond *c, int yes);
/* Whether an #elif here would be evaluated: a block is open, what holds
 * it is kept, no branch of it was taken and it had no #else. */
int cfg_cond_wants(const struct cfg_cond *c);
/* #elif (yes: its value, 0 when not evaluated) or #else (is_else): 0, or
 * -1 when no block is open or it had its #else. */
int cfg_cond_branch(struct cfg_cond *c, int yes, int is_else);
/* #endif: 0, or -1 when no block is open. */
static inline int cfg_cond_pop(struct cfg_cond *c)
{
    return c->n ? (c->n--, 0) : -1;
}

static inline const char *cfg_macro_blank(const char *s, const char *e)
{
    while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
        s++;
    return s;
}

static inline int cfg_macro_ident_start(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static inline int cfg_macro_ident(unsigned char c)
{
    return cfg_macro_ident_start(c) || (c >= '0' && c <= '9');
}

#endif
