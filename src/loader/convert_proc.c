/* convert_proc.c - a converter program run on a file's bytes
 * (convert_proc.h). */
#include "convert_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define PROG "rtmfs-fbx"
enum { STDERR_KEEP = 1024, CHUNK = 1 << 16 };

/* One run of the converter. */
struct run {
    pid_t pid;
    int in, out, errfd, pidfd;      /* this side's ends; -1 once closed */
    const uint8_t *data;
    size_t len, sent;
    uint8_t *buf;                   /* stdout */
    size_t buf_len, buf_cap;
    uint64_t cap;
    char errtext[STDERR_KEEP + 1];  /* the start of stderr */
    size_t err_len;
    int exited, status, too_much, oom;
};

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static int executable(const char *path) { return access(path, X_OK) == 0; }

/* $RTMFS_FBX, else beside the running program, else in its ../lib/rtmfs. */
static int find_program(char *path, size_t n, struct rtm_error *err)
{
    const char *env = getenv("RTMFS_FBX");
    if (env && *env) {
        snprintf(path, n, "%s", env);
        return 0;
    }
    char self[PATH_MAX];
    ssize_t got = readlink("/proc/self/exe", self, sizeof self - 1);
    if (got <= 0) {
        rtm_err_nooff(err, PROG " not found: /proc/self/exe does not say where this program is "
                      "(set RTMFS_FBX)");
        return -1;
    }
    self[got] = '\0';
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = '\0';
    snprintf(path, n, "%s/" PROG, self);
    if (executable(path))
        return 0;
    snprintf(path, n, "%s/../lib/rtmfs/" PROG, self);
    if (executable(path))
        return 0;
    rtm_err_nooff(err, PROG " not found beside %s nor in %s/../lib/rtmfs (install it, or set RTMFS_FBX)",
                  self, self);
    return -1;
}

static int spawn(struct run *r, const char *path, struct rtm_error *err)
{
    int in[2] = { -1, -1 }, out[2] = { -1, -1 }, ep[2] = { -1, -1 }, rc;
    /* stdin a socket: send(MSG_NOSIGNAL) gets EPIPE, not SIGPIPE, when the
     * converter stops reading */
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0 || pipe2(out, O_CLOEXEC) != 0 ||
        pipe2(ep, O_CLOEXEC) != 0) {
        rtm_err_sys(err, errno, 0, "cannot make pipes for " PROG ": %s", strerror(errno));
        rc = -1;
        goto done;
    }
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    sigset_t none, dflt;
    sigemptyset(&none);
    sigemptyset(&dflt);
    int dflt_sigs[] = { SIGPIPE, SIGXCPU, SIGXFSZ, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2,
                        SIGALRM, SIGCHLD };
    for (size_t i = 0; i < sizeof dflt_sigs / sizeof dflt_sigs[0]; i++)
        sigaddset(&dflt, dflt_sigs[i]);
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&at);
    posix_spawn_file_actions_adddup2(&fa, in[1], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, ep[1], 2);
    posix_spawn_file_actions_addclosefrom_np(&fa, 3);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setsigdefault(&at, &dflt);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
    char *argv[] = { (char *)PROG, NULL };
    rc = posix_spawn(&r->pid, path, &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (rc != 0) {
        if (rc == ENOENT || rc == EACCES || rc == ENOEXEC)
            rtm_err_nooff(err, "cannot run %s: %s", path, strerror(rc));
        else
            rtm_err_sys(err, rc, 0, "cannot run %s: %s", path, strerror(rc));
        rc = -1;
        goto done;
    }
    r->in = in[0], r->out = out[0], r->errfd = ep[0];
    in[0] = out[0] = ep[0] = -1;
    fcntl(r->in, F_SETFL, O_NONBLOCK);
    fcntl(r->out, F_SETFL, O_NONBLOCK);
    fcntl(r->errfd, F_SETFL, O_NONBLOCK);
    /* a descriptor that polls readable when the child ends (Linux 5.3);
     * without it the loop looks every 20 ms */
    r->pidfd = (int)syscall(SYS_pidfd_open, r->pid, 0);
    if (r->pidfd >= 0)
        fcntl(r->pidfd, F_SETFD, FD_CLOEXEC);
done:
    for (int i = 0; i < 2; i++) {
        close_fd(&in[i]);
        close_fd(&out[i]);
        close_fd(&ep[i]);
    }
    return rc;
}

static void feed(struct run *r)
{
    while (r->sent < r->len) {
        size_t n = r->len - r->sent < CHUNK ? r->len - r->sent : CHUNK;
        ssize_t w = send(r->in, r->data + r->sent, n, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (w <= 0) {           /* EPIPE, ECONNRESET: it stopped reading */
            close_fd(&r->in);
            return;
        }
        r->sent += (size_t)w;
    }
    close_fd(&r->in);           /* end of file for the converter */
}

static void drain_out(struct run *r)
{
    for (;;) {
        if (r->buf_cap - r->buf_len < CHUNK) {
            size_t cap = r->buf_cap ? 2 * r->buf_cap : 4 * CHUNK;
            if (cap > r->cap + CHUNK)
                cap = (size_t)r->cap + CHUNK;
            uint8_t *b = cap > r->buf_cap ? realloc(r->buf, cap) : NULL;
            if (!b) {
                r->oom = cap > r->buf_cap;
                r->too_much = !r->oom;
                return;
            }
            r->buf = b;
            r->buf_cap = cap;
        }
        ssize_t got = read(r->out, r->buf + r->buf_len, r->buf_cap - r->buf_len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (got <= 0) {
            close_fd(&r->out);
            return;
        }
        r->buf_len += (size_t)got;
        if (r->buf_len > r->cap) {
            r->too_much = 1;
            return;
        }
    }
}

static void drain_err(struct run *r)
{
    char sink[4096];
    for (;;) {
        ssize_t got = read(r->errfd, sink, sizeof sink);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (got <= 0) {
            close_fd(&r->errfd);
            return;
        }
        size_t keep = STDERR_KEEP - r->err_len < (size_t)got ? STDERR_KEEP - r->err_len : (size_t)got;
        memcpy(r->errtext + r->err_len, sink, keep);
        r->err_len += keep;
    }
}

/* Whether the child has ended, without reaping it: until reap() it stays
 * a zombie, so its pid, and the group's, cannot name another process. */
static void look_at_child(struct run *r)
{
    siginfo_t info;
    memset(&info, 0, sizeof info);
    int rc;
    while ((rc = waitid(P_PID, (id_t)r->pid, &info, WEXITED | WNOHANG | WNOWAIT)) < 0 && errno == EINTR)
        ;
    if (rc < 0 || info.si_pid == r->pid)    /* (ECHILD: reaped elsewhere) */
        r->exited = 1;
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Until the child has ended and closed its output, or time runs out (0),
 * or it wrote too much or memory ran out (-1). */
static int pump(struct run *r, long long deadline)
{
    while (!(r->exited && r->out < 0 && r->errfd < 0)) {
        struct pollfd p[4];
        int n = 0, i_in = -1, i_out = -1, i_err = -1, i_pid = -1;
        if (r->in >= 0)
            i_in = n, p[n++] = (struct pollfd){ .fd = r->in, .events = POLLOUT };
        if (r->out >= 0)
            i_out = n, p[n++] = (struct pollfd){ .fd = r->out, .events = POLLIN };
        if (r->errfd >= 0)
            i_err = n, p[n++] = (struct pollfd){ .fd = r->errfd, .events = POLLIN };
        if (!r->exited && r->pidfd >= 0)
            i_pid = n, p[n++] = (struct pollfd){ .fd = r->pidfd, .events = POLLIN };
        long long left = deadline - now_ms();
        if (left <= 0)
            return 0;
        int wait = (int)(left < INT_MAX ? left : INT_MAX);
        if (!r->exited && r->pidfd < 0 && wait > 20)
            wait = 20;
        if (poll(p, (nfds_t)n, wait) < 0 && errno != EINTR)
            return -1;
        if (i_in >= 0 && p[i_in].revents)
            feed(r);
        if (i_out >= 0 && p[i_out].revents)
            drain_out(r);
        if (i_err >= 0 && p[i_err].revents)
            drain_err(r);
        if (r->too_much || r->oom)
            return -1;
        if (!r->exited && (r->pidfd < 0 || (i_pid >= 0 && p[i_pid].revents)))
            look_at_child(r);
    }
    return 1;
}

/* Kills the group (the child if it still runs, and whatever it left
 * running), then waits for the child: its status, or -1 when another
 * waiter took it. */
static void reap(struct run *r)
{
    int st;
    pid_t w;
    kill(-r->pid, SIGKILL);
    while ((w = waitpid(r->pid, &st, 0)) < 0 && errno == EINTR)
        ;
    r->status = w == r->pid ? st : -1;
    close_fd(&r->in);
    close_fd(&r->out);
    close_fd(&r->errfd);
    close_fd(&r->pidfd);
}

/* The first line of what the converter said, or "" */
static const char *first_line(struct run *r)
{
    r->errtext[r->err_len] = '\0';
    char *nl = strchr(r->errtext, '\n');
    if (nl)
        *nl = '\0';
    return r->errtext;
}

static int verdict(struct run *r, int pumped, unsigned timeout_ms, struct rtm_error *err)
{
    if (r->oom) {
        rtm_err_oom(err, "out of memory for %zu bytes of " PROG "'s output", r->buf_cap * 2);
        return -1;
    }
    if (r->too_much) {
        rtm_err_nooff(err, PROG " wrote more than %llu bytes for a %zu-byte file (64 times it and 16 MiB)",
                      (unsigned long long)r->cap, r->len);
        return -1;
    }
    if (pumped == 0) {
        rtm_err_nooff(err, PROG " took longer than %g s", timeout_ms / 1000.0);
        return -1;
    }
    if (pumped < 0) {
        rtm_err_sys(err, errno, 0, "waiting for " PROG ": %s", strerror(errno));
        return -1;
    }
    if (r->status == -1) {
        rtm_err_sys(err, ECHILD, 0, PROG "'s exit status was taken by another waiter");
        return -1;
    }
    if (WIFSIGNALED(r->status)) {
        int sig = WTERMSIG(r->status);
        const char *name = sigabbrev_np(sig);
        rtm_err_nooff(err, PROG " died of signal %d (%s)", sig, name ? name : "?");
        return -1;
    }
    const char *said = first_line(r);
    int code = WEXITSTATUS(r->status);
    if (code == 1 && *said) {
        rtm_err_nooff(err, "%s", said);
        return -1;
    }
    if (code != 0) {
        rtm_err_nooff(err, PROG " exited with status %d%s%s", code, *said ? ": " : "", said);
        return -1;
    }
    if (r->buf_len == 0) {
        rtm_err_nooff(err, PROG " wrote nothing");
        return -1;
    }
    return 0;
}

int rtm_convert_proc(void *ctx, const char *format, const uint8_t *data, size_t len, uint8_t **glb,
                     size_t *glb_len, struct rtm_error *err)
{
    const struct rtm_convert_opts *o = ctx;
    unsigned timeout_ms = o && o->timeout_ms ? o->timeout_ms : RTM_CONVERT_TIMEOUT_MS;
    char path[PATH_MAX + 32];
    *glb = NULL;
    *glb_len = 0;
    if (strcmp(format, "fbx") != 0) {
        rtm_err_nooff(err, "no converter reads %s files", format);
        return -1;
    }
    if (find_program(path, sizeof path, err) != 0)
        return -1;
    struct run r = { .in = -1, .out = -1, .errfd = -1, .pidfd = -1, .data = data, .len = len,
                     .cap = RTM_CONVERT_CAP(len) };
    if (spawn(&r, path, err) != 0)
        return -1;
    int pumped = pump(&r, now_ms() + timeout_ms);
    int saved = errno;
    reap(&r);
    errno = saved;
    if (verdict(&r, pumped, timeout_ms, err) != 0) {
        free(r.buf);
        return -1;
    }
    *glb = r.buf;
    *glb_len = r.buf_len;
    return 0;
}
