/* loader.h - what the cache (cache.h) loads from SOURCE: animations, archive
 * tables, archive entries (as animations or as content), and rapified
 * configs as their text; and what of them it recalls from and remembers
 * in a store (store.h).  loader.c reads; loader_store.c is the store's
 * policy (loader_int.h between them).
 *
 * Contract:
 *  - rtm_loader_load() is an rtmc_load_fn; ctx is a struct rtm_loader.
 *    Paths are relative to srcfd.  It reads exactly the version the
 *    rtmc_src names: the file's identity is checked with fstat on the open
 *    file before and after reading, and -ESTALE is returned when it differs,
 *    so bytes of two versions never make one object.
 *  - An entry of an archive (src->archive_len > 0) is read through the
 *    archive's table, which it gets from (and leaves in) the cache; only the
 *    entry's own bytes are read from the archive.
 *  - Format errors (and a file that may not be read) become a one-line
 *    message naming the file or entry, as rtmcat prints it; other failures
 *    a negative errno (-ENOENT: the entry is not in that version).
 *  - Memory is reserved (rtmc_reserve) before it is allocated: the file's
 *    or entry's bytes before reading them, what the parse holds before
 *    parsing (a plain anim keeps the bytes read as its source, no copy).  A
 *    file that could never fit in cache_size becomes its message ("walk.rtm:
 *    needs 1.2 GiB to parse, more than cache_size 256.0 MiB").
 *  - A config (RTMC_CONFIG, a loose file or an entry) is its bytes read
 *    as rapified (config.h: rap_measure, rap_read) and written as text
 *    (cfg_print_text); the bytes, the model and the text are each reserved
 *    first.  One that does not read becomes its message, as a broken
 *    animation does.  Nothing of a config goes to the store.
 *  - With a store (l->store; rtmfs gives the SQLite index, index.h), what
 *    stat and readdir need is remembered per version, as records of kinds
 *    RTM_STORE_TABLE, _SHAPE and _TIMED whose bytes are shape.h's: an
 *    archive's table is taken from it without opening the archive, and an
 *    anim asked for at RTMC_SHAPE is a shape when the store has one.  An
 *    anim parsed from SOURCE gets the store's sizes to check
 *    (rtmc_loaded.indexed), or is remembered when the store has no shape
 *    of it; rtm_loader_store() (the cache's store hook) remembers its
 *    sizes, or forgets a version whose sizes were wrong, and says so
 *    through log.  A record that does not decode is dropped.  Failed
 *    loads are not remembered.  Without a store (NULL: rtmcat, -o
 *    noindex) every load reads SOURCE, and the views are the same.
 *  - On a device inotify is blind on (fsmap; one not known yet counts as
 *    blind), a version whose mtime or ctime is 0 is neither recalled nor
 *    remembered: 9p and FUSE file systems may make inode numbers up per
 *    mount and report every time as 0, so such a key could name another
 *    file's version on a later mount.
 *  - An anim asked for at RTMC_SHAPE (without full_if_parsed) that the
 *    store does not give is parsed from its head (rtm_parse_head: a page,
 *    then as far as the names and counts need), unless whole is set: a
 *    loose file or a stored entry through a window of pread, an LZSS
 *    entry decoded only that far.  What the head does not show (BMTR's
 *    arrays cut or damaged) the first full parse finds: that load becomes
 *    the file's message, which the store then remembers as it remembers a
 *    file that does not parse.  An LZSS entry whose head does not decode
 *    is read whole, which says why.
 *  - Threads: rtm_loader_load and the hooks run on any thread at once
 *    (the cache's callers); the store is called from those threads.
 *  - An animation beside a model.cfg is parsed with that file's class
 *    (model_cfg; modelcfg.h), which the cache keeps as RTMC_SKELETONS.
 *    Else a version whose skel is set (fileid.h) is parsed with that
 *    skeleton of skels, the one the configs chose (skelreg.h); else skel.
 *    A record the store keeps of such a version is keyed by it too.
 *  - The loader keeps no state of its own: the struct is read-only here, and
 *    the caller owns it and everything it points to (the store, the
 *    skeleton, render, fsmap), which outlive the cache that loads with it.
 */
#ifndef RTM_LOADER_H
#define RTM_LOADER_H

#include <limits.h>

#include "cache.h"
#include "fstype.h"
#include "pbo.h"
#include "sides.h"
#include "skeleton.h"
#include "skelreg.h"
#include "store.h"

struct rtm_mocap_opts;

struct rtm_loader {
    int srcfd;                          /* SOURCE, open O_DIRECTORY */
    const struct rtm_skeleton *skel;    /* for BMTR; NULL: none */
    int digits;                         /* how the anims' views write numbers:
                                           RTM_DIGITS_EXACT or decimals (rtm.h) */
    struct rtmc *cache;                 /* where archive tables are kept */
    const struct rtm_store *store;      /* records of versions (store.h; RTM_STORE_SHAPE,
                                           _TABLE, _TIMED); NULL: none (rtmcat,
                                           -o noindex) */
    const char *render;                 /* the records' rendering key: what else
                                           changes the views (rtm_render_key,
                                           shared_opts.h) */
    rtm_store_log_fn log;               /* one line a trouble; may be NULL */
    void *log_ctx;
    const struct rtm_fsmap *fsmap;      /* the devices inotify is blind on (fstype.h),
                                           or NULL: none */
    int whole;                          /* 1: every parse reads the whole file
                                           (rtmcat); 0: a shape's only its head */
    int model_cfg;                      /* 1: an animation beside a model.cfg
                                           takes its class (modelcfg.h); 0: skel
                                           for all (-o skeleton= given) */
    const struct rtm_skelreg *skels;    /* the configs' skeletons a version's
                                           skel names; NULL: none */
    const struct rtm_mocap_opts *mocap; /* how BVH files are read (unit, frame
                                           rate; the map is the file's own,
                                           bvhmap.h); NULL: the defaults */
    struct rtm_work *work;              /* counts files opened, bytes read, tables
                                           and parses (work.h; the caller's,
                                           added to from any thread); NULL: none */
};

/* The name a view gives a file beside an animation (its model.cfg, its
 * map) whose key is path (relative to SOURCE, or "ARCHIVE/ENTRY"): the
 * last component, as the folder or the archive spells it; a pointer into
 * path.  Never the path itself: a view's bytes are of its version
 * (fileid.h), which holds what lies beside the animation but not where
 * its folder lies under SOURCE (renamed or moved while mounted or between
 * mounts, or seen by rtmcat from another folder), so a view that named
 * the path would change under a size already known. */
const char *rtm_side_file_name(const char *path);

/* The part of a loose animation's salt (fileid.h) that the files beside it
 * its own bytes name give (a .gltf's buffers: format_table.h, files):
 * their versions mixed, so that one rewritten, added or removed makes a
 * new version of it, into *salt.  0 when its format names none, when the
 * file names none or does not say which (its parse then says why), and
 * for a file over 16 MiB (whose buffers are inline).  name is relative to
 * dfd; what is read is counted in w (work.h; NULL: nothing).  The tree
 * adds it to the salt; the loader checks it.  Returns 0, or -ENOMEM: a
 * salt is never guessed. */
int rtm_loader_named_salt(struct rtm_work *w, int dfd, const char *name, uint64_t *salt);

/* An archive entry's cache key (rtmc_src.path): "ARCHIVE/ENTRY", ARCHIVE
 * being the first archive_len bytes of archive, ENTRY the entry's
 * normalised path (pbo.h), into key (RTM_KEY_MAX bytes). */
enum { RTM_KEY_MAX = PATH_MAX + PBO_NAME_MAX + 2 };
void rtm_loader_entry_key(char key[RTM_KEY_MAX], const char *archive, size_t archive_len,
                          const char *entry);

/* The cache's store hook (rtmc_set_store); ctx is the struct rtm_loader. */
void rtm_loader_store(void *ctx, const struct rtmc_src *src, const struct rtm_anim *a,
                      const uint64_t *sizes);

/* The cache's timed hook (rtmc_set_timed; ctx the struct rtm_loader): a
 * timed view's size by the version, the rendering key, the view and the
 * generation, 8 bytes little-endian. */
int rtm_loader_timed(void *ctx, const struct rtmc_src *src, struct rtm_view v, const char *gen,
                     uint64_t *size, int put);

int rtm_loader_load(void *ctx, const struct rtmc_src *src, struct rtmc_reservation *r,
                    struct rtmc_loaded *out, char *msg, size_t msglen);

#endif
