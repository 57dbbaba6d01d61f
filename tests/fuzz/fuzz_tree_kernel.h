/* fuzz_tree_kernel.h - fuzz_tree's state, and its model of what the
 * kernel holds: the numbers it was given and how many lookups of each
 * (only those are ever sent back: getattr, read, readdir, forget), with
 * what each showed when looked up, to check later answers against; the
 * hooks the tree calls (change reports, stale sizes, its log); and the
 * rule of which errors a request may give (fz_explain).  Private to
 * fuzz_tree (defined in fuzz_tree_kernel.c). */
#ifndef RTM_FUZZ_TREE_KERNEL_H
#define RTM_FUZZ_TREE_KERNEL_H

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fuzz_tree_source.h"
#include "index.h"
#include "loader.h"
#include "tree.h"

/* Bounds per input, for hundreds of inputs a second: requests, script
 * operations, numbers the kernel model keeps. */
enum { FZ_WORK = 80, FZ_MAXOPS = 32, FZ_MAXREC = 256, FZ_NAMES = 48 };

/* A number the kernel holds (the root is rec[0], never counted). */
struct fz_rec {
    uint64_t ino, parent;
    uint64_t nlookup;
    mode_t type;                /* S_IFDIR or S_IFREG */
    off_t size;                 /* a file's, when looked up */
    unsigned long epoch;        /* fz.changes when looked up */
    unsigned long stale;        /* fz.stale when looked up */
    int versioned;              /* an animation's or archive's folder or inside
                                   one: of the version looked up, whatever
                                   SOURCE does */
    int pinned;                 /* versioned, and not timed by the configs */
    int in_archive;
    int have_digest;
    uint64_t digest, len;
    char path[192];
};

struct fz {
    char dir[64], index[96];
    int fd;
    struct rtm_skeleton *skel;    /* ofp2: the loader's, and model.cfg's bones */
    struct rtm_index *ix;
    const struct rtm_store *store;  /* ix's (rtm_index_store), or NULL */
    struct rtm_loader l;
    struct rtmc *c;
    struct rtm_tree *t;
    struct rtm_tree_config cfg;
    size_t budget;
    int digits, remounted, work;
    int moved;                  /* anims/ was renamed to moved/ (a new anims/ made) */
    char render[256];
    unsigned long changes;      /* changes made to SOURCE, and reports of them */
    atomic_ulong stale;         /* numbers the tree said the index gave wrong */
    struct fz_rec rec[FZ_MAXREC];
    size_t nrec;
    char names[FZ_NAMES][NAME_MAX + 1];   /* the last listing's, for lookups */
    size_t nnames;
    int op;                     /* the script's step, for reports */
    int trace;
};

extern struct fz z;

void fz_fail(const char *fmt, ...);

void fz_quiet(void *ctx, const char *msg);

/* The tree's log: rtm_tree_free says there when the inode table was told
 * to take back more than it gave (a miscount, which it survives). */
void fz_log(void *ctx, const char *line);
int fz_watch(void *ctx, const char *dir);
int fz_nowatch(void *ctx, const char *dir);

extern const struct rtm_tree_notify fz_notify;

/* From any thread (a worker finds a wrong size too). */
void fz_stale(void *ctx, uint64_t ino, uint64_t n);

int fz_is_head(uint64_t ino);

/* Checks error rc of a request about ino (in a folder of an archive or
 * not) that was looked up at epoch. */
void fz_explain(const char *what, const char *path, long rc, uint64_t ino, unsigned long epoch,
                int in_archive);

/* ---- the kernel's numbers ---- */

struct fz_rec *fz_find(uint64_t ino);

/* The live number pick names among those of type (0: any). */
struct fz_rec *fz_pick(uint8_t pick, mode_t type);

/* What a known number must still show: its kind, and a file's size, as
 * long as SOURCE did not change (or, of one version, at all). */
void fz_same(const struct fz_rec *r, const struct stat *st, const char *what);

/* What the kernel now knows of a number outside any version: a change
 * in SOURCE may give it another state, which holds from then on. */
void fz_refresh(struct fz_rec *r, const struct stat *st);

/* Checks what a lookup (or readdirplus) gave for ino. */
void fz_check_entry(const struct rtm_tree_entry *te, const char *what);

/* Counts a lookup of name in folder parent that gave te. */
void fz_looked_up(const struct fz_rec *parent, const char *name,
                  const struct rtm_tree_entry *te);

/* Since when what number r shows may have changed: for what belongs to a
 * version, since that version was looked up (a change in SOURCE makes the
 * old one unreadable, ESTALE, whatever is still cached of it); for the
 * rest, only what changes between two requests counts. */
unsigned long fz_since(const struct fz_rec *r);

int fz_has_children(uint64_t ino);

#endif
