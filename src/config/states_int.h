/* states_int.h - what states.c and states_resolve.c share: the table's
 * insides.  Not for other modules: states.h is the contract. */
#ifndef RTM_STATES_INT_H
#define RTM_STATES_INT_H

#include "states.h"

enum { GP_MAX = RTM_STATES_KEY_MAX, CLASS_PATH_MAX = 1024 };

struct one_cfg {
    struct cfg *c;
    char *rel;
};

/* A line's strings share one block, key first: a table of 19,000 lines
 * (a generated install's) holds 7.6 MB so. */
struct line {
    char *key;          /* the game path the state names: normalised, lowercase */
    char *text;         /* the line, with its newline */
    char *file;         /* the state's file as written (missing.txt) */
    char *speed;        /* its speed as the line writes it (timing.h) */
    int speed_known;    /* that speed is a finite number */
    size_t cfg;         /* its config's place in path order */
    uint32_t entry;     /* the state's entry: file order */
};

/* Where a class path is (parent_elsewhere): the first two configs, in path
 * order, that have it.  rtm_states_finish keeps each path's answer while
 * it makes the lines, as most of a mod's states share a few parents that
 * no config of the mod has (class X: GestureGo), each of which would be
 * looked for in every config, for every state.  An open-addressing table,
 * at most half full, of paths in any case (the game's names are). */
struct parent_memo {
    struct parent_answer {
        uint64_t hash;          /* of the path; 0: a free slot */
        char *path;
        size_t cfg[2];          /* SIZE_MAX: none */
        long cls[2];
    } *slot;
    size_t n, cap;              /* cap: a power of two */
};

struct rtm_states {
    struct one_cfg *cfgs;
    struct parent_memo *memo;   /* during rtm_states_finish, or NULL */
    size_t ncfgs, capcfgs;
    struct line *lines;
    size_t nlines, caplines;
    size_t cfg_bytes;   /* what the configs hold (cfg mem_bytes) */
    int finished;       /* rtm_states_finish ran: the configs are gone */
};

/* Where a lookup ended: the value's entry in config cfg, or (entry -1)
 * none; inherits names the parent outside every config when the chain
 * left them. */
struct found {
    size_t cfg;
    long entry;
    const char *inherits;
};

/* ---- states_resolve.c: a value through base classes, across configs ---- */

/* The path of class cls from the root ("CfgMovesMaleSdr/States/X") into
 * out: 0, or -1 when it does not fit. */
int states_class_path(const struct cfg *c, uint32_t cls, char *out, size_t n);
/* The entry named name in class cls of config ci, or in the classes it
 * inherits, found by the game's rule (rtm(5), "Base classes"). */
struct found states_lookup(const struct rtm_states *s, size_t ci, uint32_t cls, const char *name);
/* The value a lookup found, when it is a plain value; else NULL. */
const struct cfg_value *states_value_of(const struct rtm_states *s, struct found f);
/* The memo of class paths rtm_states_finish keeps while it makes lines:
 * NULL when out of memory (resolving is then only slower). */
struct parent_memo *states_memo_new(void);
void states_memo_free(struct parent_memo *m);

#endif
