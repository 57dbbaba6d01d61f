/* fuzz_tree - libFuzzer target: the mount's tree (tree.h) with its
 * sizing-ahead workers, without FUSE, over a SOURCE the input makes.
 *
 * The input (fuzz_tree.h) picks the mount's options and writes a small
 * SOURCE under /dev/shm (fuzz_tree_source.h): three animations beside a
 * model.cfg, one at the top, an archive, a text and a rapified config.
 * The rest is a script driven as src/fuse/fuse_ops.c drives the tree,
 * never sending a number the kernel could not: lookups, getattr, readdir
 * (and readdirplus, whose entries count as lookups), reads, open-read-
 * release, forgets of what was looked up (never a folder before what is
 * in it), du-like walks that start the workers, and changes to SOURCE
 * (rewritten in place or replaced, truncated, removed, renamed; the folder
 * of animations beside their model.cfg renamed away and back) with or
 * without the change reports inotify would give, and a later mount over
 * the same persistent index.  The workers run throughout (ahead 1 or 2)
 * and are joined by rtm_tree_free at the end.
 *
 * After each request it checks the tree's promises and aborts when one
 * breaks:
 *  - every error is a documented one (rtmfs(1), rtmfs-views(7)): ENOENT,
 *    EIO, ESTALE, EISDIR, ENOTDIR, ENOMEM;
 *  - while SOURCE has not changed since a number was looked up, a
 *    request about it fails only where the tree says why: an animation
 *    whose full parse failed lists only error.txt (what turns a view's EIO,
 *    or its number's ESTALE or a listed view's ENOENT, into the promise),
 *    a damaged archive entry reads as EIO, and with an index a wrong
 *    remembered size fails once; its kind and size do not change;
 *  - a listing holds ".", "..", then unique names, each looking up as the
 *    kind and number listed; an animation's folder lists error.txt alone
 *    or not at all; readdirplus gives the listed numbers and the sizes
 *    getattr gives; an enumeration's later call gets the same listing;
 *  - a read gives at most the stat size from its offset, all of it when
 *    asked, the same bytes twice, and a file read whole is its stat size;
 *    what belongs to one version (inside an animation's or archive's
 *    folder, but states.txt and the views the configs time) keeps its
 *    size and bytes for as long as the kernel holds the number;
 *  - error.txt reads as one line; the change reports name numbers;
 *  - and, through the sanitizers and libFuzzer, no crash, leak or hang.
 */
#include "fuzz_tree_source.h"
#include "fuzz_tree_kernel.h"
#include "shared_opts.h"
#include "skeleton_cfg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- requests ---- */

static int fz_lookup(struct fz_rec *dir, const char *name, struct rtm_tree_entry *te)
{
    z.work--;
    uint64_t dino = dir->ino;
    int rc = rtm_tree_lookup(z.t, dino, name, te);
    if (rc == -EIO && z.ix)
        rc = rtm_tree_lookup(z.t, dino, name, te);    /* a wrong remembered size: once */
    if (rc == 0)
        fz_looked_up(fz_find(dino), name, te);        /* dir may have moved: find it again */
    return rc;
}

static int fz_getattr(struct fz_rec *r, struct rtm_tree_entry *te)
{
    z.work--;
    int rc = rtm_tree_getattr(z.t, r->ino, te);
    if (rc == -EIO && z.ix)
        rc = rtm_tree_getattr(z.t, r->ino, te);
    if (rc) {
        fz_explain("getattr", r->path, rc, r->ino, r->epoch, r->in_archive);
        return rc;
    }
    if (te->ino != r->ino)
        fz_fail("getattr %s: ino %llu for %llu", r->path, (unsigned long long)te->ino,
                (unsigned long long)r->ino);
    fz_check_entry(te, r->path);
    fz_same(r, &te->st, "getattr");
    fz_refresh(r, &te->st);
    return 0;
}

static void op_lookup(uint8_t dpick, uint8_t npick)
{
    static const char *const dict[] = {
        "anims", "cfg", "a.rtm", "b.rtm", "c.rtm", "top.rtm", "addon.pbo", "config.cpp",
        "config.bin", "config.bin.cpp", "model.cfg", "header.txt", "bones.txt", "error.txt",
        "frames", "tracks", "joints", "000.csv", "001.csv", "states.txt", "preview.svg",
        "anim.bvh", "check.txt", "pbo.txt", "missing.txt", "x.rtm", "y.rtm", "readme.txt",
        "plain.rtm", "bmtr.rtm", "fixed.rtm", "nothere", "A.RTM", "clips", "lift",
    };
    struct fz_rec *dir = fz_pick(dpick, S_IFDIR);
    const char *name = npick < 128 && z.nnames ? z.names[npick % z.nnames]
                                              : dict[npick % (sizeof dict / sizeof *dict)];
    struct rtm_tree_entry te;
    int rc = fz_lookup(dir, name, &te);
    if (rc && rc != -ENOENT)            /* any name may be missing */
        fz_explain(name, dir->path, rc, dir->ino, dir->epoch, dir->in_archive);
}

static void op_getattr(uint8_t pick)
{
    struct rtm_tree_entry te;
    fz_getattr(fz_pick(pick, 0), &te);
}

/* A listing's shape: ".", "..", unique names of folders and files, all of
 * one family in a family's folder; error.txt alone in an animation's. */
static void fz_check_listing(uint64_t dir, const struct rtm_dirlist *d, const char *path)
{
    int error = 0;
    if (d->n < 2 || strcmp(d->e[0].name, ".") || strcmp(d->e[1].name, ".."))
        fz_fail("listing %s: no . and ..", path);
    for (size_t i = 2; i < d->n; i++) {
        const struct rtm_dirent *e = &d->e[i];
        size_t len = strlen(e->name);
        if (!len || len > NAME_MAX || strchr(e->name, '/') || !strcmp(e->name, ".") ||
            !strcmp(e->name, "..") || (e->type != S_IFDIR && e->type != S_IFREG) || !e->ino ||
            ((dir & RTM_INO_FAMILY) && rtm_ino_head(e->ino) != rtm_ino_head(dir)))
            fz_fail("listing %s: entry %zu \"%s\" type %o ino %llu", path, i, e->name,
                    (unsigned)e->type, (unsigned long long)e->ino);
        for (size_t j = 2; j < i; j++)
            if (!strcmp(d->e[j].name, e->name))
                fz_fail("listing %s: \"%s\" twice", path, e->name);
        error |= !strcmp(e->name, RTM_TREE_ERROR_NAME);
    }
    if (fz_is_head(dir) && error && d->n != 3)
        fz_fail("listing %s: error.txt beside %zu other entries", path, d->n - 3);
}

/* Looks listed entry e up: it must be what the listing said, unless the
 * animation turned broken meanwhile (its folder then lists error.txt).
 * Whether it did. */
static int fz_check_listed(struct fz_rec *dir, const struct rtm_dirent *e)
{
    struct rtm_tree_entry te;
    char what[300];
    uint64_t dino = dir->ino;
    snprintf(what, sizeof what, "lookup of listed %s/%s", dir->path, e->name);
    int rc = fz_lookup(dir, e->name, &te);
    if (rc) {
        fz_explain(what, "", rc, dino, fz_since(dir), dir->in_archive);
        return 0;
    }
    if (te.ino != e->ino || (te.st.st_mode & S_IFMT) != e->type)
        fz_fail("%s: ino %llu mode %o, listed %llu type %o", what, (unsigned long long)te.ino,
                (unsigned)te.st.st_mode, (unsigned long long)e->ino, (unsigned)e->type);
    return 1;
}

/* readdirplus of entries [from, to): each given is the listed number, of
 * the listed kind, with the size getattr gives; the kernel counts it. */
static void fz_plus(struct fz_rec *dir, const struct rtm_dirlist *d, size_t from, size_t to)
{
    struct rtm_tree_entry te[8], now;
    uint64_t dino = dir->ino;
    z.work -= (int)(to - from);
    rtm_tree_listed_entries(z.t, dino, d, from, to, te);
    for (size_t i = from; i < to; i++) {
        const struct rtm_tree_entry *x = &te[i - from];
        if (!x->ino)
            continue;
        if (x->ino != d->e[i].ino || (x->st.st_mode & S_IFMT) != d->e[i].type)
            fz_fail("readdirplus %s/%s: ino %llu mode %o, listed %llu type %o", dir->path,
                    d->e[i].name, (unsigned long long)x->ino, (unsigned)x->st.st_mode,
                    (unsigned long long)d->e[i].ino, (unsigned)d->e[i].type);
        fz_looked_up(fz_find(dino), d->e[i].name, x);
        struct fz_rec *r = fz_find(x->ino);
        if (r && S_ISREG(x->st.st_mode) && fz_getattr(r, &now) == 0 &&
            now.st.st_size != x->st.st_size)
            fz_fail("readdirplus %s: size %lld, getattr %lld", r->path,
                    (long long)x->st.st_size, (long long)now.st.st_size);
    }
}

static void op_readdir(uint8_t pick, uint8_t look, uint8_t plus)
{
    struct fz_rec *dir = fz_pick(pick, S_IFDIR);
    struct rtm_dirlist *d, *more;
    uint64_t dino = dir->ino;
    z.work -= 2;
    int rc = rtm_tree_listing(z.t, dino, 0, &d);
    if (rc) {
        fz_explain("readdir", dir->path, rc, dino, dir->epoch, dir->in_archive);
        return;
    }
    fz_check_listing(dino, d, dir->path);
    /* the enumeration's next call, as the kernel makes it */
    if (rtm_tree_listing(z.t, dino, (off_t)d->n / 2 + 1, &more) || more != d)
        fz_fail("readdir %s: the next call of an enumeration got another listing", dir->path);
    rtm_tree_listing_put(z.t, more);
    z.nnames = 0;
    for (size_t i = 2; i < d->n && z.nnames < FZ_NAMES; i++)
        snprintf(z.names[z.nnames++], NAME_MAX + 1, "%s", d->e[i].name);
    if ((plus & 1) && d->n > 2) {
        size_t from = 2 + (size_t)(plus >> 1) % (d->n - 2), to = from + 8;
        fz_plus(dir, d, from, to < d->n ? to : d->n);
    }
    for (int k = 0; k <= (look & 3) && d->n > 2; k++)
        fz_check_listed(fz_find(dino), &d->e[2 + ((size_t)(look >> 2) + (size_t)k) % (d->n - 2)]);
    rtm_tree_listing_put(z.t, d);
}

static uint64_t fz_hash(const char *p, size_t n, uint64_t h)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)p[i]) * 1099511628211u;
    return h;
}

static void op_read(uint8_t pick, uint8_t offb, uint8_t sizeb)
{
    static char a[8192], b[8192];
    struct fz_rec *r = fz_pick(pick, S_IFREG);
    struct rtm_tree_entry te;
    if (!r || fz_getattr(r, &te))
        return;
    uint64_t ino = r->ino, st_size = (uint64_t)te.st.st_size;
    off_t off = offb < 16 ? 0 : (off_t)((st_size + 16) * offb / 256);
    size_t size = 1 + (size_t)sizeb * 31;
    z.work -= 2;
    ssize_t n = rtm_tree_read(z.t, ino, a, size, off);
    if (n < 0) {
        fz_explain("read", r->path, n, ino, fz_since(r), r->in_archive);
        return;
    }
    uint64_t left = (uint64_t)off < st_size ? st_size - (uint64_t)off : 0;
    if ((uint64_t)n > left || (off == 0 && size > st_size && (uint64_t)n != st_size))
        fz_fail("read %s at %lld of %zu: %zd bytes, stat size %llu", r->path, (long long)off,
                size, n, (unsigned long long)st_size);
    ssize_t again = rtm_tree_read(z.t, ino, b, size, off);
    if (again != n || memcmp(a, b, (size_t)n))
        fz_fail("read %s twice at %lld: %zd bytes, then %zd or others", r->path,
                (long long)off, n, again);
}

/* A file's whole content read as cat reads it, chunk bytes a call. */
static void op_cat(uint8_t pick, uint8_t chunkb)
{
    static char buf[4096];
    struct fz_rec *r = fz_pick(pick, S_IFREG);
    struct rtm_tree_entry te;
    struct rtm_open_policy pol = rtm_tree_open_policy(chunkb & 3);
    if (pol.open_enosys != (chunkb & 1) || pol.opendir_enosys != !!(chunkb & 2))
        fz_fail("open policy for capabilities %d", chunkb & 3);
    if (!r || fz_getattr(r, &te))
        return;
    uint64_t ino = r->ino, total = 0, h = 14695981039346656037u;
    size_t chunk = 1 + (size_t)(chunkb >> 2) * 64;
    ssize_t n = 0;
    char last = 0, nul = 0;
    while (z.work-- > 0 && (n = rtm_tree_read(z.t, ino, buf, chunk, (off_t)total)) > 0) {
        h = fz_hash(buf, (size_t)n, h);
        nul |= memchr(buf, 0, (size_t)n) != NULL;
        last = buf[n - 1];
        total += (uint64_t)n;
    }
    if (z.work <= 0)
        return;
    if (n < 0) {
        fz_explain("cat", r->path, n, ino, fz_since(r), r->in_archive);
        return;
    }
    if (total != (uint64_t)te.st.st_size)
        fz_fail("cat %s: %llu bytes, stat size %lld", r->path, (unsigned long long)total,
                (long long)te.st.st_size);
    const char *base = strrchr(r->path, '/');
    if (!strcmp(base ? base + 1 : r->path, RTM_TREE_ERROR_NAME) && (!total || last != '\n' || nul))
        fz_fail("cat %s: not one line", r->path);
    if (!r->pinned || atomic_load(&z.stale) != r->stale)
        return;
    if (r->have_digest && (r->len != total || r->digest != h))
        fz_fail("cat %s: other bytes than before in one version", r->path);
    r->have_digest = 1, r->len = total, r->digest = h;
}

/* The kernel forgets count lookups of a number, and a folder's last only
 * once nothing in it is held (a dentry holds its parent). */
static void op_forget(uint8_t pick, uint8_t count)
{
    if (z.nrec < 2)
        return;
    size_t i = 1 + pick % (z.nrec - 1);
    struct fz_rec *r = &z.rec[i];
    uint64_t n = 1 + count % r->nlookup;
    if (n == r->nlookup && fz_has_children(r->ino))
        n--;
    if (!n)
        return;
    z.work--;
    rtm_tree_forget(z.t, r->ino, n);
    if ((r->nlookup -= n) == 0)
        z.rec[i] = z.rec[--z.nrec];
}

/* du -a below folder dir: every name looked up (a view's size needs a
 * parse: the workers start), and each file's stat checked against it. */
static void fz_walk(uint64_t dino, int depth)
{
    struct rtm_dirlist *d;
    struct fz_rec *dir = fz_find(dino);
    if (!dir || z.work <= 0)
        return;
    z.work--;
    int rc = rtm_tree_listing(z.t, dino, 0, &d);
    if (rc) {
        fz_explain("walk", dir->path, rc, dino, dir->epoch, dir->in_archive);
        return;
    }
    fz_check_listing(dino, d, dir->path);
    for (size_t i = 2; i < d->n && z.work > 0; i++) {
        const struct rtm_dirent *e = &d->e[i];
        if (fz_check_listed(fz_find(dino), e) && e->type == S_IFDIR && depth > 0)
            fz_walk(e->ino, depth - 1);
    }
    rtm_tree_listing_put(z.t, d);
}

static void op_walk(uint8_t pick, uint8_t depth)
{
    fz_walk(fz_pick(pick, S_IFDIR)->ino, depth % 3);
}

/* ---- SOURCE: changes, and the reports inotify gives ---- */

/* A change report makes the tree read again what changed before it,
 * reported or not (the configs' table, missing.txt): what it shows may
 * change with it, as with a change. */
static void fz_report(int slot)
{
    z.changes++;
    char dir[64];
    const char *path = fz_slot_path[slot], *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 0;
    memcpy(dir, path, n);
    dir[n] = 0;
    rtm_tree_changed(z.t, dir, slash ? slash + 1 : path, &fz_notify);
}

static void op_rewrite(struct fz_in *in, uint8_t slotb, uint8_t how)
{
    int slot = slotb % FZ_NSLOTS;
    struct rtm_buf b;
    rtm_buf_init(&b);
    if (fz_spec(in, z.skel, slot, &b))
        unlinkat(z.fd, fz_slot_path[slot], 0);
    else
        fz_write(z.fd, fz_slot_path[slot], &b, how & 1);
    rtm_buf_free(&b);
    z.changes++;
    if (how & 2)
        fz_report(slot);
}

static void op_truncate(uint8_t slotb, uint8_t lenb, uint8_t notify)
{
    int slot = slotb % FZ_NSLOTS;
    struct stat st;
    int fd = openat(z.fd, fz_slot_path[slot], O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    if (fstat(fd, &st) || ftruncate(fd, st.st_size * lenb / 256))
        abort();
    close(fd);
    fz_touch(z.fd, fz_slot_path[slot]);
    z.changes++;
    if (notify & 1)
        fz_report(slot);
}

static void op_remove(uint8_t slotb, uint8_t notify)
{
    int slot = slotb % FZ_NSLOTS;
    if (unlinkat(z.fd, fz_slot_path[slot], 0))
        return;
    z.changes++;
    if (notify & 1)
        fz_report(slot);
}

static void op_rename(uint8_t from, uint8_t to, uint8_t notify)
{
    int a = from % FZ_NSLOTS, b = to % FZ_NSLOTS;
    if (a == b || renameat(z.fd, fz_slot_path[a], z.fd, fz_slot_path[b]))
        return;
    z.changes++;
    if (notify & 1) {
        fz_report(a);
        fz_report(b);
    }
}

/* The folder of animations beside their model.cfg renamed while mounted:
 * the first time to moved/ (a new, empty anims/ takes its place, so that
 * the slots can still be written), then the two exchanged. */
static void op_rename_dir(uint8_t notify)
{
    if (!z.moved) {
        if (renameat(z.fd, "anims", z.fd, "moved") || mkdirat(z.fd, "anims", 0755))
            return;
        z.moved = 1;
    } else if (renameat2(z.fd, "anims", z.fd, "moved", RENAME_EXCHANGE)) {
        return;
    }
    z.changes++;
    if (notify & 1) {
        rtm_tree_changed(z.t, "", "anims", &fz_notify);
        rtm_tree_changed(z.t, "", "moved", &fz_notify);
    }
}

static void op_notify(uint8_t what)
{
    z.work--;
    z.changes++;                        /* as fz_report */
    if (what % 10 < FZ_NSLOTS)
        fz_report(what % 10);
    else if (what % 10 == FZ_NSLOTS)
        rtm_tree_changed(z.t, "anims", NULL, &fz_notify);
    else
        rtm_tree_changed_all(z.t, &fz_notify);
}

/* ---- mounts ---- */

/* A loader, a cache and a tree over SOURCE, wired as rtmfs wires them;
 * the kernel knows the root only. */
static void fz_mount(void)
{
    z.l = (struct rtm_loader){ .srcfd = z.fd, .skel = z.skel, .digits = z.digits,
                               .store = z.store, .render = z.render, .log = fz_quiet,
                               .model_cfg = !z.cfg.skeleton_explicit };
    z.c = z.l.cache = rtmc_new(z.budget, rtm_loader_load, &z.l);
    if (!z.c)
        abort();
    rtmc_set_store(z.c, rtm_loader_store);
    rtmc_set_timed(z.c, rtm_loader_timed);
    z.cfg.srcfd = z.fd;
    z.cfg.cache = z.c;
    if (!(z.t = rtm_tree_new(&z.cfg)))
        abort();
    z.nrec = 1;
    z.rec[0] = (struct fz_rec){ .ino = RTM_INO_ROOT, .type = S_IFDIR, .nlookup = 1 };
    z.nnames = 0;
}

static void fz_unmount(void)
{
    rtm_tree_free(z.t);                 /* joins the workers */
    rtmc_free(z.c);
    z.t = NULL;
    z.c = NULL;
}

static void fz_index_open(void)
{
    if (!(z.ix = rtm_index_open(z.index, 4u << 20, fz_quiet, NULL)))
        abort();
    z.store = rtm_index_store(z.ix);
}

/* A later mount: the index written out and read back, an empty cache. */
static void op_remount(void)
{
    if (z.remounted++)
        return;
    fz_unmount();
    if (z.ix) {
        rtm_index_close(z.ix);
        fz_index_open();
    }
    fz_mount();
}

/* The options of byte 0 and 1 (fuzz_tree.h). */
static void fz_options(uint8_t o, uint8_t c)
{
    static const size_t budgets[] = { 1u << 20, 2u << 20, 4u << 20, 16u << 20 };
    z.budget = budgets[c & 3];
    z.digits = c & 4 ? 3 : RTM_DIGITS_EXACT;
    z.cfg = (struct rtm_tree_config){
        .ahead = o & FZ_OPT_AHEAD2 ? 2 : 1, .show_other = !!(o & FZ_OPT_SHOW_OTHER),
        .skeleton_explicit = !!(o & FZ_OPT_SKELETON),
        .configs_none = !!(o & FZ_OPT_CONFIGS_NONE),
        .rapified_raw = !!(o & FZ_OPT_RAPIFIED_RAW), .store = &z.store,
        .watch = o & FZ_OPT_UNWATCHED ? fz_nowatch : fz_watch, .stale = fz_stale,
        .log = fz_log };
    struct rtm_shared_opts shared = { .digits = z.digits };     /* the default skeleton */
    rtm_render_key(z.render, sizeof z.render, &shared, z.skel);
}

/* SOURCE: a fresh folder with the input's files. */
static void fz_source(struct fz_in *in)
{
    snprintf(z.dir, sizeof z.dir, "/dev/shm/rtmfs-fz.XXXXXX");
    if (!mkdtemp(z.dir))
        abort();
    snprintf(z.index, sizeof z.index, "%s.index/index.sqlite", z.dir);
    z.fd = open(z.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (z.fd < 0 || mkdirat(z.fd, "anims", 0755) || mkdirat(z.fd, "cfg", 0755))
        abort();
    for (int s = 0; s < FZ_NSLOTS; s++) {
        struct rtm_buf b;
        rtm_buf_init(&b);
        if (fz_spec(in, z.skel, s, &b) == 0)
            fz_write(z.fd, fz_slot_path[s], &b, 1);
        rtm_buf_free(&b);
    }
}

/* One operation of the script and its arguments (fuzz_tree.h). */
static void fz_step(struct fz_in *in)
{
    uint8_t op = fz_u8(in) % FZ_NOPS;
    uint8_t a = op == FZ_OP_REMOUNT ? 0 : fz_u8(in);
    uint8_t b = op == FZ_OP_REMOUNT || op == FZ_OP_GETATTR || op == FZ_OP_NOTIFY ? 0 : fz_u8(in);
    if (z.trace)                        /* FUZZ_TREE_TRACE=1: what a crash did */
        fprintf(stderr, "step %d: op %d (%u, %u) changes %lu\n", z.op, op, a, b, z.changes);
    switch (op) {
    case FZ_OP_LOOKUP: op_lookup(a, b); break;
    case FZ_OP_GETATTR: op_getattr(a); break;
    case FZ_OP_READDIR: op_readdir(a, b, fz_u8(in)); break;
    case FZ_OP_READ: op_read(a, b, fz_u8(in)); break;
    case FZ_OP_CAT: op_cat(a, b); break;
    case FZ_OP_FORGET: op_forget(a, b); break;
    case FZ_OP_WALK: op_walk(a, b); break;
    case FZ_OP_REWRITE: op_rewrite(in, a, b); break;
    case FZ_OP_TRUNCATE: op_truncate(a, b, fz_u8(in)); break;
    case FZ_OP_REMOVE: op_remove(a, b); break;
    case FZ_OP_RENAME: op_rename(a, b, fz_u8(in)); break;
    case FZ_OP_NOTIFY: op_notify(a); break;
    case FZ_OP_RENAME_DIR: op_rename_dir(a); break;
    default: op_remount(); break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fz_in in = { data, size, 0 };
    struct rtm_error err;
    if (!z.skel && rtm_skeleton_open(RTM_SKELETON_DEFAULT, &z.skel, &err))
        abort();
    z.trace = getenv("FUZZ_TREE_TRACE") != NULL;
    uint8_t opts = fz_u8(&in);
    fz_options(opts, fz_u8(&in));
    fz_source(&in);
    if ((opts & (FZ_OPT_INDEX | FZ_OPT_INDEX2)) == (FZ_OPT_INDEX | FZ_OPT_INDEX2))
        fz_index_open();
    fz_mount();
    z.changes = 0;
    z.remounted = 0;
    z.moved = 0;
    z.work = FZ_WORK;
    for (z.op = 0; fz_more(&in) && z.op < FZ_MAXOPS && z.work > 0; z.op++)
        fz_step(&in);
    fz_unmount();
    rtm_index_close(z.ix);
    z.ix = NULL;
    z.store = NULL;
    close(z.fd);
    fz_rm_rf(z.dir);
    char index_dir[96];
    snprintf(index_dir, sizeof index_dir, "%s.index", z.dir);
    fz_rm_rf(index_dir);
    return 0;
}
