/* rtmgen_mods.c - rtmgen's trees shaped like released mods (-P) and a
 * whole install (-I), for the benchmarks (see rtmgen.h). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_mix.h"
#include "pbo.h"
#include "pbo_write.h"
#include "rtmgen.h"

enum {
    BIG_MODS = 10,                      /* @mod_00 .. @mod_09, archives dealt round */
    BIG_PLAN_MIN = 3, BIG_PLAN_MAX = 8, /* MB an archive's contents aim at */
    BIG_RTM_MIN = 4, BIG_RTM_MAX = 12,  /* RTM entries an archive (-P) */
    BIG_TEX_MIN = 512 * 1024, BIG_TEX_MAX = 1536 * 1024,
    BIG_ENTRIES = 1 + INSTALL_RTM + BIG_PLAN_MAX * 1000000 / BIG_TEX_MIN + 2,
    BIG_NAME = 128,
};
#define BIG_TIME 1700000000u            /* entry timestamps start here */

struct big_stats {
    uint64_t bytes, rtm_bytes;
    uint64_t needed;                    /* tables and RTM entries' stored bytes */
    uint64_t config_bytes;              /* -I: the config.bin files */
    long archives, entries, rtm, lefthand;
};

/* The archive being built: its entries own their contents. */
struct big_archive {
    size_t n;
    char name[BIG_ENTRIES][BIG_NAME];
    enum pbo_pack pack[BIG_ENTRIES];
    struct rtm_buf data[BIG_ENTRIES];
};

static void big_free(struct big_archive *a)
{
    for (size_t i = 0; i < a->n; i++)
        rtm_buf_free(&a->data[i]);
    free(a);
}

static uint64_t big_bytes(const struct big_archive *a)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < a->n; i++)
        sum += a->data[i].len;
    return sum;
}

/* A new, empty entry; NULL (with a message) when the archive is full. */
__attribute__((format(printf, 3, 4)))
static struct rtm_buf *big_entry(struct big_archive *a, enum pbo_pack pack, const char *fmt, ...)
{
    if (a->n == BIG_ENTRIES) {
        fprintf(stderr, "rtmgen: more than %d entries in an archive\n", BIG_ENTRIES);
        return NULL;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->name[a->n], BIG_NAME, fmt, ap);
    va_end(ap);
    a->pack[a->n] = pack;
    rtm_buf_init(&a->data[a->n]);
    return &a->data[a->n++];
}

/* What an archive holds: -P's random few RTMs of the sample kinds, or -I's
 * nrtm drawn from the real files' mix (corpus_mix.h). */
struct big_plan {
    unsigned mods;
    uint32_t nrtm;                      /* 0: BIG_RTM_MIN..BIG_RTM_MAX, sample kinds */
    long total;                         /* -I: animations in all the archives */
    enum install_configs configs;       /* -I: what config each archive holds */
};

/* One RTM like a real one: format, frames and bones of a corpus file. */
static int mix_rtm(uint64_t *rng, uint32_t seed, struct rtm_buf *b, int *lefthand)
{
    size_t n = sizeof CORPUS_MIX / sizeof CORPUS_MIX[0];
    size_t pick = (size_t)(rng_next(rng) % n);
    struct sample_opts o = { CORPUS_MIX[pick].frames, CORPUS_MIX[pick].bones, seed,
                             rng_range(rng, 0, 3) };
    uint32_t v = CORPUS_MIX[pick].version;
    *lefthand = o.nbones >= 53;         /* OFP2's LeftHand is its 53rd bone */
    return v == 0 ? rtm_sample_plain(&o, b)
                  : rtm_sample_bmtr(&o, v, rng_next(rng) & 1 ? BMTR_COMPRESS_AUTO
                                                              : BMTR_COMPRESS_ALL, b);
}

/* RTMs of every kind, stored or LZSS at random: for -P, 66 or 103 bones;
 * BMTR stores bone names lowercase and both bone counts reach the OFP2
 * skeleton's LeftHand (its 53rd bone), so each BMTR entry's bones.txt has
 * "lefthand".  For -I, the corpus's mix. */
static int big_rtms(struct big_archive *a, unsigned archive, uint64_t *rng,
                    const struct big_plan *plan, struct big_stats *st)
{
    uint32_t n = plan->nrtm ? plan->nrtm : rng_range(rng, BIG_RTM_MIN, BIG_RTM_MAX);
    for (uint32_t i = 0; i < n; i++) {
        enum kind k = (enum kind)rng_range(rng, 0, K_KINDS - 1);
        struct sample_opts o = { rng_range(rng, 10, 50), rng_range(rng, 0, 1) ? 103 : 66,
                                 (uint32_t)st->rtm, rng_range(rng, 0, 3) };
        const char *anim = RTMGEN_ANIMS[rng_range(rng, 0, RTMGEN_NANIMS - 1)];
        const char *sub = strncmp(anim, "gesture", 7) ? "" : "gestures\\";
        char name[BIG_NAME];
        snprintf(name, sizeof name, "anims\\characters\\%s%s_%02u.rtm", sub, anim, i);
        if (plan->nrtm)                 /* -I: what the configs name */
            rtmgen_install_rtm(archive, i, name, sizeof name);
        struct rtm_buf *b = big_entry(a, rng_next(rng) & 1 ? PBO_PACK_STORE : PBO_PACK_CPRS,
                                      "%s", name);
        if (!b)
            return -1;
        int lefthand = k >= K_V3;
        if (plan->nrtm ? mix_rtm(rng, (uint32_t)st->rtm, b, &lefthand) : rtmgen_sample(k, &o, b)) {
            fprintf(stderr, "rtmgen: out of memory\n");
            return -1;
        }
        st->rtm++;
        st->lefthand += lefthand;
        st->rtm_bytes += b->len;
    }
    return 0;
}

/* Stored pseudo-random "textures" until the contents reach budget bytes. */
static int big_textures(struct big_archive *a, uint64_t *rng, uint64_t budget)
{
    unsigned ntex = 0;
    do {
        size_t len = rng_range(rng, BIG_TEX_MIN, BIG_TEX_MAX) & ~(size_t)7;
        struct rtm_buf *b = big_entry(a, PBO_PACK_STORE, "data\\tex_%03u.paa", ntex++);
        if (!b)
            return -1;
        if (rtm_buf_reserve(b, len)) {
            fprintf(stderr, "rtmgen: out of memory\n");
            return -1;
        }
        for (size_t i = 0; i < len; i += 8) {
            uint64_t v = rng_next(rng);
            memcpy(b->p + i, &v, 8);
        }
        b->p[0] = 0x01;                 /* 0xFF01: DXT1, as a .paa starts */
        b->p[1] = (char)0xFF;
        b->len = len;
    } while (big_bytes(a) < budget);
    return 0;
}

/* The skeleton -I's text configs play their states with (skel): the
 * name real configs give the man's, and a few of its bones. */
static void big_skeleton(struct rtm_buf *b)
{
    rtm_buf_puts(b, "class CfgSkeletons\n{\n    class OFP2_ManSkeleton\n    {\n"
                 "        skeletonBones[] = {\"Pelvis\", \"\", \"Spine\", \"Pelvis\", \"Spine1\", "
                 "\"Spine\", \"Spine2\", \"Spine1\", \"Spine3\", \"Spine2\", \"neck\", "
                 "\"Spine3\", \"head\", \"neck\"};\n    };\n};\n");
}

/* config.cpp (entry 0): CfgPatches and a CfgMoves state for each RTM;
 * with skel, the states' class names OFP2_ManSkeleton (and CfgSkeletons
 * defines it), as -I N,cpp asks. */
static int big_config(struct big_archive *a, unsigned mod, const char *addon,
                      const char *prefix, int skel)
{
    struct rtm_buf *b = &a->data[0];
    rtm_buf_printf(b, "class CfgPatches\n{\n    class mod_%02u_%s\n    {\n        units[] = {};\n"
                   "        weapons[] = {};\n        requiredVersion = 0.1;\n"
                   "        requiredAddons[] = {\"A3_Data_F\"};\n    };\n};\n", mod, addon);
    if (skel)
        big_skeleton(b);
    rtm_buf_printf(b, "class CfgMovesBasic;\nclass CfgMovesMaleSdr: CfgMovesBasic\n{\n%s"
                   "    class States\n    {\n",
                   skel ? "    skeletonName = \"OFP2_ManSkeleton\";\n" : "");
    for (size_t i = 1; i < a->n; i++) {
        const char *e = a->name[i], *base = strrchr(e, '\\');
        size_t len = strlen(e);
        if (!rtm_name_ends(e, len, ".rtm"))
            continue;
        base = base ? base + 1 : e;
        rtm_buf_printf(b, "        class %.*s\n        {\n            file = \"\\%s\\%s\";\n"
                       "            speed = %.3f;\n            looped = %d;\n"
                       "            interpolateTo[] = {\"AmovPercMstpSnonWnonDnon\", 0.02};\n"
                       "        };\n", (int)(len - 4 - (size_t)(base - e)), base, prefix, e,
                       0.25 + (double)(i % 7) / 8, (int)(i % 2));
    }
    rtm_buf_puts(b, "    };\n};\n");
    if (b->oom) {
        fprintf(stderr, "rtmgen: out of memory\n");
        return -1;
    }
    return 0;
}

/* What reading every RTM of the archive takes: its table and those entries'
 * stored bytes, from the table just written (which checks it, too). */
static int big_needed(const struct rtm_buf *out, const char *path, uint64_t *needed)
{
    struct pbo *p = NULL;
    struct rtm_error err;
    char msg[300];
    if (pbo_read_table((const uint8_t *)out->p, out->len, out->len, &p, &err)) {
        rtm_err_format(&err, msg, sizeof msg);
        fprintf(stderr, "rtmgen: %s: wrote a bad archive: %s\n", path, msg);
        return -1;
    }
    *needed += p->table_bytes;
    for (size_t i = 0; i < p->nentries; i++) {
        size_t len = strlen(p->entries[i].path);
        if (len > 4 && strcmp(p->entries[i].path + len - 4, ".rtm") == 0)
            *needed += p->entries[i].data_size;
    }
    pbo_free(p);
    return 0;
}

static int big_write(const struct big_archive *a, const char *path, const char *prefix,
                     struct big_stats *st)
{
    struct pbo_write_entry e[BIG_ENTRIES];
    for (size_t i = 0; i < a->n; i++)
        e[i] = (struct pbo_write_entry){ a->name[i], (const uint8_t *)a->data[i].p,
                                         a->data[i].len, a->pack[i], BIG_TIME + (uint32_t)i };
    struct pbo_write_prop prop = { "prefix", prefix };
    struct rtm_buf out;
    rtm_buf_init(&out);
    int rc = pbo_write(e, a->n, &prop, 1, 0, &out);
    if (rc)
        fprintf(stderr, "rtmgen: %s: out of memory\n", path);
    else
        rc = big_needed(&out, path, &st->needed);
    if (!rc)
        rc = rtmgen_write_file(path, &out, out.len);
    if (!rc) {
        st->bytes += out.len;
        st->archives++;
        st->entries += (long)a->n;
    }
    rtm_buf_free(&out);
    return rc;
}

/* Archive i: DIR/@mod_XX/addons/NAME.pbo, its contents about budget bytes
 * (at least one texture) and the same bytes for the same i. */
static int big_archive(const char *dir, unsigned i, uint64_t left, const struct big_plan *plan,
                       struct big_stats *st)
{
    unsigned mod = i % plan->mods;
    char path[4096], addon[64], prefix[128];
    rtmgen_archive_names(i, plan->mods, addon, sizeof addon, prefix, sizeof prefix);
    snprintf(path, sizeof path, "%s/@mod_%02u", dir, mod);
    if (rtmgen_mkdir(path))
        return -1;
    snprintf(path, sizeof path, "%s/@mod_%02u/addons", dir, mod);
    if (rtmgen_mkdir(path))
        return -1;
    snprintf(path, sizeof path, "%s/@mod_%02u/addons/%s.pbo", dir, mod, addon);

    uint64_t rng = 0x9E3779B97F4A7C15u * ((uint64_t)i + 1);
    uint64_t budget = (uint64_t)rng_range(&rng, BIG_PLAN_MIN, BIG_PLAN_MAX) * 1000000;
    struct big_archive *a = calloc(1, sizeof *a);
    if (!a) {
        fprintf(stderr, "rtmgen: out of memory\n");
        return -1;
    }
    /* -I: a rapified config.bin, stored as binarised ones mostly are (or
     * none, or a text config.cpp, stored, as the plan says); -P: the text
     * config.cpp its benchmark was measured with */
    int text = !plan->nrtm || plan->configs == INSTALL_CONFIG_CPP;
    struct rtm_buf *cfg = !plan->nrtm ? big_entry(a, PBO_PACK_CPRS, "config.cpp")
                        : plan->configs == INSTALL_CONFIG_NONE ? NULL
                        : text ? big_entry(a, PBO_PACK_STORE, "config.cpp")
                               : big_entry(a, PBO_PACK_STORE, "config.bin");
    int rc = cfg || plan->configs == INSTALL_CONFIG_NONE ? 0 : -1;
    if (!rc && plan->nrtm && !text && cfg) {
        rc = rtmgen_config(i, plan->total, cfg);
        st->config_bytes += cfg->len;
    }
    if (!rc)
        rc = big_rtms(a, i, &rng, plan, st);
    if (!rc)
        rc = big_textures(a, &rng, budget < left ? budget : left);
    if (!rc && text) {
        rc = big_config(a, mod, addon, prefix, plan->nrtm != 0);
        st->config_bytes += a->data[0].len;
    }
    if (!rc)
        rc = big_write(a, path, prefix, st);
    big_free(a);
    return rc;
}

/* Archives until they total at least mb * 10^6 bytes; a summary on stdout. */
int rtmgen_mods(const char *dir, long mb)
{
    uint64_t target = (uint64_t)mb * 1000000;
    struct big_stats st = { 0 };
    const struct big_plan plan = { BIG_MODS, 0, 0, INSTALL_CONFIG_BIN };
    for (unsigned i = 0; st.bytes < target; i++)
        if (big_archive(dir, i, target - st.bytes, &plan, &st))
            return 1;
    printf("mods: %ld\narchives: %ld\nentries: %ld\nrtm: %ld\n"
           "rtm_lefthand: %ld\nrtm_bytes: %llu\nneeded_bytes: %llu\nbytes: %llu\n",
           st.archives < BIG_MODS ? st.archives : BIG_MODS, st.archives, st.entries,
           st.rtm, st.lefthand, (unsigned long long)st.rtm_bytes,
           (unsigned long long)st.needed, (unsigned long long)st.bytes);
    return fflush(stdout) ? 1 : 0;
}

/* -I N DIR: a whole install: N animations in archives of INSTALL_RTM
 * across INSTALL_MODS mod folders, each with a config.bin that plays them
 * (rtmgen_configs.c; or as configs says), filled to BIG_PLAN_MIN..MAX MB
 * with textures, and N/10 loose ones in DIR/loose/mod_XX/, all drawn from
 * the real files' mix; a summary on stdout. */
int rtmgen_install(const char *dir, long n, enum install_configs configs)
{
    struct big_stats st = { 0 };
    for (unsigned i = 0; (long)i * INSTALL_RTM < n; i++) {
        long left = n - (long)i * INSTALL_RTM;
        const struct big_plan plan = { INSTALL_MODS,
                                       (uint32_t)(left < INSTALL_RTM ? left : INSTALL_RTM), n,
                                       configs };
        if (big_archive(dir, i, UINT64_MAX, &plan, &st))
            return 1;
    }
    uint64_t loose_bytes = 0, rng = 0x51ED27A5u;
    char path[4096];
    for (long i = 0; i < n / 10; i++) {
        struct rtm_buf b;
        rtm_buf_init(&b);
        int lefthand;
        snprintf(path, sizeof path, "%s/loose/mod_%02ld/anim_%05ld.rtm", dir, i % INSTALL_MODS, i);
        if (mix_rtm(&rng, (uint32_t)i, &b, &lefthand) || rtmgen_write_file(path, &b, b.len)) {
            rtm_buf_free(&b);
            return 1;
        }
        loose_bytes += b.len;
        st.lefthand += lefthand;
        rtm_buf_free(&b);
    }
    printf("mods: %d\narchives: %ld\nentries: %ld\nrtm: %ld\nloose: %ld\n"
           "rtm_lefthand: %ld\nrtm_bytes: %llu\nloose_bytes: %llu\nconfig_bytes: %llu\n"
           "bytes: %llu\n",
           st.archives < INSTALL_MODS ? (int)st.archives : INSTALL_MODS, st.archives, st.entries,
           st.rtm, n / 10, st.lefthand,
           (unsigned long long)st.rtm_bytes, (unsigned long long)loose_bytes,
           (unsigned long long)st.config_bytes,
           (unsigned long long)(st.bytes + loose_bytes));
    return fflush(stdout) ? 1 : 0;
}

