/* alloc_fail.h - an allocator that fails the Nth allocation, for
 * test_alloc_fail (SQLite's test harness is the model: fail every
 * allocation in turn and check that the library survives each).
 *
 * What is counted.  The program is linked with -Wl,--wrap=F for each F of
 * ALLOC_WRAP in the Makefile: malloc, calloc, realloc, free, strdup,
 * strndup, asprintf, realpath, open_memstream, opendir, fdopendir and
 * fopen, every libc function that allocates which librtmtree.a and
 * librtmcore.a call (nm -u of the archives).  --wrap rewrites the
 * references of the objects linked statically: the archives (and the
 * test's own code), never those inside the shared libraries.  So SQLite's,
 * libfuse's, cmocka's, LZO's and libc's own allocations (qsort's buffer,
 * the DIR and FILE of opendir and fopen, pthread_create's stack, vasprintf's
 * string) are neither counted nor failed; opendir, fdopendir, fopen and
 * open_memstream are counted as one allocation each (their failure is
 * ENOMEM), realpath only when it allocates (resolved NULL).
 *
 * A wrapped call is counted while af_counting is set and the calling
 * thread is not the test's own (af_exempt): the tree's sizing-ahead
 * workers are counted like the threads that call the tree.  The count is
 * atomic; with workers running, which allocation is the Nth varies from
 * run to run.  Call number af_fail_at fails (and, with af_fail_after,
 * every counted one after it): NULL (or -1) with errno ENOMEM.
 *
 * Every block the wrappers hand out, counted or not, is kept in a table of
 * live blocks with the round it was made in, so that a round can list what
 * it leaked even without LeakSanitizer; free of a block the table does
 * not hold (one libc made) just frees it.  realpath's and asprintf's
 * strings are tracked too (libc made them, our code frees them).
 *
 * Defined in tests/unit/lib/alloc_fail.c, an object of its own that only
 * test_alloc_fail links (the one program linked with --wrap): its
 * __wrap_ functions call the __real_ ones, which only --wrap defines.
 */
#ifndef RTM_ALLOC_FAIL_H
#define RTM_ALLOC_FAIL_H

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
char *__real_realpath(const char *path, char *resolved);
FILE *__real_open_memstream(char **ptr, size_t *size);
DIR *__real_opendir(const char *name);
DIR *__real_fdopendir(int fd);
FILE *__real_fopen(const char *path, const char *mode);

void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);
int __wrap_asprintf(char **out, const char *fmt, ...);
char *__wrap_realpath(const char *path, char *resolved);
FILE *__wrap_open_memstream(char **ptr, size_t *size);
DIR *__wrap_opendir(const char *name);
DIR *__wrap_fdopendir(int fd);
FILE *__wrap_fopen(const char *path, const char *mode);

extern atomic_uint_fast64_t af_seq;        /* counted calls so far */
extern atomic_uint_fast64_t af_fail_at;    /* 0: fail none */
extern atomic_int af_fail_after;           /* and every counted call after it */
extern atomic_int af_counting;
extern atomic_uint_fast64_t af_failed;     /* calls failed (all rounds) */
extern atomic_int af_verbose;              /* print a backtrace of each failure */
extern atomic_uint_fast64_t af_failed_off_main;    /* of which on other threads */
extern pthread_t af_main;                  /* the thread that calls the tree */
extern unsigned af_round;                  /* the round new blocks belong to */

/* Distinct call sites failed (the return address into rtmfs's code): in
 * all, and since af_case_sites was last emptied. */
enum { AF_SITES_MAX = 4096 };
struct af_siteset {
    uintptr_t site[AF_SITES_MAX];
    size_t n;
};
extern struct af_siteset af_sites, af_case_sites;
/* The site of each counted call of a round that fails none (the
 * reference round): af_ref_site[N - 1] for call N, the first AF_REF_MAX. */
enum { AF_REF_MAX = 1u << 15 };
extern uintptr_t af_ref_site[AF_REF_MAX];
/* The stack of the round's Nth call (the first it failed), to group the
 * rounds that went wrong by where they failed. */
enum { AF_FRAMES = 8 };
extern void *af_nth[AF_FRAMES];
extern int af_nnth;

/* The live blocks: open addressing, linear probing, under af_lock. */
enum { AF_SLOTS = 1u << 18 };
struct af_block {
    void *p;
    uintptr_t site;
    uint64_t seq;                          /* its count, 0: not counted */
    unsigned round;
};

/* Frames p[0..n) on stderr, each on a line of its own as "  FUNCTION at
 * FILE:LINE" (addr2line on the program; ASan's symbolizer under it). */
void af_print_frames(void *const *p, int n);

/* Prints (up to max of) the blocks of round r still live; their count. */
size_t af_leaks(unsigned r, size_t max);

/* ---- crashes and hangs ---- */

/* The round running, for the message a crash or a hang (SIGALRM: the
 * caller's watchdog) prints before the program dies as it would have. */
extern volatile uint64_t af_crash_n;
extern volatile int af_crash_persist;

void af_catch_crashes(void);

#define AF_SITE ((uintptr_t)__builtin_return_address(0))

void *__wrap_malloc(size_t n);

void *__wrap_calloc(size_t n, size_t m);

/* A failed realloc leaves p as it was, as the real one does. */
void *__wrap_realloc(void *p, size_t n);

void __wrap_free(void *p);

char *__wrap_strdup(const char *s);

char *__wrap_strndup(const char *s, size_t n);

int __wrap_asprintf(char **out, const char *fmt, ...);

char *__wrap_realpath(const char *path, char *resolved);

FILE *__wrap_open_memstream(char **ptr, size_t *size);

DIR *__wrap_opendir(const char *name);

DIR *__wrap_fdopendir(int fd);

FILE *__wrap_fopen(const char *path, const char *mode);

#endif
