/* rtmcat_text.c - rtmcat on a config file named on the command line
 * (rtmcat_text.h): a text config preprocessed and parsed, printed as the
 * class text a rapified one prints as; with -E its preprocessed text; a
 * file that starts with "\0raP" read as rapified whatever its name. */
#include "rtmcat_text.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cfg_pp.h"
#include "config.h"
#include "gamepath.h"
#include "rtmcat_config.h"
#include "util.h"

void rtmcat_text_usage(FILE *f)
{
    fprintf(f,
            "\nA text config (config.cpp, model.cfg, *.hpp, *.ext) prints as the class\n"
            "text of a rapified one, preprocessed as the game does (#include from its\n"
            "folder, its addon's game paths ($PBOPREFIX$) and include/, then each -I\n"
            "DIR); -E prints the preprocessed text instead, like cpp.  A file that\n"
            "starts with \\0raP prints as a rapified config whatever its name.\n"
            "  -E                   print a text config's preprocessed text\n"
            "  -I DIR               another folder #include looks in (repeatable)\n");
}

/* Whether the last part of name is a text config's: config.cpp,
 * model.cfg, *.hpp, *.ext (ASCII case ignored). */
static int text_name(const char *name)
{
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    size_t n = strlen(base);
    return !strcasecmp(base, "config.cpp") || !strcasecmp(base, "model.cfg") ||
           (n > 4 && (!strcasecmp(base + n - 4, ".hpp") || !strcasecmp(base + n - 4, ".ext")));
}

struct roots {
    struct gamepath_project *pr;
    const char *const *inc;
    int ninc;
};

/* The addon's game paths first, then each -I DIR with the path's parts. */
static int resolve(void *arg, const char *gamepath, char *out, size_t n)
{
    const struct roots *r = arg;
    struct stat st;
    if (r->pr && gamepath_project_resolve(r->pr, gamepath, out, n) == 0)
        return 0;
    for (int i = 0; i < r->ninc; i++) {
        int k = snprintf(out, n, "%s/%s", r->inc[i], gamepath);
        if (k < 0 || (size_t)k >= n)
            continue;
        for (char *p = out + strlen(r->inc[i]) + 1; *p; p++)
            *p = *p == '\\' ? '/' : *p;
        if (stat(out, &st) == 0 && S_ISREG(st.st_mode))
            return 0;
    }
    return -1;
}

static int fail(const char *file, const char *msg)
{
    fprintf(stderr, "rtmcat: %s: %s\n", file, msg);
    return 1;
}

/* The text of data, preprocessed then (unless pp_only) parsed, into b. */
static int text_config(const char *file, const uint8_t *data, size_t len, int pp_only,
                       const char *const *inc, int ninc, struct rtm_buf *b)
{
    char dir[PATH_MAX], gp[PATH_MAX];
    struct roots r = { NULL, inc, ninc };
    struct rtm_error err = { .msg = "" };
    gamepath_project_open(file, &r.pr);
    struct cfg_pp_opts o = { resolve, &r, r.pr ? gamepath_project_include(r.pr) : NULL, 0,
                             gamepath_loose(file, gp, sizeof gp, NULL, 0) == 0 ? gp : NULL };
    struct cfg_pp_result pp;
    snprintf(dir, sizeof dir, "%s", file);
    int rc = cfg_pp_text((const char *)data, len, file, dirname(dir), &o, &pp, &err);
    gamepath_project_free(r.pr);
    if (rc) {
        fprintf(stderr, "rtmcat: %s\n", err.msg);
        return 1;
    }
    struct cfg *c = NULL;
    if (pp_only)
        buf_put(b, pp.text.p ? pp.text.p : "", pp.text.len);
    else if (cfg_parse_text(pp.text.p ? pp.text.p : "", pp.text.len, file, &pp.map, &c, &err))
        rc = 1;
    cfg_pp_free(&pp);
    if (rc) {
        fprintf(stderr, "rtmcat: %s\n", err.msg);
        return 1;
    }
    if (c)
        cfg_print_text(c, b);
    cfg_free(c);
    return 0;
}

int rtmcat_text(const char *file, const char *view, int pp_only, const char *const *inc,
                int ninc)
{
    struct stat st;
    if (stat(file, &st) || !S_ISREG(st.st_mode))
        return pp_only ? fail(file, errno ? strerror(errno) : "not a file") : -1;
    uint8_t magic[4];
    int fd = open(file, O_RDONLY | O_CLOEXEC);
    ssize_t got = fd >= 0 ? read(fd, magic, sizeof magic) : -1;
    int rapified = got == (ssize_t)sizeof magic && rap_is_rapified(magic, sizeof magic);
    if (fd < 0 || (!rapified && !text_name(file))) {
        if (fd >= 0)
            close(fd);
        return pp_only ? fail(file, fd < 0 ? strerror(errno) : "not a text config") : -1;
    }
    if (view) {
        close(fd);
        fprintf(stderr, "rtmcat: %s: a %s config has no views; 'rtmcat %s' prints its text\n",
                file, rapified ? "rapified" : "text", file);
        return 1;
    }
    if (rapified && pp_only) {
        close(fd);
        return fail(file, "a rapified config has no preprocessed text (-E)");
    }
    uint8_t *data = NULL;
    size_t len = 0;
    int e = lseek(fd, 0, SEEK_SET) < 0 ? errno : rtmcat_read_fd(fd, &data, &len);
    close(fd);
    if (e)
        return fail(file, strerror(e));
    struct rtm_buf b;
    buf_init(&b);
    int status = 0;
    if (rapified) {
        struct rtm_error err = { .msg = "" };
        struct cfg *c;
        if (rap_read(data, len, &c, &err)) {
            char msg[sizeof err.msg + 32];
            rtm_err_format(&err, msg, sizeof msg);
            status = fail(file, msg);
        } else {
            cfg_print_text(c, &b);
            cfg_free(c);
        }
    } else {
        status = text_config(file, data, len, pp_only, inc, ninc, &b);
    }
    free(data);
    if (!status)
        status = b.oom ? fail(file, "out of memory") : rtmcat_write_out(b.p ? b.p : "", b.len);
    buf_free(&b);
    return status;
}
