/* rtmgen_bvh.c - rtmgen -b DIR: BVH motion capture for the tests of BVH
 * as a source (mocap_write.h): one file a naming public mocap uses, each
 * with other options (order, channels, unit, rest, line ends), the man's
 * own names in every rotation order, and DIR/bvh.tsv saying what each
 * file is, so that a test knows what to expect of it. */
#include <stdio.h>
#include <string.h>

#include "mocap_write.h"
#include "rtmgen.h"

static const double CM = 0.01, M = 1, IN = 0.0254, CMU = 0.0254 / 0.45;

static const struct bvh_file {
    const char *name;
    struct mocap_write_opts o;
    const char *unit;
} FILES[] = {
    { "mixamo.bvh", { MOCAP_MIXAMO, MOCAP_ZYX, 0, 1, 0, 0, 0, 0, CM, 40, 0 }, "cm" },
    { "cmu_mb.bvh", { MOCAP_CMU_MB, MOCAP_ZYX, 0, 1, 0, 0, 0, 1, CMU, 40, 1.0 / 120 }, "cmu" },
    { "cmu_max.bvh", { MOCAP_CMU_MAX, MOCAP_ZYX, 0, 1, 0, 0, 1, 1, CMU, 40, 1.0 / 120 }, "cmu" },
    { "poser.bvh", { MOCAP_POSER, MOCAP_ZXY, 0, 1, 0, 1, 0, 0, IN, 40, 0 }, "in" },
    { "suffix.bvh", { MOCAP_SUFFIX, MOCAP_XYZ, 0, 1, 0, 0, 0, 0, M, 40, 0 }, "m" },
    { "suffix_dot.bvh", { MOCAP_SUFFIX_DOT, MOCAP_YXZ, 0, 1, 0, 1, 1, 0, M, 40, 0 }, "m" },
    { "side_word.bvh", { MOCAP_SIDE_WORD, MOCAP_YZX, 1, 1, 0, 0, 0, 1, CM, 40, 0 }, "cm" },
    { "unreal.bvh", { MOCAP_UNREAL, MOCAP_XZY, 0, 0, 1, 0, 0, 0, CM, 40, 0 }, "cm" },
    { "ofp2_XYZ.bvh", { MOCAP_OFP2, MOCAP_XYZ, 0, 1, 0, 0, 0, 0, CM, 40, 0 }, "cm" },
    { "ofp2_XZY.bvh", { MOCAP_OFP2, MOCAP_XZY, 0, 1, 0, 0, 0, 0, CM, 40, 0 }, "cm" },
    { "ofp2_YXZ.bvh", { MOCAP_OFP2, MOCAP_YXZ, 0, 1, 0, 0, 0, 0, CM, 40, 0 }, "cm" },
    { "ofp2_YZX.bvh", { MOCAP_OFP2, MOCAP_YZX, 0, 1, 0, 0, 0, 0, CM, 40, 0 }, "cm" },
    { "ofp2_ZXY.bvh", { MOCAP_OFP2, MOCAP_ZXY, 0, 1, 0, 0, 0, 0, CM, 40, 0 }, "cm" },
    { "ofp2_ZYX.bvh", { MOCAP_OFP2, MOCAP_ZYX, 0, 1, 0, 0, 0, 0, CM, 40, 0 }, "cm" },
    { "ofp2_mixed.bvh", { MOCAP_OFP2, MOCAP_MIXED, 1, 1, 0, 1, 1, 1, CM, 40, 0 }, "cm" },
};

int rtmgen_bvh(const char *dir)
{
    char path[4096];
    struct rtm_buf tsv;
    rtm_buf_init(&tsv);
    rtm_buf_puts(&tsv, "file\tstyle\torder\tchannels\tunit\trest\tline_ends\tframes\n");
    for (size_t i = 0; i < sizeof FILES / sizeof *FILES; i++) {
        const struct bvh_file *f = &FILES[i];
        struct rtm_buf b;
        rtm_buf_init(&b);
        snprintf(path, sizeof path, "%s/%s", dir, f->name);
        if (rtm_mocap_write(&f->o, &b)) {
            fprintf(stderr, "rtmgen: out of memory\n");
            rtm_buf_free(&b);
            rtm_buf_free(&tsv);
            return 1;
        }
        int rc = rtmgen_write_file(path, &b, b.len);
        rtm_buf_free(&b);
        if (rc) {
            rtm_buf_free(&tsv);
            return 1;
        }
        rtm_buf_printf(&tsv, "%s\t%s\t%s\t%s\t%s\t%s\t%s%s\t%u\n", f->name,
                       rtm_mocap_style_name(f->o.style), rtm_mocap_order_name(f->o.order),
                       f->o.six ? "6" : f->o.zero_toes ? "3,toes0" : "3", f->unit,
                       f->o.arms_down ? "arms-down" : "t-pose", f->o.crlf ? "crlf" : "lf",
                       f->o.tabs ? ",tabs" : "", f->o.nframes);
    }
    snprintf(path, sizeof path, "%s/bvh.tsv", dir);
    int rc = tsv.oom ? (fprintf(stderr, "rtmgen: out of memory\n"), 1)
                     : rtmgen_write_file(path, &tsv, tsv.len);
    rtm_buf_free(&tsv);
    return rc ? 1 : 0;
}
