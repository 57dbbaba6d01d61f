/* faultfs - a test-only FUSE file system that shows a folder as it is,
 * except that reads of chosen files fail (tests/mount/faults.sh):
 *
 *   faultfs BACKING CONTROL MOUNTPOINT [-f] [-o FUSE_OPTIONS]
 *
 * CONTROL is a text file of "GLOB MODE [N]" lines, read again whenever its
 * size or modification time changes, so that a test breaks a file by
 * writing a line and heals it by emptying the file.  GLOB is matched with
 * fnmatch(3) against the path below BACKING ("*" matches every file,
 * "*.pbo" every archive); the first line that matches decides:
 *
 *   eio [N]      a read that reaches past byte N (default 0) fails with EIO
 *   short [N]    a read returns at most N bytes (default: half of those
 *                asked), fewer than asked though the file goes on
 *   eof [N]      the file ends at byte N (default: half its size) for read,
 *                though stat gives its whole size
 *   openfail     open fails with EIO
 *
 * Every fault is counted on standard error, one "faultfs: MODE PATH" line,
 * so that a test can tell that its faults were met.  Files are opened
 * direct_io: the kernel then hands a short read to the reader as it is
 * (through its page cache a short read means end of file), and keeps no
 * page of a file across a heal.  Inode numbers and times are the backing
 * files' (use_ino), so an index keyed by them sees one version.
 */
#define FUSE_USE_VERSION 35
#include <fuse.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum mode { NONE, EIO_AT, SHORT, EOF_AT, OPENFAIL };
static const char *const MODE_NAME[] = { "none", "eio", "short", "eof", "openfail" };

struct rule {
    char glob[256];
    enum mode mode;
    long long n;                        /* -1: the mode's default */
};

#define RULES_MAX 64
static struct {
    int backing;                        /* fd of BACKING */
    const char *control;
    pthread_mutex_t lock;
    struct timespec seen_mtime;         /* of CONTROL when last read */
    off_t seen_size;
    struct rule rules[RULES_MAX];
    int nrules;
} fs = { .lock = PTHREAD_MUTEX_INITIALIZER, .seen_size = -1 };

/* The path below BACKING of a FUSE path ("/a/b" -> "a/b", "/" -> "."). */
static const char *rel(const char *path)
{
    return path[1] ? path + 1 : ".";
}

static enum mode mode_of(const char *word)
{
    for (int m = EIO_AT; m <= OPENFAIL; m++)
        if (strcmp(word, MODE_NAME[m]) == 0)
            return (enum mode)m;
    return NONE;
}

/* Reads CONTROL again when it changed (lock held).  A missing file is no
 * rule; a line that does not parse is ignored. */
static void reload(void)
{
    struct stat st;
    if (stat(fs.control, &st))
        st = (struct stat){ .st_size = 0 };
    if (st.st_size == fs.seen_size && st.st_mtim.tv_sec == fs.seen_mtime.tv_sec &&
        st.st_mtim.tv_nsec == fs.seen_mtime.tv_nsec)
        return;
    fs.seen_size = st.st_size;
    fs.seen_mtime = st.st_mtim;
    fs.nrules = 0;
    FILE *f = fopen(fs.control, "r");
    char line[512], glob[256], word[32];
    while (f && fs.nrules < RULES_MAX && fgets(line, sizeof line, f)) {
        long long n = -1;
        if (sscanf(line, "%255s %31s %lld", glob, word, &n) < 2 || mode_of(word) == NONE)
            continue;
        struct rule *r = &fs.rules[fs.nrules++];
        snprintf(r->glob, sizeof r->glob, "%s", glob);
        r->mode = mode_of(word);
        r->n = n;
    }
    if (f)
        fclose(f);
}

/* The rule for path, copied out (the rules may change under a reader). */
static struct rule rule_for(const char *path)
{
    struct rule r = { .mode = NONE };
    pthread_mutex_lock(&fs.lock);
    reload();
    for (int i = 0; i < fs.nrules; i++)
        if (fnmatch(fs.rules[i].glob, rel(path), 0) == 0) {
            r = fs.rules[i];
            break;
        }
    pthread_mutex_unlock(&fs.lock);
    return r;
}

static void count(enum mode m, const char *path)
{
    fprintf(stderr, "faultfs: %s %s\n", MODE_NAME[m], rel(path));
}

static void *ff_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
    (void)conn;
    cfg->use_ino = 1;
    /* a heal, and a touch, show at once: the kernel keeps nothing */
    cfg->attr_timeout = cfg->entry_timeout = cfg->negative_timeout = 0;
    return NULL;
}

static int ff_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
    int rc = fi ? fstat((int)fi->fh, st) : fstatat(fs.backing, rel(path), st, AT_SYMLINK_NOFOLLOW);
    return rc ? -errno : 0;
}

static int ff_readlink(const char *path, char *buf, size_t size)
{
    ssize_t n = readlinkat(fs.backing, rel(path), buf, size - 1);
    if (n < 0)
        return -errno;
    buf[n] = 0;
    return 0;
}

static int ff_open(const char *path, struct fuse_file_info *fi)
{
    if (rule_for(path).mode == OPENFAIL) {
        count(OPENFAIL, path);
        return -EIO;
    }
    int fd = openat(fs.backing, rel(path), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    fi->fh = (uint64_t)fd;
    fi->direct_io = 1;
    return 0;
}

/* How many of size bytes at off a read under r may return: -EIO, or a
 * count that may be short of size. */
static ssize_t allowed(const struct rule *r, int fd, size_t size, off_t off)
{
    struct stat st;
    switch (r->mode) {
    case EIO_AT:
        return (long long)off + (long long)size > (r->n < 0 ? 0 : r->n) ? -EIO : (ssize_t)size;
    case SHORT:
        if (r->n >= 0)
            return size < (size_t)r->n ? (ssize_t)size : (ssize_t)r->n;
        return size > 1 ? (ssize_t)(size / 2) : (ssize_t)size;
    case EOF_AT: {
        long long end = r->n;
        if (end < 0)
            end = fstat(fd, &st) ? 0 : st.st_size / 2;
        return off >= end ? 0 : (ssize_t)(end - off < (long long)size ? end - off : (long long)size);
    }
    default:
        return (ssize_t)size;
    }
}

static int ff_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
    struct rule r = rule_for(path);
    ssize_t want = allowed(&r, (int)fi->fh, size, off);
    if (want < 0 || (size_t)want < size)
        count(r.mode, path);
    if (want < 0)
        return (int)want;
    ssize_t n = pread((int)fi->fh, buf, (size_t)want, off);
    return n < 0 ? -errno : (int)n;
}

static int ff_release(const char *path, struct fuse_file_info *fi)
{
    (void)path;
    close((int)fi->fh);
    return 0;
}

static int ff_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
                      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
    (void)off, (void)fi, (void)flags;
    int fd = openat(fs.backing, rel(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd < 0 ? NULL : fdopendir(fd);
    if (!d) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return -e;
    }
    for (struct dirent *de; (de = readdir(d));) {
        struct stat st = { .st_ino = de->d_ino, .st_mode = (mode_t)DTTOIF(de->d_type) };
        if (fill(buf, de->d_name, &st, 0, 0))
            break;
    }
    closedir(d);
    return 0;
}

static int ff_statfs(const char *path, struct statvfs *sv)
{
    (void)path;
    return fstatvfs(fs.backing, sv) ? -errno : 0;
}

static const struct fuse_operations ops = {
    .init = ff_init,
    .getattr = ff_getattr,
    .readlink = ff_readlink,
    .open = ff_open,
    .read = ff_read,
    .release = ff_release,
    .readdir = ff_readdir,
    .statfs = ff_statfs,
};

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: faultfs BACKING CONTROL MOUNTPOINT [-f] [-o OPTIONS]\n");
        return 2;
    }
    fs.backing = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fs.backing < 0) {
        perror(argv[1]);
        return 1;
    }
    /* an absolute path: fuse_main's daemon changes to / */
    fs.control = realpath(argv[2], NULL);
    if (!fs.control) {
        perror(argv[2]);
        return 1;
    }
    setvbuf(stderr, NULL, _IOLBF, 0);
    argv[2] = argv[0];                  /* fuse_main sees: faultfs MOUNTPOINT ... */
    return fuse_main(argc - 2, argv + 2, &ops, NULL);
}
