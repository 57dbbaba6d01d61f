/* bench_config - the config reader's speed: MB/s of rapified
 * input turned into text (rap_read + cfg_print_text), over the real files
 * of ../shared/configs (or, without them, a generated config), CPU time,
 * the best of several rounds of many repetitions each.  Also the read
 * alone.
 *
 * bench_config TREE: the whole install's figure instead: every config.bin
 * of the archives below TREE (rtmgen -I: 400 archives, one config each,
 * from the project's rapify writer), read into memory first, then timed
 * the same way (bench_config_install.sh makes the tree). */
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "pbo.h"

enum { ROUNDS = 5, MAX_FILES = 100000 };

struct file {
    uint8_t *data;
    size_t len;
};

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static size_t load(struct file *f, size_t max, const char *dir)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    char path[8192];
    for (struct dirent *de; d && n < max && (de = readdir(d));) {
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (rtm_slurp(path, &f[n].data, &f[n].len) == 0) {
            if (rap_is_rapified(f[n].data, f[n].len))
                n++;
            else
                free(f[n].data);
        }
    }
    if (d)
        closedir(d);
    return n;
}

/* One generated config: a few thousand states, as a stand-in. */
static size_t generate(struct file *f)
{
    struct rtm_buf t, b;
    struct cfg *c = NULL;
    struct rtm_error err;
    rtm_buf_init(&t);
    rtm_buf_puts(&t, "class CfgMovesMaleSdr { class States {\n");
    for (int i = 0; i < 3000; i++)
        rtm_buf_printf(&t, "class S%d : Base { file = \"\\a3\\anims_f\\s%d.rtm\"; speed = %d.25; "
                       "looped = 1; interpolateTo[] = {\"S%d\", 0.02, \"S%d\", 0.1}; };\n",
                       i, i, i % 7, i + 1, i + 2);
    rtm_buf_puts(&t, "}; };\n");
    rtm_buf_init(&b);
    if (cfg_parse_text(t.p, t.len, "gen", NULL, &c, &err) || rap_write(c, &b))
        abort();
    cfg_free(c);
    rtm_buf_free(&t);
    f->data = (uint8_t *)rtm_buf_take(&b, &f->len);
    return 1;
}

/* Seconds a round of reps passes takes, best of ROUNDS; mode 0 read and
 * text, 1 read only. */
static double run(const struct file *f, size_t n, int reps, int mode, size_t *text_bytes)
{
    double best = 1e30;
    struct rtm_buf out;
    rtm_buf_init(&out);
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = cpu_now();
        *text_bytes = 0;
        for (int k = 0; k < reps; k++)
            for (size_t i = 0; i < n; i++) {
                struct cfg *c = NULL;
                struct rtm_error err;
                if (rap_read(f[i].data, f[i].len, &c, &err))
                    abort();
                if (mode == 0) {
                    out.len = 0;
                    cfg_print_text(c, &out);
                    *text_bytes += out.len;
                }
                cfg_free(c);
            }
        double t = cpu_now() - t0;
        best = t < best ? t : best;
    }
    rtm_buf_free(&out);
    return best;
}

/* ---- the whole install: every config.bin of the archives below a tree ---- */

static struct file *tree_files;
static size_t tree_n, tree_archives;

/* An archive's config.bin into tree_files; archives without one (or that
 * do not read) are counted and skipped, for the summary to show. */
static int tree_visit(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)ftw;
    size_t len = strlen(path);
    if (flag != FTW_F || len < 4 || strcasecmp(path + len - 4, ".pbo") || tree_n == MAX_FILES)
        return 0;
    tree_archives++;
    int fd = open(path, O_RDONLY);
    struct pbo *p = NULL;
    struct rtm_error err;
    if (fd < 0 || pbo_load_table(NULL, fd, &p, &err)) {
        fprintf(stderr, "bench_config: %s: not read\n", path);
    } else {
        long i = pbo_find(p, "config.bin");
        struct file *f = &tree_files[tree_n];
        if (i >= 0 && pbo_load_entry(NULL, fd, p, (size_t)i, &f->data, &f->len, &err) == 0) {
            if (rap_is_rapified(f->data, f->len))
                tree_n++;
            else
                free(f->data);
        }
    }
    pbo_free(p);
    if (fd >= 0)
        close(fd);
    return 0;
}

static int by_len(const void *a, const void *b)
{
    size_t x = ((const struct file *)a)->len, y = ((const struct file *)b)->len;
    return x < y ? -1 : x > y;
}

/* Prints the figures of n files; with install, the time of one pass too. */
static void report(const struct file *f, size_t n, int install)
{
    size_t text = 0, bytes = 0, in = 0;
    for (size_t i = 0; i < n; i++)
        in += f[i].len;
    int reps = (int)(200e6 / (double)in / ROUNDS) + 1;        /* ~200 MB a round */
    double both = run(f, n, reps, 0, &text), read = run(f, n, reps, 1, &bytes);
    double mb = (double)in * reps / 1e6;
    printf("  rapified -> text: %.0f MB/s of input (%.0f MB/s of text out); goal: at least "
           "100 MB/s\n", mb / both, (double)text / 1e6 / both);
    printf("  read alone:       %.0f MB/s of input\n", mb / read);
    if (install)
        printf("  the whole install to text: %.0f ms of CPU (%.1f MB of text)\n",
               both / reps * 1e3, (double)text / reps / 1e6);
}

static int install(const char *tree)
{
    tree_files = calloc(MAX_FILES, sizeof *tree_files);
    if (!tree_files || nftw(tree, tree_visit, 16, FTW_PHYS)) {
        fprintf(stderr, "bench_config: %s: cannot walk it\n", tree);
        return 1;
    }
    if (tree_n == 0) {
        fprintf(stderr, "bench_config: %s: no archive with a config.bin\n", tree);
        return 1;
    }
    qsort(tree_files, tree_n, sizeof *tree_files, by_len);
    size_t in = 0;
    for (size_t i = 0; i < tree_n; i++)
        in += tree_files[i].len;
    printf("bench_config, whole install: %zu config.bin in %zu archives, %.1f MB rapified "
           "(%.1f kB each on average, %.1f to %.1f kB, median %.1f); CPU, best of %d\n",
           tree_n, tree_archives, (double)in / 1e6, (double)in / 1e3 / (double)tree_n,
           (double)tree_files[0].len / 1e3, (double)tree_files[tree_n - 1].len / 1e3,
           (double)tree_files[tree_n / 2].len / 1e3, ROUNDS);
    report(tree_files, tree_n, 1);
    for (size_t i = 0; i < tree_n; i++)
        free(tree_files[i].data);
    free(tree_files);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2)
        return install(argv[1]);
    static struct file f[512];
    const char *sh = getenv("RTMFS_SHARED");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/configs", sh ? sh : "../shared");
    size_t n = load(f, 512, dir), in = 0;
    if (n == 0) {
        printf("bench_config: %s not found; a generated config instead\n", dir);
        n = generate(f);
    }
    for (size_t i = 0; i < n; i++)
        in += f[i].len;
    printf("bench_config: %zu rapified files, %.1f kB (CPU, best of %d)\n", n, (double)in / 1e3,
           ROUNDS);
    report(f, n, 0);
    for (size_t i = 0; i < n; i++)
        free(f[i].data);
    return 0;
}
