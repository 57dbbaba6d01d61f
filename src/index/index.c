/* index.c - the persistent index in SQLite (index.h). */
#include "index.h"

#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum op_kind { OP_PUT, OP_DROP, OP_TOUCH };

struct op {
    struct op *next;
    enum op_kind kind;
    struct rtm_store_key key;           /* key.render points into the op */
    int64_t used;
    void *val;
    size_t len;
};

/* Troubles said once each (index.h: reported once). */
enum { SAID_OPEN = 1, SAID_READONLY = 2, SAID_BUSY = 4, SAID_CORRUPT = 8, SAID_WRITE = 16,
       SAID_BEHIND = 32 };
#define STR_(x) #x
#define STR(x) STR_(x)

struct rtm_index {
    char *path;
    uint64_t max_bytes;
    rtm_index_log_fn log;
    void *log_ctx;

    pthread_mutex_t rlock;              /* the reader connection, and reopening */
    sqlite3 *rdb, *wdb;
    sqlite3_stmt *get;
    sqlite3_stmt *op[3];                /* on wdb, by enum op_kind */
    int readable, writable;
    int last_rc;                        /* why it could not open, for the report */

    pthread_mutex_t qlock;              /* the queue, the stats, what was said */
    pthread_cond_t qcond, qdone;
    struct op *head, **tail;
    uint64_t queued, done;              /* ops queued, ops written or dropped */
    size_t qbytes;                      /* what the queued ops hold */
    int stop;
    int flushing;                       /* callers of rtm_index_flush waiting */
    pthread_t thread;
    int has_thread;
    unsigned said;
    struct rtm_index_stats st;
    struct rtm_store store;             /* rtm_index_store: ctx is ix */
};

/* How stale a record's time of use may be: the bound needs only a rough
 * order, and a write for every record read would double a later mount's
 * work. */
#define TOUCH_MS (3600 * 1000)

#define KEY_COLS "dev, ino, size, mtime, ctime, eoff, esize, kind, render"
#define KEY_MATCH "dev=?1 AND ino=?2 AND size=?3 AND mtime=?4 AND ctime=?5 AND eoff=?6 " \
                  "AND esize=?7 AND kind=?8 AND render=?9"

static const char SCHEMA[] =
    "CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v TEXT);"
    "CREATE TABLE IF NOT EXISTS rec(id INTEGER PRIMARY KEY, dev INTEGER, ino INTEGER,"
    " size INTEGER, mtime INTEGER, ctime INTEGER, eoff INTEGER, esize INTEGER,"
    " kind INTEGER, render TEXT, used INTEGER NOT NULL, val BLOB NOT NULL);"
    "CREATE UNIQUE INDEX IF NOT EXISTS rec_key ON rec(" KEY_COLS ");"
    "CREATE INDEX IF NOT EXISTS rec_used ON rec(used);";

static void say(struct rtm_index *ix, unsigned what, const char *fmt, ...)
{
    pthread_mutex_lock(&ix->qlock);
    int first = !(ix->said & what);
    ix->said |= what;
    pthread_mutex_unlock(&ix->qlock);
    if (!first || !ix->log)
        return;
    char msg[512];
    int n = snprintf(msg, sizeof msg, "index %s: ", ix->path);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    ix->log(ix->log_ctx, msg);
}

static int64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static int is_corrupt(int rc)
{
    rc &= 0xff;
    return rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB;
}

/* ---- opening ---- */

static void close_all(struct rtm_index *ix)
{
    for (int i = 0; i < 3; i++) {
        sqlite3_finalize(ix->op[i]);
        ix->op[i] = NULL;
    }
    sqlite3_finalize(ix->get);
    sqlite3_close(ix->rdb);
    sqlite3_close(ix->wdb);
    ix->get = NULL;
    ix->rdb = ix->wdb = NULL;
    ix->readable = ix->writable = 0;
}

static int open_one(struct rtm_index *ix, int flags, sqlite3 **db)
{
    int rc = sqlite3_open_v2(ix->path, db, flags | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_busy_timeout(*db, RTM_INDEX_BUSY_MS);
    /* an index is a cache: in WAL mode NORMAL never corrupts it, and spares
     * a sync a batch; the page cache is bounded (RTM_INDEX_PAGE_CACHE) */
    if (rc == SQLITE_OK)
        sqlite3_exec(*db, "PRAGMA synchronous=NORMAL; PRAGMA cache_size=-"
                     STR(RTM_INDEX_PAGE_CACHE_KIB), NULL, NULL, NULL);
    return rc;
}

/* The schema's version as stored, -1 without one; an SQLite error < -1. */
static int stored_schema(sqlite3 *db)
{
    sqlite3_stmt *s;
    int rc = sqlite3_prepare_v2(db, "SELECT v FROM meta WHERE k='schema'", -1, &s, NULL);
    if (rc != SQLITE_OK)
        return (rc & 0xff) == SQLITE_ERROR ? -1 : -2 - rc;  /* no table: a new file */
    rc = sqlite3_step(s);
    int v = rc == SQLITE_ROW ? sqlite3_column_int(s, 0) : rc == SQLITE_DONE ? -1 : -2 - rc;
    sqlite3_finalize(s);
    return v;
}

/* Creates the tables (after dropping those of another layout). */
static int create(sqlite3 *db, int old)
{
    char sql[128];
    if (old >= 0 && old != RTM_INDEX_SCHEMA &&
        sqlite3_exec(db, "DROP TABLE IF EXISTS rec; DROP TABLE IF EXISTS meta; VACUUM;", NULL,
                     NULL, NULL) != SQLITE_OK)
        return -1;
    snprintf(sql, sizeof sql, "INSERT OR REPLACE INTO meta VALUES('schema', '%d');",
             RTM_INDEX_SCHEMA);
    /* auto_vacuum first: it only takes on a file without tables.  Made
     * without a sync: a new index holds nothing to lose, and a file a
     * crash left torn reads as corrupt, which is rebuilt empty (open_best);
     * the syncs (journal, folder, file, three times over) cost the first
     * request of a mount with a new index 10 ms of waiting. */
    int rc = sqlite3_exec(db, "PRAGMA synchronous=OFF; PRAGMA auto_vacuum=INCREMENTAL;"
                          "PRAGMA journal_mode=WAL; PRAGMA journal_size_limit=4194304;",
                          NULL, NULL, NULL) == SQLITE_OK &&
                     sqlite3_exec(db, SCHEMA, NULL, NULL, NULL) == SQLITE_OK &&
                     sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK
                 ? 0
                 : -1;
    sqlite3_exec(db, "PRAGMA synchronous=NORMAL;", NULL, NULL, NULL);   /* as open_one */
    return rc;
}

static int prepare_reader(struct rtm_index *ix)
{
    return sqlite3_prepare_v2(ix->rdb, "SELECT val, used FROM rec WHERE " KEY_MATCH, -1,
                              &ix->get, NULL) == SQLITE_OK
               ? 0
               : -1;
}

/* The writer's statements, prepared once: parsing SQL for each record was
 * a tenth of a later mount's CPU. */
static int prepare_writer(struct rtm_index *ix)
{
    static const char *const SQL[] = {
        [OP_PUT] = "INSERT OR REPLACE INTO rec(" KEY_COLS ", used, val) "
                   "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        [OP_DROP] = "DELETE FROM rec WHERE " KEY_MATCH,
        [OP_TOUCH] = "UPDATE rec SET used=?10 WHERE " KEY_MATCH,
    };
    for (int i = 0; i < 3; i++)
        if (sqlite3_prepare_v2(ix->wdb, SQL[i], -1, &ix->op[i], NULL) != SQLITE_OK)
            return -1;
    return 0;
}

static void unlink_files(const char *path)
{
    char p[4200];
    unlink(path);
    snprintf(p, sizeof p, "%s-wal", path);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", path);
    unlink(p);
}

/* Read-write: both connections, the tables of this layout.  0, -1 when
 * the file cannot be written, -2 when it is corrupt. */
static int open_rw(struct rtm_index *ix)
{
    int rc = open_one(ix, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &ix->wdb);
    ix->last_rc = rc;
    if (rc != SQLITE_OK)
        return is_corrupt(rc) ? -2 : -1;
    if (sqlite3_db_readonly(ix->wdb, "main")) {  /* SQLite fell back to reading */
        ix->last_rc = SQLITE_READONLY;
        return -1;
    }
    int v = stored_schema(ix->wdb);
    if (v < -1) {
        ix->last_rc = -2 - v;
        return is_corrupt(-2 - v) ? -2 : -1;
    }
    if (v != RTM_INDEX_SCHEMA && create(ix->wdb, v)) {
        ix->last_rc = sqlite3_errcode(ix->wdb);
        return is_corrupt(ix->last_rc) ? -2 : -1;
    }
    if (prepare_writer(ix) || open_one(ix, SQLITE_OPEN_READWRITE, &ix->rdb) != SQLITE_OK ||
        prepare_reader(ix))
        return -1;
    ix->readable = ix->writable = 1;
    return 0;
}

static int open_ro(struct rtm_index *ix)
{
    if (open_one(ix, SQLITE_OPEN_READONLY, &ix->rdb) != SQLITE_OK ||
        stored_schema(ix->rdb) != RTM_INDEX_SCHEMA || prepare_reader(ix))
        return -1;
    ix->readable = 1;
    return 0;
}

/* Opens as well as the file allows (rlock held, or before the thread). */
static void open_best(struct rtm_index *ix, int rebuild)
{
    close_all(ix);
    if (rebuild)
        unlink_files(ix->path);
    int rc = open_rw(ix);
    if (rc == -2 && !rebuild) {
        say(ix, SAID_CORRUPT, "corrupt; rebuilt empty");
        open_best(ix, 1);
        return;
    }
    if (rc == 0)
        return;
    const char *why = sqlite3_errstr(ix->last_rc);
    close_all(ix);
    if (open_ro(ix) == 0) {
        say(ix, SAID_READONLY, "cannot be written (%s); read, not updated", why);
        return;
    }
    close_all(ix);
    say(ix, SAID_OPEN, "cannot be opened (%s); going on without it", why);
}

/* A corrupt file found in use: said once, started again empty (rlock held). */
static void rebuild(struct rtm_index *ix)
{
    say(ix, SAID_CORRUPT, "corrupt; rebuilt empty");
    open_best(ix, 1);
}

/* ---- keys ---- */

static void bind_key(sqlite3_stmt *s, const struct rtm_store_key *k)
{
    sqlite3_bind_int64(s, 1, (sqlite3_int64)k->dev);
    sqlite3_bind_int64(s, 2, (sqlite3_int64)k->ino);
    sqlite3_bind_int64(s, 3, (sqlite3_int64)k->size);
    sqlite3_bind_int64(s, 4, k->mtime_ns);
    sqlite3_bind_int64(s, 5, k->ctime_ns);
    sqlite3_bind_int64(s, 6, (sqlite3_int64)k->entry_offset);
    sqlite3_bind_int64(s, 7, (sqlite3_int64)k->entry_size);
    sqlite3_bind_int64(s, 8, k->kind);
    if (!k->salt) {
        sqlite3_bind_text(s, 9, k->render, -1, SQLITE_STATIC);
        return;
    }
    char *r = sqlite3_mprintf("%s salt=%016llx", k->render, (unsigned long long)k->salt);
    if (r)
        sqlite3_bind_text(s, 9, r, -1, sqlite3_free);
    else
        sqlite3_bind_null(s, 9);        /* out of memory: matches no record */
}

/* ---- the queue ---- */

static void op_free(struct op *o)
{
    free(o->val);
    free(o);
}

static void enqueue(struct rtm_index *ix, enum op_kind kind, const struct rtm_store_key *k,
                    const void *val, size_t len)
{
    size_t rlen = strlen(k->render) + 1;
    struct op *o = malloc(sizeof *o + rlen);
    if (!o)
        return;
    *o = (struct op){ .kind = kind, .key = *k, .used = now_ms() };
    o->key.render = memcpy((char *)(o + 1), k->render, rlen);
    if (val && !(o->val = malloc(len ? len : 1))) {
        free(o);
        return;
    }
    if (val)
        memcpy(o->val, val, len);
    o->len = len;
    pthread_mutex_lock(&ix->qlock);
    int full = ix->qbytes + len > RTM_INDEX_QUEUE_MAX;
    ix->st.dropped += full;
    if (!ix->has_thread || full) {
        pthread_mutex_unlock(&ix->qlock);
        op_free(o);
        if (full)
            say(ix, SAID_BEHIND, "writes fall behind; records beyond %d MiB waiting are dropped",
                RTM_INDEX_QUEUE_MAX >> 20);
        return;
    }
    ix->qbytes += len;
    *ix->tail = o;
    ix->tail = &o->next;
    ix->queued++;
    pthread_cond_signal(&ix->qcond);
    pthread_mutex_unlock(&ix->qlock);
}

void rtm_index_put(struct rtm_index *ix, const struct rtm_store_key *k, const void *val,
                   size_t len)
{
    enqueue(ix, OP_PUT, k, val, len);
}

void rtm_index_drop(struct rtm_index *ix, const struct rtm_store_key *k)
{
    enqueue(ix, OP_DROP, k, NULL, 0);
}

/* ---- the writer ---- */

static int run_op(struct rtm_index *ix, const struct op *o)
{
    sqlite3_stmt *s = ix->op[o->kind];
    sqlite3_reset(s);
    bind_key(s, &o->key);
    if (o->kind != OP_DROP)
        sqlite3_bind_int64(s, 10, o->used);
    if (o->kind == OP_PUT)
        sqlite3_bind_blob(s, 11, o->val, (int)o->len, SQLITE_STATIC);
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int64_t pragma_int(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *s;
    int64_t v = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
        v = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return v;
}

static uint64_t used_bytes(sqlite3 *db)
{
    int64_t pages = pragma_int(db, "PRAGMA page_count"), free_pages =
        pragma_int(db, "PRAGMA freelist_count"), page = pragma_int(db, "PRAGMA page_size");
    return pages > 0 && page > 0 ? (uint64_t)(pages - (free_pages > 0 ? free_pages : 0)) *
                                       (uint64_t)page
                                 : 0;
}

/* Deletes the least recently used records while the file is over its
 * bound, and gives the pages back.  The number deleted. */
static uint64_t keep_bound(struct rtm_index *ix)
{
    uint64_t gone = 0;
    for (int round = 0; round < 64 && used_bytes(ix->wdb) > ix->max_bytes; round++) {
        int64_t n = pragma_int(ix->wdb, "SELECT count(*) FROM rec");
        if (n <= 0)
            break;
        char sql[160];
        snprintf(sql, sizeof sql, "DELETE FROM rec WHERE id IN "
                 "(SELECT id FROM rec ORDER BY used, id LIMIT %lld)", (long long)(n / 8 + 1));
        if (sqlite3_exec(ix->wdb, sql, NULL, NULL, NULL) != SQLITE_OK)
            break;
        gone += (uint64_t)sqlite3_changes(ix->wdb);
    }
    if (gone)
        sqlite3_exec(ix->wdb, "PRAGMA incremental_vacuum", NULL, NULL, NULL);
    return gone;
}

static uint64_t file_bytes(const char *path)
{
    char wal[4200];
    struct stat a, b;
    snprintf(wal, sizeof wal, "%s-wal", path);
    return (stat(path, &a) ? 0 : (uint64_t)a.st_size) + (stat(wal, &b) ? 0 : (uint64_t)b.st_size);
}

/* One transaction for the batch; a lock held too long drops it. */
static void write_batch(struct rtm_index *ix, struct op *batch, uint64_t n)
{
    pthread_mutex_lock(&ix->rlock);
    int rc = ix->writable ? sqlite3_exec(ix->wdb, "BEGIN IMMEDIATE", NULL, NULL, NULL)
                          : SQLITE_READONLY;
    uint64_t written = 0, evicted = 0;
    for (struct op *o = batch; rc == SQLITE_OK && o; o = o->next) {
        rc = run_op(ix, o);
        written += o->kind == OP_PUT && rc == SQLITE_OK;
    }
    if (rc == SQLITE_OK)
        evicted = keep_bound(ix);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(ix->wdb, "COMMIT", NULL, NULL, NULL);
    if (rc != SQLITE_OK && ix->wdb)
        sqlite3_exec(ix->wdb, "ROLLBACK", NULL, NULL, NULL);
    if (rc == SQLITE_OK && evicted)     /* the freed pages leave the main file */
        sqlite3_exec(ix->wdb, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL);
    if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED)
        say(ix, SAID_BUSY, "locked by another process for over %d ms; %llu changes "
            "not written (later ones may be)", RTM_INDEX_BUSY_MS, (unsigned long long)n);
    else if (is_corrupt(rc))
        rebuild(ix);
    else if (rc != SQLITE_OK && ix->writable)
        say(ix, SAID_WRITE, "cannot be written (%s)", sqlite3_errstr(rc));
    uint64_t bytes = file_bytes(ix->path);
    pthread_mutex_unlock(&ix->rlock);
    pthread_mutex_lock(&ix->qlock);
    ix->st.written += rc == SQLITE_OK ? written : 0;
    ix->st.batches += rc == SQLITE_OK;
    ix->st.batches_lost += rc != SQLITE_OK;
    ix->st.dropped += rc != SQLITE_OK ? n : 0;
    ix->st.evicted += rc == SQLITE_OK ? evicted : 0;
    ix->st.file_bytes = bytes;
    pthread_mutex_unlock(&ix->qlock);
}

/* Lets a few records gather before a transaction (qlock held): a walk
 * queues one an animation, and a transaction each cost the writer more
 * than the records, and held the readers' lock as often.  Not while the
 * queue is asked to be flushed or closed. */
static void gather(struct rtm_index *ix)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += RTM_INDEX_GATHER_MS * 1000000L;
    until.tv_sec += until.tv_nsec / 1000000000L;
    until.tv_nsec %= 1000000000L;
    while (!ix->stop && !ix->flushing && ix->queued - ix->done < RTM_INDEX_GATHER_OPS &&
           ix->qbytes < RTM_INDEX_QUEUE_MAX / 2 &&
           pthread_cond_timedwait(&ix->qcond, &ix->qlock, &until) == 0)
        ;
}

/* Waits for work, takes the whole queue, writes it, below the threads
 * that answer requests and size views (index.h). */
static void *writer(void *arg)
{
    struct rtm_index *ix = arg;
    pthread_setname_np(pthread_self(), RTM_INDEX_WRITER_NAME);
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), RTM_INDEX_WRITER_NICE);
    pthread_mutex_lock(&ix->qlock);
    for (;;) {
        while (!ix->head && !ix->stop)
            pthread_cond_wait(&ix->qcond, &ix->qlock);
        if (!ix->head && ix->stop)
            break;
        gather(ix);
        struct op *batch = ix->head;
        uint64_t n = ix->queued - ix->done;
        ix->head = NULL;
        ix->tail = &ix->head;
        ix->qbytes = 0;
        pthread_mutex_unlock(&ix->qlock);
        write_batch(ix, batch, n);
        while (batch) {
            struct op *next = batch->next;
            op_free(batch);
            batch = next;
        }
        pthread_mutex_lock(&ix->qlock);
        ix->done += n;
        pthread_cond_broadcast(&ix->qdone);
    }
    pthread_mutex_unlock(&ix->qlock);
    return NULL;
}

void rtm_index_flush(struct rtm_index *ix)
{
    pthread_mutex_lock(&ix->qlock);
    uint64_t want = ix->queued;
    ix->flushing++;
    pthread_cond_signal(&ix->qcond);    /* no gathering: write now */
    while (ix->has_thread && ix->done < want)
        pthread_cond_wait(&ix->qdone, &ix->qlock);
    ix->flushing--;
    pthread_mutex_unlock(&ix->qlock);
}

/* ---- reading ---- */

int rtm_index_get(struct rtm_index *ix, const struct rtm_store_key *k, void **val, size_t *len)
{
    int found = 0, rc = SQLITE_OK;
    int64_t used = 0;
    pthread_mutex_lock(&ix->rlock);
    if (ix->readable) {
        sqlite3_reset(ix->get);
        bind_key(ix->get, k);
        rc = sqlite3_step(ix->get);
        if (rc == SQLITE_ROW) {
            int n = sqlite3_column_bytes(ix->get, 0);
            const void *blob = sqlite3_column_blob(ix->get, 0);
            used = sqlite3_column_int64(ix->get, 1);
            if ((*val = malloc(n > 0 ? (size_t)n : 1))) {
                memcpy(*val, blob, (size_t)n);
                *len = (size_t)n;
                found = 1;
            }
        }
        sqlite3_reset(ix->get);
    }
    if (is_corrupt(rc))
        rebuild(ix);
    pthread_mutex_unlock(&ix->rlock);
    pthread_mutex_lock(&ix->qlock);
    found ? ix->st.hits++ : ix->st.misses++;
    pthread_mutex_unlock(&ix->qlock);
    if (found && now_ms() - used > TOUCH_MS)
        enqueue(ix, OP_TOUCH, k, NULL, 0);
    return found ? 0 : -1;
}

/* ---- as a store (store.h) ---- */

static int store_get(void *ctx, const struct rtm_store_key *k, void **val, size_t *len)
{
    return rtm_index_get(ctx, k, val, len);
}

static void store_put(void *ctx, const struct rtm_store_key *k, const void *val, size_t len)
{
    rtm_index_put(ctx, k, val, len);
}

static void store_drop(void *ctx, const struct rtm_store_key *k)
{
    rtm_index_drop(ctx, k);
}

/* ---- life ---- */

static void make_parent(const char *path)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = 0;
        mkdir(p, 0700);
        *s = '/';
    }
}

/* Asks the kernel to read the file in now, in big sequential reads: a
 * later mount's first walk otherwise reads it a page at a time in the
 * order of its lookups (measured: grep over the install tree, 18 s with
 * the index cold, 12 s with it cached). */
static void read_ahead(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    posix_fadvise(fd, 0, 0, POSIX_FADV_WILLNEED);
    close(fd);
}

struct rtm_index *rtm_index_open(const char *path, uint64_t max_bytes, rtm_index_log_fn log,
                                 void *log_ctx)
{
    struct rtm_index *ix = calloc(1, sizeof *ix);
    if (!ix || !(ix->path = strdup(path))) {
        free(ix);
        return NULL;
    }
    ix->max_bytes = max_bytes;
    ix->log = log;
    ix->log_ctx = log_ctx;
    ix->tail = &ix->head;
    pthread_mutex_init(&ix->rlock, NULL);
    pthread_mutex_init(&ix->qlock, NULL);
    pthread_cond_init(&ix->qcond, NULL);
    pthread_cond_init(&ix->qdone, NULL);
    make_parent(path);
    read_ahead(path);
    open_best(ix, 0);
    ix->has_thread = ix->writable && pthread_create(&ix->thread, NULL, writer, ix) == 0;
    ix->st.file_bytes = file_bytes(path);
    ix->store = (struct rtm_store){ store_get, store_put, store_drop, ix };
    return ix;
}

const struct rtm_store *rtm_index_store(struct rtm_index *ix)
{
    return ix ? &ix->store : NULL;
}

void rtm_index_close(struct rtm_index *ix)
{
    if (!ix)
        return;
    pthread_mutex_lock(&ix->qlock);
    ix->stop = 1;
    pthread_cond_signal(&ix->qcond);
    int joined = ix->has_thread;
    pthread_mutex_unlock(&ix->qlock);
    if (joined)
        pthread_join(ix->thread, NULL);
    close_all(ix);
    pthread_mutex_destroy(&ix->rlock);
    pthread_mutex_destroy(&ix->qlock);
    pthread_cond_destroy(&ix->qcond);
    pthread_cond_destroy(&ix->qdone);
    free(ix->path);
    free(ix);
}

void rtm_index_get_stats(struct rtm_index *ix, struct rtm_index_stats *st)
{
    pthread_mutex_lock(&ix->rlock);
    int readable = ix->readable, writable = ix->writable;
    pthread_mutex_unlock(&ix->rlock);
    pthread_mutex_lock(&ix->qlock);
    *st = ix->st;
    st->readable = readable;
    st->writable = writable;
    pthread_mutex_unlock(&ix->qlock);
}
