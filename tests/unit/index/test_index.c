/* test_index.c - the persistent index (index.h): records found by every
 * part of their key and kept across opens; dropped; two handles on one
 * file; the size bound, oldest first; and the troubles that must never
 * make it wrong or unavailable, each reported once: a corrupt file
 * (rebuilt), one that cannot be opened, one that cannot be written, a lock
 * another process holds longer than the timeout; and threads at once. */
#include "testutil.h"

#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include "index.h"

struct said {
    int n;
    char last[512];
    char all[2048];                     /* every message, one a line */
};

static pthread_mutex_t said_lock = PTHREAD_MUTEX_INITIALIZER;

/* Called from the index's thread and the caller's. */
static void note(void *ctx, const char *msg)
{
    struct said *s = ctx;
    pthread_mutex_lock(&said_lock);
    __atomic_add_fetch(&s->n, 1, __ATOMIC_SEQ_CST);
    snprintf(s->last, sizeof s->last, "%s", msg);
    size_t n = strlen(s->all);
    snprintf(s->all + n, sizeof s->all - n, "%s\n", msg);
    pthread_mutex_unlock(&said_lock);
}

struct dir {
    char path[256], file[300];
};

static void make_dir(struct dir *d)
{
    snprintf(d->path, sizeof d->path, "%s/rtmfs-index.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_non_null(mkdtemp(d->path));
    snprintf(d->file, sizeof d->file, "%s/sub/index.sqlite", d->path);
}

static void remove_dir(struct dir *d)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", d->path);
    assert_int_equal(system(cmd), 0);
}

static struct rtm_store_key key(uint64_t ino, const char *render)
{
    return (struct rtm_store_key){ 2049, ino, 1000, 1700000000123456789ll, 1700000000987654321ll,
                                   0, 0, 1, render, 0 };
}

static int has(struct rtm_index *ix, const struct rtm_store_key *k, const char *want)
{
    void *v;
    size_t len;
    if (rtm_index_get(ix, k, &v, &len))
        return 0;
    int same = !want || (len == strlen(want) && memcmp(v, want, len) == 0);
    free(v);
    return same ? 1 : -1;
}

/* Put, flush, get; close and open again: still there. */
static void kept_across_opens(void **state)
{
    (void)state;
    struct dir d;
    struct said s = { 0 };
    make_dir(&d);
    struct rtm_index *ix = rtm_index_open(d.file, 64u << 20, note, &s);
    struct rtm_store_key k = key(7, "skel=ofp2 digits=-1 v=1");
    assert_int_equal(has(ix, &k, NULL), 0);
    rtm_index_put(ix, &k, "hello", 5);
    rtm_index_flush(ix);
    assert_int_equal(has(ix, &k, "hello"), 1);
    rtm_index_put(ix, &k, "again", 5);          /* a put replaces */
    rtm_index_flush(ix);
    assert_int_equal(has(ix, &k, "again"), 1);
    rtm_index_close(ix);
    ix = rtm_index_open(d.file, 64u << 20, note, &s);
    assert_int_equal(has(ix, &k, "again"), 1);
    rtm_index_drop(ix, &k);
    rtm_index_flush(ix);
    assert_int_equal(has(ix, &k, NULL), 0);
    struct rtm_index_stats st;
    rtm_index_get_stats(ix, &st);
    assert_true(st.readable && st.writable);
    assert_int_equal(st.hits, 1);               /* this handle's: one found, one not */
    assert_int_equal(st.misses, 1);
    assert_int_equal(s.n, 0);                   /* nothing went wrong */
    rtm_index_close(ix);
    remove_dir(&d);
}

/* Every part of the key tells records apart. */
static void every_key_part_counts(void **state)
{
    (void)state;
    struct dir d;
    make_dir(&d);
    struct rtm_index *ix = rtm_index_open(d.file, 64u << 20, NULL, NULL);
    struct rtm_store_key base = key(9, "skel=ofp2 digits=-1 v=1");
    rtm_index_put(ix, &base, "base", 4);
    rtm_index_flush(ix);
    struct rtm_store_key k[10];
    for (int i = 0; i < 10; i++)
        k[i] = base;
    k[0].dev++;
    k[1].ino++;
    k[2].size++;
    k[3].mtime_ns++;                            /* a rewrite with the same size and second */
    k[4].ctime_ns++;                            /* ... with its mtime put back */
    k[5].entry_offset = 512;
    k[6].entry_size = 100;
    k[7].kind = 2;
    k[8].render = "skel=ofp2 digits=3 v=1";
    k[9].render = "skel=ofp2 digits=-1 v=2";
    for (int i = 0; i < 10; i++)
        if (has(ix, &k[i], NULL))
            fail_msg("key part %d does not tell records apart", i);
    assert_int_equal(has(ix, &base, "base"), 1);
    rtm_index_close(ix);
    remove_dir(&d);
}

/* Two handles on one file (two mounts): each sees what the other wrote. */
static void shared_by_two(void **state)
{
    (void)state;
    struct dir d;
    make_dir(&d);
    struct rtm_index *a = rtm_index_open(d.file, 64u << 20, NULL, NULL);
    struct rtm_index *b = rtm_index_open(d.file, 64u << 20, NULL, NULL);
    struct rtm_store_key ka = key(1, "r"), kb = key(2, "r");
    rtm_index_put(a, &ka, "a", 1);
    rtm_index_put(b, &kb, "b", 1);
    rtm_index_flush(a);
    rtm_index_flush(b);
    assert_int_equal(has(a, &kb, "b"), 1);
    assert_int_equal(has(b, &ka, "a"), 1);
    rtm_index_close(a);
    rtm_index_close(b);
    remove_dir(&d);
}

/* Over its bound, the oldest records go first, and the file shrinks. */
static void size_bound(void **state)
{
    (void)state;
    struct dir d;
    make_dir(&d);
    const uint64_t bound = 256 << 10;
    struct rtm_index *ix = rtm_index_open(d.file, bound, NULL, NULL);
    char val[1024];
    memset(val, 'x', sizeof val);
    for (uint64_t i = 0; i < 2000; i++) {
        struct rtm_store_key k = key(i, "r");
        rtm_index_put(ix, &k, val, sizeof val);
        if (i % 100 == 99)
            rtm_index_flush(ix);               /* batches in order: later is newer */
    }
    rtm_index_flush(ix);
    struct rtm_index_stats st;
    rtm_index_get_stats(ix, &st);
    assert_true(st.evicted > 1000);
    struct stat sb;
    assert_int_equal(stat(d.file, &sb), 0);
    printf("# bound %llu bytes: file %lld bytes, %llu records evicted\n",
           (unsigned long long)bound, (long long)sb.st_size, (unsigned long long)st.evicted);
    assert_true((uint64_t)sb.st_size <= bound + 64 * 1024);
    struct rtm_store_key newest = key(1999, "r"), oldest = key(0, "r");
    assert_int_equal(has(ix, &newest, NULL), 1);
    assert_int_equal(has(ix, &oldest, NULL), 0);
    rtm_index_close(ix);
    remove_dir(&d);
}

/* Garbage where the file is: reported once, rebuilt, then it works. */
static void corrupt_is_rebuilt(void **state)
{
    (void)state;
    struct dir d;
    struct said s = { 0 };
    make_dir(&d);
    struct rtm_index *ix = rtm_index_open(d.file, 64u << 20, NULL, NULL);
    struct rtm_store_key k = key(3, "r");
    rtm_index_put(ix, &k, "v", 1);
    rtm_index_close(ix);
    FILE *f = fopen(d.file, "r+b");
    assert_non_null(f);
    char junk[4096];
    memset(junk, 0x5a, sizeof junk);
    assert_int_equal(fwrite(junk, 1, sizeof junk, f), sizeof junk);
    fclose(f);
    ix = rtm_index_open(d.file, 64u << 20, note, &s);
    assert_int_equal(has(ix, &k, NULL), 0);
    assert_int_equal(s.n, 1);
    assert_non_null(strstr(s.last, "corrupt; rebuilt"));
    rtm_index_put(ix, &k, "w", 1);
    rtm_index_flush(ix);
    assert_int_equal(has(ix, &k, "w"), 1);
    assert_int_equal(s.n, 1);
    rtm_index_close(ix);
    remove_dir(&d);
}

/* A path that cannot be a file: reported once; answers "not known". */
static void cannot_open(void **state)
{
    (void)state;
    struct dir d;
    struct said s = { 0 };
    make_dir(&d);
    char path[400];
    snprintf(path, sizeof path, "%s/file", d.path);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    snprintf(path, sizeof path, "%s/file/index.sqlite", d.path);
    struct rtm_index *ix = rtm_index_open(path, 64u << 20, note, &s);
    struct rtm_store_key k = key(4, "r");
    for (int i = 0; i < 3; i++) {
        rtm_index_put(ix, &k, "v", 1);
        rtm_index_flush(ix);
        assert_int_equal(has(ix, &k, NULL), 0);
    }
    assert_int_equal(s.n, 1);
    assert_non_null(strstr(s.last, "cannot be opened"));
    rtm_index_close(ix);
    remove_dir(&d);
}

/* A file this user may read but not write (the test runs that part as
 * nobody when it runs as root): reported once, read, never written. */
static void read_only(void **state)
{
    (void)state;
    struct dir d;
    make_dir(&d);
    struct rtm_index *ix = rtm_index_open(d.file, 64u << 20, NULL, NULL);
    struct rtm_store_key k = key(5, "r"), other = key(6, "r");
    rtm_index_put(ix, &k, "v", 1);
    rtm_index_close(ix);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "chmod 755 '%s' '%s/sub' && chmod 444 '%s'", d.path, d.path,
             d.file);
    assert_int_equal(system(cmd), 0);
    pid_t pid = fork();
    if (pid == 0) {
        if (getuid() == 0 && (setgid(65534) || setuid(65534)))
            _exit(10);
        struct said s = { 0 };
        struct rtm_index *r = rtm_index_open(d.file, 64u << 20, note, &s);
        struct rtm_index_stats st;
        rtm_index_get_stats(r, &st);
        int got = has(r, &k, "v");
        rtm_index_put(r, &other, "w", 1);
        rtm_index_flush(r);
        int wrote = has(r, &other, NULL);
        rtm_index_close(r);
        /* readable or not (WAL may need its -shm), never written, said once */
        _exit(st.writable ? 11 : wrote ? 12 : s.n != 1 ? 13 : (got == 1) != st.readable ? 14 : 0);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status))
        fail_msg("read-only index: child says %d", WEXITSTATUS(status));
    remove_dir(&d);
}

/* Another process that holds file's write lock for a second, from the
 * moment this returns; its pid, to wait for. */
static pid_t hold_lock(const char *file)
{
    int ready[2];
    assert_int_equal(pipe(ready), 0);
    pid_t pid = fork();
    if (pid == 0) {
        sqlite3 *db;
        if (sqlite3_open(file, &db) != SQLITE_OK ||
            sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
            _exit(1);
        if (write(ready[1], "x", 1) != 1)
            _exit(2);
        sleep(1);
        sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
        sqlite3_close(db);
        _exit(0);
    }
    char c;
    assert_int_equal(read(ready[0], &c, 1), 1);
    close(ready[0]);
    close(ready[1]);
    return pid;
}

/* Another process holds the write lock for 1 s: the batch is dropped and
 * that is said once; reads go on; after the lock, writes work again. */
static void locked_by_another(void **state)
{
    (void)state;
    struct dir d;
    struct said s = { 0 };
    make_dir(&d);
    struct rtm_index *ix = rtm_index_open(d.file, 64u << 20, note, &s);
    struct rtm_store_key k = key(8, "r"), later = key(9, "r");
    rtm_index_put(ix, &k, "v", 1);
    rtm_index_flush(ix);
    pid_t pid = hold_lock(d.file);
    rtm_index_put(ix, &later, "w", 1);
    rtm_index_flush(ix);
    assert_int_equal(has(ix, &later, NULL), 0);      /* dropped */
    assert_int_equal(has(ix, &k, "v"), 1);           /* reads go on */
    rtm_index_put(ix, &later, "w", 1);               /* dropped again, said once */
    rtm_index_flush(ix);
    assert_int_equal(s.n, 1);
    assert_non_null(strstr(s.last, "locked by another process"));
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    rtm_index_put(ix, &later, "w", 1);
    rtm_index_flush(ix);
    assert_int_equal(has(ix, &later, "w"), 1);
    struct rtm_index_stats st;
    rtm_index_get_stats(ix, &st);
    assert_int_equal(st.batches_lost, 2);
    rtm_index_close(ix);
    remove_dir(&d);
}

/* While the writer waits on a lock, records pile up: beyond
 * RTM_INDEX_QUEUE_MAX bytes they are dropped and that is said once; the
 * memory stays bounded. */
static void queue_is_bounded(void **state)
{
    (void)state;
    struct dir d;
    struct said s = { 0 };
    make_dir(&d);
    struct rtm_index *ix = rtm_index_open(d.file, 256u << 20, note, &s);
    struct rtm_store_key k = key(1, "r");
    rtm_index_put(ix, &k, "v", 1);
    rtm_index_flush(ix);
    pid_t pid = hold_lock(d.file);
    enum { MB = 1 << 20, N = 3 * RTM_INDEX_QUEUE_MAX / MB };
    char *big = calloc(1, MB);
    for (int i = 0; i < N; i++) {                    /* in microseconds: no batch ends */
        struct rtm_store_key ki = key(100 + (uint64_t)i, "r");
        rtm_index_put(ix, &ki, big, MB);
    }
    struct rtm_index_stats st;
    rtm_index_get_stats(ix, &st);
    assert_true(st.dropped >= (uint64_t)N - RTM_INDEX_QUEUE_MAX / MB - 1);
    assert_non_null(strstr(s.all, "writes fall behind"));
    assert_null(strstr(strstr(s.all, "writes fall behind") + 1, "writes fall behind"));
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    rtm_index_flush(ix);
    free(big);
    rtm_index_close(ix);
    remove_dir(&d);
}

/* Records queued a millisecond apart (a walk queues one an animation) are
 * written in a few transactions, not one each; a flush does not wait for
 * more to gather. */
static void batches_gather(void **state)
{
    (void)state;
    struct dir d;
    struct said s = { 0 };
    make_dir(&d);
    struct rtm_index *ix = rtm_index_open(d.file, 64u << 20, note, &s);
    enum { N = 20 };
    for (int i = 0; i < N; i++) {
        struct rtm_store_key ki = key(200 + (uint64_t)i, "r");
        rtm_index_put(ix, &ki, "v", 1);
        usleep(1000);
    }
    struct rtm_index_stats st;
    for (int i = 0; i < 200; i++) {                  /* up to 2 s, unflushed */
        rtm_index_get_stats(ix, &st);
        if (st.written == N)
            break;
        usleep(10000);
    }
    assert_int_equal(st.written, N);
    assert_true(st.batches <= 4);                   /* not one a record */
    struct rtm_store_key k = key(1, "r");
    rtm_index_put(ix, &k, "w", 1);
    rtm_index_flush(ix);
    assert_int_equal(has(ix, &k, "w"), 1);
    rtm_index_close(ix);
    remove_dir(&d);
}

/* Readers and writers on four threads at once (make tsan runs this too). */
struct worker {
    struct rtm_index *ix;
    int id, bad;
};

static void *work(void *arg)
{
    struct worker *w = arg;
    char val[32];
    for (int i = 0; i < 200; i++) {
        struct rtm_store_key k = key((uint64_t)(w->id * 1000 + i), "r");
        snprintf(val, sizeof val, "%d.%d", w->id, i);
        rtm_index_put(w->ix, &k, val, strlen(val));
        if (i % 50 == 49)
            rtm_index_flush(w->ix);
        struct rtm_store_key back = key((uint64_t)(w->id * 1000 + i / 2), "r");
        w->bad += has(w->ix, &back, NULL) < 0;
    }
    return NULL;
}

static void threads(void **state)
{
    (void)state;
    struct dir d;
    make_dir(&d);
    struct rtm_index *ix = rtm_index_open(d.file, 64u << 20, NULL, NULL);
    pthread_t t[4];
    struct worker w[4];
    for (int i = 0; i < 4; i++) {
        w[i] = (struct worker){ ix, i, 0 };
        pthread_create(&t[i], NULL, work, &w[i]);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        assert_int_equal(w[i].bad, 0);
    }
    rtm_index_flush(ix);
    char want[32];
    for (int i = 0; i < 4; i++) {
        struct rtm_store_key k = key((uint64_t)(i * 1000 + 199), "r");
        snprintf(want, sizeof want, "%d.199", i);
        assert_int_equal(has(ix, &k, want), 1);
    }
    rtm_index_close(ix);
    remove_dir(&d);
}

/* The nice of this process's thread named name (/proc/self/task: the
 * 19th field of its stat, after the name in parentheses); -100: none. */
static int nice_of_thread(const char *name)
{
    DIR *d = opendir("/proc/self/task");
    struct dirent *de;
    int nice = -100;
    assert_non_null(d);
    while (nice == -100 && (de = readdir(d))) {
        char path[300], comm[64] = "", stat[1024];
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", de->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        if (fgets(comm, sizeof comm, f))
            comm[strcspn(comm, "\n")] = 0;
        fclose(f);
        snprintf(path, sizeof path, "/proc/self/task/%s/stat", de->d_name);
        if (strcmp(comm, name) || !(f = fopen(path, "r")))
            continue;
        const char *p = fgets(stat, sizeof stat, f) ? strrchr(stat, ')') : NULL;
        fclose(f);
        for (int field = 2; p && field < 19; field++)
            p = strchr(p + 1, ' ');
        if (p)
            nice = atoi(p + 1);
    }
    closedir(d);
    return nice;
}

/* The writer runs below the requests: its records are for the next
 * mount. */
static void writer_below_requests(void **state)
{
    (void)state;
    struct dir d;
    make_dir(&d);
    struct rtm_index *ix = rtm_index_open(d.file, 64u << 20, NULL, NULL);
    struct rtm_store_key k = key(7, "r");
    rtm_index_put(ix, &k, "v", 1);
    rtm_index_flush(ix);                /* the thread has run */
    assert_int_equal(nice_of_thread(RTM_INDEX_WRITER_NAME), RTM_INDEX_WRITER_NICE);
    rtm_index_close(ix);
    remove_dir(&d);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kept_across_opens),
        cmocka_unit_test(every_key_part_counts),
        cmocka_unit_test(shared_by_two),
        cmocka_unit_test(size_bound),
        cmocka_unit_test(corrupt_is_rebuilt),
        cmocka_unit_test(cannot_open),
        cmocka_unit_test(read_only),
        cmocka_unit_test(locked_by_another),
        cmocka_unit_test(queue_is_bounded),
        cmocka_unit_test(batches_gather),
        cmocka_unit_test(threads),
        cmocka_unit_test(writer_below_requests),
    };
    return run_test_cases(tests, NULL, NULL);
}
