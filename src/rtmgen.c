/* rtmgen - write sample animations with the project's own writers.
 *
 *   rtmgen DIR            a small set: plain, plain+MDAT, BMTR v3/v4/v5, broken
 *   rtmgen -t N DIR       a tree of N files in DIR/mod_XX/ (for benchmarks)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "samples.h"

static int write_file(const char *path, const struct rtm_buf *b, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b->p, 1, len, f) != len || fclose(f)) {
        fprintf(stderr, "rtmgen: %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

enum kind { K_PLAIN, K_MDAT, K_V3, K_V4, K_V5_RAW, K_V5_LZO, K_KINDS };

static int make(enum kind k, const struct sample_opts *o, struct rtm_buf *b)
{
    struct sample_opts p = *o;
    switch (k) {
    case K_PLAIN: p.nprops = 0; return rtm_sample_plain(&p, b);
    case K_MDAT: return rtm_sample_plain(&p, b);
    case K_V3: return rtm_sample_bmtr(&p, 3, BMTR_COMPRESS_AUTO, b);
    case K_V4: return rtm_sample_bmtr(&p, 4, BMTR_COMPRESS_AUTO, b);
    case K_V5_RAW: return rtm_sample_bmtr(&p, 5, BMTR_COMPRESS_NONE, b);
    default: return rtm_sample_bmtr(&p, 5, BMTR_COMPRESS_ALL, b);
    }
}

static int gen_one(const char *dir, const char *name, enum kind k,
                   const struct sample_opts *o, size_t cut)
{
    struct rtm_buf b;
    char path[4096];
    buf_init(&b);
    int rc = make(k, o, &b);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!rc)
        rc = write_file(path, &b, cut && cut < b.len ? cut : b.len);
    else
        fprintf(stderr, "rtmgen: out of memory\n");
    buf_free(&b);
    return rc;
}

static int gen_set(const char *dir)
{
    struct sample_opts o = { 40, 66, 1, 0 }, mdat = { 24, 66, 2, 3 }, face = { 30, 103, 3, 0 };
    return gen_one(dir, "walk.rtm", K_PLAIN, &o, 0) ||
           gen_one(dir, "step_props.rtm", K_MDAT, &mdat, 0) ||
           gen_one(dir, "wave_v3.rtm", K_V3, &face, 0) ||
           gen_one(dir, "reload_v4.rtm", K_V4, &mdat, 0) ||
           gen_one(dir, "run_v5.rtm", K_V5_LZO, &o, 0) ||
           gen_one(dir, "idle_v5_raw.rtm", K_V5_RAW, &mdat, 0) ||
           gen_one(dir, "broken.rtm", K_V5_LZO, &o, 9000) ? 1 : 0;
}

static int gen_tree(const char *dir, long n)
{
    char sub[4096], name[64];
    for (long i = 0; i < n; i++) {
        snprintf(sub, sizeof sub, "%s/mod_%02ld", dir, i / 100);
        if (i % 100 == 0 && mkdir(sub, 0755) && errno != EEXIST) {
            fprintf(stderr, "rtmgen: %s: %s\n", sub, strerror(errno));
            return 1;
        }
        struct sample_opts o = { (uint32_t)(20 + i % 40), (uint32_t)(60 + i % 44),
                                 (uint32_t)i, (uint32_t)(i % 3) };
        enum kind k = (enum kind)(i % K_KINDS);
        snprintf(name, sizeof name, "anim_%05ld.rtm", i);
        if (gen_one(sub, name, k, &o, 0))
            return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    long tree = 0;
    int c;
    while ((c = getopt(argc, argv, "t:h")) != -1) {
        if (c == 't') {
            tree = strtol(optarg, NULL, 10);
        } else {
            fprintf(c == 'h' ? stdout : stderr, "usage: rtmgen [-t COUNT] DIR\n");
            return c == 'h' ? 0 : 2;
        }
    }
    if (optind + 1 != argc) {
        fprintf(stderr, "usage: rtmgen [-t COUNT] DIR\n");
        return 2;
    }
    const char *dir = argv[optind];
    if (mkdir(dir, 0755) && errno != EEXIST) {
        fprintf(stderr, "rtmgen: %s: %s\n", dir, strerror(errno));
        return 1;
    }
    return tree > 0 ? gen_tree(dir, tree) : gen_set(dir);
}
