/* fstype.c - which file systems inotify is blind on, and the mount's map of
 * verdicts per device (see fstype.h). */
#include "fstype.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <syslog.h>
#include <unistd.h>

/* statfs magic numbers (linux/magic.h and the file systems' own sources;
 * spelled out here so that a libc without them still builds). */
#define MAGIC_NFS 0x6969u
#define MAGIC_SMB 0x517Bu
#define MAGIC_CIFS 0xFF534D42u
#define MAGIC_SMB2 0xFE534D42u
#define MAGIC_9P 0x01021997u
#define MAGIC_AFS 0x5346414Fu
#define MAGIC_KAFS 0x6B414653u
#define MAGIC_CEPH 0x00C36400u
#define MAGIC_LUSTRE 0x0BD00BD0u
#define MAGIC_VBOXSF 0x786F4256u
#define MAGIC_GFS2 0x01161970u
#define MAGIC_OCFS2 0x7461636Fu
#define MAGIC_CODA 0x73757245u
#define MAGIC_FUSE 0x65735546u

/* The one table (rtmfs(1), WATCHING SOURCE, lists it).  A name ending in
 * '.' matches every type it begins (fuse.sshfs, fuse.rclone, ...).  Blind:
 * other machines (servers, clients, cluster nodes), the host (vboxsf,
 * virtiofs, 9p: WSL2's Windows drives) or a FUSE daemon change these
 * behind this kernel's back.  Not blind: fuseblk, a local disk that only
 * this kernel writes (ntfs-3g: a dual-boot Steam library). */
static const struct fs_row {
    const char *name;
    uint32_t magic;
    int blind;
} table[] = {
    { "nfs", MAGIC_NFS, 1 },        { "nfs4", MAGIC_NFS, 1 },
    { "cifs", MAGIC_CIFS, 1 },      { "smb3", MAGIC_CIFS, 1 },
    { "smb3", MAGIC_SMB2, 1 },      { "smbfs", MAGIC_SMB, 1 },
    { "9p", MAGIC_9P, 1 },          { "drvfs", MAGIC_9P, 1 },
    { "afs", MAGIC_KAFS, 1 },       { "afs", MAGIC_AFS, 1 },
    { "ceph", MAGIC_CEPH, 1 },      { "lustre", MAGIC_LUSTRE, 1 },
    { "vboxsf", MAGIC_VBOXSF, 1 },  { "virtiofs", MAGIC_FUSE, 1 },
    { "gfs2", MAGIC_GFS2, 1 },      { "ocfs2", MAGIC_OCFS2, 1 },
    { "coda", MAGIC_CODA, 1 },
    { "fuse", MAGIC_FUSE, 1 },      { "fuse.", MAGIC_FUSE, 1 },
    { "fuseblk", MAGIC_FUSE, 0 },   { "fuseblk.", MAGIC_FUSE, 0 },
};
enum { NROWS = sizeof table / sizeof table[0] };

static int row_matches(const struct fs_row *r, const char *type)
{
    size_t n = strlen(r->name);
    return r->name[n - 1] == '.' ? strncmp(type, r->name, n) == 0 && type[n]
                                 : strcmp(type, r->name) == 0;
}

/* The row of type name, or NULL (a local file system: ext4, xfs, ...). */
static const struct fs_row *row_named(const char *type)
{
    for (size_t i = 0; type && *type && i < NROWS; i++)
        if (row_matches(&table[i], type))
            return &table[i];
    return NULL;
}

static int magic_blind(uint32_t magic)
{
    for (size_t i = 0; i < NROWS; i++)
        if (table[i].magic == magic && table[i].blind)
            return 1;
    return 0;
}

int rtm_fstype_blind(const char *type, uint32_t magic)
{
    const struct fs_row *r = row_named(type);
    if (r && r->blind)
        return 1;
    if (r && r->magic == magic)
        return 0;                       /* the name tells its own magic apart */
    return magic_blind(magic);          /* no name, or one that the magic belies */
}

/* ---- mountinfo ---- */

/* Copies the field at s (up to a space or line end) into out (n bytes),
 * decoding mountinfo's \ooo escapes: 0, or -1 when it does not fit. */
static int field(const char *s, char *out, size_t n)
{
    size_t k = 0;
    while (*s && *s != ' ' && *s != '\n') {
        unsigned c = (unsigned char)*s;
        if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
            s[3] >= '0' && s[3] <= '7') {
            c = (unsigned)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
            s += 4;
        } else {
            s++;
        }
        if (k + 1 >= n)
            return -1;
        out[k++] = (char)c;
    }
    out[k] = 0;
    return k ? 0 : -1;
}

int rtm_mountinfo_type(const char *text, unsigned major, unsigned minor, char *type, size_t n)
{
    /* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER;
     * paths escape their spaces, so " - " is only ever the separator */
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        unsigned ma, mi;
        if (sscanf(line, "%*s %*s %u:%u", &ma, &mi) == 2 && ma == major && mi == minor) {
            const char *sep = strstr(line, " - ");
            if (sep && (!end || sep < end))
                return field(sep + 3, type, n);
        }
        line = end ? end + 1 : NULL;
    }
    return -1;
}

int rtm_watch_mode_parse(const char *s, enum rtm_watch_mode *mode)
{
    static const char *const names[] = { "auto", "inotify", "poll" };
    for (int i = 0; s && i < 3; i++)
        if (strcmp(s, names[i]) == 0) {
            *mode = (enum rtm_watch_mode)i;
            return 0;
        }
    return -1;
}

/* ---- the map ---- */

enum { MAP_MAX = 64 };              /* devices below one SOURCE: a few at most */

struct rtm_fsmap {
    enum rtm_watch_mode mode;
    char *source;
    pthread_mutex_t lock;           /* adding */
    atomic_size_t n;                /* rows published: written before n counts them */
    struct { uint64_t dev; int blind; } row[MAP_MAX];
};

struct rtm_fsmap *rtm_fsmap_new(enum rtm_watch_mode mode, const char *source)
{
    struct rtm_fsmap *m = calloc(1, sizeof *m);
    if (!m || !(m->source = strdup(source))) {
        free(m);
        return NULL;
    }
    m->mode = mode;
    atomic_init(&m->n, 0);
    pthread_mutex_init(&m->lock, NULL);
    return m;
}

void rtm_fsmap_free(struct rtm_fsmap *m)
{
    if (!m)
        return;
    pthread_mutex_destroy(&m->lock);
    free(m->source);
    free(m);
}

int rtm_fsmap_blind(const struct rtm_fsmap *m, uint64_t dev)
{
    size_t n = atomic_load_explicit(&m->n, memory_order_acquire);
    for (size_t i = 0; i < n; i++)
        if (m->row[i].dev == dev)
            return m->row[i].blind;
    return -1;
}

/* Appends a row (m->lock held): 0, or -1 when full. */
static int add_row(struct rtm_fsmap *m, uint64_t dev, int blind)
{
    size_t n = atomic_load_explicit(&m->n, memory_order_relaxed);
    if (n == MAP_MAX)
        return -1;
    m->row[n].dev = dev;
    m->row[n].blind = blind;
    atomic_store_explicit(&m->n, n + 1, memory_order_release);
    return 0;
}

int rtm_fsmap_set(struct rtm_fsmap *m, uint64_t dev, int blind)
{
    pthread_mutex_lock(&m->lock);
    int rc = rtm_fsmap_blind(m, dev) >= 0 ? 0 : add_row(m, dev, blind);
    pthread_mutex_unlock(&m->lock);
    return rc;
}

/* /proc/self/mountinfo, whole (malloc'd), or NULL. */
static char *read_mountinfo(void)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    char *text = NULL;
    size_t len = 0;
    FILE *out = f ? open_memstream(&text, &len) : NULL;
    char buf[8192];
    size_t got;
    while (out && (got = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, got, out);
    if (out)
        fclose(out);
    if (f)
        fclose(f);
    return text;
}

/* The type and magic of rel's file system; *dev checked against the
 * caller's.  0, or -1 when rel cannot be looked at. */
static int probe(int dirfd, const char *rel, uint64_t dev, char *type, size_t n, uint32_t *magic)
{
    int fd = openat(dirfd, *rel ? rel : ".", O_PATH | O_CLOEXEC);
    struct stat st;
    struct statfs sf;
    int rc = fd < 0 || fstat(fd, &st) || fstatfs(fd, &sf) || (uint64_t)st.st_dev != dev ? -1 : 0;
    if (fd >= 0)
        close(fd);
    if (rc)
        return -1;
    *magic = (uint32_t)sf.f_type;
    char *text = read_mountinfo();
    if (!text || rtm_mountinfo_type(text, major(st.st_dev), minor(st.st_dev), type, n))
        snprintf(type, n, "%s", "");    /* btrfs subvolumes: no line; the magic decides */
    free(text);
    return 0;
}

/* Said once for each blind device (it is probed once): on stderr, seen
 * under -f, and to syslog, where a daemon's stderr (/dev/null) is not. */
static void say_blind(const struct rtm_fsmap *m, const char *rel, const char *type, uint32_t magic)
{
    char line[PATH_MAX + 512], name[64];
    if (*type)
        snprintf(name, sizeof name, "%s", type);
    else
        snprintf(name, sizeof name, "statfs type 0x%x", (unsigned)magic);
    snprintf(line, sizeof line, "%s%s%s is on a %s file system, where inotify misses changes "
             "made elsewhere; below it, the kernel asks again after 0.5 s (rtmfs(1), WATCHING "
             "SOURCE)", m->source, *rel ? "/" : "", rel, name);
    fprintf(stderr, "rtmfs: %s\n", line);
    syslog(LOG_WARNING, "%s", line);
}

/* Probes dev when it is new: its verdict, or -1 when it cannot be had. */
static int learn(struct rtm_fsmap *m, int dirfd, const char *rel, uint64_t dev)
{
    char type[64];
    uint32_t magic;
    pthread_mutex_lock(&m->lock);       /* one probe (and one message) a device */
    int v = rtm_fsmap_blind(m, dev);
    if (v < 0 && probe(dirfd, rel, dev, type, sizeof type, &magic) == 0) {
        int blind = rtm_fstype_blind(type, magic);
        if (add_row(m, dev, blind) == 0)
            v = blind;
        if (v == 1 && m->mode == RTM_WATCH_AUTO)
            say_blind(m, rel, type, magic);
    }
    pthread_mutex_unlock(&m->lock);
    return v;
}

int rtm_fsmap_check(struct rtm_fsmap *m, int dirfd, const char *rel, uint64_t dev)
{
    int v = rtm_fsmap_blind(m, dev);
    if (v < 0)
        v = learn(m, dirfd, rel, dev);
    if (m->mode != RTM_WATCH_AUTO)
        return m->mode == RTM_WATCH_POLL;
    return v != 0;                      /* -1: not known, so not trusted */
}
