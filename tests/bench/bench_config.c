/* bench_config - the config reader's speed (issue 27): MB/s of rapified
 * input turned into text (rap_read + cfg_write_text), over the real files
 * of ../shared/configs (or, without them, a generated config), CPU time,
 * the best of several rounds of many repetitions each.  Also the read
 * alone and the text alone. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"

enum { ROUNDS = 5 };

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
    buf_init(&t);
    buf_puts(&t, "class CfgMovesMaleSdr { class States {\n");
    for (int i = 0; i < 3000; i++)
        buf_printf(&t, "class S%d : Base { file = \"\\a3\\anims_f\\s%d.rtm\"; speed = %d.25; "
                   "looped = 1; interpolateTo[] = {\"S%d\", 0.02, \"S%d\", 0.1}; };\n",
                   i, i, i % 7, i + 1, i + 2);
    buf_puts(&t, "}; };\n");
    buf_init(&b);
    if (cfg_parse_text(t.p, t.len, "gen", NULL, &c, &err) || rap_write(c, &b))
        abort();
    cfg_free(c);
    buf_free(&t);
    f->data = (uint8_t *)buf_take(&b, &f->len);
    return 1;
}

/* Seconds a round of reps passes takes, best of ROUNDS; mode 0 read and
 * text, 1 read only. */
static double run(const struct file *f, size_t n, int reps, int mode, size_t *text_bytes)
{
    double best = 1e30;
    struct rtm_buf out;
    buf_init(&out);
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
                    cfg_write_text(c, &out);
                    *text_bytes += out.len;
                }
                cfg_free(c);
            }
        double t = cpu_now() - t0;
        best = t < best ? t : best;
    }
    buf_free(&out);
    return best;
}

int main(void)
{
    static struct file f[512];
    const char *sh = getenv("RTMFS_SHARED");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/configs", sh ? sh : "../shared");
    size_t n = load(f, 512, dir), bytes = 0, text = 0;
    if (n == 0) {
        printf("bench_config: %s not found; a generated config instead\n", dir);
        n = generate(f);
    }
    for (size_t i = 0; i < n; i++)
        bytes += f[i].len;
    int reps = (int)(200e6 / (double)bytes / ROUNDS) + 1;     /* ~200 MB a round */
    double both = run(f, n, reps, 0, &text), read = run(f, n, reps, 1, &bytes);
    size_t in = 0;
    for (size_t i = 0; i < n; i++)
        in += f[i].len;
    double mb = (double)in * reps / 1e6;
    printf("bench_config: %zu rapified files, %.1f kB, x%d a round (best of %d, CPU)\n", n,
           (double)in / 1e3, reps, ROUNDS);
    printf("  rapified -> text: %.0f MB/s of input (%.0f MB/s of text out)\n", mb / both,
           (double)text / 1e6 / both);
    printf("  read alone:       %.0f MB/s of input\n", mb / read);
    for (size_t i = 0; i < n; i++)
        free(f[i].data);
    return 0;
}
