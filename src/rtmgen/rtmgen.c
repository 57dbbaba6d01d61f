/* rtmgen - write sample animations with the project's own writers.
 *
 *   rtmgen DIR            a small set: plain, plain+MDAT, BMTR v3/v4/v5, broken
 *   rtmgen -t N DIR       a tree of N files in DIR/mod_XX/ (for benchmarks)
 *   rtmgen -p FILE.pbo    the small set in a PBO archive (stored and LZSS
 *                         entries under anims\, a prefix property)
 *   rtmgen -a OUT.pbo FILE...  FILEs in an archive, each as DIR\\NAME (its
 *                         last two path components), LZSS and stored in turn
 *   rtmgen -P MB DIR      PBO archives of at least MB megabytes (10^6 bytes)
 *                         in all, shaped like Arma mods (for benchmarks):
 *                         DIR/@mod_XX/addons/NAME.pbo, each a few MB, each
 *                         with RTMs (plain and BMTR, stored and LZSS) under
 *                         anims\characters\, an LZSS config.cpp and stored
 *                         ~1 MB textures data\tex_NNN.paa that make up most
 *                         of the bytes; reproducible (xorshift), one archive
 *                         in memory at a time; prints a summary on stdout
 *   rtmgen -s|-x MB FILE  one file for the memory tests (see gen_sized)
 *   rtmgen -I N[,KIND] DIR  a whole install for benchmarks: N animations in
 *                         archives of 50 across 20 mod folders, filled with
 *                         textures, each with a rapified config.bin whose
 *                         states play them (KIND none: no config; cpp: a
 *                         text config.cpp playing them with a skeleton),
 *                         and N/10 loose; the real files' mix
 *   rtmgen -D N[,SEED] DIR  a damaged tree: at least N damaged files (cut,
 *                         flipped, counts rewritten, LZO broken, archives
 *                         with table tricks and damaged entries, configs
 *                         cut mid-class) beside good ones, and
 *                         DIR/damaged.tsv, each file's kind as the parser
 *                         finds it (rtmgen_damaged.c, damaged.h)
 *   rtmgen -F FRAMES DIR  DIR/figure.rtm, a figure standing upright that
 *                         moves a little, and DIR/figure.skel, its skeleton
 *                         with pivots (preview.svg's tests and demo)
 *   rtmgen -b DIR         BVH motion capture in every naming public mocap
 *                         uses and every rotation order, and DIR/bvh.tsv
 *                         (rtmgen_bvh.c)
 *   rtmgen -G DIR         glTF: a two-bone arm as arm.glb (two clips),
 *                         arm.gltf with its buffer beside it, and
 *                         arm_inline.gltf (rtmgen_gltf.c)
 *   rtmgen -h, --help     the usage, on stdout; bad usage: on stderr, exit 2
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pbo.h"
#include "pbo_write.h"
#include "samples.h"

#include "rtmgen.h"

static int gen_one(const char *dir, const char *name, enum kind k,
                   const struct sample_opts *o, size_t cut)
{
    struct rtm_buf b;
    char path[4096];
    rtm_buf_init(&b);
    int rc = rtmgen_sample(k, o, &b);
    if (rc)
        fprintf(stderr, "rtmgen: out of memory\n");
    else if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) {
        fprintf(stderr, "rtmgen: %s/%s: path too long\n", dir, name);
        rc = -1;
    } else
        rc = rtmgen_write_file(path, &b, cut && cut < b.len ? cut : b.len);
    rtm_buf_free(&b);
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
        if (i % 100 == 0 && rtmgen_mkdir(sub))
            return 1;
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
    struct pbo_write_entry e[NSET + 2];
    size_t n = 0;
    int rc = 0;
    rtm_buf_init(&out);
    for (size_t i = 0; i < NSET; i++) {
        rtm_buf_init(&b[i]);
        if (!SET[i].in_pbo)
            continue;
        rc |= rtmgen_sample(SET[i].kind, &SET[i].opts, &b[i]);
        e[n] = (struct pbo_write_entry){ SET[i].in_pbo, (const uint8_t *)b[i].p, b[i].len,
                                         n % 2 ? PBO_PACK_STORE : PBO_PACK_CPRS, 0 };
        n++;
    }
    static const char cfg[] = "class CfgMovesBasic {};\nclass CfgMovesMaleSdr: CfgMovesBasic {};\n",
                      readme[] = "Sample animations written by rtmgen.\n";
    e[n++] = (struct pbo_write_entry){ "config.cpp", (const uint8_t *)cfg, sizeof cfg - 1,
                                       PBO_PACK_CPRS, 0 };
    e[n++] = (struct pbo_write_entry){ "texts\\readme.txt", (const uint8_t *)readme,
                                       sizeof readme - 1, PBO_PACK_STORE, 0 };
    struct pbo_write_prop prop = { "prefix", "rtmfs\\samples" };
    if (!rc)
        rc = pbo_write(e, n, &prop, 1, 0, &out);
    if (!rc)
        rc = rtmgen_write_file(path, &out, out.len);
    else
        fprintf(stderr, "rtmgen: out of memory\n");
    for (size_t i = 0; i < NSET; i++)
        rtm_buf_free(&b[i]);
    rtm_buf_free(&out);
    return rc ? 1 : 0;
}

/* -a: FILEs packed as DIR\\NAME (the last two components of each path),
 * LZSS and stored in turn, each with its file's mtime as the entry's time
 * (as packers do), with the prefix property "rtmfs\\packed". */
static int gen_packed(const char *out_path, char **files, int n)
{
    struct pbo_write_entry *e = calloc((size_t)n + 1, sizeof *e);
    char (*names)[512] = calloc((size_t)n + 1, sizeof *names);
    uint8_t **data = calloc((size_t)n + 1, sizeof *data);
    int rc = e && names && data ? 0 : -1;
    for (int i = 0; !rc && i < n; i++) {
        size_t len;
        const char *base = strrchr(files[i], '/'), *dir = files[i];
        base = base ? base + 1 : files[i];
        for (const char *p = files[i]; p < base - 1; p++)
            if (*p == '/')
                dir = p + 1;
        struct stat st;
        if (stat(files[i], &st) || rtm_slurp(files[i], &data[i], &len)) {
            fprintf(stderr, "rtmgen: %s: %s\n", files[i], strerror(errno));
            rc = -1;
            break;
        }
        snprintf(names[i], sizeof names[i], "%.*s%s", (int)(base - dir), dir, base);
        for (char *p = names[i]; *p; p++)
            *p = *p == '/' ? '\\' : *p;
        uint32_t stamp = st.st_mtime > 0 && st.st_mtime <= UINT32_MAX ? (uint32_t)st.st_mtime : 0;
        e[i] = (struct pbo_write_entry){ names[i], data[i], len,
                                         i % 2 ? PBO_PACK_STORE : PBO_PACK_CPRS, stamp };
    }
    struct pbo_write_prop prop = { "prefix", "rtmfs\\packed" };
    struct rtm_buf out;
    rtm_buf_init(&out);
    if (!rc && pbo_write(e, (size_t)n, &prop, 1, 0, &out)) {
        fprintf(stderr, "rtmgen: out of memory\n");
        rc = -1;
    }
    if (!rc)
        rc = rtmgen_write_file(out_path, &out, out.len);
    rtm_buf_free(&out);
    for (int i = 0; data && i < n; i++)
        free(data[i]);
    free(data);
    free(names);
    free(e);
    return rc ? 1 : 0;
}

/* -s MB FILE: a plain animation of 66 bones whose parse with matrices
 * holds about MB megabytes (its own bytes and its matrices).  -x MB FILE: a
 * small BMTR of 100 bones at rest whose LZO arrays expand to a parse of
 * about MB megabytes.  For the memory tests. */
static int gen_sized(int expanding, long mb, const char *path)
{
    struct rtm_buf b;
    rtm_buf_init(&b);
    uint64_t bytes = (uint64_t)mb * 1000000;
    int rc;
    if (!expanding) {
        struct sample_opts o = { (uint32_t)(bytes / (66 * (80 + 48))), 66, 7, 0 };
        rc = rtm_sample_plain(&o, &b);
    } else {
        enum { NB = 100 };
        uint32_t nf = (uint32_t)(bytes / (NB * 48));
        uint8_t *tr = calloc((size_t)nf * NB, 14);
        float *phases = calloc(nf ? nf : 1, sizeof *phases);
        const char **names = calloc(NB, sizeof *names);
        char (*text)[16] = calloc(NB, sizeof *text);
        static const float q[4] = { 0, 0, 0, 1 }, t[3] = { 0, 0, 0 };
        rc = !tr || !phases || !names || !text ? -1 : 0;
        for (uint32_t i = 0; !rc && i < (uint32_t)nf * NB; i++)
            rtm_pack_transform(tr + (size_t)i * 14, q, t);
        for (uint32_t f = 0; !rc && f < nf; f++)
            phases[f] = nf > 1 ? (float)f / (float)(nf - 1) : 0;
        for (int i = 0; !rc && i < NB; i++) {
            snprintf(text[i], sizeof text[i], "bone_%d", i);
            names[i] = text[i];
        }
        struct bmtr_spec sp = { .version = 5, .byte8 = 1, .nbones = NB, .names = names,
                                .nframes = nf, .phases = phases, .transforms = tr,
                                .compress = BMTR_COMPRESS_ALL };
        if (!rc)
            rc = rtm_write_bmtr(&sp, &b);
        free(tr);
        free(phases);
        free(names);
        free(text);
    }
    if (rc || b.oom) {
        fprintf(stderr, "rtmgen: out of memory\n");
        rtm_buf_free(&b);
        return 1;
    }
    rc = rtmgen_write_file(path, &b, b.len) ? 1 : 0;
    rtm_buf_free(&b);
    return rc;
}

static int gen_figure(const char *dir, long nframes)
{
    struct rtm_buf rtm, skel;
    rtm_buf_init(&rtm);
    rtm_buf_init(&skel);
    char path[4096];
    int rc = rtm_sample_figure((uint32_t)nframes, &rtm, &skel) ? -1 : 0;
    if (rc)
        fprintf(stderr, "rtmgen: out of memory\n");
    snprintf(path, sizeof path, "%s/figure.rtm", dir);
    rc = rc || rtmgen_write_file(path, &rtm, rtm.len);
    snprintf(path, sizeof path, "%s/figure.skel", dir);
    rc = rc || rtmgen_write_file(path, &skel, skel.len);
    rtm_buf_free(&rtm);
    rtm_buf_free(&skel);
    return rc ? 1 : 0;
}

static void usage(FILE *f)
{
    fputs("usage: rtmgen DIR | rtmgen -t COUNT DIR | rtmgen -p FILE.pbo\n"
          "       rtmgen -a FILE.pbo FILE... | rtmgen -P MB DIR | rtmgen -s|-x MB FILE\n"
          "       rtmgen -I N DIR | rtmgen -F FRAMES DIR | rtmgen -D N[,SEED] DIR\n"
          "       rtmgen -b DIR\n"
          "Writes sample Arma animations (.rtm) and PBO archives with rtmfs's own writers.\n"
          "  DIR              the small set in DIR (created if missing): walk.rtm (plain\n"
          "                   RTM_0101), step_props.rtm (plain with an RTM_MDAT block),\n"
          "                   wave_v3.rtm, reload_v4.rtm (BMTR v3, v4), run_v5.rtm (BMTR v5,\n"
          "                   LZO), idle_v5_raw.rtm (BMTR v5, uncompressed) and broken.rtm\n"
          "                   (a BMTR v5 cut short)\n"
          "  -t COUNT DIR     COUNT files, DIR/mod_XX/anim_NNNNN.rtm (100 a folder), the\n"
          "                   formats of the small set in turn (for benchmarks)\n"
          "  -p FILE.pbo      an archive of four of the small set under anims\\, with\n"
          "                   config.cpp, texts\\readme.txt and the prefix rtmfs\\samples;\n"
          "                   LZSS and stored entries in turn\n"
          "  -a FILE.pbo FILE...  an archive of FILEs, each named DIR\\NAME (its last two\n"
          "                   path components), prefix rtmfs\\packed\n"
          "  -P MB DIR        archives shaped like Arma mods, at least MB megabytes in all:\n"
          "                   DIR/@mod_XX/addons/NAME.pbo with RTMs, config.cpp and textures;\n"
          "                   prints a summary (for benchmarks)\n"
          "  -I N DIR         a whole install: N animations in archives of 50 across 20\n"
          "                   mods (DIR/@mod_XX/addons/NAME.pbo, 3-8 MB each with textures)\n"
          "                   and N/10 loose (DIR/loose/), with the real files' mix of\n"
          "                   formats, frames and bones; each archive has a config.bin\n"
          "                   (rapified) whose states play its animations, as mods' do;\n"
          "                   prints a summary (for benchmarks).  -I N,none: no config;\n"
          "                   -I N,cpp: a text config.cpp (stored) whose states play\n"
          "                   them with skeletonName \"OFP2_ManSkeleton\"\n"
          "  -s MB FILE       a plain animation whose parse takes about MB megabytes\n"
          "  -x MB FILE       a small BMTR v5 whose LZO arrays expand to a parse of about\n"
          "                   MB megabytes (-s and -x: for memory tests)\n"
          "  -D N[,SEED] DIR  a damaged tree (for the tests of bad input): at least N\n"
          "                   damaged files beside good ones, from the real files' mix:\n"
          "                   animations cut in every part, with bytes flipped, counts\n"
          "                   and array sizes rewritten or LZO streams broken; archives\n"
          "                   with table tricks, damaged entries or damaged themselves;\n"
          "                   configs and model.cfg cut mid-class.  DIR/damaged.tsv\n"
          "                   lists PATH, KIND (as the parser finds it: good, parses,\n"
          "                   head-fails, head-ok-full-fails, entry-fails, pbo-ok,\n"
          "                   pbo-cut, pbo-fails, pbo-tricks, config-ok, config-fails,\n"
          "                   modelcfg-ok, modelcfg-fails) and WHAT was done, one a\n"
          "                   line; prints the count of each kind.  SEED: default 1\n"
          "  -F FRAMES DIR    DIR/figure.rtm, a figure standing upright that moves a\n"
          "                   little over FRAMES frames (1 to 10000), and DIR/figure.skel,\n"
          "                   its skeleton with pivots: rtmcat -s DIR/figure.skel\n"
          "  -b DIR           BVH motion capture (a person walking, 40 frames): one file a\n"
          "                   naming (mixamo, cmu_mb, cmu_max, poser, suffix, suffix_dot,\n"
          "                   side_word, unreal), each with its own rotation order,\n"
          "                   channels, unit (cm, m, in, CMU's), rest (T-pose or arms\n"
          "                   down) and line ends; ofp2_ORDER.bvh in the man skeleton's\n"
          "                   names for every rotation order and mixed; DIR/bvh.tsv says\n"
          "                   what each file is\n"
          "  -G DIR           glTF: a two-bone arm (RightArm, RightForeArm, RightHand) as\n"
          "                   arm.glb with a skin and two clips (bend, lift), arm.gltf\n"
          "                   with its buffer in the file \"arm data.bin\" beside it, and\n"
          "                   arm_inline.gltf (its buffer inline, no skin, one clip)\n"
          "  -h, --help       show this help and exit\n"
          "The same options write the same bytes on every run and machine.\n", f);
}

int main(int argc, char **argv)
{
    long tree = 0, mb = 0, figure = 0, install = 0;
    int configs = INSTALL_CONFIG_BIN;
    char *end;
    int c;
    static const struct option longopts[] = {
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    while ((c = getopt_long(argc, argv, "t:p:P:a:s:x:F:I:D:b:G:h", longopts, NULL)) != -1) {
        if (c == 'D' && optind + 1 == argc) {
            return rtmgen_damaged(optarg, argv[optind]);
        } else if ((c == 's' || c == 'x') && optind + 1 == argc) {
            return gen_sized(c == 'x', strtol(optarg, NULL, 10), argv[optind]);
        } else if (c == 'a') {
            return gen_packed(optarg, argv + optind, argc - optind);
        } else if (c == 't') {
            tree = strtol(optarg, NULL, 10);
        } else if (c == 'I') {
            errno = 0;
            install = strtol(optarg, &end, 10);
            if (*end == ',')
                configs = !strcmp(end, ",bin") ? INSTALL_CONFIG_BIN
                        : !strcmp(end, ",none") ? INSTALL_CONFIG_NONE
                        : !strcmp(end, ",cpp") ? INSTALL_CONFIG_CPP : -1;
            if (errno || end == optarg || (*end && *end != ',') || configs < 0 ||
                install < 1 || install > 10000000) {
                fprintf(stderr, "rtmgen: -I %s: not a number of animations (1 or more), "
                        "then ,bin ,none or ,cpp\n", optarg);
                return 2;
            }
        } else if (c == 'F') {
            errno = 0;
            figure = strtol(optarg, &end, 10);
            if (errno || end == optarg || *end || figure < 1 || figure > 10000) {
                fprintf(stderr, "rtmgen: -F %s: not a number of frames (1 to 10000)\n", optarg);
                return 2;
            }
        } else if (c == 'p') {
            return gen_pbo(optarg);
        } else if (c == 'b' && optind == argc) {
            return rtmgen_mkdir(optarg) ? 1 : rtmgen_bvh(optarg);
        } else if (c == 'G' && optind == argc) {
            return rtmgen_mkdir(optarg) ? 1 : rtmgen_gltf(optarg);
        } else if (c == 'P') {
            errno = 0;
            mb = strtol(optarg, &end, 10);
            if (errno || end == optarg || *end || mb < 1 || mb > 100000000) {
                fprintf(stderr, "rtmgen: -P %s: not a number of megabytes (1 or more)\n",
                        optarg);
                return 2;
            }
        } else {
            usage(c == 'h' ? stdout : stderr);
            return c == 'h' ? 0 : 2;
        }
    }
    if (optind + 1 != argc) {
        usage(stderr);
        return 2;
    }
    const char *dir = argv[optind];
    if (rtmgen_mkdir(dir))
        return 1;
    if (mb > 0)
        return rtmgen_mods(dir, mb);
    if (figure > 0)
        return gen_figure(dir, figure);
    if (install > 0)
        return rtmgen_install(dir, install, (enum install_configs)configs);
    return tree > 0 ? gen_tree(dir, tree) : gen_set(dir);
}
