/* config.h - Arma configs (class syntax), rapified or text, as one model.
 *
 * The model is a tree of classes.  Each class holds its members in file
 * order: classes (with a parent named by name), externs (class X;), deletes
 * (delete X;), values (x = 1;) and arrays (x[] = {..}; or x[] += {..};).
 * Values are strings, 32-bit floats, 32- and 64-bit integers and
 * expressions (CFG_T_VARIABLE, rapified subtype 4: the text of an
 * __EVAL(...), which the game evaluates); arrays nest.
 *
 * Contract:
 *  - A struct cfg owns every entry, value and string inside it (one arena);
 *    the caller releases it with cfg_free().  Pointers into it stay valid
 *    until then.  It is read-only once built and may be shared by threads.
 *  - Entry 0 is the root class (name "", no parent).  A class's members are
 *    the entries e[first .. first + n), contiguous and in file order; an
 *    array's elements are the values v[first .. first + n).
 *  - Readers (rap.c, cfg_text.c) return 0 and a new model, or -1 with *out
 *    NULL and err saying what is wrong: the byte offset for rapified input,
 *    "FILE:LINE: ..." for text.  They never read outside their input, never
 *    recurse deeper than CFG_DEPTH_MAX, and allocate only what the bytes
 *    justify; rap_measure() says how much up front, for a cache's budget.
 *  - No global state; every function is safe on different objects from
 *    several threads.
 */
#ifndef RTM_CONFIG_H
#define RTM_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

enum { CFG_DEPTH_MAX = 64 };            /* classes (and arrays) nested at most */
#define CFG_STR_MAX (1u << 20)          /* bytes of one name or string */

enum cfg_kind { CFG_CLASS, CFG_EXTERN, CFG_DELETE, CFG_VALUE, CFG_ARRAY };
enum cfg_type { CFG_T_STRING, CFG_T_FLOAT, CFG_T_INT, CFG_T_INT64, CFG_T_VARIABLE,
                CFG_T_ARRAY };

struct cfg_str {
    const char *p;          /* NUL-terminated; may hold other NULs only in text */
    uint32_t len;
};

struct cfg_value {
    uint8_t type;           /* enum cfg_type */
    uint32_t n;             /* CFG_T_ARRAY: elements, at v[u.first] */
    union {
        struct cfg_str s;   /* STRING, VARIABLE */
        float f;
        int64_t i;          /* INT (fits int32) and INT64 */
        uint32_t first;
    } u;
};

struct cfg_entry {
    uint8_t kind;           /* enum cfg_kind */
    uint8_t append;         /* CFG_ARRAY: written += */
    uint8_t has_parent;     /* CFG_CLASS: class X : PARENT */
    struct cfg_str name;
    struct cfg_str parent;  /* CFG_CLASS with has_parent */
    uint32_t first, n;      /* CFG_CLASS: members e[first .. first + n) */
    uint32_t up;            /* the enclosing class (0 for the root itself) */
    struct cfg_value v;     /* CFG_VALUE: the value; CFG_ARRAY: an array */
};

struct cfg_enum {
    struct cfg_str name;
    int32_t value;
};

/* What the preprocessor left as written (cfg_pp.h); zero for rapified. */
struct cfg_pp_counts {
    uint32_t eval, exec, undefined_call, missing_include, other;
};

struct cfg_arena;

struct cfg {
    struct cfg_entry *e;
    uint32_t ne;
    struct cfg_value *v;
    uint32_t nv;
    struct cfg_enum *enums;
    uint32_t nenums;
    struct cfg_pp_counts pp;
    size_t mem_bytes;       /* what it holds, for a cache's budget */
    /* private */
    uint32_t cap_e, cap_v, cap_enums;
    struct cfg_arena *arena;
    uint32_t *members;      /* cfg_index_members: entry + 1 by (class, name) */
    uint32_t members_cap;   /* a power of two, or 0: no index */
};

void cfg_free(struct cfg *c);

/* ---- readers ---------------------------------------------------------- */

/* Whether a file may be a rapified config by its name (a path's last part
 * counts; ASCII case is ignored): config.bin, *.rvmat, *.bisurf, *.sqm,
 * or model.cfg.  The one name rule: only such files are opened to look for
 * the magic (rap_is_rapified), so a texture is never sniffed. */
int cfg_is_candidate_name(const char *name, size_t len);
/* Whether bytes start like a rapified file ("\0raP"). */
int rap_is_rapified(const uint8_t *data, size_t len);
/* Validates a rapified file and says how many bytes rap_read() would
 * allocate for it (*bytes), without allocating more than a small work
 * list.  0, or -1 with err (a byte offset). */
int rap_measure(const uint8_t *data, size_t len, size_t *bytes, struct rtm_error *err);
int rap_read(const uint8_t *data, size_t len, struct cfg **out, struct rtm_error *err);

/* Where the lines of preprocessed text came from: from out_line on (1-based),
 * line k of the text is line src_line + (k - out_line) of files[file]. */
struct cfg_line_seg {
    uint32_t out_line, file, src_line;
};
struct cfg_line_map {
    const struct cfg_line_seg *seg;     /* by out_line, ascending */
    size_t nseg;
    const char *const *files;
    size_t nfiles;
};
/* "FILE:LINE" of line line of the text into out (n bytes). */
void cfg_line_where(const struct cfg_line_map *map, const char *name, uint32_t line,
                    char *out, size_t n);

/* Parses text in class syntax (already preprocessed: cfg_pp.h).  name is
 * what messages call the text ("config.cpp"); map, when not NULL, turns a
 * line of the text into the file and line it came from.  Unquoted values
 * are strings as written, unless they are numbers as BI's tools read them:
 * decimal or 0x hex digits are an integer (64-bit when 32 do not hold it),
 * with a point or an exponent a float; 1.#INF, -1.#INF, 1.#QNAN(0xBITS)
 * are the non-finite floats; __EVAL(EXPR), one call and nothing else, is
 * an expression (CFG_T_VARIABLE).  Quoted strings joined by \n outside the
 * quotes ("a" \n "b") are one string with a newline byte where each \n
 * stood.  A statement that is only a macro call
 * (NAME(...);), which the preprocessor left as written, is skipped.
 * text may be NULL when len is 0 (an empty preprocessed buffer). */
int cfg_parse_text(const char *text, size_t len, const char *name,
                   const struct cfg_line_map *map, struct cfg **out, struct rtm_error *err);

/* Either: rapified when it starts with "\0raP", else text (not
 * preprocessed: the caller preprocesses text that needs it). */
int cfg_read(const uint8_t *data, size_t len, const char *name, struct cfg **out,
             struct rtm_error *err);

/* ---- writers ---------------------------------------------------------- */

/* The model as text that cfg_parse_text() reads back as the same model:
 * one statement a line, four spaces a level, strings with " doubled and
 * other bytes as they are, integers as integers, floats as the shortest
 * decimal that reads back as the same float32 (with a point: 8.0), and
 * non-finite floats as 1.#INF, -1.#INF and 1.#QNAN(0xXXXXXXXX) (its bits).
 * An expression is written __EVAL(EXPR), which reads back as it.  Appends to b; the exact size of the text is
 * rtm_buf_total() of a counting buffer (rtm_buf_init_counting). */
void cfg_print_text(const struct cfg *c, struct rtm_buf *b);
/* Whether the text reads back as exactly this model: every name (and
 * parent) is a plain word (no blank, control byte, # or one of ;:{}[]=,+"'()/,
 * not "class", "delete" or "enum"), every enum name too, no value is an
 * expression whose parentheses do not balance or that holds a newline or
 * NUL, nor a 64-bit integer that 32 bits hold (rapified subtype 6;
 * text reads it as a 32-bit one), and the root names no parent.  Rapified files may hold other names; their text then says
 * them as they are, which no config syntax can read back. */
int cfg_text_exact(const struct cfg *c);
/* Its exact size in bytes, by writing it into a counting buffer. */
uint64_t cfg_text_size(const struct cfg *c);

/* The project's rapify writer (rap_write.c): a file rap_read() reads back
 * as the same model.  -1 only when out of memory or the file would pass
 * 4 GiB. */
int rap_write(const struct cfg *c, struct rtm_buf *b);

/* ---- lookups ---------------------------------------------------------- */

/* Indexes every class's members by name, so that cfg_member (and so
 * cfg_class) takes one probe, not a scan of the class: for a model that
 * is looked up many times over (states.h's tables, where one class path
 * is looked for in every config read).  0, or -1 out of memory (the model
 * then stays as it was, scanned).  Call it once the model is built. */
int cfg_index_members(struct cfg *c);

/* The member of class cls named name (ASCII case-insensitively, as the
 * game matches), the last one that defines it in file order; -1 when none. */
long cfg_member(const struct cfg *c, uint32_t cls, const char *name);
/* The class a path names from the root, "CfgGesturesMale/States/X"; -1. */
long cfg_class(const struct cfg *c, const char *path);
/* The parent class of class cls inside this model, as the game resolves
 * a base class name (rtm(5), "Base classes"): a class of that name that
 * cls's enclosing class defines, else one that class inherits (from its
 * parent, nearest first), else the same in each class further out, to the
 * root.  "class X;" only declares X and is skipped.  -1 when cls has no
 * parent, or it is not in the model (or the lookup ran past a bound that
 * keeps hostile files from making it branch without end). */
long cfg_parent(const struct cfg *c, uint32_t cls);
/* An entry named name in class cls or, through cfg_parent(), its parents
 * (at most CFG_DEPTH_MAX steps; loops end there): -1 when none is found.
 * *stuck, when not NULL, gets the class whose parent is named but absent
 * from the model (so the value would come from outside), else -1. */
long cfg_lookup(const struct cfg *c, uint32_t cls, const char *name, long *stuck);
/* cfg_class() then cfg_lookup(): "CfgGesturesMale/States/X/speed". */
long cfg_find(const struct cfg *c, const char *path, long *stuck);

/* Model equality: the same tree, names, kinds and values, floats by their
 * bits.  When they differ and why is not NULL, a line saying where. */
int cfg_equal(const struct cfg *a, const struct cfg *b, char *why, size_t n);

/* ---- building (the readers' and tests' builder) ----------------------- */

struct cfg *cfg_new(void);
/* Copies len bytes into the arena (NUL added); NULL when out of memory. */
const char *cfg_strdup(struct cfg *c, const void *s, size_t len);
/* n new entries or values, zeroed, contiguous: their first index, or -1. */
long cfg_add_entries(struct cfg *c, uint32_t n);
long cfg_add_values(struct cfg *c, uint32_t n);
/* The same with copies of from[0, n) instead of zeros (a parser's
 * gathered members or elements; from NULL: zeros): the first's index, or
 * -1. */
long cfg_append_entries(struct cfg *c, const struct cfg_entry *from, uint32_t n);
long cfg_append_values(struct cfg *c, const struct cfg_value *from, uint32_t n);
int cfg_add_enum(struct cfg *c, const char *name, size_t len, int32_t value);
/* Sets every entry's up from the classes' member ranges: a reader calls
 * it once when the tree is whole. */
void cfg_link(struct cfg *c);
/* Reserves room so that adding this many never reallocates. */
int cfg_reserve(struct cfg *c, uint32_t entries, uint32_t values, uint32_t enums,
                size_t str_bytes);

#endif
