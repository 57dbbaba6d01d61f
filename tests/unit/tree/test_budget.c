/* test_budget.c - what each walk of `make bench` may cost, counted, never
 * timed: files opened and bytes read in SOURCE, archive tables read,
 * configs parsed, states checked and states.txt lines made, head and full
 * parses (work.h) and renders (cache.h), on a generated install of NARCH
 * archives of NPER animations and a texture each (and a config, rapified
 * or text, when the case says), beside loose animations.  Each walk runs
 * on a first mount with no index (the first view and grep also with one,
 * grep counting what the index is asked too); the later-mount walks on a
 * mount that shares the index the first one wrote.  A budget is the work the walk needs; a change that adds work
 * where none was needed fails here, naming the counter that grew.
 *
 * The walks, as the kernel asks them of the tree:
 *   first view  one animation's header.txt, looked up from the root, then
 *               (with configs) its states.txt;
 *   ls -lR/du   every folder listed and every name looked up (stat);
 *   grep -r     every folder listed, bones.txt looked up and read;
 *   find|cat    every name looked up and every file read. */
#include "testutil.h"
#include "tree_testutil.h"

#include <sys/stat.h>

#include "pbo_write.h"
#include "samples.h"
#include "skelreg.h"
#include "work.h"

enum { CONFIG_BIN = 1, CONFIG_CPP };
enum { NMODS = 3, NPER_MOD = 4, NARCH = NMODS * NPER_MOD, NPER = 4, NLOOSE = 4,
       NANIMS = NARCH * NPER + NLOOSE, TEXTURE = 256 * 1024 };

struct env {
    struct tree_fixture f;
    struct rtm_work work;
    struct rtm_skelreg *skels;
    int configs;                /* each archive holds a config playing its anims:
                                   CONFIG_BIN or CONFIG_CPP (0: none) */
    uint64_t anim_bytes, config_bytes;  /* of all the animations, and configs */
    uint64_t anim_max;                  /* the largest animation's bytes */
};

/* Archive k's animations' entries: anims\xI.rtm. */
static void anim_entry(char *out, size_t n, unsigned i)
{
    snprintf(out, n, "anims\\x%u.rtm", i);
}

/* A config whose CfgMovesMaleSdr plays archive k's animations (at game
 * paths \mM\aK\anims\xI.rtm) with the skeleton SOURCE defines, as
 * config.bin (rapified) or config.cpp (text: how = CONFIG_CPP). */
static void config_of(unsigned mod, unsigned k, int how, struct rtm_buf *out)
{
    char text[4096];
    int at = snprintf(text, sizeof text,
                      "class CfgSkeletons { class Budget { skeletonBones[] = "
                      "{\"Pelvis\", \"\", \"Spine\", \"Pelvis\"}; }; };\n"
                      "class CfgMovesMaleSdr { skeletonName = \"Budget\"; class States {\n");
    for (unsigned i = 0; i < NPER; i++)
        at += snprintf(text + at, sizeof text - (size_t)at,
                       "  class S%u_%u { file = \"\\m%u\\a%u\\anims\\x%u.rtm\"; speed = 1; };\n",
                       k, i, mod, k, i);
    snprintf(text + at, sizeof text - (size_t)at, "}; };\n");
    if (how == CONFIG_CPP)
        rtm_buf_puts(out, text);
    else
        rapify_text(text, out);
}

/* @mM/addons/aK.pbo: NPER animations, a texture, and a config if asked. */
static void put_archive(struct env *e, unsigned mod, unsigned k)
{
    struct pbo_write_entry w[NPER + 2];
    struct rtm_buf rtm[NPER], cfg, b;
    char names[NPER][32], path[64], prefix[32];
    uint8_t *texture = calloc(1, TEXTURE);
    assert_non_null(texture);
    for (unsigned i = 0; i < NPER; i++) {
        struct sample_opts o = { 3 + i, 8 + k % 5, k * NPER + i, i % 2 };
        rtm_buf_init(&rtm[i]);
        assert_int_equal(i % 2 ? rtm_sample_bmtr(&o, 5, BMTR_COMPRESS_AUTO, &rtm[i])
                               : rtm_sample_plain(&o, &rtm[i]), 0);
        anim_entry(names[i], sizeof names[i], i);
        w[i] = (struct pbo_write_entry){ names[i], (const uint8_t *)rtm[i].p, rtm[i].len,
                                         PBO_PACK_STORE, 0 };
        e->anim_bytes += rtm[i].len;
        e->anim_max = rtm[i].len > e->anim_max ? rtm[i].len : e->anim_max;
    }
    size_t n = NPER;
    w[n++] = (struct pbo_write_entry){ "data\\texture.paa", texture, TEXTURE, PBO_PACK_STORE, 0 };
    rtm_buf_init(&cfg);
    if (e->configs) {
        config_of(mod, k, e->configs, &cfg);
        e->config_bytes += cfg.len;
        w[n++] = (struct pbo_write_entry){ e->configs == CONFIG_CPP ? "config.cpp" : "config.bin",
                                           (const uint8_t *)cfg.p, cfg.len, PBO_PACK_STORE, 0 };
    }
    snprintf(prefix, sizeof prefix, "m%u\\a%u", mod, k);
    struct pbo_write_prop prop = { "prefix", prefix };
    rtm_buf_init(&b);
    assert_int_equal(pbo_write(w, n, &prop, 1, 0, &b), 0);
    snprintf(path, sizeof path, "@m%u/addons/a%u.pbo", mod, k);
    tree_fixture_write(&e->f, path, b.p, b.len);
    for (unsigned i = 0; i < NPER; i++)
        rtm_buf_free(&rtm[i]);
    rtm_buf_free(&cfg);
    rtm_buf_free(&b);
    free(texture);
}

static void make_install(struct env *e)
{
    char dir[64];
    for (unsigned m = 0; m < NMODS; m++) {
        snprintf(dir, sizeof dir, "@m%u", m);
        assert_int_equal(mkdirat(e->f.fd, dir, 0755), 0);
        snprintf(dir, sizeof dir, "@m%u/addons", m);
        assert_int_equal(mkdirat(e->f.fd, dir, 0755), 0);
        for (unsigned k = 0; k < NPER_MOD; k++)
            put_archive(e, m, m * NPER_MOD + k);
    }
    assert_int_equal(mkdirat(e->f.fd, "loose", 0755), 0);
    for (unsigned i = 0; i < NLOOSE; i++) {
        struct sample_opts o = { 5, 10, 900 + i, 0 };
        struct rtm_buf b;
        char name[32];
        rtm_buf_init(&b);
        assert_int_equal(rtm_sample_plain(&o, &b), 0);
        snprintf(name, sizeof name, "loose/l%u.rtm", i);
        tree_fixture_write(&e->f, name, b.p, b.len);
        e->anim_bytes += b.len;
        rtm_buf_free(&b);
    }
}

static int setup_with(void **state, int configs)
{
    struct env *e = calloc(1, sizeof *e);
    assert_non_null(e);
    e->configs = configs;
    tree_fixture_open(&e->f, "budget");
    assert_non_null(e->skels = rtm_skelreg_new());
    make_install(e);
    *state = e;
    return 0;
}

static int setup(void **state) { return setup_with(state, 0); }
static int setup_configs(void **state) { return setup_with(state, CONFIG_BIN); }
static int setup_text_configs(void **state) { return setup_with(state, CONFIG_CPP); }

static int teardown(void **state)
{
    struct env *e = *state;
    tree_fixture_close(&e->f);
    rtm_skelreg_free(e->skels);
    free(e);
    return 0;
}

/* A mount as rtmfs makes one (the man's skeleton, the configs' skeletons,
 * the index beside SOURCE when indexed), its counters zeroed. */
static struct rtm_tree *mount(struct env *e, int indexed)
{
    struct rtm_error err;
    if (indexed)
        assert_non_null(e->f.ix = rtm_index_open(e->f.index, 64u << 20, tree_quiet, NULL));
    assert_int_equal(rtm_skeleton_builtin("ofp2", &e->f.skel, &err), 0);
    tree_fixture_mount(&e->f, 64u << 20);
    e->f.l.render = "budget";
    e->f.l.log = tree_quiet;
    e->f.l.skels = e->skels;
    e->f.l.work = &e->work;
    rtmc_set_store(e->f.c, rtm_loader_store);   /* as rtmfs: sizes remembered */
    rtmc_set_timed(e->f.c, rtm_loader_timed);
    rtm_work_reset(&e->work);
    return tree_fixture_tree(&e->f, (struct rtm_tree_config){
        .skels = e->skels, .store = &e->f.store, .work = &e->work });
}

/* ---- the walks ---- */

enum walk_kind { W_STAT, W_BONES, W_CAT };

static uint64_t read_all(struct rtm_tree *t, uint64_t ino)
{
    static char buf[1 << 16];
    uint64_t total = 0;
    ssize_t n;
    while ((n = rtm_tree_read(t, ino, buf, sizeof buf, (off_t)total)) > 0)
        total += (uint64_t)n;
    assert_true(n == 0);
    return total;
}

/* Folder ino's entries (no "." or ".."): names malloc'd, the array
 * ends at a NULL name; each with its type (S_IFDIR or S_IFREG). */
struct listed {
    char *name;
    mode_t type;
};

static struct listed *listing(struct rtm_tree *t, uint64_t ino)
{
    struct rtm_dirlist *d;
    assert_int_equal(rtm_tree_listing(t, ino, 0, &d), 0);
    struct listed *l = calloc(d->n + 1, sizeof *l);
    size_t n = 0;
    assert_non_null(l);
    for (size_t i = 0; i < d->n; i++)
        if (strcmp(d->e[i].name, ".") && strcmp(d->e[i].name, "..")) {
            assert_non_null(l[n].name = strdup(d->e[i].name));
            l[n++].type = d->e[i].type;
        }
    rtm_tree_listing_put(t, d);
    return l;
}

/* Walks below folder ino as kind says; how many files it met. */
static size_t walk(struct rtm_tree *t, uint64_t ino, enum walk_kind kind)
{
    struct listed *l = listing(t, ino);
    size_t files = 0;
    for (struct listed *n = l; n->name; n++) {
        struct rtm_tree_entry te;
        int is_bones = strcmp(n->name, "bones.txt") == 0;
        if (kind == W_BONES && !is_bones && !S_ISDIR(n->type))
            continue;                   /* grep --include: never looked up */
        assert_int_equal(rtm_tree_lookup(t, ino, n->name, &te), 0);
        if (S_ISDIR(te.st.st_mode)) {
            files += walk(t, te.ino, kind);
        } else {
            files++;
            if (kind == W_CAT || (kind == W_BONES && is_bones))
                assert_int_equal(read_all(t, te.ino), (uint64_t)te.st.st_size);
        }
        rtm_tree_forget(t, te.ino, 1);
    }
    for (struct listed *n = l; n->name; n++)
        free(n->name);
    free(l);
    return files;
}

/* ---- the budgets ---- */

/* What a walk did, beside its budget: each counter at most its budget. */
struct budget {
    uint64_t opened, reads, bytes, tables, configs, checked, lines, heads, fulls, renders;
};

static void within(struct env *e, const char *walk_name, struct budget b)
{
    struct rtmc_stats st;
    rtmc_get_stats(e->f.c, &st);
    struct { const char *name; uint64_t got, max; } c[] = {
        { "opened", rtm_work_get(&e->work, RTM_WORK_OPENED), b.opened },
        { "reads", rtm_work_get(&e->work, RTM_WORK_READS), b.reads },
        { "bytes_read", rtm_work_get(&e->work, RTM_WORK_BYTES), b.bytes },
        { "archive_tables", rtm_work_get(&e->work, RTM_WORK_TABLES), b.tables },
        { "configs_parsed", rtm_work_get(&e->work, RTM_WORK_CONFIGS_PARSED), b.configs },
        { "states_checked", rtm_work_get(&e->work, RTM_WORK_STATES_CHECKED), b.checked },
        { "states_lines", rtm_work_get(&e->work, RTM_WORK_STATES_LINES), b.lines },
        { "parses_head", rtm_work_get(&e->work, RTM_WORK_PARSE_HEAD), b.heads },
        { "parses_full", rtm_work_get(&e->work, RTM_WORK_PARSE_FULL), b.fulls },
        { "renders", st.renders, b.renders },
    };
    if (e->f.ix) {
        struct rtm_index_stats ix;
        rtm_index_get_stats(e->f.ix, &ix);
        print_message("%s: index hits %llu misses %llu written %llu\n", walk_name,
                      (unsigned long long)ix.hits, (unsigned long long)ix.misses,
                      (unsigned long long)ix.written);
    }
    int over = 0;
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        print_message("%s: %s %llu (budget %llu)\n", walk_name, c[i].name,
                      (unsigned long long)c[i].got, (unsigned long long)c[i].max);
        over |= c[i].got > c[i].max;
    }
    if (over)
        fail_msg("%s: a counter grew past its budget (above)", walk_name);
}

/* What reading an archive's table may read: its first read, 4 KiB, which
 * holds each of the install's tables whole. */
enum { TABLE_READ = 4096 };

/* The bytes a walk may read: its tables', and every animation's and
 * config's bytes twice (a head and a whole parse), never a texture (each
 * is TEXTURE bytes, more than all of that). */
static uint64_t bytes_for(const struct env *e, uint64_t tables)
{
    return tables * TABLE_READ + 2 * e->anim_bytes + e->config_bytes;
}

/* The first header.txt of an archived animation: every archive's table
 * once (the configs' walk and the loader share them), one read each, and
 * never its trailer (only pbo.txt says it); with configs each archive
 * opened twice more, to ask for its config's pages as its table is read,
 * then to read it (tree_states_read.c), parsed once; the animation parsed
 * whole once.  With configs that choose a skeleton, its
 * head comes first (the skeleton chosen needs its bones), then one whole
 * parse with that skeleton.  No state is checked: only check.txt needs
 * that; and no states.txt line is made: a table the index is to remember
 * is written with its lines once they are made. */
static struct rtm_tree *first_view(struct env *e, uint64_t configs, int indexed)
{
    struct rtm_tree *t = mount(e, indexed);
    struct rtm_tree_entry te;
    assert_int_equal(tree_walk(t, "@m1/addons/a5.pbo/anims/x1.rtm/header.txt", &te), 0);
    assert_true(read_all(t, te.ino) > 0);
    uint64_t tables = NARCH, chose = configs > 0;
    within(e, "first view", (struct budget){
        .opened = tables + 2 * configs + 1 + chose, .reads = tables + configs + 1 + chose,
        .bytes = bytes_for(e, tables), .tables = tables,
        .configs = configs, .lines = 0, .heads = chose, .fulls = 1, .renders = 1 });
    return t;
}

/* Then states.txt, twice: the first read makes every line the first view
 * did not (lines), once; the second none; both show x1's state.  Nothing
 * is read or parsed again, nothing rendered (renders counts from the
 * mount: header.txt). */
static void then_states(struct env *e, struct rtm_tree *t, uint64_t lines)
{
    rtm_work_reset(&e->work);
    for (int i = 0; i < 2; i++)
        tree_assert_holds(t, "@m1/addons/a5.pbo/anims/x1.rtm/states.txt",
                          "\nCfgMovesMaleSdr/States/S5_1 speed=1 ");
    within(e, "then states.txt", (struct budget){ .lines = lines, .renders = 1 });
}

static void first_view_no_configs(void **state)
{
    first_view(*state, 0, 0);
}

/* No index, an index with rapified configs, or with text ones: the lines
 * come at states.txt (and a remembered table is written then). */
static void first_view_configs(void **state)
{
    struct rtm_tree *t = first_view(*state, NARCH, 0);
    then_states(*state, t, NARCH * NPER);
}

static void first_view_configs_indexed(void **state)
{
    struct rtm_tree *t = first_view(*state, NARCH, 1);
    then_states(*state, t, NARCH * NPER);
}

/* (Text configs that include nothing depend on their archive's bytes
 * alone: the index remembers their table as a rapified one's.) */
static void first_view_text_configs(void **state)
{
    struct rtm_tree *t = first_view(*state, NARCH, 1);
    then_states(*state, t, NARCH * NPER);
}

/* A later mount's first view, after a mount that asked for nothing but
 * one header.txt: that mount made the lines and wrote the table when it
 * ended, so no config is read and no line made; the animation, which
 * header.txt needs parsed whole, is all that is opened and read (its
 * archive's table and its shape come from the index). */
static void later_first_view(void **state)
{
    struct env *e = *state;
    first_view(e, NARCH, 1);
    tree_fixture_unmount(&e->f);
    struct rtm_tree *t = mount(e, 1);
    struct rtm_tree_entry te;
    assert_int_equal(tree_walk(t, "@m1/addons/a5.pbo/anims/x1.rtm/header.txt", &te), 0);
    assert_true(read_all(t, te.ino) > 0);
    within(e, "later first view", (struct budget){
        .opened = 1, .reads = 1, .bytes = e->anim_max, .tables = 0, .configs = 0, .lines = 0,
        .heads = 0, .fulls = 1, .renders = 1 });
}

/* ls -lR and du: every animation's head (its listing) and whole parse
 * (its views' sizes) once, each archive's table once (the listing, the
 * configs' walk and missing.txt share it) and its trailer once (pbo.txt's
 * size: the table was read without it), one view rendered for each
 * animation (the first asked, which is rendered to be sized). */
static void first_mount_stat(void **state)
{
    struct env *e = *state;
    struct rtm_tree *t = mount(e, 0);
    assert_true(walk(t, RTM_INO_ROOT, W_STAT) > NANIMS * 10);
    within(e, "first-mount ls -lR/du", (struct budget){
        .opened = 2 * NARCH + 2 * NANIMS, .reads = 2 * NARCH + 2 * NANIMS,
        .bytes = bytes_for(e, NARCH), .tables = NARCH, .configs = 0, .heads = NANIMS,
        .fulls = NANIMS, .renders = NANIMS });
}

/* grep -r --include=bones.txt on a first mount (indexed or not): heads
 * only, no config, no full parse, bones.txt rendered once each. */
static void grep_within(struct env *e, int indexed, const char *walk_name)
{
    struct rtm_tree *t = mount(e, indexed);
    assert_int_equal(walk(t, RTM_INO_ROOT, W_BONES), NANIMS);
    within(e, walk_name, (struct budget){
        .opened = NARCH + NANIMS, .reads = NARCH + NANIMS, .bytes = bytes_for(e, NARCH),
        .tables = NARCH,
        .configs = 0, .heads = NANIMS, .fulls = 0, .renders = NANIMS });
}

static void first_mount_grep(void **state)
{
    grep_within(*state, 0, "first-mount grep -r bones.txt");
}

/* The same with an index, which it asks once an archive's table and once
 * an animation's shape, both missing: the parse that follows a miss
 * writes its record without asking again. */
static void first_mount_grep_indexed(void **state)
{
    struct env *e = *state;
    grep_within(e, 1, "first-mount grep -r bones.txt, indexed");
    struct rtm_index_stats ix;
    rtm_index_get_stats(e->f.ix, &ix);
    if (ix.hits + ix.misses > NARCH + NANIMS)
        fail_msg("index asked %llu times: budget %d (a table and a shape each)",
                 (unsigned long long)(ix.hits + ix.misses), NARCH + NANIMS);
}

/* find | xargs cat: as ls -lR, and every view rendered once; with no
 * index to remember it, each archive's trailer read at each of pbo.txt's
 * three requests that make its text (its lookup, its open, its read). */
static void first_mount_cat(void **state)
{
    struct env *e = *state;
    struct rtm_tree *t = mount(e, 0);
    size_t files = walk(t, RTM_INO_ROOT, W_CAT);
    within(e, "first-mount find | xargs cat", (struct budget){
        .opened = 4 * NARCH + 2 * NANIMS, .reads = 4 * NARCH + 2 * NANIMS,
        .bytes = bytes_for(e, NARCH), .tables = NARCH, .configs = 0, .heads = NANIMS,
        .fulls = NANIMS, .renders = files });
}

/* A later mount that shares the index: ls -lR, du and grep open nothing
 * and parse nothing (tables, trailers, shapes and sizes are remembered, and the
 * configs' walk and missing.txt take the tables from the index too);
 * bones.txt is rendered once each. */
static void later_mount(void **state)
{
    struct env *e = *state;
    struct rtm_tree *t = mount(e, 1);
    walk(t, RTM_INO_ROOT, W_STAT);
    tree_fixture_unmount(&e->f);
    t = mount(e, 1);
    walk(t, RTM_INO_ROOT, W_STAT);
    walk(t, RTM_INO_ROOT, W_BONES);
    within(e, "later-mount ls -lR/du/grep", (struct budget){
        .opened = 0, .reads = 0, .bytes = 0, .tables = 0, .configs = 0,
        .heads = 0, .fulls = 0, .renders = NANIMS });
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(first_view_no_configs, setup, teardown),
        cmocka_unit_test_setup_teardown(first_view_configs, setup_configs, teardown),
        cmocka_unit_test_setup_teardown(first_view_configs_indexed, setup_configs, teardown),
        cmocka_unit_test_setup_teardown(first_view_text_configs, setup_text_configs, teardown),
        cmocka_unit_test_setup_teardown(later_first_view, setup_configs, teardown),
        cmocka_unit_test_setup_teardown(later_first_view, setup_text_configs, teardown),
        cmocka_unit_test_setup_teardown(first_mount_stat, setup, teardown),
        cmocka_unit_test_setup_teardown(first_mount_grep, setup, teardown),
        cmocka_unit_test_setup_teardown(first_mount_grep_indexed, setup, teardown),
        cmocka_unit_test_setup_teardown(first_mount_cat, setup, teardown),
        cmocka_unit_test_setup_teardown(later_mount, setup, teardown),
    };
    return run_test_cases(tests, NULL, NULL);
}
