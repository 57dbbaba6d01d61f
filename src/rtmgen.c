/* rtmgen - write sample animations with the project's own writers.
 *
 *   rtmgen DIR            a small set: plain, plain+MDAT, BMTR v3/v4/v5, broken
 *   rtmgen -t N DIR       a tree of N files in DIR/mod_XX/ (for benchmarks)
 *   rtmgen -p FILE.pbo    the small set in a PBO archive (stored and LZSS
 *                         entries under anims\, a prefix property)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pbo_write.h"
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

/* The small set: loose files for gen_set, the same bytes in gen_pbo's archive. */
static const struct sample_file {
    const char *name, *in_pbo;          /* in_pbo NULL: not in the archive */
    enum kind kind;
    struct sample_opts opts;
    size_t cut;                         /* > 0: written cut short (broken) */
} SET[] = {
    { "walk.rtm", "anims\\walk.rtm", K_PLAIN, { 40, 66, 1, 0 }, 0 },
    { "step_props.rtm", "anims\\step_props.rtm", K_MDAT, { 24, 66, 2, 3 }, 0 },
    { "wave_v3.rtm", "anims\\binarised\\wave_v3.rtm", K_V3, { 30, 103, 3, 0 }, 0 },
    { "reload_v4.rtm", NULL, K_V4, { 24, 66, 2, 3 }, 0 },
    { "run_v5.rtm", "anims\\binarised\\run_v5.rtm", K_V5_LZO, { 40, 66, 1, 0 }, 0 },
    { "idle_v5_raw.rtm", NULL, K_V5_RAW, { 24, 66, 2, 3 }, 0 },
    { "broken.rtm", NULL, K_V5_LZO, { 40, 66, 1, 0 }, 9000 },
};
enum { NSET = sizeof SET / sizeof SET[0] };

static int gen_set(const char *dir)
{
    for (size_t i = 0; i < NSET; i++)
        if (gen_one(dir, SET[i].name, SET[i].kind, &SET[i].opts, SET[i].cut))
            return 1;
    return 0;
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

/* Compressed and stored entries alternate, so both are exercised. */
static int gen_pbo(const char *path)
{
    struct rtm_buf b[NSET], out;
    struct pbo_write_entry e[NSET + 1];
    size_t n = 0;
    int rc = 0;
    buf_init(&out);
    for (size_t i = 0; i < NSET; i++) {
        buf_init(&b[i]);
        if (!SET[i].in_pbo)
            continue;
        rc |= make(SET[i].kind, &SET[i].opts, &b[i]);
        e[n] = (struct pbo_write_entry){ SET[i].in_pbo, (const uint8_t *)b[i].p, b[i].len,
                                         n % 2 ? PBO_PACK_STORE : PBO_PACK_CPRS, 0 };
        n++;
    }
    static const char cfg[] = "class CfgMovesBasic {};\n";
    e[n++] = (struct pbo_write_entry){ "config.cpp", (const uint8_t *)cfg, sizeof cfg - 1,
                                       PBO_PACK_STORE, 0 };
    struct pbo_write_prop prop = { "prefix", "rtmfs\\samples" };
    if (!rc)
        rc = pbo_write(e, n, &prop, 1, 0, &out);
    if (!rc)
        rc = write_file(path, &out, out.len);
    else
        fprintf(stderr, "rtmgen: out of memory\n");
    for (size_t i = 0; i < NSET; i++)
        buf_free(&b[i]);
    buf_free(&out);
    return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
    long tree = 0;
    int c;
    while ((c = getopt(argc, argv, "t:p:h")) != -1) {
        if (c == 't') {
            tree = strtol(optarg, NULL, 10);
        } else if (c == 'p') {
            return gen_pbo(optarg);
        } else {
            fprintf(c == 'h' ? stdout : stderr, "usage: rtmgen [-t COUNT] DIR | rtmgen -p FILE.pbo\n");
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
