/* states_int.h - what states.c and the other states_*.c share: the
 * table's insides.  Not for other modules: states.h is the contract. */
#ifndef RTM_STATES_INT_H
#define RTM_STATES_INT_H

#include "skeleton.h"
#include "states.h"

enum { GP_MAX = RTM_STATES_KEY_MAX, CLASS_PATH_MAX = 1024 };

/* A class of a config as the sets group it (struct class_sets): its
 * entry and its path from the root, with the path's hash (ASCII case
 * folded).  Made when the config is prepared (on a walk's reader
 * threads: rtm_states_prepare), read when the table is finished. */
struct class_path {
    uint32_t entry;
    uint64_t hash;
    const char *path;           /* in the config's block of paths */
};

struct one_cfg {
    struct cfg *c;
    char *rel;
    struct rtm_buf skeletons;   /* its CfgSkeletons classes, as
                                   rtm_skeleton_cfg_classes writes them (empty:
                                   none), until the table is finished */
    struct class_path *classes; /* every class a lookup can find (not one a
                                   later member of its name hides), until
                                   the table is finished */
    size_t nclasses;
    char *paths;                /* their paths' one block */
    size_t class_bytes;         /* what classes and paths hold */
    /* the key (rtm_states_key) of each `file` member that is a string
     * naming a game path, made when the config is prepared, as classes:
     * where in keys it starts + 1, by entry (0: none); kept with c */
    uint32_t *file_key;
    char *keys;
    size_t key_bytes;           /* what file_key and keys hold */
};

/* The root check.txt (states_check.c): what the configs said, kept when
 * the table is finished.  A finding's order is its code's, then its
 * config's place in path order, then the class's entry, then seq. */
struct check_finding {
    char *text;                 /* "CONFIG: CLASS_PATH: message" */
    size_t cfg;
    uint32_t entry, seq;
    unsigned code;              /* enum check_code */
};
/* What a finding says, in the order check.txt writes them. */
enum check_code {
    CODE_BONE, CODE_NAME, CODE_PAIRS, CODE_IK, CODE_MASK_BONE, CODE_NAME_GAME, CODE_SKELETON,
    NCODES
};
/* A state whose file's bones are compared with its class's skeleton when
 * check.txt is made (they are the animation's, not the configs'). */
struct check_bones {
    /* its strings share one block, key first
     * (states_check_bones_strings): 20,000 states of a big install, 3
     * allocations each otherwise */
    char *key;                  /* the file's game path, as states.txt's lines */
    uint64_t key_hash;          /* states_key_hash(key): its group's slot
                                   (states_skeleton.c), hashed once */
    char *where;                /* "CONFIG: CLASS_PATH" */
    char *file;                 /* as the config writes it */
    size_t cfg, skel;           /* skel: its place in states_check.skel */
    uint32_t entry;
};
struct check_skel {
    char *name;                 /* the CfgSkeletons class */
    struct rtm_skeleton *s;
    int game;                   /* no config under SOURCE defines it: the
                                   game's own OFP2_ManSkeleton, which is
                                   rtmfs's built-in ofp2 (states_check.c) */
};
struct states_check {
    struct check_finding *f;
    size_t nf, capf;
    struct check_bones *b;
    size_t nb, capb;
    struct check_skel *k;
    size_t nk, capk;
    uint32_t *by_key;           /* b's indices grouped by their keys, each
                                   group in states.txt's order
                                   (states_skeleton.c) */
    uint32_t *key_slot;         /* by key's hash: where a group starts in
                                   by_key + 1 (0: free); key_mask + 1 slots */
    size_t key_mask;
    int any_source;             /* some state of b has a skeleton found under
                                   SOURCE (not game): states_skeleton.c */
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

/* The classes the game merges into one: those of one path (ASCII case
 * ignored) in several configs.  rtm_states_finish groups every class of
 * every config so before it looks up a state (and keeps the groups until
 * the lines are made: rtm_states_lines_make), so that a lookup never
 * builds a path (each state's path looked for in every config took 5
 * times the walk's own time over 80 configs).  set_of[config][entry] is
 * the class's set + 1 (0: no class, or one a later member of its name
 * hides, as cfg_member would); a set lists its classes in path order. */
struct class_sets {
    uint32_t **set_of;
    struct class_ref *refs;     /* every set's classes (set[].at), one block */
    /* each class's base across configs, once found (states_resolve.c's
     * base_across: it does not depend on the member looked for) */
    struct class_base {
        uint32_t state;         /* 0 not yet, else base_across's answer + 2 */
        uint32_t cls;
        size_t cfg;
    } **base;
    struct class_set {
        size_t n;
        struct class_ref {
            size_t cfg;
            long cls;
        } *at;
        /* the classes among the set's members, by name (ASCII case
         * ignored): the first config's in path order, the last of a name
         * in it; made at the first lookup in a set of more than one */
        struct class_ref *classes;
        size_t cap;                 /* a power of two; 0: not made */
        /* every member of the set's classes by name (ASCII case ignored),
         * as cfg_member finds it in each: the first two in path order,
         * each of another config (a config has one class of a path), so
         * that a lookup of a member elsewhere than one config asks one
         * table, not every config's class (400 configs that all extend
         * CfgMovesMaleSdr/States took 4 s so); made at the first such
         * lookup in a set of more than one */
        struct member_ref {
            struct class_ref first, second;     /* cls -1: none */
        } *members;
        size_t capmembers;          /* a power of two; 0: not made */
    } *set;
    size_t nset, capset;
};

struct rtm_states {
    struct one_cfg *cfgs;
    struct class_sets *sets;    /* from rtm_states_finish until the lines are
                                   made, or NULL */
    size_t ncfgs, capcfgs;
    struct line *lines;
    size_t nlines, caplines;
    size_t nstates;     /* the states the configs hold, found when finished */
    size_t cfg_bytes;   /* what the configs hold (cfg mem_bytes) */
    int finished;       /* rtm_states_finish ran */
    int lines_later;    /* rtm_states_lines_later: finish leaves the lines
                           (and keeps the configs and sets for them) */
    int lines_made;     /* every line is made: the configs are gone */
    int check_later;    /* finished without the check's findings */
    struct rtm_skeleton *ofp2;  /* the built-in, for every config's
                                   CfgSkeletons, once (or NULL) */
    struct states_check check;
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
 * inherits, found by the game's rule (rtm(5), "Base classes").  merged:
 * a class's member may also come from another config's class of the same
 * path, as the game merges them (the root check.txt); 0: from the class
 * as its config writes it (states.txt's lines, one a config). */
struct found states_lookup(const struct rtm_states *s, size_t ci, uint32_t cls, const char *name,
                           int merged);
/* The class named name that class cls of config ci sees as a member (in
 * any config, at its path, else in what it inherits): 0 with its config
 * and entry, or -1. */
int states_member_class(const struct rtm_states *s, size_t ci, uint32_t cls, const char *name,
                        size_t *cj, long *out);
/* The value a lookup found, when it is a plain value; else NULL. */
const struct cfg_value *states_value_of(const struct rtm_states *s, struct found f);
/* The classes of config c the sets group (struct class_path) into oc: 0,
 * or -1 when memory ran out.  Only reads c: on any thread. */
int states_class_paths(const struct cfg *c, struct one_cfg *oc);
void states_class_paths_free(struct one_cfg *oc);
/* Groups every class of s's configs by path (struct class_sets), from
 * their class paths: NULL when out of memory. */
struct class_sets *states_sets_new(const struct rtm_states *s);
void states_sets_free(struct class_sets *x, size_t ncfgs);
/* Forgets the bases the lookups found (struct class_base), as if x were
 * new: a lookup that a bound (WALK_PATHS, the depth) cuts short may end
 * otherwise after another lookup remembered a base, so the lines, made
 * after the check when they come later, are looked up as in a table
 * that makes them first. */
void states_sets_forget(struct class_sets *x, size_t ncfgs);

/* ---- states_visit.c: the states of the configs ---- */

/* The keys of config c's `file` members into oc (struct one_cfg): 0, or
 * -1 when memory ran out.  Only reads c: on any thread. */
int states_file_keys(const struct cfg *c, struct one_cfg *oc);
void states_file_keys_free(struct one_cfg *oc);

/* A state of config ci, as states_each gives it: its class, its file's
 * key and its file (a string). */
typedef int states_each_fn(void *ctx, size_t ci, uint32_t cls, const char *key,
                           const struct cfg_value *file);
/* Calls fn for every state of config ci (the classes of each root class's
 * States whose file, found as its line finds it, is a string that is a
 * game path), in file order: 0, or fn's first nonzero return. */
int states_each(const struct rtm_states *s, size_t ci, states_each_fn *fn, void *ctx);
/* A state, as the check reads it: its file's key (as its line's), the
 * file as written (flen bytes), its config's place in path order, its
 * entry. */
struct state_ref {
    const char *key, *file;
    size_t flen, cfg;
    uint32_t entry;
};
typedef int states_visit_fn(void *ctx, const struct state_ref *r);
/* Calls fn with every state of s's configs (not those of configs given
 * lines) in the order their lines are made (the configs' path order, then
 * file order): from the lines when they are made first (finish without
 * rtm_states_lines_later), else from the configs.  0, or fn's first
 * nonzero return. */
int states_visit(const struct rtm_states *s, states_visit_fn *fn, void *ctx);

/* ---- states_check.c: the root check.txt ---- */

/* Whether a member of that name is one the checks read (kept when a
 * config is added): skeletonName, and with checks the findings' too. */
int states_check_reads(const char *name, int checks);
/* Finds what the configs say wrong (unless the check comes later: then
 * the skeleton of each state alone), of every state states_visit gives,
 * and counts them (nstates), before the configs go: 0, or -1 out of
 * memory. */
int states_check_collect(struct rtm_states *s);
/* b's three strings in one block, key first, where made of its parts
 * ("REL: PATH", no printf; where2 NULL: where1 alone), and its key's
 * hash: 0, or -1 when memory ran out.  The check's, and the index's when
 * it gives the check back (states_check_pack.c). */
int states_check_bones_strings(struct check_bones *b, const char *key, size_t nk,
                               const char *where1, size_t nw1, const char *where2,
                               size_t nw2, const char *file, size_t nf);
/* The hash of key (n bytes) that groups states by their file
 * (states_skeleton.c): a word at a time. */
uint64_t states_key_hash(const char *key, size_t n);
void states_check_free(struct states_check *k);

/* ---- states_skeleton.c: the skeleton that plays a file ---- */

/* Orders the check's states by their file's key, once they are all
 * known: 0, or -1 out of memory. */
int states_skeleton_index(struct states_check *k);

#endif
