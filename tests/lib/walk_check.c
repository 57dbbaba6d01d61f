/* walk_check - the invariant of a mounted tree (tests/mount/invariant.sh):
 *
 *   walk_check [-s N] [-a K] ROOT
 *
 * walks ROOT as find(1) does and checks that every name a folder's
 * listing (readdir) gives can be looked up (fstatat), that it is what the
 * listing said (a folder a folder, a file a file: d_type against st_mode;
 * nothing but folders and regular files), and that a file reads exactly
 * as many bytes as stat said.  A read or stat may fail with EIO once, as
 * rtmfs(1) documents for a size the persistent index remembered wrong:
 * then it is asked again, and the second answer must hold.  Or the EIO
 * was an animation's damage found at its first full read (rtmfs-views(7),
 * ERROR.TXT): then the name is gone, and the folder is walked again, once.
 *
 * A folder of more than N entries (default 12) named frames, joints or
 * tracks (an animation's frames and bones, thousands of files in real
 * files) is sampled: its first and last entries and evenly spaced ones
 * between, N in all; every other folder is walked whole.  With -a K,
 * only every Kth animation's folder (a name ending in .rtm, in walk order,
 * the first among them) is walked below: the others are looked up and
 * checked as folders, not entered (a mount whose option changes a few
 * views, checked in a quarter of the time).  Prints one line a
 * problem (the first 20), then "shown: F folders, N files, B bytes,
 * content H" (H: FNV-1a of every path and its bytes, in walk order, so that
 * two mounts of one tree compare), then "walked: S sampled folders, E EIO
 * retried, D found damaged"; exits 1 when anything was wrong, 2 on bad
 * usage.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define SHOW_MAX 20
#define DEPTH_MAX 64

static unsigned long problems, folders, files, sampled, eio_retried, rebroken;
static unsigned long long bytes;
static size_t sample_n = 12;
static unsigned long anims_every = 1, anims_seen, anims_skipped;

static void problem(const char *path, const char *fmt, const char *what)
{
    if (problems++ < SHOW_MAX)
        printf("%s: %s%s\n", path, fmt, what ? what : "");
}

/* FNV-1a over what was read, in walk order: two mounts of one tree that
 * show the same names and bytes print the same. */
static uint64_t content = 0xcbf29ce484222325ull;

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    for (const unsigned char *b = p; n--; b++)
        h = (h ^ *b) * 0x100000001b3ull;
    return h;
}

/* Bytes of file path until end of file, or -errno; *h hashes them. */
static long long read_all(int dfd, const char *name, uint64_t *h)
{
    static char buf[1 << 16];
    int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    long long total = 0;
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0) {
            int e = errno;
            close(fd);
            return -e;
        }
        if (n == 0)
            break;
        *h = fnv(*h, buf, (size_t)n);
        total += n;
    }
    close(fd);
    return total;
}

/* Stats entry name (listed as d_type) of dfd and reads it when a file:
 * 0 (*st its stat), 1 when it printed a problem, -EIO when an answer was
 * EIO (asked again by the caller, with last_try), or on the last try
 * -ENOENT when the name is gone (the caller lists the folder again). */
static int check_entry(int dfd, const char *path, const char *name, unsigned char d_type,
                       struct stat *st, int last_try)
{
    if (fstatat(dfd, name, st, AT_SYMLINK_NOFOLLOW)) {
        if ((errno == EIO && !last_try) || (errno == ENOENT && last_try))
            return -errno;
        problem(path, "listed, but lookup fails: ", strerror(errno));
        return 1;
    }
    if (!S_ISDIR(st->st_mode) && !S_ISREG(st->st_mode)) {
        problem(path, "neither a folder nor a regular file", NULL);
        return 1;
    }
    if (d_type != DT_UNKNOWN && (d_type == DT_DIR) != !!S_ISDIR(st->st_mode)) {
        problem(path, d_type == DT_DIR ? "listed as a folder, stat says a file"
                                       : "listed as a file, stat says a folder", NULL);
        return 1;
    }
    if (S_ISDIR(st->st_mode))
        return 0;
    uint64_t h = fnv(content, path, strlen(path) + 1);
    long long n = read_all(dfd, name, &h);
    if (n == -EIO && !last_try)
        return -EIO;
    if (n < 0) {
        problem(path, "does not read: ", strerror((int)-n));
        return 1;
    }
    if (n != (long long)st->st_size) {
        char what[96];
        snprintf(what, sizeof what, "stat says %lld bytes, read gives %lld",
                 (long long)st->st_size, n);
        problem(path, what, NULL);
        return 1;
    }
    files++;
    bytes += (unsigned long long)n;
    content = h;
    return 0;
}

struct name {
    char *s;
    unsigned char type;
};

static int is_view_folder(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    return !strcmp(b, "frames") || !strcmp(b, "joints") || !strcmp(b, "tracks");
}

/* Whether the folder called name is an animation's that -a leaves out. */
static int anim_left_out(const char *name)
{
    size_t n = strlen(name);
    if (n < 4 || strcasecmp(name + n - 4, ".rtm"))
        return 0;
    if (anims_seen++ % anims_every == 0)
        return 0;
    anims_skipped++;
    return 1;
}

static void walk(const char *path, int depth, int again)
{
    DIR *d = opendir(path);
    if (!d) {
        problem(path, "does not open as a folder: ", strerror(errno));
        return;
    }
    folders++;
    uint64_t content0 = content;        /* what a walk again starts from */
    unsigned long files0 = files;
    unsigned long long bytes0 = bytes;
    struct name *v = NULL;
    size_t n = 0, cap = 0;
    errno = 0;
    for (struct dirent *de; (de = readdir(d)); errno = 0) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            struct name *nv = realloc(v, cap * sizeof *v);
            if (!nv) {
                perror("walk_check");
                exit(2);
            }
            v = nv;
        }
        if (!(v[n].s = strdup(de->d_name))) {
            perror("walk_check");
            exit(2);
        }
        v[n++].type = de->d_type;
    }
    if (errno)
        problem(path, "readdir fails: ", strerror(errno));
    int sample = n > sample_n && sample_n >= 2 && is_view_folder(path);
    sampled += (unsigned long)sample;
    int redo = 0;
    for (size_t i = 0, k = 0; i < n && !redo; i++) {
        /* sampled: entries at (n - 1) * k / (sample_n - 1), k = 0 .. sample_n - 1 */
        if (sample) {
            if (k >= sample_n || i != (n - 1) * k / (sample_n - 1))
                continue;
            k++;
        }
        char sub[PATH_MAX];
        struct stat st;
        if (snprintf(sub, sizeof sub, "%s/%s", path, v[i].s) >= (int)sizeof sub) {
            problem(path, "a path too long below it", NULL);
            continue;
        }
        int rc = check_entry(dirfd(d), sub, v[i].s, v[i].type, &st, 0);
        if (rc == -EIO) {
            eio_retried++;
            usleep(100 * 1000);         /* the kernel forgets asynchronously */
            rc = check_entry(dirfd(d), sub, v[i].s, v[i].type, &st, 1);
        }
        if (rc == -ENOENT && !again) {
            redo = 1;                   /* an animation found damaged: error.txt now */
            continue;
        }
        if (rc == -ENOENT)
            problem(sub, "listed, but gone after an EIO", NULL);
        if (rc == 0 && S_ISDIR(st.st_mode) && (v[i].type == DT_DIR || v[i].type == DT_UNKNOWN)) {
            if (anim_left_out(v[i].s))
                continue;
            if (depth < DEPTH_MAX)
                walk(sub, depth + 1, 0);
            else
                problem(sub, "deeper than the walk goes", NULL);
        }
    }
    for (size_t i = 0; i < n; i++)
        free(v[i].s);
    free(v);
    closedir(d);
    if (redo) {
        /* A view's EIO was its animation's damage found at the first full
         * read (rtmfs-views(7), ERROR.TXT): the folder now holds error.txt
         * alone, which the kernel learns asynchronously; walked again. */
        usleep(200 * 1000);
        folders--;
        content = content0;
        files = files0;
        bytes = bytes0;
        rebroken++;
        walk(path, depth, 1);
    }
}

int main(int argc, char **argv)
{
    int opt;
    while ((opt = getopt(argc, argv, "s:a:")) != -1) {
        if (opt == 's')
            sample_n = strtoul(optarg, NULL, 10);
        else if (opt == 'a' && (anims_every = strtoul(optarg, NULL, 10)) >= 1)
            continue;
        else
            goto usage;
    }
    if (optind + 1 != argc)
        goto usage;
    walk(argv[optind], 0, 0);
    if (problems > SHOW_MAX)
        printf("... and %lu more\n", problems - SHOW_MAX);
    printf("shown: %lu folders, %lu files, %llu bytes, content %016llx\n", folders, files, bytes,
           (unsigned long long)content);
    printf("walked: %lu sampled folders, %lu of %lu animations left out, %lu EIO retried, "
           "%lu found damaged\n", sampled, anims_skipped, anims_seen, eio_retried, rebroken);
    return problems ? 1 : 0;
usage:
    fprintf(stderr, "usage: walk_check [-s N] [-a K] ROOT\n");
    return 2;
}
