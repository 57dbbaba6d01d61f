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
 * Included by exactly one program: it defines the __wrap_ functions.
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

static atomic_uint_fast64_t af_seq;        /* counted calls so far */
static atomic_uint_fast64_t af_fail_at;    /* 0: fail none */
static atomic_int af_fail_after;           /* and every counted call after it */
static atomic_int af_counting;
static atomic_uint_fast64_t af_failed;     /* calls failed (all rounds) */
static atomic_int af_verbose;              /* print a backtrace of each failure */
static atomic_uint_fast64_t af_failed_off_main;    /* of which on other threads */
static _Thread_local int af_exempt;        /* the test's own calls */
static pthread_t af_main;                  /* the thread that calls the tree */
static unsigned af_round;                  /* the round new blocks belong to */

/* Distinct call sites failed (the return address into rtmfs's code): in
 * all, and since af_case_sites was last emptied. */
enum { AF_SITES_MAX = 4096 };
struct af_siteset {
    uintptr_t site[AF_SITES_MAX];
    size_t n;
};
static struct af_siteset af_sites, af_case_sites;
/* The stack of the round's Nth call (the first it failed), to group the
 * rounds that went wrong by where they failed. */
enum { AF_FRAMES = 8 };
static void *af_nth[AF_FRAMES];
static int af_nnth;

/* The live blocks: open addressing, linear probing, under af_lock. */
enum { AF_SLOTS = 1u << 18 };
struct af_block {
    void *p;
    uintptr_t site;
    uint64_t seq;                          /* its count, 0: not counted */
    unsigned round;
};
static struct af_block af_live[AF_SLOTS];
static size_t af_nlive;
static pthread_mutex_t af_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t af_slot(const void *p)
{
    uintptr_t h = (uintptr_t)p >> 4;
    h ^= h >> 17;
    h *= 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 20) & (AF_SLOTS - 1);
}

static void af_note_site(struct af_siteset *set, uintptr_t site)
{
    for (size_t i = 0; i < set->n; i++)
        if (set->site[i] == site)
            return;
    if (set->n < AF_SITES_MAX)
        set->site[set->n++] = site;
}

/* The calling thread's stack on stderr, with files and lines (plain
 * build: addr2line on the program's own frames). */
static void af_backtrace(void)
{
#if defined(__SANITIZE_ADDRESS__)
    __sanitizer_print_stack_trace();
#else
    void *frames[32];
    char cmd[1024];
    int n = backtrace(frames, 32);
    size_t len = (size_t)snprintf(cmd, sizeof cmd, "addr2line -f -i -p -e /proc/%d/exe",
                                  (int)getpid());
    for (int i = 1; i < n && len < sizeof cmd - 24; i++) {
        Dl_info info;
        if (dladdr(frames[i], &info) && info.dli_fbase && !strstr(info.dli_fname, ".so"))
            len += (size_t)snprintf(cmd + len, sizeof cmd - len, " %#lx",
                                    (unsigned long)((char *)frames[i] - (char *)info.dli_fbase - 1));
    }
    fflush(stderr);
    if (system(cmd) != 0)
        backtrace_symbols_fd(frames, n, 2);
#endif
}

/* Frames p[0..n) on stderr, each on a line of its own as "  FUNCTION at
 * FILE:LINE" (addr2line on the program; ASan's symbolizer under it). */
static void af_print_frames(void *const *p, int n)
{
    fflush(stderr);
    for (int i = 0; i < n; i++) {
#if defined(__SANITIZE_ADDRESS__)
        char line[512];
        __sanitizer_symbolize_pc(p[i], "%f at %s:%l", line, sizeof line);
        fprintf(stderr, "    %s\n", line);
#else
        Dl_info info;
        char cmd[256];
        if (!dladdr(p[i], &info) || !info.dli_fbase || strstr(info.dli_fname, ".so"))
            continue;
        snprintf(cmd, sizeof cmd, "addr2line -f -i -p -e /proc/%d/exe %#lx | sed 's/^/    /'",
                 (int)getpid(), (unsigned long)((char *)p[i] - (char *)info.dli_fbase - 1));
        if (system(cmd) != 0)
            backtrace_symbols_fd(&p[i], 1, 2);
#endif
    }
}

/* Counts a call from site; whether it must fail. */
static int af_fail(uintptr_t site, uint64_t *seq)
{
    *seq = 0;
    if (!atomic_load(&af_counting) || af_exempt)
        return 0;
    uint64_t n = atomic_fetch_add(&af_seq, 1) + 1, at = atomic_load(&af_fail_at);
    *seq = n;
    if (!at || n < at || (n > at && !atomic_load(&af_fail_after)))
        return 0;
    atomic_fetch_add(&af_failed, 1);
    if (!pthread_equal(pthread_self(), af_main))
        atomic_fetch_add(&af_failed_off_main, 1);
    pthread_mutex_lock(&af_lock);
    af_note_site(&af_sites, site);
    af_note_site(&af_case_sites, site);
    pthread_mutex_unlock(&af_lock);
    if (n == at) {
        af_exempt = 1;
        af_nnth = backtrace(af_nth, AF_FRAMES);
        for (int i = 0; i < af_nnth; i++)          /* from the wrapper's caller on */
            if (af_nth[i] == (void *)site) {
                memmove(af_nth, af_nth + i, (size_t)(af_nnth - i) * sizeof af_nth[0]);
                af_nnth -= i;
                break;
            }
        af_exempt = 0;
    }
    if (atomic_load(&af_verbose) && n == at) {      /* the first of the round */
        af_exempt = 1;
        fprintf(stderr, "alloc_fail: failing allocation %llu, from:\n", (unsigned long long)n);
        af_backtrace();
        af_exempt = 0;
    }
    errno = ENOMEM;
    return 1;
}

static void af_track(void *p, uintptr_t site, uint64_t seq)
{
    if (!p)
        return;
    pthread_mutex_lock(&af_lock);
    size_t i = af_slot(p);
    while (af_live[i].p)
        i = (i + 1) & (AF_SLOTS - 1);
    af_live[i] = (struct af_block){ p, site, seq, af_exempt ? 0 : af_round };
    if (++af_nlive > AF_SLOTS / 2) {
        fprintf(stderr, "alloc_fail: more than %u live blocks\n", AF_SLOTS / 2);
        abort();
    }
    pthread_mutex_unlock(&af_lock);
}

/* Forgets block p (backward-shift deletion keeps the probe runs whole). */
static void af_untrack(void *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&af_lock);
    size_t i = af_slot(p);
    while (af_live[i].p && af_live[i].p != p)
        i = (i + 1) & (AF_SLOTS - 1);
    if (af_live[i].p) {
        af_nlive--;
        for (size_t j = (i + 1) & (AF_SLOTS - 1); af_live[j].p; j = (j + 1) & (AF_SLOTS - 1)) {
            size_t home = af_slot(af_live[j].p);
            /* j's entry may move to i when its home is not in (i, j] */
            if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
                af_live[i] = af_live[j];
                i = j;
            }
        }
        af_live[i].p = NULL;
    }
    pthread_mutex_unlock(&af_lock);
}

/* Prints (up to max of) the blocks of round r still live; their count. */
static size_t af_leaks(unsigned r, size_t max)
{
    size_t n = 0;
    pthread_mutex_lock(&af_lock);
    for (size_t i = 0; i < AF_SLOTS; i++) {
        const struct af_block *b = &af_live[i];
        if (!b->p || b->round != r)
            continue;
        if (n++ < max) {
            void *site = (void *)b->site;
            fprintf(stderr, "alloc_fail: leaked block %p, allocation %llu, from ", b->p,
                    (unsigned long long)b->seq);
            backtrace_symbols_fd(&site, 1, 2);
        }
    }
    pthread_mutex_unlock(&af_lock);
    return n;
}

/* ---- crashes and hangs ---- */

/* The round running, for the message a crash or a hang (SIGALRM: the
 * caller's watchdog) prints before the program dies as it would have. */
static volatile uint64_t af_crash_n;
static volatile int af_crash_persist;

static void af_on_crash(int sig)
{
    char msg[160];
    int n = snprintf(msg, sizeof msg, "\nalloc_fail: %s in round N=%llu%s: rerun with "
                     "RTMFS_FAIL_ALLOC=%llu\n", sig == SIGALRM ? "HANG" : "CRASH",
                     (unsigned long long)af_crash_n, af_crash_persist ? " (persistent)" : "",
                     (unsigned long long)af_crash_n);
    if (write(2, msg, (size_t)n) < 0)
        _exit(99);
    signal(sig == SIGALRM ? SIGABRT : sig, SIG_DFL);
    raise(sig == SIGALRM ? SIGABRT : sig);
}

#if defined(__SANITIZE_ADDRESS__)
static void af_on_sanitizer_death(void)
{
    af_on_crash(0);
}
#endif

static void af_catch_crashes(void)
{
#if defined(__SANITIZE_ADDRESS__)
    __asan_set_death_callback(af_on_sanitizer_death);     /* ASan keeps SIGSEGV */
#else
    static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], af_on_crash);
#endif
    signal(SIGALRM, af_on_crash);
}

#define AF_SITE ((uintptr_t)__builtin_return_address(0))

void *__wrap_malloc(size_t n)
{
    uint64_t seq;
    if (af_fail(AF_SITE, &seq))
        return NULL;
    void *p = __real_malloc(n);
    af_track(p, AF_SITE, seq);
    return p;
}

void *__wrap_calloc(size_t n, size_t m)
{
    uint64_t seq;
    if (af_fail(AF_SITE, &seq))
        return NULL;
    void *p = __real_calloc(n, m);
    af_track(p, AF_SITE, seq);
    return p;
}

/* A failed realloc leaves p as it was, as the real one does. */
void *__wrap_realloc(void *p, size_t n)
{
    uint64_t seq;
    if (af_fail(AF_SITE, &seq))
        return NULL;
    af_untrack(p);
    void *q = __real_realloc(p, n);
    if (q || n)                            /* realloc(p, 0) may free p */
        af_track(q ? q : p, AF_SITE, seq);
    return q;
}

void __wrap_free(void *p)
{
    af_untrack(p);
    __real_free(p);
}

char *__wrap_strdup(const char *s)
{
    uint64_t seq;
    if (af_fail(AF_SITE, &seq))
        return NULL;
    char *p = __real_strdup(s);
    af_track(p, AF_SITE, seq);
    return p;
}

char *__wrap_strndup(const char *s, size_t n)
{
    uint64_t seq;
    if (af_fail(AF_SITE, &seq))
        return NULL;
    char *p = __real_strndup(s, n);
    af_track(p, AF_SITE, seq);
    return p;
}

int __wrap_asprintf(char **out, const char *fmt, ...)
{
    uint64_t seq;
    if (af_fail(AF_SITE, &seq))
        return -1;
    va_list ap;
    va_start(ap, fmt);
    int rc = vasprintf(out, fmt, ap);
    va_end(ap);
    if (rc >= 0)
        af_track(*out, AF_SITE, seq);
    return rc;
}

char *__wrap_realpath(const char *path, char *resolved)
{
    uint64_t seq;
    if (resolved)
        return __real_realpath(path, resolved);
    if (af_fail(AF_SITE, &seq))
        return NULL;
    char *p = __real_realpath(path, NULL);
    af_track(p, AF_SITE, seq);
    return p;
}

FILE *__wrap_open_memstream(char **ptr, size_t *size)
{
    uint64_t seq;
    return af_fail(AF_SITE, &seq) ? NULL : __real_open_memstream(ptr, size);
}

DIR *__wrap_opendir(const char *name)
{
    uint64_t seq;
    return af_fail(AF_SITE, &seq) ? NULL : __real_opendir(name);
}

DIR *__wrap_fdopendir(int fd)
{
    uint64_t seq;
    return af_fail(AF_SITE, &seq) ? NULL : __real_fdopendir(fd);
}

FILE *__wrap_fopen(const char *path, const char *mode)
{
    uint64_t seq;
    return af_fail(AF_SITE, &seq) ? NULL : __real_fopen(path, mode);
}

#endif
