/* test_repair.c - fixed.rtm (repair.h): read back with the same skeleton,
 * the repaired file has no bone error or warning, its bones are exactly
 * the original's that the skeleton holds (the first of a name, named as
 * the skeleton names it), and every frame's phase and kept matrices are
 * plain.rtm's to the bit; a file with nothing to fix, or read without a
 * skeleton, gives plain.rtm's bytes; a BMTR source's lower-case names
 * come back in the skeleton's case; binarised and read again it stays
 * clean; its size is the bytes rendered.  Over a made-up file with each
 * bone mistake, as plain and as BMTR, and over every animation of
 * ../shared/corpus, whose counts by reason it prints. */
#include "testutil.h"

#include "bmtr_write.h"
#include "repair.h"

/* The bone findings of check.txt (check.h) that fixed.rtm must not have. */
static const char *const BONE_FINDINGS[] = {
    "error bone-not-in-skeleton:", "warning binarise-refuses:", "note helper-bone:",
    "warning bone-case:", "warning duplicate-bone:", "warning name-length: Bone ",
};

/* Whether check.txt of a has a bone finding that is an error or warning
 * (helpers: also a note). */
static int bone_finding(const struct rtm_anim *a)
{
    char *t = render(a, (struct rtm_view){ .kind = RTM_VIEW_CHECK }, NULL);
    int found = 0;
    for (const char *p = t; *p && !found; p = strchr(p, '\n') + 1) {
        for (size_t i = 0; i < sizeof BONE_FINDINGS / sizeof *BONE_FINDINGS; i++)
            found |= strncmp(p, BONE_FINDINGS[i], strlen(BONE_FINDINGS[i])) == 0;
        if (!strchr(p, '\n'))
            break;
    }
    free(t);
    return found;
}

static struct rtm_anim *parse_bytes(const char *p, size_t len, const struct rtm_skeleton *sk)
{
    struct rtm_anim *a = NULL;
    struct rtm_error err;
    if (rtm_parse((const uint8_t *)p, len, sk, &a, &err))
        fail_msg("parse failed: %s", err.msg);
    return a;
}

static char *render_kind(const struct rtm_anim *a, enum rtm_view_kind k, size_t *len)
{
    return render(a, (struct rtm_view){ .kind = k }, len);
}

/* What one file gave. */
struct tally {
    size_t files, with_finding, finding_fixed, clean_plain, clean_plain_same;
    size_t changed, reason[RTM_REPAIR_NFATES];
};

/* The bones the repair must keep, by the skeleton's own lookup (not
 * repair.c's): a's bone index and the skeleton's bone, in file order. */
static uint32_t expected_kept(const struct rtm_anim *a, const struct rtm_skeleton *sk,
                              uint32_t *bone, int32_t *skel)
{
    uint8_t *taken = calloc(sk->nbones ? sk->nbones : 1, 1);
    assert_non_null(taken);
    uint32_t n = 0;
    for (uint32_t b = 0; b < a->nbones; b++) {
        int32_t k = rtm_skeleton_find(sk, a->bones[b].s, a->bones[b].len);
        if (k < 0 || taken[k])
            continue;
        taken[k] = 1;
        bone[n] = b;
        skel[n++] = k;
    }
    free(taken);
    return n;
}

/* Everything fixed.rtm of a (read with sk) promises; a's counts into t. */
static void verify(const struct rtm_anim *a, const struct rtm_skeleton *sk, struct tally *t)
{
    size_t len, plain_len;
    char *fixed = render_kind(a, RTM_VIEW_REPAIRED, &len);
    char *plain = render_kind(a, RTM_VIEW_PLAIN, &plain_len);
    struct rtm_anim *f = parse_bytes(fixed, len, sk), *p = parse_bytes(plain, plain_len, sk);
    int finding = bone_finding(a);
    t->files++;
    t->with_finding += finding;
    if (bone_finding(f))
        fail_msg("fixed.rtm still has a bone finding");
    uint32_t *bone = malloc((a->nbones + 1) * sizeof *bone);
    int32_t *skel = malloc((a->nbones + 1) * sizeof *skel);
    assert_true(bone && skel);
    uint32_t n = expected_kept(a, sk, bone, skel);
    assert_int_equal(f->nbones, n);
    assert_int_equal(f->nframes, p->nframes);
    assert_int_equal(f->nprops, p->nprops);
    assert_memory_equal(f->motion, p->motion, sizeof f->motion);
    for (uint32_t i = 0; i < n; i++) {
        assert_int_equal(f->bones[i].len, strlen(sk->bone[skel[i]]));
        assert_memory_equal(f->bones[i].s, sk->bone[skel[i]], f->bones[i].len);
    }
    /* plain.rtm's frames (the source's for a plain file), to the bit */
    for (uint32_t fr = 0; fr < f->nframes; fr++) {
        assert_memory_equal(&f->phases[fr], &p->phases[fr], sizeof(float));
        for (uint32_t i = 0; i < n; i++)
            assert_memory_equal(rtm_matrix(f, fr, i), rtm_matrix(p, fr, bone[i]),
                                12 * sizeof(float));
    }
    t->finding_fixed += finding;
    if (!finding && a->format == RTM_FORMAT_PLAIN) {
        t->clean_plain++;
        t->clean_plain_same += len == plain_len && memcmp(fixed, plain, len) == 0;
    }
    struct rtm_repair r;
    assert_int_equal(rtm_repair_plan(a, &r), 0);
    t->changed += rtm_repair_changes(&r);
    for (int k = 0; k < RTM_REPAIR_NFATES; k++)
        t->reason[k] += rtm_repair_changes(&r) && r.count[k] > 0;
    rtm_repair_free(&r);
    /* the size a stat gives is the bytes read */
    uint64_t *sizes = calloc(rtm_view_count(a), sizeof *sizes);
    assert_non_null(sizes);
    assert_int_equal(rtm_view_sizes(a, sizes), 0);
    assert_int_equal(sizes[rtm_view_index(a, (struct rtm_view){ .kind = RTM_VIEW_REPAIRED })],
                     len);
    free(sizes);
    free(bone);
    free(skel);
    rtm_free(f);
    rtm_free(p);
    free(fixed);
    free(plain);
}

static struct rtm_skeleton *skeleton(const char *spec)
{
    struct rtm_skeleton *s;
    struct rtm_error err;
    assert_int_equal(rtm_skeleton_open(spec, &s, &err), 0);
    return s;
}

/* Every ofp2 bone in its order, then each mistake: a bone of another rig,
 * an exporter's tip, Pelvis again in another case, weapon as Weapon. */
static const char **mistaken_names(const struct rtm_skeleton *sk, uint32_t *n)
{
    static char names[128][64];
    static const char *p[128];
    assert_true(sk->nbones + 3 <= 128);
    for (uint32_t k = 0; k < sk->nbones; k++) {
        snprintf(names[k], sizeof names[k], "%s", sk->bone[k]);
        if (strcmp(names[k], "weapon") == 0)
            names[k][0] = 'W';
        p[k] = names[k];
    }
    *n = sk->nbones;
    p[(*n)++] = "cheek_lf";
    p[(*n)++] = "camera_end";
    p[(*n)++] = "pelvis";
    return p;
}

/* A plain file of those bones, 4 frames, two properties, each matrix
 * distinct (so a bone mixed up shows). */
static void write_plain(const char **names, uint32_t nb, struct rtm_buf *out)
{
    struct rtm_anim *w = rtm_anim_alloc(RTM_FORMAT_PLAIN, 4, nb, 2, 8192, RTM_DEPTH_FULL);
    assert_non_null(w);
    for (uint32_t b = 0; b < nb; b++)
        w->bones[b] = rtm_anim_str(w, names[b], (uint32_t)strlen(names[b]));
    for (uint32_t f = 0; f < 4; f++) {
        w->phases[f] = (float)f / 3;
        for (uint32_t b = 0; b < nb; b++) {
            float *m = w->matrices + ((size_t)f * nb + b) * 12;
            m[0] = m[4] = m[8] = 1;
            m[9] = (float)b / 100;
            m[10] = (float)f / 10;
        }
    }
    w->motion[2] = -1.5f;
    for (uint32_t i = 0; i < 2; i++)
        w->props[i] = (struct rtm_prop){ 0.25f * (float)(i + 1), rtm_anim_str(w, "Step", 4),
                                         rtm_anim_str(w, "left", 4), -1 };
    assert_int_equal(rtm_write_plain(w, out), 0);
    rtm_free(w);
}

static void each_mistake_plain(void **state)
{
    (void)state;
    struct rtm_skeleton *sk = skeleton("ofp2");
    uint32_t nb;
    const char **names = mistaken_names(sk, &nb);
    struct rtm_buf b;
    rtm_buf_init(&b);
    write_plain(names, nb, &b);
    struct rtm_anim *a = parse_bytes(b.p, b.len, sk);
    struct tally t = { 0 };
    verify(a, sk, &t);
    assert_int_equal(t.with_finding, 1);
    char *h = render_kind(a, RTM_VIEW_HEADER, NULL);
    assert_non_null(strstr(h, "\nfixed: fixed.rtm keeps 103 of 106 bones; left out: 1 not in the "
                              "skeleton (cheek_lf), 1 exporter's _end helper (camera_end), 1 "
                              "repeating an earlier bone's name (pelvis); renamed as the skeleton "
                              "names them: 1 bone (Weapon as weapon)\n"));
    free(h);
    /* binarised and read again: clean, the same bones; its fixed.rtm
     * names them as the skeleton does */
    size_t len;
    char *fixed = render_kind(a, RTM_VIEW_REPAIRED, &len);
    struct rtm_anim *f = parse_bytes(fixed, len, sk);
    char *bmtr = render_kind(f, RTM_VIEW_BMTR, &len);
    struct rtm_anim *g = parse_bytes(bmtr, len, sk);
    assert_int_equal(g->format, RTM_FORMAT_BMTR);
    assert_false(bone_finding(g));
    char *back = render_kind(g, RTM_VIEW_REPAIRED, &len);
    struct rtm_anim *gf = parse_bytes(back, len, sk);
    assert_int_equal(gf->nbones, f->nbones);
    for (uint32_t i = 0; i < f->nbones; i++)
        assert_memory_equal(gf->bones[i].s, f->bones[i].s, f->bones[i].len);
    verify(g, sk, &t);
    free(fixed);
    free(bmtr);
    free(back);
    rtm_free(gf);
    rtm_free(g);
    rtm_free(f);
    rtm_free(a);
    rtm_buf_free(&b);
    rtm_skeleton_free(sk);
}

/* Nothing to fix, or no skeleton: plain.rtm's bytes, and header.txt says
 * why. */
static void plain_when_nothing_to_fix(void **state)
{
    (void)state;
    struct rtm_skeleton *sk = skeleton("ofp2"), *none = skeleton("none");
    const char *names[128];
    for (uint32_t k = 0; k < sk->nbones; k++)
        names[k] = sk->bone[k];
    struct rtm_buf b;
    rtm_buf_init(&b);
    write_plain(names, sk->nbones, &b);
    rtm_buf_put(&b, "junk", 4);         /* trailing bytes stay, as plain.rtm's */
    struct rtm_anim *a = parse_bytes(b.p, b.len, sk);
    size_t len;
    char *fixed = render_kind(a, RTM_VIEW_REPAIRED, &len);
    assert_int_equal(len, b.len);
    assert_memory_equal(fixed, b.p, len);
    char *h = render_kind(a, RTM_VIEW_HEADER, NULL);
    assert_non_null(strstr(h, "\nfixed: nothing to fix: fixed.rtm is plain.rtm\n"));
    free(h);
    free(fixed);
    rtm_free(a);
    /* the mistaken file without a skeleton: plain.rtm as it is */
    uint32_t nb;
    const char **bad = mistaken_names(sk, &nb);
    rtm_buf_free(&b);
    rtm_buf_init(&b);
    write_plain(bad, nb, &b);
    a = parse_bytes(b.p, b.len, none);
    fixed = render_kind(a, RTM_VIEW_REPAIRED, &len);
    assert_int_equal(len, b.len);
    assert_memory_equal(fixed, b.p, len);
    h = render_kind(a, RTM_VIEW_HEADER, NULL);
    assert_non_null(strstr(h, "\nfixed: nothing: no skeleton to check the bones against "
                              "(skeleton none), so fixed.rtm is plain.rtm\n"));
    free(h);
    free(fixed);
    rtm_free(a);
    rtm_buf_free(&b);
    rtm_skeleton_free(sk);
    rtm_skeleton_free(none);
}

/* A BMTR file stores its names in lower case, which is no finding, but a
 * plain file so named stops pboProject: its fixed.rtm takes the
 * skeleton's case, and its matrices are plain.rtm's. */
static void bmtr_names_in_the_skeleton_case(void **state)
{
    (void)state;
    struct rtm_skeleton *sk = skeleton("ofp2");
    static char lower[128][64];
    const char *names[128];
    uint32_t nb = sk->nbones;
    for (uint32_t k = 0; k < nb; k++) {
        snprintf(lower[k], sizeof lower[k], "%s", sk->bone[k]);
        for (char *c = lower[k]; *c; c++)
            *c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
        names[k] = lower[k];
    }
    names[nb++] = "cheek_lf";
    float phases[3] = { 0, 0.5f, 1 };
    uint8_t *tr = calloc((size_t)3 * nb, 14);
    assert_non_null(tr);
    static const float q[4] = { 0, 0, 0, 1 };
    for (size_t i = 0; i < (size_t)3 * nb; i++) {
        float tv[3] = { (float)(i % 7) / 10, 0, 0 };
        rtm_pack_transform(tr + 14 * i, q, tv);
    }
    struct bmtr_spec bs = { .version = 5, .byte8 = 1, .nbones = nb, .names = names,
                            .nframes = 3, .phases = phases, .transforms = tr,
                            .compress = BMTR_COMPRESS_AUTO };
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rtm_write_bmtr(&bs, &b), 0);
    free(tr);
    struct rtm_anim *a = parse_bytes(b.p, b.len, sk);
    struct tally t = { 0 };
    verify(a, sk, &t);
    assert_int_equal(t.changed, 1);
    rtm_free(a);
    rtm_buf_free(&b);
    rtm_skeleton_free(sk);
}

/* Every shared animation: the goals' figures. */
static void corpus(void **state)
{
    (void)state;
    struct corpus c;
    if (corpus_list(&c))
        skip_because("no ../shared");
    struct rtm_skeleton *sk = skeleton("ofp2");
    struct tally t = { 0 };
    for (size_t i = 0; i < c.n; i++) {
        struct rtm_anim *a = corpus_anim(c.path[i], sk);
        verify(a, sk, &t);
        rtm_free(a);
    }
    printf("# %zu files; %zu with a bone finding, %zu of them fixed (none in fixed.rtm, kept "
           "matrices bit-equal); %zu plain without one, %zu of them fixed.rtm == plain.rtm\n",
           t.files, t.with_finding, t.finding_fixed, t.clean_plain, t.clean_plain_same);
    printf("# fixed.rtm differs from plain.rtm in %zu: foreign bones in %zu, _end helpers in "
           "%zu, duplicates in %zu, case renames in %zu\n", t.changed,
           t.reason[RTM_REPAIR_FOREIGN], t.reason[RTM_REPAIR_HELPER],
           t.reason[RTM_REPAIR_DUPLICATE], t.reason[RTM_REPAIR_RENAMED]);
    assert_int_equal(t.finding_fixed, t.with_finding);
    assert_int_equal(t.clean_plain_same, t.clean_plain);
    rtm_skeleton_free(sk);
    corpus_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_mistake_plain),
        cmocka_unit_test(plain_when_nothing_to_fix),
        cmocka_unit_test(bmtr_names_in_the_skeleton_case),
        cmocka_unit_test(corpus),
    };
    return run_test_cases(tests, NULL, NULL);
}
