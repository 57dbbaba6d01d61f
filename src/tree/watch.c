/* watch.c - inotify over SOURCE (see watch.h). */
#include "watch.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <syslog.h>
#include <unistd.h>

#include "array.h"

#define WATCH_MASK (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | \
                    IN_MODIFY | IN_ATTRIB | IN_ONLYDIR | IN_DONT_FOLLOW)

struct rtm_watch {
    char *source;
    int ifd, stop[2];
    pthread_t thread;
    int running;
    struct rtm_tree *tree;
    struct rtm_tree_notify notify;
    pthread_mutex_t lock;
    char **wpath;                 /* indexed by watch descriptor */
    size_t nwpath;
    long limit;                   /* RTMFS_TEST_WATCH_LIMIT, or -1 */
    long added;
    atomic_int said_fail, said_overflow;
};

/* Said once: on stderr (seen under -f) and to syslog (a daemon's stderr is
 * /dev/null). */
static void say_once(atomic_int *said, const char *line)
{
    if (atomic_exchange(said, 1))
        return;
    fprintf(stderr, "rtmfs: %s\n", line);
    syslog(LOG_WARNING, "%s", line);
}

static void say_unwatched(struct rtm_watch *w, const char *path, int err)
{
    char line[PATH_MAX + 256];
    snprintf(line, sizeof line, "cannot watch %s for changes (%s); changes in folders not "
             "watched show after 0.5 s instead", path, strerror(err));
    say_once(&w->said_fail, line);
}

struct rtm_watch *rtm_watch_new(const char *source, int use_inotify)
{
    struct rtm_watch *w = calloc(1, sizeof *w);
    if (!w || !(w->source = strdup(source))) {
        free(w);
        return NULL;
    }
    w->stop[0] = w->stop[1] = -1;
    const char *limit = getenv("RTMFS_TEST_WATCH_LIMIT");
    w->limit = limit ? atol(limit) : -1;
    pthread_mutex_init(&w->lock, NULL);
    const char *no = getenv("RTMFS_TEST_NO_INOTIFY");
    errno = ENOSYS;
    w->ifd = !use_inotify || (no && *no == '1') ? -1 : inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
    if (w->ifd < 0 && use_inotify)
        say_unwatched(w, source, errno);
    return w;
}

/* Remembers dir as the path of watch wd; false when out of memory. */
static int remember(struct rtm_watch *w, int wd, const char *dir)
{
    if ((size_t)wd >= w->nwpath) {
        size_t old = w->nwpath;
        void *p = w->wpath;             /* the first block: 2 wd + 16 slots */
        if (rtm_array_grow(&p, &w->nwpath, (size_t)wd + 1, sizeof *w->wpath,
                           (size_t)wd * 2 + 16))
            return 0;
        w->wpath = p;
        memset(w->wpath + old, 0, (w->nwpath - old) * sizeof *w->wpath);
    }
    free(w->wpath[wd]);
    w->wpath[wd] = strdup(dir);         /* a renamed folder gets its new path */
    return w->wpath[wd] != NULL;
}

int rtm_watch_add(void *ctx, const char *dir)
{
    struct rtm_watch *w = ctx;
    char abs[PATH_MAX];
    if (w->ifd < 0)
        return -1;
    if (snprintf(abs, sizeof abs, "%s/%s", w->source, dir) >= (int)sizeof abs)
        return -1;
    pthread_mutex_lock(&w->lock);
    int wd = w->limit >= 0 && w->added >= w->limit ? (errno = ENOSPC, -1)
                                                   : inotify_add_watch(w->ifd, abs, WATCH_MASK);
    int e = errno, ok = wd >= 0 && remember(w, wd, dir);
    if (wd >= 0)
        w->added++;
    pthread_mutex_unlock(&w->lock);
    if (wd < 0)
        say_unwatched(w, abs, e);
    return ok ? 0 : -1;
}

/* Folder dir is no longer watched (deleted, or a file system unmounted
 * there): told as a change of its entry in its parent, so that the tree
 * keeps nothing it learnt while dir was watched. */
static void watch_gone(struct rtm_watch *w, const char *dir)
{
    char parent[PATH_MAX];
    const char *slash = strrchr(dir, '/');
    if (!*dir) {
        rtm_tree_changed_all(w->tree, &w->notify);
        return;
    }
    snprintf(parent, sizeof parent, "%.*s", slash ? (int)(slash - dir) : 0, dir);
    rtm_tree_changed(w->tree, parent, slash ? slash + 1 : dir, &w->notify);
}

static void on_event(struct rtm_watch *w, const struct inotify_event *ev)
{
    if (ev->mask & IN_Q_OVERFLOW) {
        char line[PATH_MAX + 128];
        snprintf(line, sizeof line, "%s: the inotify queue overflowed and changes were lost; "
                 "everything cached was dropped", w->source);
        say_once(&w->said_overflow, line);
        rtm_tree_changed_all(w->tree, &w->notify);
        return;
    }
    char dir[PATH_MAX] = "";
    pthread_mutex_lock(&w->lock);
    const char *p = ev->wd >= 0 && (size_t)ev->wd < w->nwpath ? w->wpath[ev->wd] : NULL;
    int known = p != NULL;
    if (p)
        snprintf(dir, sizeof dir, "%s", p);
    if (p && (ev->mask & IN_IGNORED)) {
        free(w->wpath[ev->wd]);
        w->wpath[ev->wd] = NULL;
    }
    pthread_mutex_unlock(&w->lock);
    if (known && !(ev->mask & IN_IGNORED))
        rtm_tree_changed(w->tree, dir, ev->len ? ev->name : NULL, &w->notify);
    else if (known)
        watch_gone(w, dir);
}

static void *watch_main(void *arg)
{
    struct rtm_watch *w = arg;
    char buf[64 * 1024] __attribute__((aligned(__alignof__(struct inotify_event))));
    struct pollfd pfd[2] = { { w->ifd, POLLIN, 0 }, { w->stop[0], POLLIN, 0 } };
    for (;;) {
        if (poll(pfd, 2, -1) < 0 && errno != EINTR)
            break;
        if (pfd[1].revents)
            break;
        ssize_t n = read(w->ifd, buf, sizeof buf);
        for (ssize_t i = 0; n > 0 && i < n;) {
            const struct inotify_event *ev = (const void *)(buf + i);
            on_event(w, ev);
            i += (ssize_t)(sizeof *ev + ev->len);
        }
        if (n > 0)
            rtm_tree_changes_done(w->tree, &w->notify);
    }
    return NULL;
}

int rtm_watch_start(struct rtm_watch *w, struct rtm_tree *tree, const struct rtm_tree_notify *n)
{
    if (w->ifd < 0)
        return 0;                       /* nothing to report; already said */
    w->tree = tree;
    w->notify = *n;
    if (pipe(w->stop))
        return -errno;
    int rc = pthread_create(&w->thread, NULL, watch_main, w);
    w->running = rc == 0;
    return -rc;
}

void rtm_watch_stop(struct rtm_watch *w)
{
    if (!w || !w->running)
        return;
    if (write(w->stop[1], "x", 1) < 0)
        perror("rtmfs: stopping the watcher");
    pthread_join(w->thread, NULL);
    w->running = 0;
}

void rtm_watch_free(struct rtm_watch *w)
{
    if (!w)
        return;
    rtm_watch_stop(w);
    for (int i = 0; i < 2; i++)
        if (w->stop[i] >= 0)
            close(w->stop[i]);
    for (size_t i = 0; i < w->nwpath; i++)
        free(w->wpath[i]);
    free(w->wpath);
    if (w->ifd >= 0)
        close(w->ifd);
    pthread_mutex_destroy(&w->lock);
    free(w->source);
    free(w);
}
