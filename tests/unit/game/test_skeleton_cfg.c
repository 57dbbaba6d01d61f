/* test_skeleton_cfg.c - skeletons from a model.cfg (skeleton_cfg.h):
 * naming a class or the best cover, skeletonInherit, pairs, pivots from
 * the built-in rest pose, text (preprocessed) and rapified files, every
 * error; the real model.cfg files, and the corpus composed with a real
 * OFP2_ManSkeleton against the built-in one. */
#include "testutil.h"

#include <dirent.h>
#include <math.h>
#include <unistd.h>

#include "cfg_pp.h"
#include "config.h"
#include "rap_write.h"
#include "views.h"

/* A folder of fixtures for one test, removed by rm_dir. */
static char dir[64];

static void mk_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/rtm_test_skelcfg_XXXXXX");
    assert_non_null(mkdtemp(dir));
}

static void rm_dir(void)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    char p[PATH_MAX];
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') {
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
    closedir(d);
    rmdir(dir);
}

/* Writes len bytes to dir/name; the path into out (PATH_MAX). */
static void put_file(const char *name, const void *data, size_t len, char *out)
{
    snprintf(out, PATH_MAX, "%s/%s", dir, name);
    FILE *f = fopen(out, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

static void put_text(const char *name, const char *text, char *out)
{
    put_file(name, text, strlen(text), out);
}

static struct rtm_skeleton *open_ok(const char *spec)
{
    struct rtm_skeleton *s = NULL;
    struct rtm_error err;
    if (rtm_skeleton_open(spec, &s, &err))
        fail_msg("open %s: %s", spec, err.msg);
    return s;
}

/* Opening spec fails with one line that holds want. */
static void open_fails(const char *spec, const char *want)
{
    struct rtm_skeleton *s = NULL;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_open(spec, &s, &err), -1);
    assert_null(s);
    if (!strstr(err.msg, want))
        fail_msg("%s: '%s' lacks '%s'", spec, err.msg, want);
    assert_null(strchr(err.msg, '\n'));
    assert_int_equal(strncmp(err.msg, "skeleton '", 10), 0);
}

static int32_t find(const struct rtm_skeleton *s, const char *name)
{
    return rtm_skeleton_find(s, name, strlen(name));
}

static const char *parent_name(const struct rtm_skeleton *s, const char *bone)
{
    int32_t k = find(s, bone);
    assert_true(k >= 0);
    return s->parent[k] < 0 ? "" : s->bone[s->parent[k]];
}

static const char MAN[] =
    "// a man: Base's bones, then its own; 'extra' is not an ofp2 bone\n"
    "class CfgSkeletons {\n"
    "    class Default { isDiscrete = 1; skeletonInherit = \"\"; skeletonBones[] = {}; };\n"
    "    class Base : Default {\n"
    "        skeletonBones[] = { \"Pelvis\", \"\", \"Spine\", \"pelvis\" };\n"
    "    };\n"
    "    class Man : Base {\n"
    "        skeletonInherit = \"base\";\n"
    "        skeletonBones[] = { \"extra\", \"spine1\", \"Spine1\", \"Spine\",\n"
    "                            \"Spine\", \"Pelvis\" };\n"
    "    };\n"
    "};\n"
    "class CfgModels { class Default { skeletonName = \"Man\"; }; };\n";

/* Inherited bones first; a parent listed after its child goes first; the
 * repeated pair is kept once; pivots from ofp2, 'extra' placed. */
static void text_named(void **state)
{
    (void)state;
    mk_dir();
    char path[PATH_MAX], spec[PATH_MAX + 8];
    put_text("model.cfg", MAN, path);
    snprintf(spec, sizeof spec, "%s:MAN", path);
    struct rtm_skeleton *s = open_ok(spec), *o = open_ok("ofp2");
    assert_int_equal(s->nbones, 4);
    const char *order[] = { "Pelvis", "Spine", "Spine1", "extra" };
    for (int i = 0; i < 4; i++)
        assert_string_equal(s->bone[i], order[i]);
    assert_string_equal(parent_name(s, "Pelvis"), "");
    assert_string_equal(parent_name(s, "spine"), "Pelvis");
    assert_string_equal(parent_name(s, "extra"), "Spine1");
    char want[PATH_MAX + 64];
    snprintf(want, sizeof want, "%s:Man (model.cfg class, named)", path);
    assert_string_equal(s->name, want);
    assert_non_null(s->pivot);
    for (int i = 0; i < 3; i++) {
        int32_t k = find(o, order[i]);
        assert_memory_equal(s->pivot[i], o->pivot[k], sizeof s->pivot[i]);
        assert_int_equal(s->placed[i], o->placed[k]);
    }
    /* 5 cm beyond Spine1 along Spine -> Spine1 */
    float d[3], len = 0;
    for (int i = 0; i < 3; i++) {
        d[i] = s->pivot[2][i] - s->pivot[1][i];
        len += d[i] * d[i];
    }
    len = sqrtf(len);
    for (int i = 0; i < 3; i++)
        assert_true(fabsf(s->pivot[3][i] - (s->pivot[2][i] + 0.05f * d[i] / len)) < 1e-4f);
    assert_int_equal(s->placed[3], 1);
    assert_non_null(s->render_id);
    assert_non_null(strstr(s->render_id, "model.cfg:Man@"));
    rtm_skeleton_free(s);
    rtm_skeleton_free(o);
    rm_dir();
}

/* Includes relative to the file, and macros, as the preprocessor runs. */
static void text_include(void **state)
{
    (void)state;
    mk_dir();
    char path[PATH_MAX];
    put_text("bones.hpp", "#define ROOT(x) #x, \"\"\n"
                          "#define UNDER(x, p) #x, #p\n", path);
    put_text("model.cfg", "#include \"bones.hpp\"\n"
                          "class CfgSkeletons { class Gun { skeletonInherit = \"\";\n"
                          "  skeletonBones[] = { ROOT(zbran), UNDER(bolt,zbran) }; }; };\n",
             path);
    struct rtm_skeleton *s = open_ok(path);
    assert_int_equal(s->nbones, 2);
    assert_string_equal(parent_name(s, "bolt"), "zbran");
    assert_null(s->pivot);              /* no ofp2 bone: no pivots */
    assert_non_null(strstr(s->name, ":Gun (model.cfg class, best cover: 0 of 103 ofp2 bones)"));
    rtm_skeleton_free(s);
    rm_dir();
}

/* Without :CLASS: most ofp2 bones, then most bones, then file order. */
static void best_cover(void **state)
{
    (void)state;
    mk_dir();
    char path[PATH_MAX];
    put_text("a.cfg", "class CfgSkeletons {\n"
                      " class Two { skeletonBones[] = {\"pelvis\",\"\",\"spine\",\"pelvis\"}; };\n"
                      " class Three { skeletonBones[] = {\"pelvis\",\"\",\"spine\",\"pelvis\","
                      "\"head\",\"spine\",\"x\",\"\"}; };\n"
                      " class More : Three { skeletonBones[] = {\"pelvis\",\"\",\"spine\","
                      "\"pelvis\",\"head\",\"spine\",\"x\",\"\",\"y\",\"x\"}; };\n"
                      " class Same : More {};\n"
                      " class Gun { skeletonBones[] = {\"a\",\"\",\"b\",\"a\",\"c\",\"a\","
                      "\"d\",\"a\",\"e\",\"a\",\"f\",\"a\"}; };\n"
                      "};\n", path);
    struct rtm_skeleton *s = open_ok(path);
    assert_non_null(strstr(s->name, ":More (model.cfg class, best cover: 3 of 103 ofp2 bones)"));
    assert_int_equal(s->nbones, 5);
    /* head's parent is spine here, not neck1: composition follows the file */
    assert_string_equal(parent_name(s, "head"), "spine");
    rtm_skeleton_free(s);
    rm_dir();
}

/* The rapified form of a text model.cfg: found by its magic, any name. */
static void rapified(void **state)
{
    (void)state;
    mk_dir();
    struct cfg *c = NULL;
    struct rtm_error err;
    assert_int_equal(cfg_read((const uint8_t *)MAN, sizeof MAN - 1, "MAN", &c, &err), 0);
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rap_write(c, &b), 0);
    cfg_free(c);
    char path[PATH_MAX], text[PATH_MAX], spec[PATH_MAX + 8];
    put_file("model.bin", b.p, b.len, path);
    rtm_buf_free(&b);
    put_text("model.cfg", MAN, text);
    snprintf(spec, sizeof spec, "%s:man", path);
    struct rtm_skeleton *r = open_ok(spec), *t = NULL;
    snprintf(spec, sizeof spec, "%s:man", text);
    t = open_ok(spec);
    assert_int_equal(r->nbones, t->nbones);
    for (uint32_t i = 0; i < r->nbones; i++) {
        assert_string_equal(r->bone[i], t->bone[i]);
        assert_int_equal(r->parent[i], t->parent[i]);
        assert_memory_equal(r->pivot[i], t->pivot[i], sizeof r->pivot[i]);
    }
    rtm_skeleton_free(r);
    /* without :CLASS too (by its magic, not its name) */
    r = open_ok(path);
    assert_non_null(strstr(r->name, ":Man (model.cfg class, best cover: 3 of 103"));
    rtm_skeleton_free(r);
    rtm_skeleton_free(t);
    rm_dir();
}

/* The render id changes with the class and the file's content. */
static void render_id(void **state)
{
    (void)state;
    mk_dir();
    char path[PATH_MAX], spec[PATH_MAX + 8];
    put_text("model.cfg", MAN, path);
    snprintf(spec, sizeof spec, "%s:Man", path);
    struct rtm_skeleton *a = open_ok(spec), *b = open_ok(spec);
    assert_string_equal(a->render_id, b->render_id);
    rtm_skeleton_free(b);
    snprintf(spec, sizeof spec, "%s:Base", path);
    b = open_ok(spec);
    assert_string_not_equal(a->render_id, b->render_id);
    rtm_skeleton_free(b);
    /* built-ins and skeleton files have none: their keys stay as they were */
    b = open_ok("ofp2");
    assert_null(b->render_id);
    rtm_skeleton_free(b);
    put_text("plain.txt", "a -\nb a\n", path);
    b = open_ok(path);
    assert_null(b->render_id);
    assert_string_equal(b->name, path);
    rtm_skeleton_free(b);
    rtm_skeleton_free(a);
    rm_dir();
}

/* One model.cfg text per error, and the words its message must hold. */
static const struct {
    const char *cfg, *cls, *want;
} BAD[] = {
    { "class CfgSkeletons { class A {}; };", "B", "CfgSkeletons has no class 'B'" },
    { "class CfgModels {};", NULL, "no class CfgSkeletons" },
    { "class CfgSkeletons {};", NULL, "CfgSkeletons holds no class" },
    { "class CfgSkeletons { class A { skeletonInherit = \"B\"; };"
      " class B { skeletonInherit = \"a\"; }; };", "A", "skeletonInherit loop: class A" },
    { "class CfgSkeletons { class A { skeletonInherit = \"A\"; }; };", NULL,
      "skeletonInherit loop" },
    { "class CfgSkeletons { class A { skeletonInherit = \"Z\"; }; };", "A",
      "skeletonInherit 'Z' of class A is not a class" },
    { "class CfgSkeletons { class A { skeletonInherit = 1; }; };", "A", "not a string" },
    { "class CfgSkeletons { class A { skeletonBones[] = {\"a\"}; }; };", "A",
      "not a list of (bone, parent) pairs" },
    { "class CfgSkeletons { class A { skeletonBones = \"a\"; }; };", "A", "pairs" },
    { "class CfgSkeletons { class A { skeletonBones[] = {\"a\", 1}; }; };", "A",
      "not a string" },
    { "class CfgSkeletons { class A { skeletonBones[] = {\"a b\", \"\"}; }; };", "A",
      "bone name 'a b'" },
    { "class CfgSkeletons { class A { skeletonBones[] = {\"\", \"\"}; }; };", "A",
      "bone name ''" },
    { "class CfgSkeletons { class A { skeletonBones[] = {\"a\", \"zz\"}; }; };", "A",
      "parent 'zz', which the skeleton does not list" },
    { "class CfgSkeletons { class A { skeletonBones[] = {\"a\", \"b\", \"b\", \"a\"}; }; };",
      "A", "its own ancestor" },
    { "class CfgSkeletons { class A { skeletonBones[] = {\"a\", \"\", \"b\", \"a\","
      " \"B\", \"\"}; }; };", "A", "lists bone 'B' twice" },
    { "class CfgSkeletons { class A { skeletonBones[] = {\"a\", \"\"; }; };", "A",
      "model.cfg:1:" },
};

static void errors(void **state)
{
    (void)state;
    mk_dir();
    char path[PATH_MAX], spec[PATH_MAX + 16];
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        put_text("model.cfg", BAD[i].cfg, path);
        snprintf(spec, sizeof spec, "%s%s%s", path, BAD[i].cls ? ":" : "",
                 BAD[i].cls ? BAD[i].cls : "");
        open_fails(spec, BAD[i].want);
    }
    /* a model.cfg that is not there: the skeleton file message */
    snprintf(spec, sizeof spec, "%s/none.cfg:A", dir);
    open_fails(spec, "not a built-in name");
    rm_dir();
}

/* More than 4096 bones is refused, as skeleton files are. */
static void too_many_bones(void **state)
{
    (void)state;
    mk_dir();
    struct rtm_buf b;
    rtm_buf_init(&b);
    rtm_buf_puts(&b, "class CfgSkeletons { class A { skeletonBones[] = {\"b0\", \"\"");
    for (int i = 1; i <= 4096; i++)
        rtm_buf_printf(&b, ", \"b%d\", \"b0\"", i);
    rtm_buf_puts(&b, "}; }; };\n");
    char path[PATH_MAX];
    put_file("model.cfg", b.p, b.len, path);
    rtm_buf_free(&b);
    open_fails(path, "more than 4096 bones");
    rm_dir();
}

/* ---- the real files ---- */

/* Every class of CfgSkeletons in the file at path, opened by name. */
static uint32_t open_each_class(const char *path)
{
    struct cfg *c = NULL;
    struct rtm_error err;
    struct cfg_pp_opts o = { .resolve = NULL };     /* cfg_load_file reads its work */
    assert_int_equal(cfg_load_file(path, &o, &c, &err), 0);
    long r = cfg_class(c, "CfgSkeletons");
    assert_true(r >= 0);
    uint32_t n = 0;
    char spec[PATH_MAX + 300];
    for (uint32_t m = c->e[r].first; m < c->e[r].first + c->e[r].n; m++) {
        if (c->e[m].kind != CFG_CLASS)
            continue;
        snprintf(spec, sizeof spec, "%s:%s", path, c->e[m].name.p);
        struct rtm_skeleton *s = open_ok(spec);
        printf("#   %s: %u bones\n", c->e[m].name.p, s->nbones);
        rtm_skeleton_free(s);
        n++;
    }
    cfg_free(c);
    return n;
}

/* The real model.cfg files, or skips. */
static const char *REAL[] = {
    "modelcfg/arifle_ak47_data_anims_model.cfg", "modelcfg/arifle_ak74_model.cfg",
    "modelcfg/hgun_g17_model.cfg", "addons/grad_captive/addons/functions/rtms/model.cfg",
};

static void real_files(void **state)
{
    (void)state;
    const char *sh = shared_dir();
    char path[PATH_MAX + 64];
    if (!sh)
        skip_because("no ../shared");
    /* every file of modelcfg/ is in the list above */
    snprintf(path, sizeof path, "%s/modelcfg", sh);
    DIR *d = opendir(path);
    if (!d)
        skip_because("no ../shared");
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n > 4 && strcmp(e->d_name + n - 4, ".cfg") == 0) {
            int listed = 0;
            for (size_t i = 0; i < sizeof REAL / sizeof REAL[0]; i++)
                listed |= strstr(REAL[i], e->d_name) != NULL;
            if (!listed)
                fail_msg("modelcfg/%s is not tested", e->d_name);
        }
    }
    closedir(d);
    for (size_t i = 0; i < sizeof REAL / sizeof REAL[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", sh, REAL[i]);
        struct rtm_skeleton *s = open_ok(path);
        printf("# %s: %s, %u bones\n", REAL[i], s->name + strlen(path) + 1, s->nbones);
        rtm_skeleton_free(s);
        assert_true(open_each_class(path) > 0);
    }
}

/* How many bones of s have the same parent (by name) in o. */
static uint32_t agree(const struct rtm_skeleton *s, const struct rtm_skeleton *o,
                      uint32_t *in_both)
{
    uint32_t n = 0;
    *in_both = 0;
    for (uint32_t i = 0; i < s->nbones; i++) {
        int32_t k = find(o, s->bone[i]);
        if (k < 0)
            continue;
        (*in_both)++;
        const char *p = s->parent[i] < 0 ? "" : s->bone[s->parent[i]];
        const char *q = o->parent[k] < 0 ? "" : o->bone[o->parent[k]];
        n += strcasecmp(p, q) == 0;
    }
    return n;
}

/* Whether every bone of a, and each of its ancestors in either skeleton,
 * has the same parent in both. */
static int chains_agree(const struct rtm_anim *a, const struct rtm_skeleton *s,
                        const struct rtm_skeleton *o)
{
    for (uint32_t b = 0; b < a->nbones; b++) {
        int32_t i = rtm_skeleton_find(s, a->bones[b].s, a->bones[b].len);
        int32_t k = rtm_skeleton_find(o, a->bones[b].s, a->bones[b].len);
        while (i >= 0 && k >= 0) {
            i = s->parent[i];
            k = o->parent[k];
            if ((i < 0) != (k < 0) || (i >= 0 && strcasecmp(s->bone[i], o->bone[k])))
                return 0;
        }
        if ((i < 0) != (k < 0))
            return 0;
    }
    return 1;
}

/* The corpus composed with each real OFP2_ManSkeleton gives the built-in's
 * plain.rtm wherever the two agree on parents. */
static void corpus_plain(void **state)
{
    (void)state;
    struct corpus cp;
    if (corpus_list(&cp))
        skip_because("no ../shared");
    const char *sh = shared_dir();
    struct rtm_skeleton *o = open_ok("ofp2");
    uint32_t files = 0;
    for (size_t r = 0; r < sizeof REAL / sizeof REAL[0]; r++) {
        char spec[PATH_MAX + 128];
        snprintf(spec, sizeof spec, "%s/%s", sh, REAL[r]);
        struct rtm_skeleton *probe = open_ok(spec);
        int man = strstr(probe->name, ":OFP2_ManSkeleton (") != NULL;
        rtm_skeleton_free(probe);
        if (!man)
            continue;
        files++;
        snprintf(spec + strlen(spec), sizeof spec - strlen(spec), ":ofp2_manskeleton");
        struct rtm_skeleton *s = open_ok(spec);
        uint32_t both, same = agree(s, o, &both), equal = 0, compared = 0, bmtr = 0;
        for (size_t f = 0; f < cp.n; f++) {
            struct rtm_anim *a = corpus_anim(cp.path[f], s), *b = corpus_anim(cp.path[f], o);
            bmtr += a->format == RTM_FORMAT_BMTR;
            if (chains_agree(a, s, o)) {
                struct rtm_view v = { .kind = RTM_VIEW_PLAIN };
                size_t la, lb;
                char *pa = render(a, v, &la), *pb = render(b, v, &lb);
                compared++;
                if (la == lb && memcmp(pa, pb, la) == 0)
                    equal++;
                else
                    fail_msg("%s: plain.rtm differs from the built-in's", cp.path[f]);
                free(pa);
                free(pb);
            }
            rtm_free(a);
            rtm_free(b);
        }
        printf("# %s: %u bones, %u in ofp2, %u with its parent; %zu files (%u BMTR), "
               "%u agree on parents, %u same plain.rtm\n", REAL[r], s->nbones, both, same,
               cp.n, bmtr, compared, equal);
        assert_true(compared > 0);
        rtm_skeleton_free(s);
    }
    assert_true(files > 0);             /* the issue says one file defines it */
    rtm_skeleton_free(o);
    corpus_free(&cp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(text_named),
        cmocka_unit_test(text_include),
        cmocka_unit_test(best_cover),
        cmocka_unit_test(rapified),
        cmocka_unit_test(render_id),
        cmocka_unit_test(errors),
        cmocka_unit_test(too_many_bones),
        cmocka_unit_test(real_files),
        cmocka_unit_test(corpus_plain),
    };
    return run_test_cases(tests, NULL, NULL);
}
