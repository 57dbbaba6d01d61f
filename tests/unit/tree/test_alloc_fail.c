/* make check: long (started first: tests/run.sh) */
/* test_alloc_fail.c - the tree survives every allocation failing, without
 * FUSE (SQLite's harness of failed allocations is the model).
 *
 * Contract.  A SOURCE made by the project's writers holds plain and BMTR
 * animations (a/, four, for the workers to size ahead), an archive with
 * both kinds and a rapified config inside (mod.pbo, one entry LZSS), a
 * text config (cfg/config.cpp) and a rapified one (bin/config.bin, shown
 * as config.cpp under show_other) in $PBOPREFIX$ folders, whose states
 * play some of the animations and name one that is missing, and loose
 * text files.  The walk looks up (from the root, name by name, as the kernel
 * does, then forgets), stats, lists (with readdirplus's attributes) or
 * reads every path a first, fault-free walk of a fresh mount found: every
 * view, states.txt, missing.txt, pbo.txt, the configs' text.
 *
 * A round is: a fresh mount (a cache over the loader, a tree over both,
 * show_other), the walk, then with failures off the walk again on the same
 * tree, then the unmount.  Allocations are counted (alloc_fail.h says
 * which: those of rtmfs's own code, the test's and the libraries' not)
 * during the mount, the first walk and the unmount; the reference round
 * counts K of them.  Round N fails the Nth (single), or the Nth and every
 * later one (persistent).  The Ns are chosen by where the reference's
 * allocations were made (the site: the return address into rtmfs's code):
 * each site's first and last call (persistent: its first), which fails
 * every site the walk reaches, in its first state and in a later one,
 * then SPREAD more Ns evenly over the rest (RTMFS_ALLOC_ALL=1: every
 * N).  Most of K is a few sites called over and over (a list grown, a
 * name copied), so failing every N up to a bound, as this test did
 * before, spent most rounds on sites already failed.  The glTF tree's
 * spread is a quarter; a sanitizer build's half.
 *
 * What must hold in every round:
 *  - the first walk answers each call as the reference did, or with an
 *    error: a negative errno, a listing that shows error.txt, bytes that
 *    say "memory"; nothing else (a wrong answer);
 *  - the second walk answers exactly as the reference (an out-of-memory
 *    kept in a cache would show here: sticky);
 *  - after the unmount no block allocated in the round is live (leaks,
 *    from the wrappers' table; LeakSanitizer too under SANITIZE=1), and as
 *    many file descriptors are open as before (none left open, none closed
 *    that the round did not open);
 *  - no crash (a signal prints the round's N), no hang (a watchdog).
 * Cases: single and persistent with ahead=0 (deterministic: the Nth
 * allocation is the same in every run), and single with ahead=1, whose
 * sizing workers are counted and failed too (their timing moves the Nth
 * around, so that case proves survival rather than covering each site).
 *
 * A sweep that found trouble lists it by the stack of the allocation
 * failed (its first round's N and how many rounds), after the first few
 * answers of each kind that went wrong.  RTMFS_FAIL_ALLOC=N runs round N
 * alone, printing the failed allocation's backtrace and every answer that
 * was not the reference's; RTMFS_ALLOC_FROM=N starts the sweep at N. */
#include "testutil.h"
#include "alloc_fail_trees.h"
#include "tree_testutil.h"
#include "alloc_fail.h"

#include <time.h>


/* Under AddressSanitizer (make check SANITIZE=1) a round takes three
 * times as long: half the spread there; the plain build's is the full
 * one.  Every site is failed in both. */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED_SHARE 2
#else
#define SANITIZED_SHARE 1
#endif

enum {
    NODES_MAX = 400,
    FILE_MAX = 1 << 17,         /* the largest file of the walk, with room */
    LIST_MAX = 1 << 14,
    SPREAD = 400,               /* rounds spread evenly, beside each site's */
    SITE_SLOTS = 1 << 12,       /* the plan's table of sites (AF_SITES_MAX) */
    WATCHDOG_S = 60,
    SHOW = 3,                   /* problems printed a kind, in a sweep */
};

/* One path of the walk and its reference answers. */
struct node {
    char path[192];
    struct rtm_tree_entry te;
    char *data;                 /* a folder's listing, a file's bytes */
    size_t len;
};

struct tally {
    uint64_t rounds, ok, enomem, eio, enoent, eother, substitutes;
    uint64_t wrong, sticky, leaks, fdleaks, mount_failed;
};

struct sweep {
    struct tree_fixture f;
    struct node n[NODES_MAX];
    size_t nn;
    int ahead;
    struct tally t;
    int verbose;
    uint64_t spread;            /* SPREAD, or the glTF tree's quarter */
    uint64_t n_now;             /* the round's N (0: none) */
    int exact;                  /* the walk after failures: the reference's only */
    uint64_t ahead_sized;       /* versions the workers sized in the reference round */
    char buf[FILE_MAX];         /* what a read or listing gave */
};

/* The rounds that went wrong, by the stack of their first failed
 * allocation (its innermost frames). */
enum { PROBLEMS_MAX = 64, KEY_FRAMES = 4 };
enum { P_WRONG = 1, P_STICKY = 2, P_LEAK = 4, P_FDLEAK = 8 };
struct problem {
    void *key[KEY_FRAMES];
    uint64_t first_n, rounds;
    unsigned kinds;
};
static struct problem problems[PROBLEMS_MAX];
static size_t nproblems;

/* ---- mounting ---------------------------------------------------------- */

/* A cache and a tree as rtmfs makes them (tree_testutil.h's, without its
 * asserts: here they may fail).  0 or -ENOMEM. */
static int mount_tree(struct sweep *s)
{
    struct tree_fixture *f = &s->f;
    f->l = (struct rtm_loader){ .srcfd = f->fd, .skel = f->skel, .digits = RTM_DIGITS_EXACT,
                                .model_cfg = 1 };
    f->c = f->l.cache = rtmc_new(64u << 20, rtm_loader_load, &f->l);
    if (!f->c)
        return -ENOMEM;
    struct rtm_tree_config cfg = { .srcfd = f->fd, .cache = f->c, .show_other = 1,
                                   .ahead = s->ahead };
    f->t = rtm_tree_new(&cfg);
    if (!f->t) {
        rtmc_free(f->c);
        f->c = NULL;
        return -ENOMEM;
    }
    return 0;
}

static void unmount_tree(struct sweep *s)
{
    rtm_tree_free(s->f.t);
    rtmc_free(s->f.c);
    s->f.t = NULL;
    s->f.c = NULL;
}

/* File descriptors open, counted without allocating. */
static int count_fds(void)
{
    int n = 0;
    for (int fd = 0; fd < 256; fd++)
        n += fcntl(fd, F_GETFD) != -1;
    return n;
}

/* ---- one walk ---------------------------------------------------------- */

/* Looks path up name by name from the root; the numbers looked up go to
 * looked (to be forgotten).  0 or -errno. */
static int lookup(struct sweep *s, const char *path, struct rtm_tree_entry *out,
                  uint64_t *looked, size_t *nlooked)
{
    char buf[192], *save = NULL;
    snprintf(buf, sizeof buf, "%s", path);
    *nlooked = 0;
    if (!*path)
        return rtm_tree_getattr(s->f.t, RTM_INO_ROOT, out);
    uint64_t ino = RTM_INO_ROOT;
    for (char *c = strtok_r(buf, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
        int rc = rtm_tree_lookup(s->f.t, ino, c, out);
        if (rc)
            return rc;
        looked[(*nlooked)++] = ino = out->ino;
    }
    return 0;
}

static void forget_all(struct sweep *s, const uint64_t *looked, size_t n)
{
    for (size_t i = 0; i < n; i++)
        rtm_tree_forget(s->f.t, looked[i], 1);
}

/* A folder's listing as text, "NAME INO TYPE" a line, into s->buf. */
static int list_text(struct sweep *s, uint64_t ino, size_t *len)
{
    struct rtm_dirlist *d;
    int rc = rtm_tree_listing(s->f.t, ino, 0, &d);
    if (rc)
        return rc;
    size_t n = 0;
    for (size_t i = 2; i < d->n && n < LIST_MAX; i++)
        n += (size_t)snprintf(s->buf + n, LIST_MAX - n, "%s %llx %o\n", d->e[i].name,
                              (unsigned long long)d->e[i].ino, (unsigned)d->e[i].type);
    rtm_tree_listing_put(s->f.t, d);
    *len = n;
    return 0;
}

/* A file read whole in pieces of 4 KiB into s->buf. */
static int read_whole(struct sweep *s, uint64_t ino, size_t *len)
{
    size_t n = 0;
    ssize_t got;
    while (n < FILE_MAX &&
           (got = rtm_tree_read(s->f.t, ino, s->buf + n, FILE_MAX - n < 4096 ? FILE_MAX - n : 4096,
                                (off_t)n)) > 0)
        n += (size_t)got;
    if (n < FILE_MAX && got < 0)
        return (int)got;
    *len = n;
    return 0;
}

static int same_entry(const struct rtm_tree_entry *a, const struct rtm_tree_entry *b)
{
    return a->ino == b->ino && a->st.st_mode == b->st.st_mode && a->st.st_size == b->st.st_size &&
           a->st.st_mtim.tv_sec == b->st.st_mtim.tv_sec;
}

/* What an answer was. */
enum verdict { V_OK, V_ERRNO, V_SUBSTITUTE, V_WRONG };

static void say(struct sweep *s, enum verdict v, const struct node *nd, const char *op,
                const char *detail)
{
    static const char *const kinds[] = { "ok", "error", "error-like answer", "WRONG" };
    uint64_t count = s->exact ? s->t.sticky : v == V_WRONG ? s->t.wrong : s->t.substitutes;
    if (!s->verbose && (v == V_ERRNO || count >= SHOW))
        return;
    fprintf(stderr, "alloc_fail: N=%llu%s ahead=%d: %s \"%s\": %s%s %s\n",
            (unsigned long long)s->n_now, af_crash_persist ? "+" : "", s->ahead, op, nd->path,
            s->exact ? "after failures, STICKY " : "", kinds[v], detail);
}

/* Tallies an answer (rc a negative errno or 0 with verdict v). */
static void judge(struct sweep *s, int rc, enum verdict v, const struct node *nd, const char *op)
{
    char detail[64] = "";
    if (rc < 0) {
        v = V_ERRNO;
        snprintf(detail, sizeof detail, "(%s)", strerror(-rc));
        *(rc == -ENOMEM ? &s->t.enomem : rc == -EIO ? &s->t.eio
          : rc == -ENOENT ? &s->t.enoent : &s->t.eother) += 1;
    }
    if (v != V_OK)
        say(s, v, nd, op, detail);
    if (s->exact && v != V_OK)
        s->t.sticky++;
    else if (v == V_OK)
        s->t.ok++;
    else if (v == V_SUBSTITUTE)
        s->t.substitutes++;
    else if (v == V_WRONG)
        s->t.wrong++;
}

/* Bytes or a listing that differ from the reference's: an error told in
 * the answer itself, or a wrong answer. */
static enum verdict differs(struct sweep *s, const struct node *nd, size_t len, int dir)
{
    if (len == nd->len && !memcmp(s->buf, nd->data, len))
        return V_OK;
    if (s->exact)
        return V_WRONG;
    if (dir)
        return memmem(s->buf, len, "error.txt ", 10) && !strstr(nd->data, "error.txt ")
                   ? V_SUBSTITUTE : V_WRONG;
    return memmem(s->buf, len, "memory", 6) ? V_SUBSTITUTE : V_WRONG;
}

/* An entry's answer judged against the reference's, saying how it differs. */
static void judge_entry(struct sweep *s, int rc, const struct rtm_tree_entry *te,
                        const struct node *nd, const char *op)
{
    char what[160];
    if (rc || same_entry(te, &nd->te)) {
        judge(s, rc, V_OK, nd, op);
        return;
    }
    snprintf(what, sizeof what, "%s: ino %llx mode %o size %lld, not %llx %o %lld", op,
             (unsigned long long)te->ino, (unsigned)te->st.st_mode, (long long)te->st.st_size,
             (unsigned long long)nd->te.ino, (unsigned)nd->te.st.st_mode,
             (long long)nd->te.st.st_size);
    judge(s, 0, V_WRONG, nd, what);
}

/* readdirplus's attributes, where given, are the reference's. */
static void check_plus(struct sweep *s, const struct node *nd, uint64_t ino)
{
    struct rtm_dirlist *d;
    struct rtm_tree_entry te[64];
    if (rtm_tree_listing(s->f.t, ino, 0, &d))
        return;                                 /* judged by list_text */
    size_t n = d->n < 64 ? d->n : 64;
    rtm_tree_listed_entries(s->f.t, ino, d, 0, n, te);
    for (size_t i = 2; i < n; i++) {
        if (!te[i].ino)
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s%s%s", nd->path, *nd->path ? "/" : "", d->e[i].name);
        for (size_t k = 0; k < s->nn; k++)
            if (!strcmp(s->n[k].path, path))
                judge_entry(s, 0, &te[i], &s->n[k], "readdirplus");
        rtm_tree_forget(s->f.t, te[i].ino, 1);
    }
    rtm_tree_listing_put(s->f.t, d);
}

static void walk_node(struct sweep *s, const struct node *nd)
{
    struct rtm_tree_entry te;
    uint64_t looked[16];
    size_t nlooked, len = 0;
    int rc = lookup(s, nd->path, &te, looked, &nlooked);
    judge_entry(s, rc, &te, nd, "lookup");
    if (rc) {
        forget_all(s, looked, nlooked);
        return;
    }
    rc = rtm_tree_getattr(s->f.t, te.ino, &te);
    judge_entry(s, rc, &te, nd, "getattr");
    int dir = S_ISDIR(nd->te.st.st_mode);
    rc = dir ? list_text(s, nd->te.ino, &len) : read_whole(s, nd->te.ino, &len);
    enum verdict v = rc ? V_ERRNO : differs(s, nd, len, dir);
    judge(s, rc, v, nd, dir ? "readdir" : "read");
    if (s->verbose && (v == V_SUBSTITUTE || v == V_WRONG))
        fprintf(stderr, "    it gave %zu bytes: %.*s\n", len, (int)(len < 300 ? len : 300), s->buf);
    if (dir)
        check_plus(s, nd, nd->te.ino);
    forget_all(s, looked, nlooked);
}

static void walk(struct sweep *s, int exact)
{
    s->exact = exact;
    for (size_t i = 0; i < s->nn; i++)
        walk_node(s, &s->n[i]);
}

/* ---- the reference ----------------------------------------------------- */

static char *copy_out(const char *p, size_t len)
{
    char *c = __real_malloc(len + 1);
    assert_non_null(c);
    memcpy(c, p, len);
    c[len] = 0;
    return c;
}

/* Node i's answers and every path below it, depth first as du and find
 * walk: a folder's entries in listing order, each looked up (and kept
 * looked up: the kernel lists only what it holds), each folder walked
 * before the next entry. */
static void reference_below(struct sweep *s, size_t i)
{
    struct node *nd = &s->n[i];
    uint64_t looked[16];
    size_t nlooked;
    int dir = S_ISDIR(nd->te.st.st_mode);
    assert_int_equal(dir ? list_text(s, nd->te.ino, &nd->len)
                         : read_whole(s, nd->te.ino, &nd->len), 0);
    nd->data = copy_out(s->buf, nd->len);
    for (char *line = nd->data, *end; dir && *line; line = end + 1) {
        end = strchr(line, '\n');
        assert_true(s->nn < NODES_MAX);
        size_t k = s->nn++;
        struct node *c = &s->n[k];
        char path[sizeof c->path + 256];
        snprintf(path, sizeof path, "%s%s%.*s", nd->path, *nd->path ? "/" : "",
                 (int)strcspn(line, " "), line);
        assert_true(strlen(path) < sizeof c->path);
        strcpy(c->path, path);
        assert_int_equal(lookup(s, c->path, &c->te, looked, &nlooked), 0);
        reference_below(s, k);
    }
}

/* Every path of the mount, with its answers. */
static void reference(struct sweep *s)
{
    s->nn = 1;
    s->n[0].path[0] = 0;
    assert_int_equal(rtm_tree_getattr(s->f.t, RTM_INO_ROOT, &s->n[0].te), 0);
    reference_below(s, 0);
}

/* ---- rounds ------------------------------------------------------------ */

/* Files round n under the stack of its failed allocation. */
static void note_problem(uint64_t n, unsigned kinds)
{
    void *key[KEY_FRAMES] = { 0 };
    memcpy(key, af_nth, (size_t)(af_nnth < KEY_FRAMES ? af_nnth : KEY_FRAMES) * sizeof key[0]);
    size_t i = 0;
    while (i < nproblems && memcmp(problems[i].key, key, sizeof key))
        i++;
    if (i == PROBLEMS_MAX)
        return;
    if (i == nproblems)
        problems[nproblems++] = (struct problem){ .first_n = n };
    memcpy(problems[i].key, key, sizeof key);
    problems[i].rounds++;
    problems[i].kinds |= kinds;
}

static void print_problems(int persist)
{
    for (size_t i = 0; i < nproblems; i++) {
        const struct problem *p = &problems[i];
        fprintf(stderr, "alloc_fail: %s%s%s%s in %llu rounds, the first RTMFS_FAIL_ALLOC=%llu%s; "
                "the allocation failed:\n", p->kinds & P_WRONG ? " wrong" : "",
                p->kinds & P_STICKY ? " sticky" : "", p->kinds & P_LEAK ? " leak" : "",
                p->kinds & P_FDLEAK ? " fd" : "", (unsigned long long)p->rounds,
                (unsigned long long)p->first_n, persist ? " (persistent)" : "");
        af_print_frames(p->key, KEY_FRAMES);
    }
    nproblems = 0;
}

/* Round n (0: no failure): mount, walk, walk again, unmount, leaks.  The
 * allocations it counted. */
static uint64_t round_run(struct sweep *s, uint64_t n, int persist)
{
    static unsigned round_id;
    int fds = count_fds();
    struct tally before = s->t;
    af_nnth = 0;
    af_crash_n = s->n_now = n;
    af_crash_persist = persist;
    af_round = ++round_id;
    atomic_store(&af_seq, 0);
    atomic_store(&af_fail_after, persist);
    atomic_store(&af_fail_at, n);
    alarm(WATCHDOG_S);
    atomic_store(&af_counting, 1);
    int rc = mount_tree(s);
    if (rc == 0)
        walk(s, 0);
    atomic_store(&af_counting, 0);
    if (rc) {
        s->t.mount_failed++;
        assert_int_equal(mount_tree(s), 0);
    }
    walk(s, 1);
    if (!n) {
        struct rtmc_stats st;
        rtmc_get_stats(s->f.c, &st);
        s->ahead_sized = st.ahead;
    }
    atomic_store(&af_counting, 1);
    unmount_tree(s);
    atomic_store(&af_counting, 0);
    atomic_store(&af_fail_at, 0);
    alarm(0);
    uint64_t counted = atomic_load(&af_seq);
    size_t leaked = af_leaks(af_round, s->t.leaks < SHOW || s->verbose ? 5 : 0);
    if (leaked)
        fprintf(stderr, "alloc_fail: N=%llu%s ahead=%d: %zu blocks LEAKED\n",
                (unsigned long long)n, persist ? "+" : "", s->ahead, leaked);
    s->t.leaks += leaked;
    if (count_fds() != fds) {
        fprintf(stderr, "alloc_fail: N=%llu%s: %d file descriptors LEAKED\n",
                (unsigned long long)n, persist ? "+" : "", count_fds() - fds);
        s->t.fdleaks++;
    }
    unsigned kinds = (s->t.wrong > before.wrong ? P_WRONG : 0) |
                     (s->t.sticky > before.sticky ? P_STICKY : 0) |
                     (s->t.leaks > before.leaks ? P_LEAK : 0) |
                     (s->t.fdleaks > before.fdleaks ? P_FDLEAK : 0);
    if (kinds)
        note_problem(n, kinds);
    s->t.rounds++;
    return counted;
}

static uint64_t env_u64(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? strtoull(v, NULL, 10) : 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The Ns of a sweep over the reference's k counted allocations, as
 * pick[N] = 1 (see the contract); how many sites the reference called. */
static size_t plan_rounds(const struct sweep *s, uint64_t k, int persist, uint8_t *pick)
{
    static uintptr_t site[SITE_SLOTS];
    static uint64_t last[SITE_SLOTS];
    memset(site, 0, sizeof site);
    size_t nsites = 0;
    uint64_t known = k < AF_REF_MAX ? k : AF_REF_MAX;
    for (uint64_t n = 1; n <= known; n++) {
        uintptr_t at = af_ref_site[n - 1];
        size_t i = (size_t)((at * 0x9e3779b97f4a7c15ull) >> 52) & (SITE_SLOTS - 1);
        while (site[i] && site[i] != at)
            i = (i + 1) & (SITE_SLOTS - 1);
        if (!site[i]) {                 /* its first call */
            site[i] = at, nsites++;
            pick[n] = 1;
        }
        last[i] = n;
    }
    if (!persist)
        for (size_t i = 0; i < SITE_SLOTS; i++)
            if (site[i])
                pick[last[i]] = 1;
    uint64_t stride = k / s->spread + 1;
    for (uint64_t n = 1; n <= k; n += stride | 1)   /* odd: not one phase of a loop */
        pick[n] = 1;
    if (env_u64("RTMFS_ALLOC_ALL"))
        memset(pick + 1, 1, (size_t)k);
    return nsites;
}

/* How many sites of the reference's k calls no round of the case failed. */
static size_t sites_not_failed(uint64_t k)
{
    size_t missed = 0;
    for (uint64_t n = 1; n <= k; n++) {
        size_t i = 0;
        while (i < af_case_sites.n && af_case_sites.site[i] != af_ref_site[n - 1])
            i++;
        if (i == af_case_sites.n) {
            fprintf(stderr, "alloc_fail: the site of call %llu was never failed\n",
                    (unsigned long long)n);
            missed++;
        }
    }
    return missed;
}

/* The sweep of one case: the reference round, then a round a chosen N. */
static void sweep(struct sweep *s, int ahead, int persist)
{
    s->ahead = ahead;
    memset(&s->t, 0, sizeof s->t);
    uint64_t failed0 = atomic_load(&af_failed), off_main0 = atomic_load(&af_failed_off_main);
    af_case_sites.n = 0;
    double t0 = now_s();
    uint64_t k = round_run(s, 0, 0), only = env_u64("RTMFS_FAIL_ALLOC");
    uint64_t from = only ? only : env_u64("RTMFS_ALLOC_FROM");
    s->verbose = only != 0;
    atomic_store(&af_verbose, s->verbose);
    uint8_t *pick = calloc((size_t)k + 2, 1);
    assert_non_null(pick);
    size_t sites = plan_rounds(s, k, persist, pick);
    for (uint64_t n = from ? from : 1; n <= k; n++) {
        if (!pick[n] && !only)
            continue;
        round_run(s, n, persist);
        if (only)
            break;
    }
    free(pick);
    const struct tally *t = &s->t;
    print_problems(persist);
    printf("# alloc_fail %s ahead=%d: K=%llu allocations counted, %llu rounds, %llu allocations "
           "failed (%llu of them in workers; %llu versions sized ahead) at %zu distinct sites "
           "(of %zu the reference called; %zu in all cases so far); answers: %llu as the reference, "
           "errors ENOMEM %llu EIO %llu ENOENT %llu other %llu, %llu told in the answer, "
           "%llu mounts failed; wrong %llu, sticky %llu, crashes 0, leaks %llu (fds %llu); %.1f s\n",
           persist ? "persistent" : "single", ahead, (unsigned long long)k,
           (unsigned long long)t->rounds - 1,
           (unsigned long long)(atomic_load(&af_failed) - failed0),
           (unsigned long long)(atomic_load(&af_failed_off_main) - off_main0),
           (unsigned long long)s->ahead_sized, af_case_sites.n, sites, af_sites.n,
           (unsigned long long)t->ok, (unsigned long long)t->enomem,
           (unsigned long long)t->eio, (unsigned long long)t->enoent,
           (unsigned long long)t->eother, (unsigned long long)t->substitutes,
           (unsigned long long)t->mount_failed, (unsigned long long)t->wrong,
           (unsigned long long)t->sticky, (unsigned long long)t->leaks,
           (unsigned long long)t->fdleaks, now_s() - t0);
    fflush(stdout);
    assert_int_equal(t->wrong, 0);
    assert_int_equal(t->sticky, 0);
    assert_int_equal(t->leaks, 0);
    assert_int_equal(t->fdleaks, 0);
    /* Without workers the calls are the reference's, so every site it
     * called was failed (and some that only the failures' handling
     * reached). */
    if (!ahead && !from && k <= AF_REF_MAX)
        assert_int_equal(sites_not_failed(k), 0);
}

/* ---- cases ------------------------------------------------------------- */

/* The sweep's tree (gltf: the glTF one), mounted once for the reference. */
static int setup_tree(void **state, int gltf)
{
    struct sweep *s = calloc(1, sizeof *s);
    struct rtm_error err;
    assert_non_null(s);
    tree_fixture_open(&s->f, "allocfail");
    s->spread = (gltf ? SPREAD / 4 : SPREAD) / SANITIZED_SHARE;
    if (gltf)
        af_put_gltf(&s->f);
    else
        af_put_tree(&s->f);
    assert_int_equal(rtm_skeleton_builtin("ofp2", &s->f.skel, &err), 0);
    assert_int_equal(mount_tree(s), 0);
    reference(s);
    unmount_tree(s);
    af_catch_crashes();
    af_main = pthread_self();
    *state = s;
    return 0;
}

static int setup(void **state)
{
    return setup_tree(state, 0);
}

static int setup_gltf(void **state)
{
    return setup_tree(state, 1);
}

static int teardown(void **state)
{
    struct sweep *s = *state;
    for (size_t i = 0; i < s->nn; i++)
        free(s->n[i].data);
    tree_fixture_close(&s->f);
    free(s);
    return 0;
}

static void single_failure(void **state)
{
    sweep(*state, 0, 0);
}

static void every_failure_from_n(void **state)
{
    sweep(*state, 0, 1);
}

static void single_failure_with_workers(void **state)
{
    sweep(*state, 1, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(single_failure, setup, teardown),
        cmocka_unit_test_setup_teardown(every_failure_from_n, setup, teardown),
        cmocka_unit_test_setup_teardown(single_failure_with_workers, setup, teardown),
        cmocka_unit_test_setup_teardown(single_failure, setup_gltf, teardown),
    };
    return run_test_cases(tests, NULL, NULL);
}
