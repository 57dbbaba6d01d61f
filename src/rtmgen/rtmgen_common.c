/* rtmgen_common.c - what rtmgen's commands share (rtmgen.h): folders and
 * files written with their messages, the samples by kind, and the names
 * of a generated install, which its archives and its configs both use. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rtmgen.h"

int rtmgen_mkdirs(const char *path, size_t n)
{
    char p[4096];
    if (n >= sizeof p) {
        fprintf(stderr, "rtmgen: %s: path too long\n", path);
        return -1;
    }
    memcpy(p, path, n);
    p[n] = 0;
    for (size_t i = 1; i <= n; i++) {
        if (p[i] != '/' && p[i] != 0)
            continue;
        p[i] = 0;
        int e = mkdir(p, 0755) && errno != EEXIST ? errno : 0;
        p[i] = i < n ? '/' : 0;
        if (e) {
            fprintf(stderr, "rtmgen: %s: %s\n", p, strerror(e));
            return -1;
        }
    }
    return 0;
}

int rtmgen_mkdir(const char *path) { return rtmgen_mkdirs(path, strlen(path)); }

/* Writes len bytes of b to path, making the folders above it as needed. */
int rtmgen_write_file(const char *path, const struct rtm_buf *b, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (slash && slash > path && rtmgen_mkdirs(path, (size_t)(slash - path)))
        return -1;
    FILE *f = fopen(path, "wb");
    int bad = !f || fwrite(b->p, 1, len, f) != len;
    if (f && fclose(f))
        bad = 1;
    if (bad) {
        fprintf(stderr, "rtmgen: %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

int rtmgen_sample(enum kind k, const struct sample_opts *o, struct rtm_buf *b)
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

static const char *const BIG_ADDONS[] = {
    "anims", "characters", "weapons", "vehicles", "structures",
    "sounds", "ui", "data", "props", "air", "boats", "terrain",
};
enum { BIG_NADDONS = sizeof BIG_ADDONS / sizeof BIG_ADDONS[0] };

const char *const RTMGEN_ANIMS[RTMGEN_NANIMS] = {
    "amovpercmstpsraswrfldnon", "amovpercmwlksraswrfldf", "amovpercmrunsraswrfldf",
    "amovpknlmstpsraswrfldnon", "amovppnemstpsraswrfldnon", "aidlpercmstpsraswrfldnon_idle",
    "ainvpknlmstpslaywrfldnon_medic", "awopercmstpsgthwrfldnon_throw",
    "gesturepoint", "gesturereload",
};

/* -I's names hang on (archive, animation) alone, not on a generator's
 * state, so that another archive's config can name them: splitmix64. */
void rtmgen_install_rtm(unsigned i, unsigned m, char *out, size_t n)
{
    uint64_t z = ((uint64_t)i << 32 | m) + 0x9E3779B97F4A7C15u;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    z ^= z >> 31;
    const char *anim = RTMGEN_ANIMS[z % RTMGEN_NANIMS];
    snprintf(out, n, "anims\\characters\\%s%s_%02u.rtm",
             strncmp(anim, "gesture", 7) ? "" : "gestures\\", anim, m);
}

void rtmgen_archive_names(unsigned i, unsigned mods, char *addon, size_t an, char *prefix,
                          size_t pn)
{
    unsigned mod = i % mods, k = i / mods;
    if (k < BIG_NADDONS)
        snprintf(addon, an, "%s", BIG_ADDONS[k]);
    else
        snprintf(addon, an, "%s_%u", BIG_ADDONS[k % BIG_NADDONS], k / BIG_NADDONS);
    snprintf(prefix, pn, "mod_%02u\\addons\\%s", mod, addon);
}
