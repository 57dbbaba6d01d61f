/* fuzz_seeds - writes fuzz seed corpora with the project's own writers:
 * fuzz_seeds RTM_DIR SKELETON_DIR.  Each RTM seed starts with the skeleton
 * selector byte that fuzz_rtm reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "samples.h"

/* sel < 0: no selector byte (skeleton seeds). */
static void put(const char *dir, const char *name, int sel, const char *p, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    uint8_t byte = (uint8_t)sel;
    if (!f || (sel >= 0 && fwrite(&byte, 1, 1, f) != 1) || fwrite(p, 1, n, f) != n ||
        fclose(f)) {
        perror(path);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: fuzz_seeds RTM_DIR SKELETON_DIR\n");
        return 2;
    }
    struct sample_opts o = { 3, 8, 1, 2 };
    struct { const char *name; int version; enum bmtr_compress c; } k[] = {
        { "plain", 0, BMTR_COMPRESS_AUTO }, { "v3", 3, BMTR_COMPRESS_AUTO },
        { "v4", 4, BMTR_COMPRESS_AUTO }, { "v5raw", 5, BMTR_COMPRESS_NONE },
        { "v5lzo", 5, BMTR_COMPRESS_ALL },
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        struct rtm_buf b;
        buf_init(&b);
        int rc = k[i].version ? rtm_sample_bmtr(&o, (uint32_t)k[i].version, k[i].c, &b)
                              : rtm_sample_plain(&o, &b);
        if (rc)
            return 1;
        put(argv[1], k[i].name, (int)(i & 1), b.p, b.len);
        buf_free(&b);
    }
    static const char skel[] = "# bone parent\nPelvis -\nSpine Pelvis\nSpine1 Spine\n"
                               "LeftArm Spine1\nRightArm Spine1\n";
    put(argv[2], "small", -1, skel, sizeof skel - 1);
    return 0;
}
