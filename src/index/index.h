/* index.h - the persistent index: what stat and readdir need of each
 * version of a source file, remembered across mounts in an SQLite file.
 * It is the store (base/store.h) rtmfs gives the loader and the tree
 * (rtm_index_store); a layer of its own that only src/fuse/ and the tests
 * use, so that nothing else links SQLite.
 *
 * A record is found by its key (struct rtm_store_key, store.h): the
 * identity of one version of a source file (device, inode, size, mtime and
 * ctime in ns; for an archive's entry also its offset and size in the
 * archive), what the record describes (kind), and a rendering key the
 * caller builds from all that changes the views (skeleton and its file's
 * identity, digits=, RTM_RENDER_VERSION).  Its value is a blob the caller
 * encodes; the index reads neither kind nor value.
 *
 * Contract:
 *  - The index never makes its user wrong or unavailable.  A file that is
 *    corrupt is rebuilt; one that cannot be opened, or that another
 *    process keeps locked, costs answers, never errors: every such trouble
 *    is reported once through the log callback, then gets answer "not
 *    known" and writes are dropped.  A read-only file is read, not written.
 *  - rtm_index_get() runs on the caller's thread, on a connection of its
 *    own (one reader at a time), waiting at most RTM_INDEX_BUSY_MS for a
 *    lock.
 *  - rtm_index_put() and rtm_index_drop() only queue: a thread of the
 *    index's own writes the queue in batches, one transaction each (WAL
 *    mode, so readers, and other mounts sharing the file, never wait for
 *    it); a batch gathers what is queued within RTM_INDEX_GATHER_MS of
 *    the first record, up to RTM_INDEX_GATHER_OPS records.  A batch that
 *    cannot get the lock within RTM_INDEX_BUSY_MS is dropped (reported
 *    once).  rtm_index_flush() waits until everything queued before it
 *    is written or dropped, gathering nothing more.  The thread, named
 *    RTM_INDEX_WRITER_NAME, runs at nice RTM_INDEX_WRITER_NICE: what it
 *    writes is for the next mount, and the requests and sizings of this
 *    one should not wait for its time slice (a first header.txt over 400
 *    archives queues their tables while it reads them).
 *  - Memory is bounded: SQLite's page cache to RTM_INDEX_PAGE_CACHE_KIB a
 *    connection (two), the queue to RTM_INDEX_QUEUE_MAX bytes of records.
 *  - The file stays within max_bytes: after a batch the least recently
 *    used records (read or written; a read counts once an hour) are
 *    deleted and the space returned.
 *  - Thread-safe; the index owns its connections, its thread and its queue.
 *  - Fork: open it in the process that uses it, after any fork (a daemon's
 *    fuse_daemonize).  Its writer thread and SQLite's POSIX locks do not
 *    survive a fork: an index opened before one writes nothing in the
 *    child, and closing it there waits for a thread that is not there.
 */
#ifndef RTM_INDEX_H
#define RTM_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

#define RTM_INDEX_BUSY_MS 100
#define RTM_INDEX_PAGE_CACHE_KIB 1024   /* SQLite's page cache, each connection */
#define RTM_INDEX_QUEUE_MAX (8 << 20)   /* bytes of records waiting to be written:
                                           beyond, puts are dropped (said once) */
#define RTM_INDEX_GATHER_MS 50
#define RTM_INDEX_GATHER_OPS 256
#define RTM_INDEX_WRITER_NAME "rtmfs-index"
#define RTM_INDEX_WRITER_NICE 10
#define RTM_INDEX_SCHEMA 1              /* the tables' layout; another is rebuilt */

struct rtm_index;

/* Called (from any thread) with one line that says what went wrong. */
typedef rtm_store_log_fn rtm_index_log_fn;

/* Opens path, creating it (and its folder) when missing.  Never NULL
 * unless out of memory: an index that cannot be used answers "not known". */
struct rtm_index *rtm_index_open(const char *path, uint64_t max_bytes, rtm_index_log_fn log,
                                 void *log_ctx);
/* Writes what is queued, stops the thread, closes. */
void rtm_index_close(struct rtm_index *ix);

/* 0 with a malloc'd copy of the value (the caller frees it), or -1 when
 * the index does not know the key (or cannot be read). */
int rtm_index_get(struct rtm_index *ix, const struct rtm_store_key *k, void **val, size_t *len);
void rtm_index_put(struct rtm_index *ix, const struct rtm_store_key *k, const void *val,
                   size_t len);
void rtm_index_drop(struct rtm_index *ix, const struct rtm_store_key *k);
void rtm_index_flush(struct rtm_index *ix);

/* The index as the store the loader and the tree are given (store.h):
 * get, put and drop above.  Owned by ix, valid until rtm_index_close;
 * NULL for a NULL ix (no index). */
const struct rtm_store *rtm_index_store(struct rtm_index *ix);

struct rtm_index_stats {
    int readable, writable;
    uint64_t hits, misses;
    uint64_t written;                   /* records put */
    uint64_t batches;                   /* transactions that wrote them */
    uint64_t dropped, batches_lost;     /* changes, and batches, not written */
    uint64_t evicted;                   /* records deleted to keep the bound */
    uint64_t file_bytes;                /* main file and WAL, after the last batch */
};
void rtm_index_get_stats(struct rtm_index *ix, struct rtm_index_stats *st);

#endif
