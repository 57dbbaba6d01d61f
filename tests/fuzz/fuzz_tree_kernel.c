/* fuzz_tree_kernel.c - what fuzz_tree_kernel.h declares, compiled with
 * fuzz_tree (FUZZ_OWN_fuzz_tree in the Makefile). */
#include "fuzz_tree_kernel.h"


struct fz z;

void fz_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "fuzz_tree: step %d: ", z.op);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    char index_dir[96];                 /* /dev/shm is memory: leave nothing */
    snprintf(index_dir, sizeof index_dir, "%s.index", z.dir);
    fz_rm_rf(z.dir);
    fz_rm_rf(index_dir);
    abort();
}

void fz_quiet(void *ctx, const char *msg) { (void)ctx, (void)msg; }

/* The tree's log: rtm_tree_free says there when the inode table was told
 * to take back more than it gave (a miscount, which it survives). */
void fz_log(void *ctx, const char *line)
{
    (void)ctx;
    if (strstr(line, "taken back"))
        fz_fail("the tree says: %s", line);
}

int fz_watch(void *ctx, const char *dir) { (void)ctx, (void)dir; return 0; }

int fz_nowatch(void *ctx, const char *dir) { (void)ctx, (void)dir; return -1; }

/* The tree tells the kernel what to forget: check what it names. */
static void fz_inval_entry(void *ctx, uint64_t parent, const char *name)
{
    (void)ctx;
    if (!parent || !name || !*name || strchr(name, '/'))
        fz_fail("inval_entry(%llu, \"%s\")", (unsigned long long)parent, name ? name : "(null)");
}

static void fz_inval_inode(void *ctx, uint64_t ino)
{
    (void)ctx;
    if (!ino)
        fz_fail("inval_inode(0)");
}

const struct rtm_tree_notify fz_notify = { NULL, fz_inval_entry, fz_inval_inode };

/* From any thread (a worker finds a wrong size too). */
void fz_stale(void *ctx, uint64_t ino, uint64_t n)
{
    (void)ctx;
    if (!ino || !n)
        fz_fail("stale(%llu, %llu)", (unsigned long long)ino, (unsigned long long)n);
    atomic_fetch_add(&z.stale, 1);
}

static int fz_documented(long rc)
{
    return rc == -ENOENT || rc == -EIO || rc == -ESTALE || rc == -EISDIR || rc == -ENOTDIR ||
           rc == -ENOMEM;
}

int fz_is_head(uint64_t ino) { return (ino & RTM_INO_FAMILY) && !rtm_ino_member(ino); }

/* Whether animation folder head now lists error.txt alone: its full
 * parse found damage its head did not show (rtmfs-views(7), ERROR.TXT). */
static int fz_head_broken(uint64_t head)
{
    struct rtm_dirlist *d;
    if (rtm_tree_listing(z.t, head, 0, &d))
        return 0;
    int only = d->n == 3 && strcmp(d->e[2].name, RTM_TREE_ERROR_NAME) == 0;
    rtm_tree_listing_put(z.t, d);
    return only;
}

/* Checks error rc of a request about ino (in a folder of an archive or
 * not) that was looked up at epoch. */
void fz_explain(const char *what, const char *path, long rc, uint64_t ino, unsigned long epoch,
                int in_archive)
{
    if (!fz_documented(rc))
        fz_fail("%s %s: undocumented error %ld (%s)", what, path, rc, strerror((int)-rc));
    if (rc == -ENOMEM || z.changes != epoch)
        return;                         /* SOURCE changed since: any of them */
    if (rc == -EIO && in_archive)
        return;                         /* a damaged entry (rtmfs(1)) */
    if ((ino & RTM_INO_FAMILY) && (rc == -EIO || rc == -ESTALE || rc == -ENOENT) &&
        fz_head_broken(rtm_ino_head(ino)))
        return;
    fz_fail("%s %s: error %ld (%s) while SOURCE did not change, and nothing says why", what,
            path, rc, strerror((int)-rc));
}

struct fz_rec *fz_find(uint64_t ino)
{
    for (size_t i = 0; i < z.nrec; i++)
        if (z.rec[i].ino == ino)
            return &z.rec[i];
    return NULL;
}

/* The live number pick names among those of type (0: any). */
struct fz_rec *fz_pick(uint8_t pick, mode_t type)
{
    size_t n = 0, k;
    for (size_t i = 0; i < z.nrec; i++)
        n += !type || z.rec[i].type == type;
    if (!n)
        return NULL;
    k = pick % n;
    for (size_t i = 0; i < z.nrec; i++)
        if ((!type || z.rec[i].type == type) && k-- == 0)
            return &z.rec[i];
    return NULL;
}

static int fz_ends(const char *s, size_t len, const char *ext)
{
    return len >= 4 && strncasecmp(s + len - 4, ext, 4) == 0;
}

/* Whether path (a mount path) lies inside an animation's or archive's
 * folder, and (*in_archive) inside an archive's. */
static int fz_inside(const char *path, int *in_archive)
{
    int in = 0;
    *in_archive = 0;
    for (const char *p = path, *slash; (slash = strchr(p, '/')); p = slash + 1) {
        size_t len = (size_t)(slash - p);
        if (fz_ends(p, len, ".pbo"))
            *in_archive = 1;
        in |= fz_ends(p, len, ".rtm") || fz_ends(p, len, ".pbo");
    }
    return in;
}

/* Whether a file of that name inside a version changes with the configs. */
static int fz_timed(const char *name)
{
    return !strcmp(name, RTM_TREE_STATES_NAME) || !strcmp(name, "preview.svg") ||
           !strcmp(name, "anim.bvh") || !strcmp(name, "anim.glb");
}

/* What a known number must still show: its kind, and a file's size, as
 * long as SOURCE did not change (or, of one version, at all). */
void fz_same(const struct fz_rec *r, const struct stat *st, const char *what)
{
    int fixed = z.changes == r->epoch || r->pinned;
    if (!fixed || atomic_load(&z.stale) != r->stale)
        return;                         /* the index's wrong size was told */
    if ((st->st_mode & S_IFMT) != r->type)
        fz_fail("%s %s: was a %s, now a %s", what, r->path, r->type == S_IFDIR ? "dir" : "file",
                S_ISDIR(st->st_mode) ? "dir" : "file");
    if (r->type == S_IFREG && st->st_size != r->size)
        fz_fail("%s %s: size %lld, was %lld", what, r->path, (long long)st->st_size,
                (long long)r->size);
}

/* What the kernel now knows of a number outside any version: a change
 * in SOURCE may give it another state, which holds from then on. */
void fz_refresh(struct fz_rec *r, const struct stat *st)
{
    if (r->versioned)
        return;                         /* its errors stay excused by the change */
    r->type = st->st_mode & S_IFMT;
    r->size = st->st_size;
    r->epoch = z.changes;
    r->stale = atomic_load(&z.stale);
}

/* Checks what a lookup (or readdirplus) gave for ino. */
void fz_check_entry(const struct rtm_tree_entry *te, const char *what)
{
    if (!te->ino || (uint64_t)te->st.st_ino != te->ino ||
        (!S_ISDIR(te->st.st_mode) && !S_ISREG(te->st.st_mode)) || te->st.st_size < 0 ||
        !(te->timeout > 0))
        fz_fail("%s: entry ino %llu st_ino %llu mode %o size %lld", what,
                (unsigned long long)te->ino, (unsigned long long)te->st.st_ino,
                (unsigned)te->st.st_mode, (long long)te->st.st_size);
}

/* Counts a lookup of name in folder parent that gave te. */
void fz_looked_up(const struct fz_rec *parent, const char *name,
                  const struct rtm_tree_entry *te)
{
    fz_check_entry(te, name);
    struct fz_rec *r = fz_find(te->ino);
    if (r) {
        fz_same(r, &te->st, "lookup");
        fz_refresh(r, &te->st);
        r->nlookup++;
        return;
    }
    if (z.nrec == FZ_MAXREC)
        return;                         /* the kernel keeps it, unused, to the end */
    r = &z.rec[z.nrec++];
    *r = (struct fz_rec){ .ino = te->ino, .parent = parent->ino, .nlookup = 1,
                          .type = te->st.st_mode & S_IFMT, .size = te->st.st_size,
                          .epoch = z.changes, .stale = atomic_load(&z.stale) };
    snprintf(r->path, sizeof r->path, "%s%s%s", parent->path, *parent->path ? "/" : "", name);
    size_t len = strlen(name);
    r->versioned = fz_inside(r->path, &r->in_archive) || fz_ends(name, len, ".rtm") ||
                   fz_ends(name, len, ".pbo");  /* an animation's or archive's folder */
    if (parent->versioned)
        r->epoch = parent->epoch;       /* of the version its folder was looked up in */
    r->pinned = r->versioned && !fz_timed(name);
}

/* Since when what number r shows may have changed: for what belongs to a
 * version, since that version was looked up (a change in SOURCE makes the
 * old one unreadable, ESTALE, whatever is still cached of it); for the
 * rest, only what changes between two requests counts. */
unsigned long fz_since(const struct fz_rec *r)
{
    return r && r->versioned ? r->epoch : z.changes;
}

int fz_has_children(uint64_t ino)
{
    for (size_t i = 1; i < z.nrec; i++)
        if (z.rec[i].parent == ino)
            return 1;
    return 0;
}
