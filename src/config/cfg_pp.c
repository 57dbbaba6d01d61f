/* cfg_pp.c - the preprocessor's directives, includes and line map (the
 * macros are in cfg_macro.c; cfg_pp.h says what it does).
 *
 * Each file is made comment-free first (newlines kept, strings kept), then
 * read a logical line at a time (continuations joined).  Every source line
 * gives exactly one output line (a directive an empty one, a joined line
 * its extra lines as empty ones), so a line of the output maps back to its
 * file and line by the segments recorded where a file starts or resumes.
 */
#include "cfg_macro.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "array.h"
#include "work.h"

#define PP_OUTPUT_DEFAULT ((size_t)64 << 20)

struct pp {
    const struct cfg_pp_opts *o;
    struct cfg_pp_result *r;
    struct cfg_macros *m;
    struct cfg_macro_expand x;
    uint32_t out_line;                          /* the next output line, 1-based */
    char *stack[CFG_PP_INCLUDE_MAX + 1];        /* real paths of the open files */
    int depth;
    const struct src *cur;                      /* the file being read */
    struct rtm_error *err;
};

/* One file being read. */
struct src {
    const char *name, *dir;
    const char *game;           /* its game path, or NULL when not known */
    uint32_t id, line;
};

__attribute__((format(printf, 3, 4)))
static int fail(struct pp *pp, const struct src *f, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    rtm_err_nooff(pp->err, "%s:%u: %s", f->name, f->line, msg);
    return -1;
}

static int add_seg(struct pp *pp, uint32_t file, uint32_t src_line)
{
    struct cfg_pp_result *r = pp->r;
    if (r->nseg && r->seg[r->nseg - 1].out_line == pp->out_line)
        r->nseg--;      /* an empty stretch: the newer one stands */
    void *seg = r->seg;
    if (rtm_array_grow(&seg, &r->cap_seg, r->nseg + 1, sizeof *r->seg, 16))
        return -1;
    r->seg = seg;
    r->seg[r->nseg++] = (struct cfg_line_seg){ pp->out_line, file, src_line };
    r->map.seg = r->seg;
    r->map.nseg = r->nseg;
    return 0;
}

static long add_file(struct pp *pp, const char *name)
{
    struct cfg_pp_result *r = pp->r;
    char **p = realloc(r->files, (r->nfiles + 1) * sizeof *p);
    if (!p)
        return -1;
    r->files = p;
    if (!(p[r->nfiles] = strdup(name)))
        return -1;
    r->map.files = (const char *const *)r->files;
    r->map.nfiles = ++r->nfiles;
    return (long)(r->nfiles - 1);
}

/* The text without comments: block comments become a space (their
 * newlines kept), line comments go; "strings" and 'strings' are kept as
 * they are, up to their closing quote: one left open at a line's end
 * stays open on the lines after it (rtm(5), as HEMTT's test
 * comment_in_quote). */
static void strip_comments(const char *s, size_t n, struct rtm_buf *out)
{
    /* the bytes that start a string or a comment, by a table: the text is
     * scanned at a byte a step */
    static const unsigned char starts[256] = { ['"'] = 1, ['\''] = 1, ['/'] = 1 };
    const char *e = s + n;
    while (s < e) {
        const char *p = s;
        while (p < e && !starts[(unsigned char)*p])
            p++;
        rtm_buf_put(out, s, (size_t)(p - s));
        if (p >= e)
            break;
        if (*p == '"' || *p == '\'') {
            const char *q = memchr(p + 1, *p, (size_t)(e - p - 1));
            q = q ? q + 1 : e;
            rtm_buf_put(out, p, (size_t)(q - p));
            s = q;
        } else if (e - p >= 2 && p[1] == '/') {
            for (s = p; s < e && *s != '\n'; s++)
                ;
        } else if (e - p >= 2 && p[1] == '*') {
            rtm_buf_putc(out, ' ');
            for (s = p + 2; s < e && !(*s == '*' && e - s >= 2 && s[1] == '/'); s++)
                if (*s == '\n')
                    rtm_buf_putc(out, '\n');
            s = s < e ? s + 2 : e;
        } else {
            rtm_buf_putc(out, '/');
            s = p + 1;
        }
    }
}

/* The quote of the string open at the end of s..e, 0 when none; q is the
 * one open at s (strings run over lines, as strip_comments reads them). */
static char open_quote(const char *s, const char *e, char q)
{
    for (; s < e; s++)
        if (q ? *s == q : (*s == '"' || *s == '\''))
            q = q ? 0 : *s;
    return q;
}

/* The logical line at s: its joined text into line, a '\n' where each
 * continued line ended (cfg_macro_define reads them; unmark() takes them
 * out), the source lines it took into *lines; returns one past it.
 * *quote is the string open where it starts, and then where it ends: a
 * line ending in \\ inside a string is not continued (rtm(5), as HEMTT's
 * test double_escape_newline). */
static const char *logical_line(const char *s, const char *e, struct rtm_buf *line,
                                uint32_t *lines, char *quote)
{
    line->len = 0;
    *lines = 1;
    for (;;) {
        const char *nl = memchr(s, '\n', (size_t)(e - s));
        const char *end = nl ? nl : e, *t = end;
        if (t > s && t[-1] == '\r')
            t--;
        *quote = open_quote(s, t, *quote);
        if (nl && t > s && t[-1] == '\\' && !(*quote && t - s >= 2 && t[-2] == '\\')) {
            rtm_buf_put(line, s, (size_t)(t - 1 - s));
            rtm_buf_putc(line, '\n');
            s = nl + 1;
            (*lines)++;
            continue;
        }
        rtm_buf_put(line, s, (size_t)(t - s));
        return nl ? nl + 1 : e;
    }
}

/* line without logical_line's marks, unless it is a #define (whose body
 * may have lines of its own: cfg_macro_define). */
static void unmark(struct rtm_buf *line)
{
    if (!line->len || !memchr(line->p, '\n', line->len))
        return;
    const char *p = line->p, *e = p + line->len;
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    if (p < e && *p == '#') {
        for (p++; p < e && (*p == ' ' || *p == '\t'); p++)
            ;
        if (e - p > 6 && memcmp(p, "define", 6) == 0 && !cfg_macro_ident((unsigned char)p[6]))
            return;
    }
    size_t k = 0;
    for (size_t i = 0; i < line->len; i++)
        if (line->p[i] != '\n')
            line->p[k++] = line->p[i];
    line->len = k;
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* A game path with "." and ".." parts taken out, in place. */
static void game_norm(char *s)
{
    char *out = s, *p = s;
    while (*p) {
        char *q = strchr(p, '\\');
        size_t n = q ? (size_t)(q - p) : strlen(p);
        if (n == 2 && p[0] == '.' && p[1] == '.') {
            while (out > s && *--out != '\\')
                ;
        } else if (n && !(n == 1 && p[0] == '.')) {
            if (out > s)
                *out++ = '\\';
            memmove(out, p, n);
            out += n;
        }
        p += n + (q != NULL);
    }
    *out = 0;
}

/* An include's path to a file on disk, in the order cfg_pp.h gives; its
 * game path into gp (gn bytes, "" when not known) when gp is not NULL. */
static int resolve(struct pp *pp, const struct src *f, const char *inc, char *out, size_t n,
                   char *gp, size_t gn)
{
    char rel[PATH_MAX], game[PATH_MAX];
    size_t k = 0, g = 0;
    const char *s = inc;
    while (*s == '\\' || *s == '/')
        s++;
    for (; *s && k + 1 < sizeof rel; s++) {
        rel[k++] = *s == '\\' ? '/' : *s;
        game[g++] = *s == '/' ? '\\' : *s;
    }
    rel[k] = game[g] = 0;
    if (gp && gn)
        gp[0] = 0;
    pp->r->lookups += (f->dir && inc[0] != '\\' && inc[0] != '/') || pp->o->resolve ||
                      pp->o->include_dir;
    if (inc[0] != '\\' && inc[0] != '/' && f->dir &&
        snprintf(out, n, "%s/%s", f->dir, rel) < (int)n && is_file(out)) {
        const char *slash = f->game ? strrchr(f->game, '\\') : NULL;
        if (gp && f->game && snprintf(gp, gn, "%.*s%s%s", slash ? (int)(slash - f->game) : 0,
                                      f->game, slash ? "\\" : "", game) < (int)gn)
            game_norm(gp);
        else if (gp && gn)
            gp[0] = 0;
        return 0;
    }
    int found = (pp->o->resolve && pp->o->resolve(pp->o->arg, game, out, n) == 0 && is_file(out)) ||
                (pp->o->include_dir && snprintf(out, n, "%s/%s", pp->o->include_dir, rel) < (int)n &&
                 is_file(out));
    if (found && gp && snprintf(gp, gn, "%s", game) < (int)gn)
        game_norm(gp);
    return found ? 0 : -1;
}

static int process(struct pp *pp, const char *text, size_t len, struct src *f);

static int include_file(struct pp *pp, struct src *f, const char *path, const char *game)
{
    char real[PATH_MAX], dir[PATH_MAX];
    if (!realpath(path, real))
        return fail(pp, f, "cannot resolve %s: %s", path, strerror(errno));
    for (int i = 0; i < pp->depth; i++)
        if (strcmp(pp->stack[i], real) == 0)
            return fail(pp, f, "#include loop: %s is already being read", path);
    if (pp->depth >= CFG_PP_INCLUDE_MAX)
        return fail(pp, f, "#include nested deeper than %d", CFG_PP_INCLUDE_MAX);
    uint8_t *data;
    size_t n;
    if (rtm_work_slurp_max(pp->o->work, path, CFG_FILE_MAX, &data, &n))
        return fail(pp, f, "cannot read %s: %s", path, strerror(errno));
    long id = add_file(pp, path);
    snprintf(dir, sizeof dir, "%s", path);
    struct src child = { .name = id >= 0 ? pp->r->files[id] : path, .dir = dirname(dir),
                         .game = game && game[0] ? game : NULL, .id = (uint32_t)id, .line = 1 };
    int rc = -1;
    if (id < 0 || !(pp->stack[pp->depth] = strdup(real)))
        rtm_err_oom(pp->err, "out of memory preprocessing %s", path);
    else {
        pp->depth++;
        rc = process(pp, (const char *)data, n, &child);
        free(pp->stack[--pp->depth]);
    }
    free(data);
    return rc;
}

static int do_include_at(struct pp *pp, struct src *f, const char *s, const char *e,
                         const char *line, size_t line_len, char *inc, char *path, char *game);

/* #include "PATH" or <PATH> (s..e after the word); the line as written
 * when it is found nowhere. */
static int do_include(struct pp *pp, struct src *f, const char *s, const char *e,
                      const char *line, size_t line_len)
{
    char inc[PATH_MAX], path[PATH_MAX], *game = malloc(PATH_MAX);
    if (!game)
        return rtm_err_oom(pp->err, "out of memory"), -1;
    int rc = do_include_at(pp, f, s, e, line, line_len, inc, path, game);
    free(game);
    return rc;
}

static int do_include_at(struct pp *pp, struct src *f, const char *s, const char *e,
                         const char *line, size_t line_len, char *inc, char *path, char *game)
{
    while (s < e && (*s == ' ' || *s == '\t'))
        s++;
    char close = s < e && *s == '<' ? '>' : '"';
    const char *q = s < e && (*s == '"' || *s == '<') ? memchr(s + 1, close, (size_t)(e - s - 1)) : NULL;
    if (!q || (size_t)(q - s) >= PATH_MAX)
        return fail(pp, f, "#include without a \"path\" or <path>");
    memcpy(inc, s + 1, (size_t)(q - s - 1));
    inc[q - s - 1] = 0;
    if (resolve(pp, f, inc, path, PATH_MAX, game, PATH_MAX)) {
        pp->r->counts.missing_include++;
        rtm_buf_put(&pp->r->text, line, line_len);     /* left as written */
        rtm_buf_putc(&pp->r->text, '\n');
        pp->out_line++;
        return 0;
    }
    if (include_file(pp, f, path, game))
        return -1;
    return add_seg(pp, f->id, f->line + 1) ? (rtm_err_oom(pp->err, "out of memory"), -1) : 0;
}

static int push_cond(struct pp *pp, struct src *f, struct cfg_cond *c, int yes)
{
    if (cfg_cond_push(c, yes))
        return fail(pp, f, "#ifdef nested deeper than %d", CFG_COND_MAX);
    return 0;
}

/* __has_include's answer (cfg_macro_expand.has_include): whether
 * #include would find inc from the file being read. */
static int has_include(void *arg, const char *inc)
{
    struct pp *pp = arg;
    char path[PATH_MAX];
    return resolve(pp, pp->cur, inc, path, sizeof path, NULL, 0) == 0;
}

/* The value of an #if or #elif expression (s..e), as cfg_macro_if says.
 * One that cannot be evaluated is an error. */
static int if_value(struct pp *pp, struct src *f, const char *s, const char *e, int *yes)
{
    pp->x.file = f->game ? f->game : f->name;
    pp->x.line = f->line;
    if (cfg_macro_if(&pp->x, s, (size_t)(e - s), yes) == 0)
        return 0;
    return pp->x.oom ? (rtm_err_oom(pp->err, "out of memory preprocessing"), -1)
                     : fail(pp, f, "%s", pp->x.why);
}

/* A directive line (after its '#'); *echo asks for the line as written. */
static int directive(struct pp *pp, struct src *f, struct cfg_cond *c, const char *s,
                     const char *e, int *echo, int *included)
{
    while (s < e && (*s == ' ' || *s == '\t'))
        s++;
    const char *w = s;
    while (s < e && cfg_macro_ident((unsigned char)*s))
        s++;
    size_t wn = (size_t)(s - w);
#define IS(word) (wn == strlen(word) && memcmp(w, word, wn) == 0)
    const char *arg = s;
    while (arg < e && (*arg == ' ' || *arg == '\t'))
        arg++;
    const char *an = arg;
    while (an < e && cfg_macro_ident((unsigned char)*an))
        an++;
    if (IS("ifdef") || IS("ifndef"))
        return push_cond(pp, f, c, cfg_macro_defined(pp->m, arg, (size_t)(an - arg)) == IS("ifdef"));
    if (IS("if")) {
        int yes = 0;    /* inside a skipped block it is not evaluated */
        if (cfg_cond_active(c) && if_value(pp, f, s, e, &yes))
            return -1;
        return push_cond(pp, f, c, yes);
    }
    if (IS("else") || IS("elif")) {
        int yes = IS("else");
        /* #elif: evaluated only when no branch before it was taken */
        if (!yes && cfg_cond_wants(c) && if_value(pp, f, s, e, &yes))
            return -1;
        if (cfg_cond_branch(c, yes, IS("else")))
            return fail(pp, f, "#%.*s without #ifdef", (int)wn, w);
        return 0;
    }
    if (IS("endif"))
        return cfg_cond_pop(c) ? fail(pp, f, "#endif without #ifdef") : 0;
    if (!cfg_cond_active(c))
        return 0;
    if (IS("define")) {
        int rc = cfg_macro_define(pp->m, s, (size_t)(e - s));
        if (rc == -2)
            rtm_err_oom(pp->err, "out of memory for a macro");
        return rc == -1 ? fail(pp, f, "malformed #define") : rc;
    }
    if (IS("undef")) {
        cfg_macro_undef(pp->m, arg, (size_t)(an - arg));
        return 0;
    }
    if (IS("include")) {
        *included = 1;
        return 0;
    }
    if (IS("pragma") && an - arg == 5 && memcmp(arg, "hemtt", 5) == 0)
        return 0;       /* an instruction to HEMTT (lints, flags): nothing */
    pp->r->counts.other += wn > 0;
    *echo = wn > 0;
    return 0;
#undef IS
}

static int emit_line(struct pp *pp, const struct src *f, const char *s, size_t n)
{
    pp->x.file = f->game ? f->game : f->name;
    pp->x.line = f->line;
    if (cfg_macro_expand_line(&pp->x, s, n, &pp->r->text)) {
        if (pp->r->text.oom || pp->x.oom)
            return rtm_err_oom(pp->err, "out of memory preprocessing"), -1;
        return fail(pp, f, "%s", pp->x.why);
    }
    rtm_buf_putc(&pp->r->text, '\n');
    pp->out_line++;
    return 0;
}

static int one_line(struct pp *pp, struct src *f, struct cfg_cond *c, const char *s, size_t n)
{
    const char *e = s + n, *p = s;
    pp->cur = f;
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    if (p < e && *p == '#') {
        int echo = 0, included = 0;
        if (directive(pp, f, c, p + 1, e, &echo, &included))
            return -1;
        if (included) {
            const char *w = p + 1;
            while (w < e && (*w == ' ' || *w == '\t'))
                w++;
            return do_include(pp, f, w + 7, e, s, n);
        }
        if (echo)
            rtm_buf_put(&pp->r->text, s, n);
        rtm_buf_putc(&pp->r->text, '\n');
        pp->out_line++;
        return 0;
    }
    if (!cfg_cond_active(c)) {
        rtm_buf_putc(&pp->r->text, '\n');
        pp->out_line++;
        return 0;
    }
    return emit_line(pp, f, s, n);
}

/* Whether text s (n bytes, comments out) is its own preprocessed text,
 * line for line: no directive and no # or ## (no '#'), no macro call
 * (no '('), no continued line, and no name a macro defined has (none
 * but the game's __... ones, and no "__" in it).  Most configs of a mod
 * are so, and are then copied at memchr's pace. */
static int as_is(const struct pp *pp, const char *s, size_t n)
{
    if (!cfg_macros_only_underscored(pp->m) || memchr(s, '#', n) || memchr(s, '(', n))
        return 0;
    for (const char *p = s, *e = s + n; (p = memchr(p, '_', (size_t)(e - p))); p++)
        if (p + 1 < e && p[1] == '_')
            return 0;
    for (const char *p = s, *e = s + n; (p = memchr(p, '\\', (size_t)(e - p))); p++)
        if (p + 1 < e && (p[1] == '\n' || (p[1] == '\r' && p + 2 < e && p[2] == '\n')))
            return 0;
    return 1;
}

/* Text s (n bytes) that is as_is, as process() would put it: each line
 * without the \r before its \n, ended by a \n.  Without a \r, that is
 * the text itself (a \n added after a last line that lacks one): one
 * copy, its lines counted. */
static void copy_lines(struct pp *pp, struct src *f, const char *s, size_t n)
{
    const char *e = s + n;
    if (!memchr(s, '\r', n)) {
        uint32_t lines = 0;
        for (size_t i = 0; i < n; i++)
            lines += s[i] == '\n';
        rtm_buf_put(&pp->r->text, s, n);
        if (n && s[n - 1] != '\n') {
            rtm_buf_putc(&pp->r->text, '\n');
            lines++;
        }
        pp->out_line += lines;
        f->line += lines;
        return;
    }
    while (s < e) {
        const char *nl = memchr(s, '\n', (size_t)(e - s)), *t = nl ? nl : e;
        if (t > s && t[-1] == '\r')
            t--;
        rtm_buf_put(&pp->r->text, s, (size_t)(t - s));
        rtm_buf_putc(&pp->r->text, '\n');
        pp->out_line++;
        f->line++;
        s = nl ? nl + 1 : e;
    }
}

static int process(struct pp *pp, const char *text, size_t len, struct src *f)
{
    struct rtm_buf clean, line;
    struct cfg_cond *c = calloc(1, sizeof *c);
    int rc = 0;
    rtm_buf_init(&clean);
    rtm_buf_init(&line);
    /* no '/': no comment to take out, the text is its own clean copy */
    int slash = len && memchr(text, '/', len) != NULL;
    if (slash)
        strip_comments(text, len, &clean);
    if (!c || clean.oom || add_seg(pp, f->id, 1)) {
        free(c);
        rtm_buf_free(&clean);
        rtm_err_oom(pp->err, "out of memory preprocessing %s", f->name);
        return -1;
    }
    size_t n = slash ? clean.len : len;
    const char *s = slash && clean.p ? clean.p : !slash && len ? text : "", *e = s + n;
    char quote = 0;
    if (as_is(pp, s, n)) {
        copy_lines(pp, f, s, n);
        s = e;
        if (pp->r->text.oom)
            rc = (rtm_err_oom(pp->err, "out of memory preprocessing %s", f->name), -1);
    }
    while (s < e && rc == 0) {
        uint32_t lines;
        s = logical_line(s, e, &line, &lines, &quote);
        if (!line.oom)
            unmark(&line);
        if (line.oom) {
            rtm_err_oom(pp->err, "out of memory preprocessing %s", f->name);
            rc = -1;
            break;
        }
        rc = one_line(pp, f, c, line.p ? line.p : "", line.len);
        for (uint32_t k = 1; k < lines && rc == 0; k++) {
            rtm_buf_putc(&pp->r->text, '\n');
            pp->out_line++;
        }
        f->line += lines;
        if (rc == 0 && pp->r->text.oom)
            rc = (rtm_err_oom(pp->err, "out of memory preprocessing %s", f->name), -1);
        else if (rc == 0 && pp->r->text.len > pp->x.limit)
            rc = fail(pp, f, "preprocessed text larger than %zu bytes", pp->x.limit);
    }
    if (rc == 0 && c->n)
        rc = fail(pp, f, "#ifdef never closed (%d open at the end)", c->n);
    free(c);
    rtm_buf_free(&clean);
    rtm_buf_free(&line);
    return rc;
}

/* __TIMESTAMP_UTC__'s value: SOURCE_DATE_EPOCH when it is a decimal
 * number (reproducible builds' convention), else the time now. */
long long cfg_pp_epoch(void)
{
    const char *s = getenv("SOURCE_DATE_EPOCH");
    char *end;
    errno = 0;
    long long t = s && *s ? strtoll(s, &end, 10) : 0;
    return s && *s && !*end && !errno && t >= 0 ? t : (long long)time(NULL);
}

int cfg_pp_text(const char *text, size_t len, const char *name, const char *dir,
                const struct cfg_pp_opts *o, struct cfg_pp_result *r, struct rtm_error *err)
{
    static const struct cfg_pp_opts none;
    struct pp pp = { .o = o ? o : &none, .r = r, .out_line = 1, .err = err };
    memset(r, 0, sizeof *r);
    rtm_buf_init(&r->text);
    pp.x.counts = &r->counts;
    pp.x.has_include = has_include;
    pp.x.arg = &pp;
    pp.x.timestamp = pp.o->epoch ? pp.o->epoch : cfg_pp_epoch();
    pp.x.limit = pp.o->max_output ? pp.o->max_output : PP_OUTPUT_DEFAULT + 64 * len;
    pp.x.m = pp.m = cfg_macros_new();
    long id = add_file(&pp, name ? name : "<text>");
    /* what the game defines in every file it preprocesses */
    if (!pp.m || id < 0 || cfg_macro_define(pp.m, "__ARMA__ 1", 10) ||
        cfg_macro_define(pp.m, "__ARMA3__ 1", 11)) {
        cfg_macros_free(pp.m);
        cfg_pp_free(r);         /* add_file's names */
        rtm_err_oom(err, "out of memory preprocessing");
        return -1;
    }
    struct src f = { .name = r->files[id], .dir = dir, .id = (uint32_t)id, .line = 1,
                     .game = pp.o->gamepath && pp.o->gamepath[0] ? pp.o->gamepath : NULL };
    char real[PATH_MAX];
    if (name && realpath(name, real) && (pp.stack[0] = strdup(real)))
        pp.depth = 1;   /* the file itself, so that including it again is a loop */
    int rc = process(&pp, text, len, &f);
    r->time_used = pp.x.time_used;
    if (pp.depth)
        free(pp.stack[0]);
    cfg_macros_free(pp.m);
    if (rc)
        cfg_pp_free(r);
    return rc;
}

int cfg_pp_file(const char *path, const struct cfg_pp_opts *o, struct cfg_pp_result *r,
                struct rtm_error *err)
{
    uint8_t *data;
    size_t n;
    char dir[PATH_MAX];
    memset(r, 0, sizeof *r);
    if (rtm_work_slurp_max(o ? o->work : NULL, path, CFG_FILE_MAX, &data, &n)) {
        rtm_err_sys(err, errno, 0, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    snprintf(dir, sizeof dir, "%s", path);
    int rc = cfg_pp_text((const char *)data, n, path, dirname(dir), o, r, err);
    free(data);
    return rc;
}

void cfg_pp_free(struct cfg_pp_result *r)
{
    rtm_buf_free(&r->text);
    for (size_t i = 0; i < r->nfiles; i++)
        free(r->files[i]);
    free(r->files);
    free(r->seg);
    memset(r, 0, sizeof *r);
}

void cfg_pp_note(const struct cfg_pp_counts *pp, struct rtm_buf *b)
{
    struct { uint32_t n; const char *what; } k[] = {
        { pp->eval, "__EVAL" }, { pp->exec, "__EXEC" },
        { pp->undefined_call, "undefined macro call" },
        { pp->missing_include, "missing #include" }, { pp->other, "other directive" },
    };
    const char *sep = "// rtmfs: left as written: ";
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (k[i].n) {
            rtm_buf_printf(b, "%s%u %s", sep, k[i].n, k[i].what);
            sep = ", ";
        }
    if (sep[0] == ',')
        rtm_buf_putc(b, '\n');
}

int cfg_load_file(const char *path, const struct cfg_pp_opts *o, struct cfg **out,
                  struct rtm_error *err)
{
    uint8_t *data;
    size_t n;
    char dir[PATH_MAX];
    *out = NULL;
    if (rtm_work_slurp_max(o ? o->work : NULL, path, CFG_FILE_MAX, &data, &n)) {
        rtm_err_sys(err, errno, 0, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    if (rap_is_rapified(data, n)) {
        int rc = rap_read(data, n, out, err);
        free(data);
        return rc;
    }
    struct cfg_pp_result r;
    snprintf(dir, sizeof dir, "%s", path);
    int rc = cfg_pp_text((const char *)data, n, path, dirname(dir), o, &r, err);
    free(data);
    if (rc)
        return -1;
    rc = cfg_parse_text(r.text.p, r.text.len, path, &r.map, out, err);
    if (rc == 0)
        (*out)->pp = r.counts;
    cfg_pp_free(&r);
    return rc;
}
