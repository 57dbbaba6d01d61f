/* alloc_fail.c - what alloc_fail.h declares, compiled once; linked into
 * test_alloc_fail alone, the program linked with --wrap. */
#include "alloc_fail.h"


atomic_uint_fast64_t af_seq;
atomic_uint_fast64_t af_fail_at;
atomic_int af_fail_after;
atomic_int af_counting;
atomic_uint_fast64_t af_failed;
atomic_int af_verbose;
atomic_uint_fast64_t af_failed_off_main;
static _Thread_local int af_exempt;        /* the test's own calls */
pthread_t af_main;
unsigned af_round;
struct af_siteset af_sites, af_case_sites;
uintptr_t af_ref_site[AF_REF_MAX];
void *af_nth[AF_FRAMES];
int af_nnth;
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
void af_print_frames(void *const *p, int n)
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
    if (!at && n <= AF_REF_MAX)
        af_ref_site[n - 1] = site;
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
size_t af_leaks(unsigned r, size_t max)
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

/* The round running, for the message a crash or a hang (SIGALRM: the
 * caller's watchdog) prints before the program dies as it would have. */
volatile uint64_t af_crash_n;
volatile int af_crash_persist;

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

void af_catch_crashes(void)
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
