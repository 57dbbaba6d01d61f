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
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cfg_pp.h"
#include "config.h"
#include "gamepath.h"
#include "pbo.h"
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

/* What the preprocessor left as written, on stderr once (cfg_pp.h). */
static void say_left(const char *file, const struct cfg_pp_counts *counts)
{
    static const char lead[] = "// rtmfs: ";
    struct rtm_buf note;
    rtm_buf_init(&note);
    cfg_pp_note(counts, &note);
    if (note.len > sizeof lead - 1 && !memcmp(note.p, lead, sizeof lead - 1))
        fprintf(stderr, "rtmcat: %s: %.*s", file, (int)(note.len - (sizeof lead - 1)),
                note.p + sizeof lead - 1);
    rtm_buf_free(&note);
}

/* The text of data, preprocessed then (unless pp_only) parsed, into b. */
static int text_config(const char *file, const uint8_t *data, size_t len, int pp_only,
                       const char *const *inc, int ninc, struct rtm_buf *b)
{
    char dir[PATH_MAX], gp[PATH_MAX];
    struct roots r = { NULL, inc, ninc };
    struct rtm_error err = { .msg = "" };
    gamepath_project_open(file, &r.pr);
    struct cfg_pp_opts o = {
        .resolve = resolve, .arg = &r,
        .include_dir = r.pr ? gamepath_project_include(r.pr) : NULL,
        .gamepath = gamepath_loose(file, gp, sizeof gp, NULL, 0) == 0 ? gp : NULL };
    struct cfg_pp_result pp;
    snprintf(dir, sizeof dir, "%s", file);
    int rc = cfg_pp_text((const char *)data, len, file, dirname(dir), &o, &pp, &err);
    gamepath_project_free(r.pr);
    if (rc) {
        fprintf(stderr, "rtmcat: %s\n", err.msg);
        return 1;
    }
    struct cfg *c = NULL;
    say_left(file, &pp.counts);
    if (pp_only)
        rtm_buf_put(b, pp.text.p ? pp.text.p : "", pp.text.len);
    else if (cfg_parse_text(pp.text.p, pp.text.len, file, &pp.map, &c, &err))
        rc = 1;
    else
        c->pp = pp.counts;              /* the text's first line says it too */
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

/* FILE as ARCHIVE.pbo/ENTRY, an entry of an archive on disk: 0 with its
 * content in *data (the caller frees it) and *entry pointing into file;
 * -1 when file names none, or one that cannot be read (the tree's way
 * then says why, as the mount's error.txt does). */
static int entry_bytes(const char *file, const char **entry, uint8_t **data, size_t *len)
{
    char archive[PATH_MAX];
    struct stat st;
    for (const char *p = file; (p = strchr(p, '/')); p++) {
        size_t n = (size_t)(p - file);
        if (n < 4 || n >= sizeof archive || strncasecmp(p - 4, ".pbo", 4))
            continue;
        memcpy(archive, file, n);
        archive[n] = 0;
        if (stat(archive, &st) || !S_ISREG(st.st_mode) ||
            rtm_name_ends(p + 1, strlen(p + 1), ".rtm"))
            return -1;                  /* animations go the tree's way, unread */
        struct pbo *pb = NULL;
        struct rtm_error err = { .msg = "" };
        int fd = open(archive, O_RDONLY | O_CLOEXEC);
        long i = -1;
        int rc = fd < 0 || pbo_load_table(NULL, fd, &pb, &err) || (i = pbo_find(pb, p + 1)) < 0 ||
                         pbo_load_entry(NULL, fd, pb, (size_t)i, data, len, &err)
                     ? -1
                     : 0;
        if (fd >= 0)
            close(fd);
        pbo_free(pb);
        *entry = p + 1;
        return rc;
    }
    return -1;
}

/* file's bytes, from disk or from an archive's entry (the part of file
 * that names it in *name): 0, 1 (said), or -1 when there is no such
 * file. */
static int text_config_name(const char *name, int rapified);

/* Whether the file open as fd may be a config named name: by its name, or
 * by the magic of its first four bytes (an animation is not read whole
 * twice for this). */
static int may_be_config(int fd, const char *name)
{
    uint8_t magic[4];
    return text_config_name(name, 0) ||
           (rtm_pread_full(fd, magic, sizeof magic, 0) == (ssize_t)sizeof magic &&
            rap_is_rapified(magic, sizeof magic));
}

/* The bytes of config file (or archive entry) into *data and *len, its
 * name into *name: 0; NOT_CONFIG for a file that is no config; else
 * entry_bytes' or fail()'s status. */
enum { NOT_CONFIG = -2 };
static int config_bytes(const char *file, const char **name, uint8_t **data, size_t *len)
{
    struct stat st;
    *name = file;
    if (stat(file, &st) || !S_ISREG(st.st_mode))
        return entry_bytes(file, name, data, len);
    int fd = open(file, O_RDONLY | O_CLOEXEC);
    if (fd >= 0 && !may_be_config(fd, file)) {
        close(fd);
        return NOT_CONFIG;
    }
    int e = fd < 0 ? errno : rtmcat_read_fd(fd, data, len);
    if (fd >= 0)
        close(fd);
    return e ? fail(file, strerror(e)) : 0;
}

/* Whether name is a text config's: config.cpp, model.cfg, *.hpp, *.ext,
 * or a mission's *.sqm that is not rapified. */
static int text_config_name(const char *name, int rapified)
{
    size_t n = strlen(name);
    return text_name(name) || (!rapified && n > 4 && !strcasecmp(name + n - 4, ".sqm"));
}

int rtmcat_text(const char *file, const char *view, int pp_only, const char *const *inc,
                int ninc)
{
    const char *name;
    uint8_t *data = NULL;
    size_t len = 0;
    int rc = config_bytes(file, &name, &data, &len);
    if (rc == NOT_CONFIG)
        return pp_only ? fail(file, "not a text config") : -1;
    if (rc)
        return rc > 0 ? 1 : pp_only ? fail(file, "no such file") : -1;
    int rapified = rap_is_rapified(data, len);
    if (!rapified && !text_config_name(name, rapified)) {
        free(data);
        return pp_only ? fail(file, "not a text config") : -1;
    }
    if (view || (rapified && pp_only)) {
        free(data);
        if (view)
            fprintf(stderr, "rtmcat: %s: a %s config has no views; 'rtmcat %s' prints its "
                            "text\n", file, rapified ? "rapified" : "text", file);
        return view ? 1 : fail(file, "a rapified config has no preprocessed text (-E)");
    }
    struct rtm_buf b;
    rtm_buf_init(&b);
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
    rtm_buf_free(&b);
    return status;
}
