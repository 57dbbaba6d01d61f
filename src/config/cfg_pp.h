/* cfg_pp.h - the preprocessor of text configs (config.cpp, *.hpp,
 * model.cfg), as Arma's tools run it before parsing.
 *
 * What it does: comments out, line continuations joined, #include,
 * #define (object-like and function-like, with # and ##), #undef, #ifdef,
 * #ifndef, #if and #elif (integer expressions: cfg_expr.h, with
 * defined(NAME) and __has_include("PATH") looked for as #include looks),
 * #else, #endif, __LINE__, __FILE__ (the file's game path when known:
 * opts.gamepath for the file itself, the path an include was found by
 * through the resolver or include/, or relative to a file whose game path
 * is known; else its name), __COUNTER__ (0, 1, ... a file
 * preprocessed), __COUNTER_RESET__ and __TIMESTAMP_UTC__ (the UNIX time
 * at the start, or SOURCE_DATE_EPOCH); __ARMA__ and __ARMA3__ are defined
 * as 1.  As Arma's preprocessor
 * (and unlike C's), a macro's arguments are expanded before they are
 * substituted, also next to # and ##, which CBA's macros rely on
 * (QUOTE(PATHTOF(x)), DOUBLES(ADDON,x)).  Macros are not expanded inside
 * "strings".  A ## outside a macro's body joins its two sides too.  A
 * line of a macro's body that is an #if, #ifdef, #ifndef, #elif, #else or
 * #endif is applied each time the macro expands (cfg_macro.h).
 *
 * An #include "PATH" or <PATH> is looked for (1) relative to the including
 * file, (2) as a game path through the caller's resolver, (3) in the
 * caller's include folder.  What it cannot do is left as written and
 * counted (struct cfg_pp_counts), never refused: __EVAL and __EXEC, a
 * call of an undefined macro (a name without lowercase letters followed by
 * '('), an include found nowhere and unknown directives.  The
 * counts are a comment at the top of the text (cfg_pp_note).  A
 * "#pragma hemtt ..." line is HEMTT's and gives nothing, uncounted.
 *
 * Errors (-1, err "FILE:LINE: ..."): a file that cannot be read, an
 * include loop or includes deeper than CFG_PP_INCLUDE_MAX, macros nested
 * deeper than CFG_DEPTH_MAX, an #else or #endif without #ifdef or an
 * #ifdef never closed, an #if or #elif expression that cannot be evaluated
 * (a name that is no macro, a string, a float, a bad operator), output past
 * the limit (max_output).
 *
 * Contract: the result owns its text, line map and file names until
 * cfg_pp_free().  No global state; the resolver is called on the caller's
 * thread with its own arg.
 */
#ifndef RTM_CFG_PP_H
#define RTM_CFG_PP_H

#include <stddef.h>

#include "config.h"

struct rtm_work;

enum { CFG_PP_INCLUDE_MAX = 32 };
/* The largest config or included file read from disk (a whole game's
 * config.cpp is a few MB): a larger one, or one that is no regular file (a
 * FIFO, a device), is an error rather than a wait or a memory blow-up. */
#define CFG_FILE_MAX ((size_t)64 << 20)

/* A game path ("x\cba\addons\main\script_macros_common.hpp": backslashes,
 * no leading one) to a file on disk in out (n bytes): 0, or -1 when the
 * resolver knows no such file. */
typedef int (*cfg_pp_resolve_fn)(void *arg, const char *gamepath, char *out, size_t n);

struct cfg_pp_opts {
    cfg_pp_resolve_fn resolve;  /* NULL: no game paths */
    void *arg;
    const char *include_dir;    /* the project's include/ folder, or NULL */
    size_t max_output;          /* bytes of text at most; 0: 64 MiB or 64 x input */
    const char *gamepath;       /* the file's own game path, or NULL: __FILE__ */
    long long epoch;            /* the time the date and time built-ins say
                                   (UNIX seconds), fixed for a run; 0: now,
                                   or SOURCE_DATE_EPOCH when it is set */
    struct rtm_work *work;      /* counts the files read (work.h); NULL: not */
};

struct cfg_pp_result {
    struct rtm_buf text;                /* the preprocessed text */
    struct cfg_pp_counts counts;
    struct cfg_line_map map;            /* lines of text -> FILE:LINE */
    /* What the text depends on besides its own bytes: how many #include
     * and __has_include lookups asked anything on disk (the including
     * file's folder, the resolver, include_dir), found or not, and
     * whether a date or time built-in gave the run's time.  Both 0: the
     * same text gives the same result on any run (a cache may key it by
     * the text's version alone). */
    size_t lookups;
    int time_used;
    /* private */
    struct cfg_line_seg *seg;
    size_t nseg, cap_seg;
    char **files;
    size_t nfiles;
};

/* Preprocesses the file at path (its includes read from disk). */
int cfg_pp_file(const char *path, const struct cfg_pp_opts *o, struct cfg_pp_result *r,
                struct rtm_error *err);
/* The same for text already in memory, named name, in folder dir (for
 * relative includes; NULL: none). */
int cfg_pp_text(const char *text, size_t len, const char *name, const char *dir,
                const struct cfg_pp_opts *o, struct cfg_pp_result *r, struct rtm_error *err);
void cfg_pp_free(struct cfg_pp_result *r);
/* The time a run's date and time built-ins say: SOURCE_DATE_EPOCH when it
 * is a decimal number (reproducible builds' convention), else now. */
long long cfg_pp_epoch(void);

/* "// rtmfs: left as written: 2 __EVAL, 1 missing #include" and a newline
 * into b, or nothing when nothing was left. */
void cfg_pp_note(const struct cfg_pp_counts *c, struct rtm_buf *b);

/* A config file as a model: rapified bytes read as such, text
 * preprocessed (o may be NULL) and parsed, its counts kept in the model. */
int cfg_load_file(const char *path, const struct cfg_pp_opts *o, struct cfg **out,
                  struct rtm_error *err);

#endif
