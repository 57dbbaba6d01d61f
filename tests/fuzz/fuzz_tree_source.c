/* fuzz_tree_source.c - what fuzz_tree_source.h declares, and fuzz_tree.h's
 * fz_sample_opts; compiled with fuzz_tree (FUZZ_OWN_fuzz_tree in the
 * Makefile) and linked into fuzz_tree_seeds. */
#include "fuzz_tree_source.h"
#include "gltf_write.h"

struct sample_opts fz_sample_opts(int gen, uint8_t param)
{
    return (struct sample_opts){ param % 8u, 1 + (param >> 3) % 6u, param >> 6,
                                 gen == FZ_GEN_PROPS ? 2 : 0 };
}


uint8_t fz_u8(struct fz_in *in) { return in->i < in->n ? in->p[in->i++] : 0; }

int fz_more(const struct fz_in *in) { return in->i < in->n; }

/* Where each slot lives in SOURCE (the folders anims/ and cfg/ always are). */
const char *const fz_slot_path[FZ_NSLOTS] = {
    "anims/a.rtm", "anims/b.rtm", "anims/c.rtm", "anims/model.cfg",
    "addon.pbo", "config.cpp", "cfg/config.bin", "top.rtm",
};

static void fz_oom(struct rtm_buf *b)
{
    if (!b->p && b->len)
        abort();
}

/* An animation of writer gen (FZ_GEN_PLAIN .. FZ_GEN_V5LZO) appended to b:
 * param gives its frames (0-7), bones (1-6) and motion. */
static void fz_anim_make(int gen, uint8_t param, struct rtm_buf *b)
{
    struct sample_opts o = fz_sample_opts(gen, param);
    static const uint32_t version[] = { [FZ_GEN_V3] = 3, [FZ_GEN_V4] = 4, [FZ_GEN_V5RAW] = 5,
                                        [FZ_GEN_V5LZO] = 5 };
    int rc = gen <= FZ_GEN_PROPS ? rtm_sample_plain(&o, b)
                                 : rtm_sample_bmtr(&o, version[gen], gen == FZ_GEN_V5RAW
                                                   ? BMTR_COMPRESS_NONE : BMTR_COMPRESS_ALL, b);
    if (rc)
        abort();
}

/* The same, made once each: the writers read the built-in skeleton every
 * time, which took a third of an input's time. */
static void fz_anim(int gen, uint8_t param, struct rtm_buf *b)
{
    if (gen == FZ_GEN_GLB || gen == FZ_GEN_GLTF) {
        int flags = param & (RTM_ARM_SKIN | RTM_ARM_TWO_CLIPS | RTM_ARM_REST_TURN);
        if (gen == FZ_GEN_GLB && rtm_gltf_arm_glb(b, flags))
            abort();
        if (gen == FZ_GEN_GLTF)
            rtm_gltf_arm_text(b, flags);
        return;
    }
    static struct rtm_buf made[FZ_GEN_RAW][256];
    struct rtm_buf *m = &made[gen][param];
    if (!m->len) {
        rtm_buf_init(m);
        fz_anim_make(gen, param, m);
        fz_oom(m);
    }
    rtm_buf_put(b, m->p, m->len);
}

/* Config text naming the animations (loose, and the archive's under its
 * prefix), so that states.txt, missing.txt and the previews' timing have
 * something to say; variant v picks one of three shapes of it. */
static const char *fz_config_text(int v)
{
    static const char *const text[] = {
        "class CfgMovesBasic { class Default; };\n"
        "class CfgMovesMaleSdr : CfgMovesBasic { class States {\n"
        "  class A : Default { file = \"anims\\a.rtm\"; speed = 0.5; looped = 1; };\n"
        "  class B : A { file = \"\\anims\\b.rtm\"; speed = -2; };\n"
        "  class X { file = \"seed\\addon\\anims\\x.rtm\"; speed = 1e-3; };\n"
        "  class G { file = \"anims\\gone.rtm\"; };\n}; };\n",
        "#define F(n) file = #n\n#include \"nothere.hpp\"\n"
        "class CfgGesturesMale { class States { class C { F(anims\\c.rtm); speed = 3; }; }; };\n",
        "class CfgMovesMaleSdr { class States {\n"
        "  class T { file = \"top.rtm\"; speed[] = {1, 2}; looped = \"x\"; };\n"
        "  class Y : T { file = \"seed\\addon\\anims\\y.rtm\"; };\n}; };\n",
    };
    return text[v % 3];
}

/* A model.cfg of one class: the first n bones of ofp2 (those the samples
 * have) with their parents. */
static void fz_model_cfg(const struct rtm_skeleton *ofp2, uint32_t n, struct rtm_buf *b)
{
    rtm_buf_puts(b, "class CfgSkeletons {\n  class Fz {\n    skeletonInherit = \"\";\n"
                "    skeletonBones[] = {\n");
    for (uint32_t k = 0; k < n && k < ofp2->nbones; k++) {
        int32_t p = ofp2->parent[k];
        rtm_buf_printf(b, "      \"%s\", \"%s\",\n", ofp2->bone[k], p >= 0 ? ofp2->bone[p] : "");
    }
    rtm_buf_puts(b, "      \"end_of_list\", \"\"\n    };\n  };\n};\nclass CfgModels {};\n");
}

/* The config text of variant v, rapified. */
static void fz_rapified(int v, struct rtm_buf *b)
{
    static const char plain[] =
        "class CfgMovesMaleSdr { class States { class A { file = \"anims\\a.rtm\"; "
        "speed = 0.25; looped = 1; a[] = {1, {2.5, \"x\"}}; }; }; };\n"
        "enum { E1 = 1 };\nclass Other : Base { delete D; class E; };\n";
    struct cfg *c = NULL;
    struct rtm_error err;
    const char *text = v ? fz_config_text(v) : plain;
    if (cfg_parse_text(text, strlen(text), "fz", NULL, &c, &err))
        return;                         /* #include and macros: not plain text */
    if (rap_write(c, b))
        abort();
    cfg_free(c);
}

/* An archive: two animations (writer gen and another), a model.cfg and a
 * config by param's bits, packed as param says, with a prefix or not. */
static void fz_archive(const struct rtm_skeleton *ofp2, int gen, uint8_t param,
                       struct rtm_buf *b)
{
    struct rtm_buf x, y, m, c;
    rtm_buf_init(&x);
    rtm_buf_init(&y);
    rtm_buf_init(&m);
    rtm_buf_init(&c);
    fz_anim(gen, param, &x);
    fz_anim(FZ_GEN_PLAIN + (gen + 2) % 6, (uint8_t)(param * 7 + 3), &y);
    fz_model_cfg(ofp2, 1 + param % 6u, &m);
    if (param & 32)
        fz_rapified(0, &c);
    else
        rtm_buf_puts(&c, fz_config_text(param));
    fz_oom(&x), fz_oom(&y), fz_oom(&m), fz_oom(&c);
    enum pbo_pack pack = (enum pbo_pack)(param % 3);
    struct pbo_write_entry e[5] = {
        { "anims\\x.rtm", (const uint8_t *)x.p, x.len, pack, 0 },
        { "anims\\y.rtm", (const uint8_t *)y.p, y.len, (enum pbo_pack)((pack + 1) % 3), 7 },
    };
    size_t n = 2;
    if (param & 8)
        e[n++] = (struct pbo_write_entry){ "anims\\model.cfg", (const uint8_t *)m.p, m.len,
                                           pack, 0 };
    if (param & 16)
        e[n++] = (struct pbo_write_entry){ param & 32 ? "config.bin" : "config.cpp",
                                           (const uint8_t *)c.p, c.len, PBO_PACK_STORE, 0 };
    e[n++] = (struct pbo_write_entry){ "readme.txt", (const uint8_t *)"hi\n", 3,
                                       PBO_PACK_CPRS, 0 };
    struct pbo_write_prop prop = { "prefix", "seed\\addon" };
    if (pbo_write(e, n, &prop, param & 64 ? 0 : 1, 0, b))
        abort();
    rtm_buf_free(&x);
    rtm_buf_free(&y);
    rtm_buf_free(&m);
    rtm_buf_free(&c);
}

/* What writer gen makes in slot s, with param, appended to b. */
static void fz_generate(const struct rtm_skeleton *ofp2, int s, int gen, uint8_t param,
                        struct rtm_buf *b)
{
    switch (s) {
    case FZ_SLOT_MODELCFG:
        fz_model_cfg(ofp2, 1 + (uint32_t)(gen + param) % 7u, b);
        break;
    case FZ_SLOT_PBO: {
        static struct rtm_buf made[FZ_NGENS][256];      /* LZSS takes its time */
        struct rtm_buf *m = &made[gen][param];
        if (!m->len)
            fz_archive(ofp2, gen, param, m);
        rtm_buf_put(b, m->p, m->len);
        break;
    }
    case FZ_SLOT_CONFIG:
        rtm_buf_puts(b, fz_config_text(gen + param));
        break;
    case FZ_SLOT_CONFIGBIN:
        fz_rapified((gen + param) % 3, b);
        break;
    default:
        fz_anim(gen, param, b);
    }
    fz_oom(b);
}

/* One mutation read from the input applied to b: a cut, a flipped bit, a
 * count or size overwritten with a value that breaks loops and
 * allocations, or a byte. */
static void fz_mutate(struct fz_in *in, struct rtm_buf *b)
{
    static const uint32_t counts[] = { 0, 1, 2, 0xff, 0xffff, 0x7fffffff, 0xffffffff, 5 };
    uint8_t op = fz_u8(in) % FZ_NMUTS, lo = fz_u8(in), hi = fz_u8(in), val = fz_u8(in);
    size_t pos = b->len ? ((size_t)hi << 8 | lo) % b->len : 0;
    if (!b->len)
        return;
    if (op == FZ_MUT_CUT)
        b->len = pos;
    else if (op == FZ_MUT_FLIP)
        b->p[pos] ^= (char)(1u << (val & 7));
    else if (op == FZ_MUT_BYTE)
        b->p[pos] = (char)val;
    else
        for (size_t k = 0; k < 4 && pos + k < b->len; k++)
            b->p[pos + k] = (char)(counts[val % 8] >> (8 * k));
}

/* A file spec read from the input (fuzz_tree.h) into b for slot s: 0, or
 * -1 for "absent". */
int fz_spec(struct fz_in *in, const struct rtm_skeleton *ofp2, int s, struct rtm_buf *b)
{
    int gen = fz_u8(in) % FZ_NGENS;
    if (gen == FZ_GEN_ABSENT)
        return -1;
    if (gen == FZ_GEN_RAW) {
        for (uint8_t len = fz_u8(in), k = 0; k < len; k++)
            rtm_buf_putc(b, (char)fz_u8(in));
        fz_oom(b);
        return 0;
    }
    uint8_t param = fz_u8(in), nmut = fz_u8(in) & 3;
    fz_generate(ofp2, s, gen, param, b);
    for (uint8_t k = 0; k < nmut; k++)
        fz_mutate(in, b);
    return 0;
}

/* Gives path (in dfd) an mtime no other version in this process had. */
void fz_touch(int dfd, const char *path)
{
    static atomic_ulong tick;
    unsigned long k = atomic_fetch_add(&tick, 1);
    struct timespec ts[2] = { { 1600000000 + (time_t)(k / 1000000000u), (long)(k % 1000000000u) },
                              { 1600000000 + (time_t)(k / 1000000000u), (long)(k % 1000000000u) } };
    utimensat(dfd, path, ts, 0);
}

/* Writes b as path in dfd: in place (truncated, then written), or as a
 * new file renamed over it, as editors and cp do. */
void fz_write(int dfd, const char *path, const struct rtm_buf *b, int in_place)
{
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%s.new", path);
    const char *to = in_place ? path : tmp;
    int fd = openat(dfd, to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 || (b->len && write(fd, b->p, b->len) != (ssize_t)b->len))
        abort();
    close(fd);
    fz_touch(dfd, to);
    if (!in_place && renameat(dfd, tmp, dfd, path))
        abort();
}

static int fz_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* rm -rf dir, without a shell (inputs come hundreds a second). */
void fz_rm_rf(const char *dir)
{
    nftw(dir, fz_rm_one, 8, FTW_DEPTH | FTW_PHYS);
}
