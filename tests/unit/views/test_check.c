/* test_check.c - check.txt (check.h): every code on an animation from the
 * project's writers made to show it, an empty check.txt for a clean one;
 * over the real files, bone-not-in-skeleton and bone-case against a count
 * made here from ../shared/corpus-expected's bone lists. */
#include "testutil.h"

#include <glob.h>
#include <math.h>

#include "bmtr_write.h"
#include "check.h"

/* ---- fixtures ---- */

struct spec {
    uint32_t nbones, nframes, nprops;
    const char *names[160];
    float phases[8];
    float bad;                  /* a number put in bone 1's matrix of frame 1 */
    int scale;                  /* bone 2 scaled by 2 in every frame */
    const char *prop_name;
};

/* A plain file of s's bones through rtm_write_plain (which sorts frames by
 * phase: order is then set in the written bytes), parsed with ofp2. */
static struct rtm_anim *plain_anim(const struct spec *s, int keep_order)
{
    struct rtm_anim *w = rtm_anim_alloc(RTM_FORMAT_PLAIN, s->nframes, s->nbones, s->nprops,
                                        4096, RTM_DEPTH_FULL);
    assert_non_null(w);
    for (uint32_t b = 0; b < s->nbones; b++)
        w->bones[b] = rtm_anim_str(w, s->names[b], (uint32_t)strlen(s->names[b]));
    for (uint32_t f = 0; f < s->nframes; f++) {
        w->phases[f] = keep_order ? (float)f / 8 : s->phases[f];
        for (uint32_t b = 0; b < s->nbones; b++) {
            float *m = w->matrices + ((size_t)f * s->nbones + b) * 12;
            float k = s->scale && b == 2 ? 2.0f : 1.0f;
            m[0] = m[4] = m[8] = k;
            if (f == 1 && b == 1 && s->bad != 0)
                m[10] = s->bad;
        }
    }
    for (uint32_t i = 0; i < s->nprops; i++)
        w->props[i] = (struct rtm_prop){ 0.5f, rtm_anim_str(w, s->prop_name, (uint32_t)strlen(s->prop_name)),
                                         rtm_anim_str(w, "Sound", 5), -1 };
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_write_plain(w, &b), 0);
    /* the phases as given, in file order: RTM_0101, motion, counts, names, frames */
    size_t at = (size_t)(b.len - (size_t)s->nframes * (4 + s->nbones * (32 + 48)));
    for (uint32_t f = 0; keep_order && f < s->nframes; f++)
        memcpy(b.p + at + (size_t)f * (4 + s->nbones * (32 + 48)), &s->phases[f], 4);
    rtm_free(w);
    struct rtm_anim *a = parse_ok(&b, "ofp2");
    rtm_buf_free(&b);
    return a;
}

/* A BMTR v5 of s's bones at rest (names kept whole, lower-cased as the
 * game's binariser does not: the writer stores what it is given). */
static struct rtm_anim *bmtr_anim(const struct spec *s)
{
    uint8_t *tr = calloc((size_t)s->nframes * s->nbones, 14);
    assert_non_null(tr);
    static const float q[4] = { 0, 0, 0, 1 }, t[3] = { 0, 0, 0 };
    for (size_t i = 0; i < (size_t)s->nframes * s->nbones; i++)
        rtm_pack_transform(tr + 14 * i, q, t);
    struct bmtr_spec bs = { .version = 5, .byte8 = 1, .nbones = s->nbones, .names = s->names,
                            .nframes = s->nframes, .phases = s->phases, .transforms = tr,
                            .compress = BMTR_COMPRESS_AUTO };
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_write_bmtr(&bs, &b), 0);
    free(tr);
    struct rtm_anim *a = parse_ok(&b, "ofp2");
    rtm_buf_free(&b);
    return a;
}

static char *check_of(const struct rtm_anim *a)
{
    return render(a, (struct rtm_view){ .kind = RTM_VIEW_CHECK }, NULL);
}

/* Every ofp2 bone, in its order, and phases 0, 1/8, ... */
static void ofp2_spec(struct spec *s, uint32_t nframes)
{
    struct rtm_skeleton *sk;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_open("ofp2", &sk, &err), 0);
    static char names[128][64];
    memset(s, 0, sizeof *s);
    assert_true(sk->nbones <= 120);
    for (uint32_t k = 0; k < sk->nbones; k++) {
        snprintf(names[k], sizeof names[k], "%s", sk->bone[k]);
        s->names[k] = names[k];
    }
    s->nbones = sk->nbones;
    s->nframes = nframes;
    for (uint32_t f = 0; f < nframes; f++)
        s->phases[f] = (float)f / (float)(nframes - 1);
    rtm_skeleton_free(sk);
}

/* Whether text has a line starting with want. */
static int has_line(const char *text, const char *want)
{
    size_t n = strlen(want);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (strncmp(p, want, n) == 0)
            return 1;
    return 0;
}

static void expect(const char *text, const char *want)
{
    if (!has_line(text, want))
        fail_msg("check.txt lacks '%s'; it is:\n%s", want, text);
}

/* ---- every code ---- */

static void clean_is_empty(void **state)
{
    (void)state;
    struct spec s;
    ofp2_spec(&s, 5);
    struct rtm_anim *a = plain_anim(&s, 0);
    char *t = check_of(a);
    assert_string_equal(t, "");
    free(t);
    rtm_free(a);
    a = bmtr_anim(&s);          /* mixed case in a BMTR: no bone-case */
    t = check_of(a);
    assert_string_equal(t, "");
    free(t);
    rtm_free(a);
}

static void bones(void **state)
{
    (void)state;
    struct spec s;
    ofp2_spec(&s, 5);
    s.names[s.nbones++] = "slot_backpack";
    s.names[s.nbones++] = "camera_end";
    s.names[s.nbones++] = "pelvis";             /* Pelvis again, any case */
    s.names[6] = "Weapon";                      /* ofp2 spells it weapon */
    struct rtm_anim *a = plain_anim(&s, 0);
    char *t = check_of(a);
    expect(t, "error bone-not-in-skeleton: Bone slot_backpack doesn't exist in skeleton "
              "OFP2_ManSkeleton (the game logs this");
    expect(t, "error bone-not-in-skeleton: Bone camera_end doesn't exist");
    expect(t, "note helper-bone: Bone camera_end is an exporter's helper");
    expect(t, "warning bone-case: case mismatch 'Weapon' in rtm vs 'weapon' in skeleton "
              "OFP2_ManSkeleton");
    expect(t, "warning bone-case: case mismatch 'pelvis' in rtm vs 'Pelvis'");
    expect(t, "warning duplicate-bone: Bone pelvis (bone 105) repeats the name of bone 0");
    expect(t, "warning binarise-refuses: binarise would refuse the file (There was no skeleton "
              "that could be used): skeleton OFP2_ManSkeleton lacks 2 of its bones: "
              "slot_backpack, camera_end (bmtr.rtm stores each as a root; fixed.rtm is the file "
              "without them)");
    assert_non_null(strstr(t, "repeats the name of bone 0: the game moves the skeleton's bone with only one of "
              "them (fixed.rtm is the file without it)"));
    assert_non_null(strstr(t, "leaves the bone still; fixed.rtm is the file without it)"));
    assert_non_null(strstr(t, "leave it out of the export (fixed.rtm is the file without it)"));
    assert_non_null(strstr(t, "without case; fixed.rtm names it as the skeleton does)"));
    /* fixed order: the codes as check.h lists them */
    assert_true(strstr(t, "bone-not-in-skeleton") < strstr(t, "binarise-refuses"));
    assert_true(strstr(t, "binarise-refuses") < strstr(t, "helper-bone"));
    assert_true(strstr(t, "helper-bone") < strstr(t, "bone-case"));
    assert_true(strstr(t, "bone-case") < strstr(t, "duplicate-bone"));
    free(t);
    rtm_free(a);
}

static void long_names_and_left_out(void **state)
{
    (void)state;
    struct spec s;
    ofp2_spec(&s, 3);
    s.names[3] = "a_bone_name_much_longer_than_the_32_bytes_of_plain";
    s.nbones = 60;                              /* leaves out the rest */
    struct rtm_anim *a = bmtr_anim(&s);
    char *t = check_of(a);
    expect(t, "warning name-length: Bone a_bone_name_much_longer_than_the_32_bytes_of_plain "
              "is 50 bytes");
    expect(t, "note skeleton-bones-left-out: ");
    assert_non_null(strstr(t, " Spine2 "));     /* the bone renamed is left out */
    assert_null(strstr(t, " Face_Jawbone"));    /* the face rig is not counted */
    assert_null(strstr(t, "bone-case"));        /* binarised: no case findings */
    free(t);
    rtm_free(a);
    s.names[4] = "slot_backpack";               /* already binarised: no refusal */
    a = bmtr_anim(&s);
    t = check_of(a);
    expect(t, "error bone-not-in-skeleton: Bone slot_backpack");
    assert_null(strstr(t, "binarise-refuses"));
    free(t);
    rtm_free(a);
}

static void phases(void **state)
{
    (void)state;
    struct spec s;
    ofp2_spec(&s, 5);
    float p[5] = { 0.0f, 0.5f, 0.25f, 0.25f, 1.5f };
    memcpy(s.phases, p, sizeof p);
    struct rtm_anim *a = plain_anim(&s, 1);
    char *t = check_of(a);
    expect(t, "warning phase-range: frame 4 has phase 1.5, outside 0 to 1");
    expect(t, "warning phase-order: frame 2 has phase 0.25, below frame 1's 0.5");
    expect(t, "warning phase-repeat: frame 3 repeats frame 2's phase 0.25");
    assert_null(strstr(t, "frame 3 has phase"));
    free(t);
    rtm_free(a);
}

static void numbers_and_props(void **state)
{
    (void)state;
    struct spec s;
    ofp2_spec(&s, 3);
    s.bad = NAN;
    s.scale = 1;
    s.nprops = 1;
    s.prop_name = "";
    struct rtm_anim *a = plain_anim(&s, 0);
    char *t = check_of(a);
    expect(t, "error nan: Bone Spine has NaN or infinite numbers in 1 of 3 frames, the first "
              "frame 1");
    expect(t, "warning scaled-bone: Bone Spine1's matrix is not a rotation");
    expect(t, "warning empty-property: property 0 (phase 0.5, value \"Sound\") has an empty "
              "name");
    free(t);
    rtm_free(a);
}

/* More findings of one code than the cap: the rest in one line. */
static void many_findings_are_capped(void **state)
{
    (void)state;
    struct spec s;
    ofp2_spec(&s, 2);
    static char names[40][16];
    for (int i = 0; i < 30; i++) {
        snprintf(names[i], sizeof names[i], "extra%02d", i);
        s.names[s.nbones++] = names[i];
    }
    struct rtm_anim *a = plain_anim(&s, 0);
    char *t = check_of(a);
    expect(t, "error bone-not-in-skeleton: and 10 more like these");
    assert_null(strstr(t, "extra20"));
    free(t);
    rtm_free(a);
}

/* ---- the real files ---- */

/* Each file's bones from its corpus-expected dump ("bones": [...]). */
static int expected_bones(const char *json, char names[][64], int max)
{
    const char *p = strstr(json, "\"bones\"");
    int n = 0;
    p = p ? strchr(p, '[') : NULL;
    while (p && *p && *p != ']' && n < max) {
        const char *q = strchr(p, '"');
        const char *end = strchr(p, ']');
        if (!q || (end && end < q))
            break;
        const char *e = strchr(q + 1, '"');
        assert_non_null(e);
        snprintf(names[n++], 64, "%.*s", (int)(e - q - 1), q + 1);
        p = e + 1;
    }
    return n;
}

/* The findings of code: its lines, and those its last line counts. */
static int count_findings(const char *text, const char *code)
{
    int n = 0;
    char more[80];
    snprintf(more, sizeof more, "%s: and ", code);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        unsigned k;
        if (strncmp(p, more, strlen(more)) == 0 && sscanf(p + strlen(more), "%u", &k) == 1)
            n += (int)k;
        else
            n += strncmp(p, code, strlen(code)) == 0;
    }
    return n;
}

static void corpus_counts(void **state)
{
    (void)state;
    struct corpus c;
    if (corpus_list(&c))
        skip_because("no ../shared");
    struct rtm_skeleton *sk;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_open("ofp2", &sk, &err), 0);
    static const char *const codes[] = { RTM_CHECK_CODES };
    enum { NCODES = sizeof codes / sizeof *codes };
    int files[NCODES] = { 0 }, found_nis = 0, found_case = 0, want_nis = 0, want_case = 0;
    static char names[4096][64];
    for (size_t i = 0; i < c.n; i++) {
        struct rtm_anim *a = corpus_anim(c.path[i], sk);
        char *t = check_of(a);
        for (int k = 0; k < NCODES; k++) {
            char code[64];
            snprintf(code, sizeof code, " %s: ", codes[k]);
            files[k] += strstr(t, code) != NULL;
        }
        found_nis += count_findings(t, "error bone-not-in-skeleton");
        found_case += count_findings(t, "warning bone-case");
        /* the independent count: the dump's bones against the skeleton's
         * list, without case, then (a plain file's) with case */
        char path[4300];
        const char *rel = strstr(c.path[i], "/corpus/") + 8;
        snprintf(path, sizeof path, "%s/corpus-expected/%s.json", shared_dir(), rel);
        uint8_t *json;
        size_t len;
        assert_int_equal(rtm_slurp(path, &json, &len), 0);
        char *z = realloc(json, len + 1);
        assert_non_null(z);
        z[len] = 0;
        int n = expected_bones(z, names, 4096);
        assert_int_equal((uint32_t)n, a->nbones);
        for (int b = 0; b < n; b++) {
            int nocase = 0, exact = 0;
            for (uint32_t k = 0; k < sk->nbones; k++) {
                nocase |= strcasecmp(names[b], sk->bone[k]) == 0;
                exact |= strcmp(names[b], sk->bone[k]) == 0;
            }
            want_nis += !nocase;
            want_case += nocase && !exact && a->format == RTM_FORMAT_PLAIN;
        }
        free(z);
        free(t);
        rtm_free(a);
    }
    printf("# check.txt over %zu real files: files with each code:\n", c.n);
    for (int k = 0; k < NCODES; k++)
        printf("#   %-24s %d\n", codes[k], files[k]);
    printf("# bone-not-in-skeleton lines %d (counted from corpus-expected: %d), bone-case "
           "lines %d (%d)\n", found_nis, want_nis, found_case, want_case);
    assert_int_equal(found_nis, want_nis);
    assert_int_equal(found_case, want_case);
    rtm_skeleton_free(sk);
    corpus_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(clean_is_empty),
        cmocka_unit_test(bones),
        cmocka_unit_test(long_names_and_left_out),
        cmocka_unit_test(phases),
        cmocka_unit_test(numbers_and_props),
        cmocka_unit_test(many_findings_are_capped),
        cmocka_unit_test(corpus_counts),
    };
    return run_test_cases(tests, NULL, NULL);
}
