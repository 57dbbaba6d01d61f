/* rtmgen_damaged.c - rtmgen -D N[,SEED] DIR: a damaged tree (damaged.h)
 * drawn from the real files' mix (corpus_mix.h), written into DIR with
 * its manifest DIR/damaged.tsv (a "#" line naming the columns, then
 * PATH<TAB>KIND<TAB>WHAT a row: every animation, loose or an archive's
 * entry by the path the mount shows, every archive and config), and one
 * line on stdout counting the rows of each kind. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "damaged.h"
#include "rtmgen.h"

#include "corpus_mix.h"

enum { NMIX = sizeof CORPUS_MIX / sizeof CORPUS_MIX[0] };

struct dtree {
    const char *dir;
    FILE *tsv;
    unsigned count[DMG_KINDS], rows, damaged;
};

static int put_file(void *ctx, const char *path, const uint8_t *data, size_t len)
{
    const struct dtree *t = ctx;
    char full[4096];
    struct rtm_buf b = { .p = (char *)data, .len = len };   /* borrowed, never freed */
    if ((size_t)snprintf(full, sizeof full, "%s/%s", t->dir, path) >= sizeof full) {
        fprintf(stderr, "rtmgen: %s/%s: path too long\n", t->dir, path);
        return -1;
    }
    return rtmgen_write_file(full, &b, len);
}

static int put_note(void *ctx, const char *path, enum damaged_kind kind, const char *what)
{
    struct dtree *t = ctx;
    t->count[kind]++;
    t->rows++;
    t->damaged += strncmp(what, "none:", 5) != 0;
    if (fprintf(t->tsv, "%s\t%s\t%s\n", path, damaged_kind_name(kind), what) < 0) {
        fprintf(stderr, "rtmgen: %s/damaged.tsv: %s\n", t->dir, strerror(errno));
        return -1;
    }
    return 0;
}

/* "N" or "N,SEED": 0, or -1 after saying why. */
static int parse_arg(const char *arg, unsigned *n, uint64_t *seed)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(arg, &end, 10);
    int bad = errno || end == arg || v < 1 || v > 1000000;
    if (!bad && *end == ',') {
        const char *s = end + 1;
        errno = 0;
        *seed = strtoull(s, &end, 0);
        bad = errno || end == s || *s == '-';
    }
    if (bad || *end) {
        fprintf(stderr, "rtmgen: -D %s: not N[,SEED] (N damaged files, 1 to 1000000; SEED a number)\n",
                arg);
        return -1;
    }
    *n = (unsigned)v;
    return 0;
}

int rtmgen_damaged(const char *arg, const char *dir)
{
    unsigned n;
    uint64_t seed = 1;
    if (parse_arg(arg, &n, &seed))
        return 2;
    if (rtmgen_mkdir(dir))
        return 1;
    static struct damaged_mix mix[NMIX];
    for (size_t i = 0; i < NMIX; i++)
        mix[i] = (struct damaged_mix){ CORPUS_MIX[i].version, CORPUS_MIX[i].frames,
                                       CORPUS_MIX[i].bones };
    char path[4096];
    snprintf(path, sizeof path, "%s/damaged.tsv", dir);
    struct dtree t = { .dir = dir, .tsv = fopen(path, "w") };
    if (!t.tsv) {
        fprintf(stderr, "rtmgen: %s: %s\n", path, strerror(errno));
        return 1;
    }
    fputs("# path\tkind\twhat\n", t.tsv);
    struct damaged_opts o = { .n = n, .seed = seed, .mix = mix, .nmix = NMIX };
    struct damaged_out out = { put_file, put_note, &t };
    struct rtm_error err = { .msg = "" };
    int rc = damaged_tree(&o, &out, &err);
    if (fclose(t.tsv) && !rc) {
        fprintf(stderr, "rtmgen: %s: %s\n", path, strerror(errno));
        return 1;
    }
    if (rc) {
        if (err.msg[0])
            fprintf(stderr, "rtmgen: -D: %s\n", err.msg);
        return 1;
    }
    printf("rtmgen -D %u,%llu: %u rows, %u damaged:", n, (unsigned long long)seed, t.rows, t.damaged);
    for (int k = 0; k < DMG_KINDS; k++)
        printf(" %s %u%s", damaged_kind_name((enum damaged_kind)k), t.count[k],
               k + 1 < DMG_KINDS ? "," : "\n");
    return 0;
}
