/* bench_core - the core benchmark behind `make bench`.
 *
 * For the shared corpus (or generated files when it is absent) it times
 *  1. parsing every file and rendering every view of it, with the bytes and
 *     time of each kind of view (exact numbers, and tracks with digits=3),
 *  2. parsing alone, light (RTM_PARSE_NO_MATRICES) and full, and
 *  3. converting BMTR sources to plain.rtm (parse + write), in MB/s of source,
 *  4. the number formatter alone over every matrix number of the set, in ns
 *     a number (exact, and with 3 decimals), and
 *  5. sizing every view in one pass (rtm_view_sizes), what stat needs.
 * Files are read into memory first so the figures are CPU time of the core.
 * Each figure is the best of several rounds: machines here are shared.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "numfmt.h"
#include "rtm.h"
#include "samples.h"
#include "skeleton_cfg.h"
#include "views.h"

enum { ROUNDS = 5 };

struct file {
    char *name;
    uint8_t *data;
    size_t len;
};

struct set {
    struct file *f;
    size_t n, cap;
};

static void add(struct set *s, const char *name, uint8_t *data, size_t len)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->f = realloc(s->f, s->cap * sizeof *s->f);
        if (!s->f)
            abort();
    }
    s->f[s->n++] = (struct file){ strdup(name), data, len };
}

static int load_corpus(struct set *s, const char *dir)
{
    char path[8192 + 64], line[8192];
    snprintf(path, sizeof path, "%s/corpus/MANIFEST.tsv", dir);
    FILE *m = fopen(path, "r");
    if (!m)
        return -1;
    while (fgets(line, sizeof line, m)) {
        char *tab = strchr(line, '\t');
        if (!tab || strncmp(line, "file\t", 5) == 0)
            continue;
        *tab = 0;
        snprintf(path, sizeof path, "%s/corpus/%s", dir, line);
        uint8_t *data;
        size_t len;
        if (rtm_slurp(path, &data, &len) == 0)
            add(s, line, data, len);
    }
    fclose(m);
    return 0;
}

/* Without the corpus: this many generated files of every format. */
enum { GENERATED_FILES = 128 };

static void generate(struct set *s)
{
    for (uint32_t i = 0; i < GENERATED_FILES; i++) {
        struct sample_opts o = { 20 + i % 60, 60 + i % 70, i, i % 3 };
        struct rtm_buf b;
        rtm_buf_init(&b);
        int rc = i % 3 == 0 ? rtm_sample_plain(&o, &b)
                            : rtm_sample_bmtr(&o, i % 3 == 1 ? 3 : 5, BMTR_COMPRESS_AUTO, &b);
        if (rc)
            abort();
        char name[32];
        snprintf(name, sizeof name, "gen%03u.rtm", i);
        size_t len;
        uint8_t *data = (uint8_t *)rtm_buf_take(&b, &len);
        add(s, name, data, len);
    }
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* What one kind of view costs over the set. */
struct kind_cost {
    size_t views, bytes, largest;
    double secs;
    size_t *each;               /* a fixed view's sizes, one a file (views of them) */
};
enum { NKINDS = RTM_VIEW_TRACK + 1 };

/* Parses every file and renders each of its views, with digits; returns
 * bytes rendered, and per kind in cost[]. */
static size_t render_all(const struct set *s, const struct rtm_skeleton *sk, int digits,
                         size_t *nviews, struct kind_cost cost[NKINDS])
{
    size_t bytes = 0;
    struct rtm_buf b;
    rtm_buf_init(&b);
    *nviews = 0;
    for (int k = 0; k < NKINDS; k++)
        free(cost[k].each);
    memset(cost, 0, NKINDS * sizeof *cost);
    for (size_t i = 0; i < s->n; i++) {
        struct rtm_anim *a;
        struct rtm_error err;
        if (rtm_parse(s->f[i].data, s->f[i].len, sk, &a, &err))
            continue;
        a->digits = digits;
        for (size_t v = 0; v < rtm_view_count(a); v++) {
            struct rtm_view view = rtm_view_at(a, v);
            b.len = 0;
            double t0 = now();
            rtm_view_render(a, view, &b);
            struct kind_cost *c = &cost[view.kind];
            c->secs += now() - t0;
            c->bytes += b.len;
            c->largest = b.len > c->largest ? b.len : c->largest;
            if ((int)view.kind < RTM_NFIXED_VIEWS &&
                (c->each = realloc(c->each, (c->views + 1) * sizeof *c->each)))
                c->each[c->views] = b.len;
            c->views++;
            bytes += b.len;
            ++*nviews;
        }
        rtm_free(a);
    }
    rtm_buf_free(&b);
    return bytes;
}

/* Parses every file with flags; 0 when all parse. */
static int parse_all(const struct set *s, const struct rtm_skeleton *sk, unsigned flags)
{
    int bad = 0;
    for (size_t i = 0; i < s->n; i++) {
        struct rtm_anim *a;
        struct rtm_error err;
        bad |= rtm_parse_flags(s->f[i].data, s->f[i].len, sk, flags, &a, &err);
        rtm_free(a);
    }
    return bad;
}

static const char *kind_name(enum rtm_view_kind k)
{
    static const char *const folders[] = { "frames/NNN.csv", "joints/NNN.csv",
                                           "tracks/NAME.csv" };
    return (int)k < RTM_NFIXED_VIEWS ? rtm_view_fixed_name(k) : folders[k - RTM_VIEW_FRAME];
}

static int cmp_size(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    return a < b ? -1 : a > b;
}

/* The median of a fixed view's sizes, or "-" for a folder's files. */
static void put_median(char *buf, size_t n, const struct kind_cost *c)
{
    if (!c->each || !c->views) {
        snprintf(buf, n, "-");
        return;
    }
    qsort(c->each, c->views, sizeof *c->each, cmp_size);
    snprintf(buf, n, "%.1f", c->each[c->views / 2] / 1e3);
}

static void print_costs(const struct kind_cost exact[NKINDS], const struct kind_cost *fixed)
{
    char median[32];
    printf("  %-16s %7s %10s %11s %11s %9s\n", "view", "files", "MB", "median kB", "largest kB",
           "seconds");
    for (int k = 0; k < NKINDS; k++) {
        put_median(median, sizeof median, &exact[k]);
        printf("  %-16s %7zu %10.2f %11s %11.1f %9.4f\n", kind_name((enum rtm_view_kind)k),
               exact[k].views, exact[k].bytes / 1e6, median, exact[k].largest / 1e3,
               exact[k].secs);
    }
    printf("  %-16s %7zu %10.2f %11s %11.1f %9.4f\n", "tracks, digits=3", fixed->views,
           fixed->bytes / 1e6, "-", fixed->largest / 1e3, fixed->secs);
}

static size_t convert_bmtr(const struct set *s, const struct rtm_skeleton *sk)
{
    size_t src = 0;
    struct rtm_buf b;
    rtm_buf_init(&b);
    for (size_t i = 0; i < s->n; i++) {
        if (s->f[i].len < 4 || memcmp(s->f[i].data, "BMTR", 4) != 0)
            continue;
        struct rtm_anim *a;
        struct rtm_error err;
        if (rtm_parse(s->f[i].data, s->f[i].len, sk, &a, &err))
            continue;
        b.len = 0;
        rtm_view_render(a, (struct rtm_view){ .kind = RTM_VIEW_PLAIN }, &b);
        src += s->f[i].len;
        rtm_free(a);
    }
    rtm_buf_free(&b);
    return src;
}

/* Every matrix number of the set, in file order. */
static float *all_numbers(const struct set *s, const struct rtm_skeleton *sk, size_t *n)
{
    size_t cap = 1 << 20;
    float *v = malloc(cap * sizeof *v);
    *n = 0;
    for (size_t i = 0; v && i < s->n; i++) {
        struct rtm_anim *a;
        struct rtm_error err;
        if (rtm_parse(s->f[i].data, s->f[i].len, sk, &a, &err))
            continue;
        size_t m = (size_t)a->nframes * a->nbones * 12;
        while (v && *n + m > cap)
            v = realloc(v, (cap *= 2) * sizeof *v);
        if (v)
            memcpy(v + *n, a->matrices, m * sizeof *v);
        *n += m;
        rtm_free(a);
    }
    if (!v)
        abort();
    return v;
}

/* ns a number to format v[0, n) with digits, best of ROUNDS; *bytes the
 * text's length. */
static double time_format(const float *v, size_t n, int digits, size_t *bytes)
{
    double best = 1e9;
    char buf[RTM_FLOAT_CHARS];
    for (int r = 0; r < ROUNDS; r++) {
        size_t len = 0;
        double t0 = now();
        for (size_t i = 0; i < n; i++)
            len += rtm_fmt_num(v[i], digits, buf);
        double t = now() - t0;
        best = t < best ? t : best;
        *bytes = len;
    }
    return n ? best / (double)n * 1e9 : 0;
}

static void print_format(const struct set *s, const struct rtm_skeleton *sk)
{
    size_t n, exact_bytes, fixed_bytes;
    float *v = all_numbers(s, sk, &n);
    double exact = time_format(v, n, RTM_DIGITS_EXACT, &exact_bytes);
    double fixed = time_format(v, n, 3, &fixed_bytes);
    printf("number formatter: %zu matrix numbers; exact %.1f ns a number (%.0f MB/s), "
           "digits=3 %.1f ns (%.0f MB/s)\n", n, exact, exact_bytes / (exact * n / 1e9) / 1e6,
           fixed, fixed_bytes / (fixed * n / 1e9) / 1e6);
    free(v);
}

/* Seconds to size every view of every file (parsed beforehand), best of
 * ROUNDS. */
static double time_sizing(const struct set *s, const struct rtm_skeleton *sk)
{
    struct rtm_anim **a = calloc(s->n + 1, sizeof *a);
    double best = 1e9;
    for (size_t i = 0; a && i < s->n; i++) {
        struct rtm_error err;
        if (rtm_parse(s->f[i].data, s->f[i].len, sk, &a[i], &err))
            a[i] = NULL;
    }
    for (int r = 0; a && r < ROUNDS; r++) {
        double t0 = now();
        for (size_t i = 0; i < s->n; i++) {
            if (!a[i])
                continue;
            uint64_t *sizes = malloc((rtm_view_count(a[i]) + 1) * sizeof *sizes);
            if (!sizes || rtm_view_sizes(a[i], sizes))
                abort();
            free(sizes);
        }
        double t = now() - t0;
        best = t < best ? t : best;
    }
    for (size_t i = 0; a && i < s->n; i++)
        rtm_free(a[i]);
    free(a);
    return best;
}

int main(void)
{
    struct set s = { 0 };
    const char *dir = getenv("RTMFS_SHARED") ? getenv("RTMFS_SHARED") : "../shared";
    const char *what = dir;
    if (load_corpus(&s, dir) || s.n == 0) {
        printf("bench: %s/corpus not found; using %d generated files\n", dir, GENERATED_FILES);
        generate(&s);
        what = "generated files";
    }
    size_t total = 0;
    for (size_t i = 0; i < s.n; i++)
        total += s.f[i].len;
    struct rtm_skeleton *sk;
    struct rtm_error err;
    if (rtm_skeleton_open("ofp2", &sk, &err))
        return 1;

    double best_render = 1e9, best_conv = 1e9, best_light = 1e9, best_full = 1e9;
    size_t bytes = 0, nviews = 0, bmtr_src = 0, nfixed;
    struct kind_cost cost[NKINDS] = { 0 }, best_cost[NKINDS] = { 0 }, fixed[NKINDS] = { 0 };
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now();
        bytes = render_all(&s, sk, RTM_DIGITS_EXACT, &nviews, cost);
        double t1 = now();
        bmtr_src = convert_bmtr(&s, sk);
        double t2 = now();
        int bad = parse_all(&s, sk, RTM_PARSE_NO_MATRICES);
        double t3 = now();
        bad |= parse_all(&s, sk, 0);
        double t4 = now();
        if (bad)
            printf("bench: some files do not parse\n");
        if (t1 - t0 < best_render) {
            best_render = t1 - t0;
            for (int k = 0; k < NKINDS; k++) {   /* the sizes move to best_cost */
                free(best_cost[k].each);
                best_cost[k] = cost[k];
                cost[k].each = NULL;
            }
        }
        if (t2 - t1 < best_conv)
            best_conv = t2 - t1;
        best_light = t3 - t2 < best_light ? t3 - t2 : best_light;
        best_full = t4 - t3 < best_full ? t4 - t3 : best_full;
    }
    render_all(&s, sk, 3, &nfixed, fixed);
    printf("bench: %zu files (%s), %.1f MB of source\n", s.n, what, total / 1e6);
    printf("render every view: %zu views, %.1f MB rendered in %.3f s (goal < 0.5 s)\n",
           nviews, bytes / 1e6, best_render);
    print_costs(best_cost, &fixed[RTM_VIEW_TRACK]);
    printf("parse alone: light (no matrices) %.3f s, full %.3f s\n", best_light, best_full);
    printf("BMTR -> plain.rtm: %.2f MB of BMTR source in %.3f s = %.0f MB/s on one core "
           "(goal >= 100 MB/s)\n", bmtr_src / 1e6, best_conv,
           best_conv > 0 ? bmtr_src / 1e6 / best_conv : 0);
    print_format(&s, sk);
    printf("size every view in one pass (rtm_view_sizes, parsed files): %.3f s\n",
           time_sizing(&s, sk));
    for (int k = 0; k < NKINDS; k++) {
        free(cost[k].each);
        free(best_cost[k].each);
        free(fixed[k].each);
    }
    rtm_skeleton_free(sk);
    for (size_t i = 0; i < s.n; i++) {
        free(s.f[i].name);
        free(s.f[i].data);
    }
    free(s.f);
    return 0;
}
