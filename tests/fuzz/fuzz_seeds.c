/* fuzz_seeds - writes fuzz seed corpora with the project's own writers:
 * fuzz_seeds RTM_DIR SKELETON_DIR PBO_DIR [CONFIG_DIR [MOCAP_DIR]].  Each
 * RTM seed starts with the selector byte that fuzz_rtm reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "mocap_write.h"
#include "gltf_write.h"
#include "pbo_tricks.h"
#include "pbo_write.h"
#include "samples.h"
#include "skeleton_cfg.h"

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

/* The table tricks of rtm(5) PBO paths (pbo_tricks.h), one archive
 * each, every entry the same animation. */
static int put_tricks(const char *dir, const uint8_t *rtm, size_t len)
{
    const uint8_t *data[PBO_TRICK_ENTRIES] = { rtm, rtm, rtm };
    const size_t lens[PBO_TRICK_ENTRIES] = { len, len, len };
    for (unsigned t = 0; t < PBO_TRICKS; t++) {
        struct rtm_buf b;
        char name[32];
        rtm_buf_init(&b);
        if (pbo_write_trick(t, data, lens, &b))
            return 1;
        snprintf(name, sizeof name, "tricks%u.pbo", t);
        put(dir, name, -1, b.p, b.len);
        rtm_buf_free(&b);
    }
    return 0;
}

/* The built-in skeleton as its writer gives it: a real hierarchy, and its
 * pivots once the built-in table has them. */
static int put_ofp2(const char *dir)
{
    struct rtm_skeleton *s = NULL;
    struct rtm_error err;
    struct rtm_buf b;
    rtm_buf_init(&b);
    if (rtm_skeleton_open("ofp2", &s, &err) || rtm_skeleton_write(s, &b)) {
        rtm_skeleton_free(s);
        rtm_buf_free(&b);
        return -1;
    }
    put(dir, "ofp2", -1, b.p, b.len);
    rtm_skeleton_free(s);
    rtm_buf_free(&b);
    return 0;
}

/* A text config with every kind of entry and the preprocessor's
 * directives, and the same (preprocessed) as a rapified file. */
static int put_configs(const char *dir)
{
    static const char text[] =
        "#define QUOTE(x) #x\n#define DOUBLES(a,b) a##_##b\n#ifdef NONE\nx = 1;\n#else\n"
        "y = 2;\n#endif\nenum { E1 = 1, E2 };\nclass Base;\ndelete Old;\n"
        "class CfgGesturesMale {\n  class Default;\n  class States {\n"
        "    class G : Default { file = QUOTE(\\a\\b.rtm); speed = -8; looped = 0;\n"
        "      f = 0.06; big = 3000000000; h = 0x1F; s = \"q\"\"q\";\n"
        "      arr[] = {1, {2.5, \"x\"}, {}}; arr[] += {DOUBLES(a,b)}; };\n  };\n};\n";
    struct cfg *c = NULL;
    struct rtm_error err;
    struct rtm_buf b;
    put(dir, "text.cpp", -1, text, sizeof text - 1);
    /* #if expressions, nested macros, built-ins, joined and single-quoted strings */
    static const char cond[] =
        "#define A 1\n#define B(x) (x + A)\n#define C(x, y) B(x) * y\n#define L [1,2]\n"
        "#if C(2, 3) >= 9 && defined(A) || !defined B && __has_include(\"n.hpp\")\n"
        "a = __COUNTER__;\n#elif (B(1) % 2) == 0 && 0x10 != -~16\nb = 'x//y';\n#else\n"
        "c = \"p\" \\n \"q\";\n#endif\n#if __ARMA3__\nd[] = {C(L, 1), __FILE__};\n#endif\n";
    put(dir, "cond.cpp", -1, cond, sizeof cond - 1);
    static const char plain[] =
        "enum { E1 = 1 };\nclass A : B { s = \"x\"; f = 1.5; i = 3; w = 3000000000;"
        " a[] = {1, {2.0}}; a[] += {\"y\"}; class E; delete D; class C {}; };\n";
    if (cfg_parse_text(plain, sizeof plain - 1, "seed", NULL, &c, &err))
        return -1;
    rtm_buf_init(&b);
    if (rap_write(c, &b)) {
        cfg_free(c);
        return -1;
    }
    put(dir, "config.bin", -1, b.p, b.len);
    rtm_buf_free(&b);
    cfg_free(c);
    return 0;
}

/* BVH in every naming, a few frames each, the styles turned in turn. */
static int put_mocap(const char *dir)
{
    for (int s = 0; s < MOCAP_STYLES; s++) {
        struct mocap_write_opts o = { .style = (enum mocap_style)s, .order = s % 7,
                                      .six = s == 3, .end_sites = s != 4, .zero_toes = s == 5,
                                      .arms_down = s & 1, .crlf = s == 2, .tabs = s == 6,
                                      .unit = s == 1 ? 0.0254 / 0.45 : 0.01, .nframes = 3 };
        struct rtm_buf b;
        char name[64];
        rtm_buf_init(&b);
        if (rtm_mocap_write(&o, &b))
            return -1;
        snprintf(name, sizeof name, "%s.bvh", rtm_mocap_style_name(o.style));
        put(dir, name, -1, b.p, b.len);
        rtm_buf_free(&b);
    }
    return 0;
}

/* The tests' arm (gltf_fixture.h), every variant, as text and GLB. */
static int put_gltf(const char *dir)
{
    for (int flags = 0; flags < 8; flags++) {
        struct rtm_buf t, g;
        char name[64];
        rtm_buf_init(&t);
        rtm_buf_init(&g);
        rtm_gltf_arm_text(&t, flags);
        rtm_gltf_arm_glb(&g, flags);
        if (t.oom || g.oom)
            return -1;
        snprintf(name, sizeof name, "arm%d.gltf", flags);
        put(dir, name, -1, t.p, t.len);
        snprintf(name, sizeof name, "arm%d.glb", flags);
        put(dir, name, -1, g.p, g.len);
        rtm_buf_free(&t);
        rtm_buf_free(&g);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 7 && put_gltf(argv[6]))
        return 1;
    if (argc >= 5 && put_configs(argv[4]))
        return 1;
    if (argc >= 6 && put_mocap(argv[5]))
        return 1;
    if (argc < 4 || argc > 7) {
        fprintf(stderr, "usage: fuzz_seeds RTM_DIR SKELETON_DIR PBO_DIR [CONFIG_DIR [MOCAP_DIR "
                        "[GLTF_DIR]]]\n");
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
        rtm_buf_init(&b);
        int rc = k[i].version ? rtm_sample_bmtr(&o, (uint32_t)k[i].version, k[i].c, &b)
                              : rtm_sample_plain(&o, &b);
        if (rc)
            return 1;
        put(argv[1], k[i].name, (int)(i & 1), b.p, b.len);
        rtm_buf_free(&b);
    }
    static const char skel[] = "# bone parent\nPelvis -\nSpine Pelvis\nSpine1 Spine\n"
                               "LeftArm Spine1\nRightArm Spine1\n";
    put(argv[2], "small", -1, skel, sizeof skel - 1);
    /* pivot columns (+X is the character's left), two placed by a rule */
    static const char piv[] = "# bone parent x y z\nPelvis - 0 1.0251 -0.0127\n"
                              "Spine Pelvis 0 1.1012 -0.0108\n"
                              "LeftArm Spine 0.1861 1.4303 -0.0412 placed\n"
                              "RightArm Spine -0.1861 1.4303 -0.0412 placed\n";
    put(argv[2], "pivots", -1, piv, sizeof piv - 1);
    if (put_ofp2(argv[2]))
        return 1;

    /* A PBO with a prefix, a stored and a compressed RTM in a subfolder. */
    struct rtm_buf plain, bmtr, pbo;
    rtm_buf_init(&plain);
    rtm_buf_init(&bmtr);
    rtm_buf_init(&pbo);
    if (rtm_sample_plain(&o, &plain) || rtm_sample_bmtr(&o, 5, BMTR_COMPRESS_ALL, &bmtr))
        return 1;
    struct pbo_write_entry e[] = {
        { "anims\\walk.rtm", (const uint8_t *)plain.p, plain.len, PBO_PACK_CPRS, 0 },
        { "anims\\run.rtm", (const uint8_t *)bmtr.p, bmtr.len, PBO_PACK_STORE, 0 },
        { "config.cpp", (const uint8_t *)"class X {};\n", 12, PBO_PACK_STORE, 0 },
    };
    struct pbo_write_prop prop = { "prefix", "seed\\addon" };
    if (pbo_write(e, 3, &prop, 1, 0, &pbo))
        return 1;
    put(argv[3], "addon.pbo", -1, pbo.p, pbo.len);
    if (put_tricks(argv[3], (const uint8_t *)plain.p, plain.len))
        return 1;
    rtm_buf_free(&plain);
    rtm_buf_free(&bmtr);
    rtm_buf_free(&pbo);
    return 0;
}
