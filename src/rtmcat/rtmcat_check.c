/* rtmcat_check.c - rtmcat --check (rtmcat_check.h).
 *
 * It reads files with the format core directly (rtm_parse, pbo_load_*),
 * not through the tree: a CI run walks a whole addons/ folder once, and
 * check.txt's bytes are the same function of a file, its skeleton and
 * its digits wherever the anim comes from (check.h). */
#include "rtmcat_check.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "loader.h"
#include "pbo.h"
#include "rtm.h"
#include "skeleton_cfg.h"

struct run {
    const struct rtm_skeleton *skel;
    int skel_given;             /* -s: no model.cfg gives the skeleton */
    int digits;
    unsigned flags;
    int unreadable, error, warning;
};

void rtmcat_check_usage(FILE *f)
{
    fprintf(f, "      --check          what the game will complain about (check.txt) in\n"
               "                       each FILE: animations, archives, ARCHIVE.pbo/ENTRY\n"
               "                       or folder trees; exit 1 on an error (--strict: or a\n"
               "                       warning), 2 when a file cannot be read;\n"
               "                       --format=json: one JSON object a file\n");
}

/* A JSON string of s: control bytes escaped, other bytes as they are. */
static void put_json(const char *s, size_t n)
{
    putchar('"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

static void cannot_read(struct run *r, const char *file, const char *why)
{
    fprintf(stderr, "rtmcat: %s: %s\n", file, why);
    r->unreadable = 1;
    if (r->flags & RTMCAT_CHECK_JSON) {
        printf("{\"file\": ");
        put_json(file, strlen(file));
        printf(", \"error\": ");
        put_json(why, strlen(why));
        printf("}\n");
    }
}

/* One finding line of check.txt, "LEVEL CODE: message". */
static void print_finding(struct run *r, const char *file, const char *ln, size_t n, int first)
{
    const char *sp = memchr(ln, ' ', n), *colon = sp ? strstr(sp, ": ") : NULL;
    r->error |= strncmp(ln, "error ", 6) == 0;
    r->warning |= strncmp(ln, "warning ", 8) == 0;
    if (!(r->flags & RTMCAT_CHECK_JSON)) {
        printf("%s: %.*s\n", file, (int)n, ln);
        return;
    }
    if (!sp || !colon || colon > ln + n)        /* cannot happen: check.h's form */
        return;
    printf("%s{\"level\": ", first ? "" : ", ");
    put_json(ln, (size_t)(sp - ln));
    printf(", \"code\": ");
    put_json(sp + 1, (size_t)(colon - sp - 1));
    printf(", \"message\": ");
    put_json(colon + 2, (size_t)(ln + n - colon - 2));
    putchar('}');
}

/* The model.cfg beside an animation, as its classes (skeleton_cfg.h), in
 * *classes (malloc'd: the caller frees it) and what it is in where: NULL
 * when there is none (or -s was given), else the model.cfg's name beside
 * the animation, or why it is not used: as the mount's check.txt says it
 * (loader.h, rtm_side_file_name). */
struct beside {
    uint8_t *classes;
    size_t len;
    char where[PATH_MAX + 256];
};

static void beside_bytes(struct beside *m, const char *name, uint8_t *cfg, size_t len)
{
    struct rtm_buf b;
    struct rtm_error err = { .msg = "" };
    rtm_buf_init(&b);
    if (rtm_skeleton_cfg_classes_of(cfg, len, name, &b, &err) == 0) {
        m->len = b.len;
        m->classes = (uint8_t *)rtm_buf_take(&b, NULL);
        snprintf(m->where, sizeof m->where, "%s", name);
    } else {
        rtm_buf_free(&b);
        rtm_model_cfg_unused(m->where, sizeof m->where, name, err.msg);
    }
    free(cfg);
}

static void check_bytes(struct run *r, const char *file, const uint8_t *data, size_t len,
                        const struct beside *m)
{
    struct rtm_anim *a = NULL;
    struct rtm_error err = { .msg = "" };
    struct rtm_skeleton_pick pick = { .classes = m->classes, .len = m->len, .where = m->where };
    struct rtm_parse_opts o = { .skel = r->skel, .choose = m->classes ? rtm_skeleton_pick : NULL,
                                .choose_ctx = &pick };
    int rc = rtm_parse_opts(data, len, &o, &a, &err);
    rtm_skeleton_pick_done(&pick);
    if (rc == 0 && !m->classes && m->where[0])
        rtm_model_cfg_say_unused(a, m->where);  /* the mount's way: why it was not used */
    if (rc) {
        cannot_read(r, file, err.msg);
        return;
    }
    a->digits = r->digits;
    struct rtm_buf b;
    rtm_buf_init(&b);
    if (rtm_check_render(a, &b)) {
        cannot_read(r, file, "out of memory");
    } else {
        if (r->flags & RTMCAT_CHECK_JSON) {
            printf("{\"file\": ");
            put_json(file, strlen(file));
            printf(", \"findings\": [");
        }
        for (size_t at = 0, k = 0; at < b.len; k++) {
            const char *nl = memchr(b.p + at, '\n', b.len - at);
            size_t n = nl ? (size_t)(nl - (b.p + at)) : b.len - at;
            print_finding(r, file, b.p + at, n, k == 0);
            at += n + 1;
        }
        if (r->flags & RTMCAT_CHECK_JSON)
            printf("]}\n");
    }
    rtm_buf_free(&b);
    rtm_free(a);
}

static void check_loose(struct run *r, const char *path)
{
    uint8_t *data, *cfg;
    size_t len, cfg_len;
    struct beside m = { NULL, 0, "" };
    if (rtm_slurp(path, &data, &len)) {
        cannot_read(r, path, strerror(errno ? errno : EIO));
        return;
    }
    char name[PATH_MAX];
    size_t pl = strlen(path);
    if (rtm_side_wanted(RTM_SIDE_MODEL_CFG, path, pl, r->skel_given) &&
        rtm_side_beside(RTM_SIDE_MODEL_CFG, path, pl, name, sizeof name) == 0 &&
        rtm_slurp(name, &cfg, &cfg_len) == 0)
        beside_bytes(&m, rtm_side_file_name(name), cfg, cfg_len);
    check_bytes(r, path, data, len, &m);
    free(m.classes);
    free(data);
}

struct in_archive {
    struct run *r;
    int fd;
    const struct pbo *p;
    const char *archive;
};

/* The model.cfg beside entry i of x's archive, as check_loose's: named as
 * the archive spells it. */
static void entry_beside(struct in_archive *x, long i, struct beside *m)
{
    char name[PBO_NAME_MAX + 16];
    const char *path = x->p->entries[i].path;
    size_t pl = strlen(path);
    long k = rtm_side_wanted(RTM_SIDE_MODEL_CFG, path, pl, x->r->skel_given) &&
                     !rtm_side_beside(RTM_SIDE_MODEL_CFG, path, pl, name, sizeof name)
                 ? pbo_find(x->p, name) : -1;
    uint8_t *cfg = NULL;
    size_t len = 0;
    struct rtm_error err = { .msg = "" };
    if (k < 0)
        return;
    const char *given = rtm_side_file_name(x->p->entries[k].path);
    if (pbo_load_entry(NULL, x->fd, x->p, (size_t)k, &cfg, &len, &err) == 0)
        beside_bytes(m, given, cfg, len);
    else
        rtm_model_cfg_unused(m->where, sizeof m->where, given, err.msg);
}

static int check_entry(void *arg, long i)
{
    struct in_archive *x = arg;
    const char *path = x->p->entries[i].path;
    if (!rtm_is_anim_name(path, strlen(path)))
        return 0;
    char *file;
    if (asprintf(&file, "%s/%s", x->archive, path) < 0)
        return -1;
    uint8_t *data = NULL;
    size_t len = 0;
    struct rtm_error err = { .msg = "" };
    struct beside m = { NULL, 0, "" };
    if (pbo_load_entry(NULL, x->fd, x->p, (size_t)i, &data, &len, &err)) {
        cannot_read(x->r, file, err.msg);
    } else {
        entry_beside(x, i, &m);
        check_bytes(x->r, file, data, len, &m);
    }
    free(m.classes);
    free(data);
    free(file);
    return 0;
}

/* The .rtm entries of archive at or below inner ("": all of them). */
static void check_archive(struct run *r, const char *archive, const char *inner,
                          const char *given)
{
    struct in_archive x = { .r = r, .archive = archive };
    struct pbo *p = NULL;
    struct rtm_error err = { .msg = "" };
    x.fd = open(archive, O_RDONLY | O_CLOEXEC);
    if (x.fd < 0 || pbo_load_table(NULL, x.fd, &p, &err)) {
        cannot_read(r, given, x.fd < 0 ? strerror(errno) : err.msg);
    } else {
        x.p = p;
        long entry = -1;
        enum pbo_node node = pbo_lookup(p, inner, &entry);
        if (node == PBO_FILE)
            check_entry(&x, entry);
        else if (node == PBO_DIR)
            pbo_each_below(p, inner, check_entry, &x);
        else
            cannot_read(r, given, "no entry or folder of that name in the archive");
    }
    pbo_free(p);
    if (x.fd >= 0)
        close(x.fd);
}

static void check_path(struct run *r, const char *path, int walked);

/* A folder's entries in name order, so that two runs print alike. */
static void check_folder(struct run *r, const char *dir)
{
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    if (n < 0) {
        cannot_read(r, dir, strerror(errno));
        return;
    }
    for (int i = 0; i < n; i++) {
        const char *name = names[i]->d_name;
        char *path;
        if (strcmp(name, ".") && strcmp(name, "..") &&
            asprintf(&path, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name) >= 0) {
            check_path(r, path, 1);
            free(path);
        }
        free(names[i]);
    }
    free(names);
}

/* ARCHIVE.pbo/INNER: the longest leading part ending in ".pbo" that is a
 * file on disk is the archive.  0, or -1 when there is none. */
static int check_inside(struct run *r, const char *path)
{
    char *copy = strdup(path);
    for (size_t n = copy ? strlen(copy) : 0; n > 0; n--) {
        if (copy[n] != '/' && copy[n] != 0)
            continue;
        copy[n] = 0;
        struct stat st;
        if (copy[n - 1] != '/' && rtm_name_ends(copy, n, ".pbo") && stat(copy, &st) == 0 &&
            S_ISREG(st.st_mode)) {
            check_archive(r, copy, path + n + 1, path);
            free(copy);
            return 0;
        }
    }
    free(copy);
    return -1;
}

/* walked: found in a folder, where only *.rtm and *.pbo are looked at. */
static void check_path(struct run *r, const char *path, int walked)
{
    struct stat st;
    size_t n = strlen(path);
    if (stat(path, &st) != 0) {
        int e = errno;
        if (walked || check_inside(r, path))
            cannot_read(r, path, strerror(e));
    } else if (S_ISDIR(st.st_mode)) {
        check_folder(r, path);
    } else if (rtm_name_ends(path, n, ".pbo")) {
        check_archive(r, path, "", path);
    } else if (!walked || rtm_name_ends(path, n, ".rtm")) {
        check_loose(r, path);
    }
}

int rtmcat_check(const char *skel_spec, int skel_given, int digits, unsigned flags,
                 char **files, int n)
{
    struct rtm_skeleton *skel;
    struct rtm_error err = { .msg = "" };
    if (rtm_skeleton_open(skel_spec, &skel, &err)) {
        fprintf(stderr, "rtmcat: %s\n", err.msg);
        return 2;
    }
    struct run r = { .skel = skel, .skel_given = skel_given, .digits = digits, .flags = flags };
    for (int i = 0; i < n; i++)
        check_path(&r, files[i], 0);
    rtm_skeleton_free(skel);
    fflush(stdout);
    if (r.unreadable)
        return 2;
    return r.error || ((flags & RTMCAT_CHECK_STRICT) && r.warning) ? 1 : 0;
}
