/* rtmcat_missing.c - the root's missing.txt and check.txt without
 * mounting (rtmcat_missing.h): a tree on DIR as `rtmfs DIR` makes it, the
 * file looked up at its root and read as the kernel would, so the bytes
 * are the mount's. */
#include "rtmcat_missing.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader.h"
#include "tree.h"

void rtmcat_missing_usage(FILE *f)
{
    fprintf(f, "\n"
               "rtmcat -C DIR missing.txt prints what the mount of DIR (a folder or an\n"
               "archive) shows as missing.txt: the config states whose file no animation\n"
               "under DIR has; rtmcat -C DIR check.txt, the root's check.txt: the\n"
               "mistakes in those states the game would find\n");
}

int rtmcat_missing_asked(const char *cdir, char **operands, int n)
{
    return cdir && n == 1 && (strcmp(operands[0], RTM_TREE_MISSING_NAME) == 0 ||
                              strcmp(operands[0], RTM_TREE_CHECK_NAME) == 0);
}

/* SOURCE cdir as the mount takes it: its folder's fd, and (an archive)
 * its name into file (NAME_MAX + 1 bytes, "" for a folder). */
static int open_source(const char *cdir, char *file)
{
    char copy[PATH_MAX];
    struct stat st;
    file[0] = 0;
    if (stat(cdir, &st))
        return -1;
    if (S_ISDIR(st.st_mode))
        return open(cdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (snprintf(copy, sizeof copy, "%s", cdir) >= (int)sizeof copy ||
        strlen(basename(copy)) > NAME_MAX)
        return errno = ENAMETOOLONG, -1;
    strcpy(file, basename(copy));
    snprintf(copy, sizeof copy, "%s", cdir);
    return open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/* Copies file ino of tree t to stdout: 0, or a negative errno. */
static int print_file(struct rtm_tree *t, uint64_t ino)
{
    char buf[65536];
    off_t off = 0;
    for (;;) {
        ssize_t n = rtm_tree_read(t, ino, buf, sizeof buf, off);
        if (n < 0)
            return (int)n;
        if (n == 0)
            return fflush(stdout) ? -errno : 0;
        if (fwrite(buf, 1, (size_t)n, stdout) != (size_t)n)
            return -errno;
        off += n;
    }
}

int rtmcat_missing(const char *cdir, const char *name)
{
    char file[NAME_MAX + 1];
    int fd = open_source(cdir, file), rc = -ENOMEM;
    if (fd < 0) {
        fprintf(stderr, "rtmcat: %s: %s\n", cdir, strerror(errno));
        return 1;
    }
    struct rtm_loader l = { .srcfd = fd, .digits = RTM_DIGITS_EXACT };
    struct rtmc *cache = l.cache = rtmc_new(SIZE_MAX / 2, rtm_loader_load, &l);
    struct rtm_tree_config cfg = { .srcfd = fd, .cache = cache, .file = *file ? file : NULL };
    struct rtm_tree *t = cache ? rtm_tree_new(&cfg) : NULL;
    struct rtm_tree_entry e;
    if (t && (rc = rtm_tree_lookup(t, RTM_INO_ROOT, name, &e)) == 0)
        rc = print_file(t, e.ino);
    if (rc)
        fprintf(stderr, "rtmcat: %s/%s: %s\n", cdir, name, strerror(-rc));
    rtm_tree_free(t);
    rtmc_free(cache);
    close(fd);
    return rc ? 1 : 0;
}
