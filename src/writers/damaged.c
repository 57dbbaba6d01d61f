/* damaged.c - the damaged tree's layout (damaged.h): folders @dmg_NN of
 * loose animations (a few good, the rest each damaged one way), a config
 * and sometimes a model.cfg beside them, a rapified config.bin, an archive
 * of good and damaged animations and one damaged itself; the table tricks
 * in @dmg_tricks.  The first animations go through every format and every
 * damage in turn, so that a small tree holds them all; the rest draw both. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cfg_pp.h"
#include "config.h"
#include "damaged_int.h"
#include "pbo.h"
#include "pbo_tricks.h"
#include "pbo_write.h"
#include "skeleton_cfg.h"

enum {
    LOOSE = 30,         /* animations a folder */
    LOOSE_GOOD = 3,     /* of which left whole */
    ENTRIES = 6,        /* animations in a folder's archive */
    ENTRIES_GOOD = 2,
    WHAT = 512,
};

const char *damaged_kind_name(enum damaged_kind k)
{
    static const char *const NAME[DMG_KINDS] = {
        "good", "parses", "head-fails", "head-ok-full-fails", "entry-fails", "pbo-ok", "pbo-cut",
        "pbo-fails", "pbo-tricks", "config-ok", "config-fails", "modelcfg-ok", "modelcfg-fails",
    };
    return (unsigned)k < DMG_KINDS ? NAME[k] : "?";
}

int dmg_file(struct dmg_gen *g, const char *path, const void *p, size_t len)
{
    if (g->out->file(g->out->ctx, path, p, len) == 0)
        return 0;
    rtm_err_nooff(g->err, "%s: not written", path);
    return -1;
}

int dmg_note(struct dmg_gen *g, const char *path, enum damaged_kind k, const char *what)
{
    char clean[WHAT * 3];
    snprintf(clean, sizeof clean, "%s", what);
    for (char *c = clean; *c; c++)
        *c = *c == '\t' || *c == '\n' || *c == '\r' ? ' ' : *c;
    g->damaged += strncmp(clean, "none:", 5) != 0;
    if (g->out->note(g->out->ctx, path, k, clean) == 0)
        return 0;
    rtm_err_nooff(g->err, "%s: not noted", path);
    return -1;
}

/* The generator's state of schedule: how many damaged animations so far,
 * and of each damage, which picks the part it hits (a kind each in turn). */
struct sched {
    unsigned anims, op_count[OP_OPS];
};

/* An animation into b (empty): whole when good, else damaged by the next
 * of the schedule; what gets "TAG: details; FORMAT". */
static int make_anim(struct dmg_gen *g, struct sched *s, int good, struct rtm_buf *b, char *what)
{
    char desc[96], how[WHAT - 128];
    enum dmg_fmt fmt = F_FMTS;
    enum dmg_op op = (enum dmg_op)(rng_next(&g->rng) % OP_OPS);
    if (!good && s->anims < F_FMTS * OP_OPS) {
        fmt = (enum dmg_fmt)(s->anims / OP_OPS);
        op = (enum dmg_op)(s->anims % OP_OPS);
    }
    if (dmg_sample(g, good ? F_FMTS : fmt, b, desc, sizeof desc) || b->oom)
        return -1;
    if (good) {
        snprintf(what, WHAT, "none: %s", desc);
        return 0;
    }
    s->anims++;
    if (dmg_animation(g, op, s->op_count[op]++, b, how, sizeof how))
        return -1;
    snprintf(what, WHAT, "%s; %s", how, desc);
    return 0;
}

/* The tag of a what ("cut" of "cut: ..."), for a file's name. */
static void tag_of(const char *what, char *tag, size_t n)
{
    size_t k = strcspn(what, ":");
    snprintf(tag, n, "%.*s", (int)(k < n ? k : n - 1), what);
}

/* Notes path as k: what was done to it, and why it is k when said. */
static int note_why(struct dmg_gen *g, const char *path, enum damaged_kind k, const char *what,
                    const char *why)
{
    char line[WHAT * 2 + 320];          /* what (< WHAT) and why (< 300) fit */
    int n = snprintf(line, sizeof line, "%s%s%s", what, why[0] ? " -> " : "", why);
    return n < 0 ? -1 : dmg_note(g, path, k, line);
}

static int note_anim(struct dmg_gen *g, const char *path, const uint8_t *p, size_t len,
                     const char *what)
{
    char why[300];
    enum damaged_kind k = dmg_classify(g, p, len, why, sizeof why);
    if (k == DMG_PARSES && !strncmp(what, "none:", 5))
        k = DMG_GOOD;
    return note_why(g, path, k, what, why);
}

/* A loose animation in dir, its name into name. */
static int loose(struct dmg_gen *g, struct sched *s, const char *dir, unsigned i, int good,
                 char name[32])
{
    struct rtm_buf b;
    char what[WHAT], tag[16], path[1024];
    rtm_buf_init(&b);
    int rc = make_anim(g, s, good, &b, what);
    tag_of(what, tag, sizeof tag);
    snprintf(name, 32, "a%04u_%s.rtm", i, good ? "good" : tag);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!rc)
        rc = dmg_file(g, path, b.p, b.len) || note_anim(g, path, (const uint8_t *)b.p, b.len, what);
    else
        rtm_err_oom(g->err, "out of memory");
    rtm_buf_free(&b);
    return rc ? -1 : 0;
}

/* ---- configs ---- */

/* The names of a folder's loose animations, which its configs' states play. */
typedef char anim_names[LOOSE][32];

/* A config.cpp whose states play the folder's first animations. */
static void config_text(unsigned folder, const anim_names names, struct rtm_buf *b)
{
    rtm_buf_printf(b, "// the states of @dmg_%02u's animations\n"
                  "class CfgPatches { class dmg_%02u { units[] = {}; requiredAddons[] = {}; }; };\n"
                  "class CfgMovesBasic { class Default; };\n"
                  "class CfgMovesMaleSdr : CfgMovesBasic {\n"
                  "    skeletonName = \"OFP2_ManSkeleton\";\n    class States {\n", folder, folder);
    for (unsigned i = 0; i < 8; i++)
        rtm_buf_printf(b, "        class dmg_%02u_%u : Default { file = \"\\dmg_%02u\\anims\\%s\";"
                      " speed = %u.5; looped = %u; actions[] = {\"NoActions\", 0.5}; };\n",
                   folder, i, folder, names[i], i % 3, i & 1);
    rtm_buf_puts(b, "    };\n};\n");
}

/* A model.cfg of the built-in skeleton's first bones. */
static void model_cfg_text(const struct rtm_skeleton *sk, struct rtm_buf *b)
{
    uint32_t n = sk->nbones < 24 ? sk->nbones : 24;
    rtm_buf_puts(b, "class CfgSkeletons {\n    class Default { isDiscrete = 1; skeletonInherit = \"\";"
                " skeletonBones[] = {}; };\n    class DmgSkeleton : Default {\n"
                "        isDiscrete = 0;\n        skeletonBones[] = {\n");
    for (uint32_t i = 0; i < n; i++) {
        int32_t p = sk->parent[i];
        rtm_buf_printf(b, "            \"%s\", \"%s\"%s\n", sk->bone[i],
                       p >= 0 && (uint32_t)p < n ? sk->bone[p] : "", i + 1 < n ? "," : "");
    }
    rtm_buf_puts(b, "        };\n    };\n};\nclass CfgModels { class Default { skeletonName = \"\"; };"
                " class dmg : Default { skeletonName = \"DmgSkeleton\"; }; };\n");
}

/* Text cut at a byte after its first class opens and before its end. */
static void cut_mid_class(struct dmg_gen *g, struct rtm_buf *b, char *what, const char *tag)
{
    const char *open = strchr(b->p, '{');
    size_t lo = open ? (size_t)(open - b->p) + 1 : 1, hi = b->len > 4 ? b->len - 4 : 1;
    size_t at = lo < hi ? lo + rng_next(&g->rng) % (hi - lo) : lo;
    snprintf(what, WHAT, "%s: cut mid-class at byte %zu of %zu", tag, at, b->len);
    b->len = at < b->len ? at : b->len;
}

/* The kind of a config's bytes: rapified, or text preprocessed as the
 * mount does; model.cfg: its CfgSkeletons too. */
static enum damaged_kind config_kind(const uint8_t *p, size_t len, int model, char *why, size_t n)
{
    struct rtm_error err = { .msg = "" };
    int rc;
    if (model) {
        struct rtm_buf out;
        rtm_buf_init(&out);
        rc = rtm_skeleton_cfg_classes_of(p, len, "model.cfg", &out, &err);
        rtm_buf_free(&out);
    } else {
        struct cfg *c = NULL;
        struct cfg_pp_opts o = { .epoch = 1 };
        struct cfg_pp_result pp;
        memset(&pp, 0, sizeof pp);
        if (rap_is_rapified(p, len))
            rc = rap_read(p, len, &c, &err);
        else
            rc = cfg_pp_text((const char *)p, len, "config.cpp", NULL, &o, &pp, &err) ||
                 cfg_parse_text(pp.text.p, pp.text.len, "config.cpp", &pp.map, &c,
                                &err);
        cfg_pp_free(&pp);
        cfg_free(c);
    }
    rtm_err_format(&err, why, n);
    if (!rc)
        why[0] = 0;
    return model ? (rc ? DMG_MODELCFG_FAILS : DMG_MODELCFG_OK) : rc ? DMG_CONFIG_FAILS : DMG_CONFIG_OK;
}

static int note_config(struct dmg_gen *g, const char *path, const uint8_t *p, size_t len,
                       int model, const char *what)
{
    char why[300];
    enum damaged_kind k = config_kind(p, len, model, why, sizeof why);
    return note_why(g, path, k, what, why);
}

/* A folder's text config (cut mid-class when damaged) into b. */
static void make_config(struct dmg_gen *g, unsigned folder, const anim_names names, int damaged,
                        struct rtm_buf *b, char *what)
{
    config_text(folder, names, b);
    snprintf(what, WHAT, "none: a config.cpp of %zu bytes", b->len);
    if (damaged)
        cut_mid_class(g, b, what, "cut-class");
}

/* The same rapified (rap_write), cut or with bytes flipped when damaged. */
static int make_config_bin(struct dmg_gen *g, unsigned folder, const anim_names names,
                           int damaged, struct rtm_buf *b, char *what)
{
    struct rtm_buf text;
    struct cfg *c = NULL;
    struct rtm_error err;
    rtm_buf_init(&text);
    config_text(folder, names, &text);
    int rc = text.oom || cfg_parse_text(text.p, text.len, "config.cpp", NULL, &c, &err) ||
             rap_write(c, b) ? -1 : 0;
    cfg_free(c);
    rtm_buf_free(&text);
    snprintf(what, WHAT, "none: a rapified config of %zu bytes", b->len);
    if (rc || !damaged || b->len < 16)
        return rc;
    size_t at = 4 + rng_next(&g->rng) % (b->len - 4);
    if (rng_next(&g->rng) & 1) {
        snprintf(what, WHAT, "cut-class: rapified, cut at byte %zu of %zu", at, b->len);
        b->len = at;
    } else {
        b->p[at] ^= (char)rng_range(&g->rng, 1, 255);
        snprintf(what, WHAT, "flip: rapified, byte %zu of %zu flipped", at, b->len);
    }
    return 0;
}

static int loose_config(struct dmg_gen *g, const char *path, int kind, unsigned folder,
                        const anim_names names, int damaged)
{
    struct rtm_buf b;
    char what[WHAT];
    int rc = 0;
    rtm_buf_init(&b);
    if (kind == 0) {
        make_config(g, folder, names, damaged, &b, what);
    } else if (kind == 1) {
        rc = make_config_bin(g, folder, names, damaged, &b, what);
    } else {
        model_cfg_text(g->skel, &b);
        snprintf(what, WHAT, "none: a model.cfg of %zu bytes", b.len);
        if (damaged)
            cut_mid_class(g, &b, what, "cut-class");
    }
    rc = rc || b.oom ? -1 : 0;
    if (rc)
        rtm_err_oom(g->err, "out of memory");
    else
        rc = dmg_file(g, path, b.p, b.len) ||
             note_config(g, path, (const uint8_t *)b.p, b.len, kind == 2, what) ? -1 : 0;
    rtm_buf_free(&b);
    return rc;
}

/* ---- archives ---- */

struct arc {
    size_t n;
    struct pbo_write_entry e[ENTRIES + 2];
    char names[ENTRIES + 2][64];
    char what[ENTRIES + 2][WHAT];
    struct rtm_buf data[ENTRIES + 2];
};

static void arc_free(struct arc *a)
{
    for (size_t i = 0; i < a->n; i++)
        rtm_buf_free(&a->data[i]);
}

/* Entry i's content noted at ARCHIVE/PATH by what its name says it is. */
static int note_entry(struct dmg_gen *g, const char *arc_path, const struct pbo *p, size_t i,
                      const uint8_t *file, const char *what)
{
    const struct pbo_entry *e = &p->entries[i];
    size_t n = strlen(e->path);
    char path[1400], line[WHAT * 2 + 320];
    int anim = n > 4 && !strcasecmp(e->path + n - 4, ".rtm");
    const char *base = strrchr(e->path, '/') ? strrchr(e->path, '/') + 1 : e->path;
    int model = !strcasecmp(base, "model.cfg"), config = !strcasecmp(base, "config.bin");
    if (e->cut || !n || !(anim || model || config))
        return 0;
    snprintf(path, sizeof path, "%s/%s", arc_path, e->path);
    uint8_t *data = NULL;
    size_t len = 0;
    struct rtm_error err;
    if (pbo_entry_data(p, i, file + e->offset, e->data_size, &data, &len, &err)) {
        char why[300];
        rtm_err_format(&err, why, sizeof why);
        snprintf(line, sizeof line, "%.900s -> %.290s", what, why);
        return dmg_note(g, path, anim ? DMG_ENTRY_FAILS : model ? DMG_MODELCFG_FAILS : DMG_CONFIG_FAILS,
                        line);
    }
    int rc = anim ? note_anim(g, path, data, len, what) : note_config(g, path, data, len, model, what);
    free(data);
    return rc;
}

/* An archive's bytes written and noted: the archive, then its entries. */
static int put_archive(struct dmg_gen *g, const char *path, const struct rtm_buf *b,
                       enum damaged_kind ok, const char *what, char (*whats)[WHAT], size_t nw)
{
    struct pbo *p = NULL;
    struct rtm_error err;
    char why[300], line[WHAT * 2 + 320];
    if (dmg_file(g, path, b->p, b->len))
        return -1;
    if (pbo_read_table((const uint8_t *)b->p, b->len, b->len, &p, &err)) {
        rtm_err_format(&err, why, sizeof why);
        snprintf(line, sizeof line, "%s -> %s", what, why);
        return dmg_note(g, path, DMG_PBO_FAILS, line);
    }
    int rc = dmg_note(g, path, p->ncut && ok != DMG_PBO_TRICKS ? DMG_PBO_CUT : ok, what);
    for (size_t i = 0; !rc && i < p->nentries; i++) {
        /* a whole entry of a damaged archive is damaged with it */
        const char *w = i < nw ? whats[i] : "none: an entry";
        if (!strncmp(w, "none:", 5) && strncmp(what, "none:", 5) && ok != DMG_PBO_TRICKS) {
            size_t tag = strcspn(what, ":");
            snprintf(line, sizeof line, "archive: %s, in an archive damaged by %.*s", w + 6, (int)tag,
                     what);
            w = line;
        }
        rc = note_entry(g, path, p, i, (const uint8_t *)b->p, w);
    }
    pbo_free(p);
    return rc;
}

/* Adds an animation entry (good or damaged) to a. */
static int arc_anim(struct dmg_gen *g, struct sched *s, struct arc *a, int good, const char *dir)
{
    size_t i = a->n++;
    char tag[16];
    rtm_buf_init(&a->data[i]);
    if (make_anim(g, s, good, &a->data[i], a->what[i]))
        return -1;
    tag_of(a->what[i], tag, sizeof tag);
    snprintf(a->names[i], sizeof a->names[i], "%s\\e%zu_%s.rtm", dir, i, good ? "good" : tag);
    a->e[i] = (struct pbo_write_entry){ a->names[i], (const uint8_t *)a->data[i].p, a->data[i].len,
                                        i % 2 ? PBO_PACK_STORE : PBO_PACK_CPRS, 0 };
    return 0;
}

/* Adds a config.bin (kind 1) or model.cfg (kind 2) entry to a. */
static int arc_config(struct dmg_gen *g, struct arc *a, int kind, unsigned folder,
                      const anim_names names, int damaged)
{
    size_t i = a->n++;
    rtm_buf_init(&a->data[i]);
    if (kind == 1) {
        if (make_config_bin(g, folder, names, damaged, &a->data[i], a->what[i]))
            return -1;
    } else {
        model_cfg_text(g->skel, &a->data[i]);
        snprintf(a->what[i], WHAT, "none: a model.cfg");
        if (damaged)
            cut_mid_class(g, &a->data[i], a->what[i], "cut-class");
    }
    snprintf(a->names[i], sizeof a->names[i], "%s", kind == 1 ? "config.bin" : "anims\\model.cfg");
    a->e[i] = (struct pbo_write_entry){ a->names[i], (const uint8_t *)a->data[i].p, a->data[i].len,
                                        PBO_PACK_CPRS, 0 };
    return a->data[i].oom ? -1 : 0;
}

/* The archive a built, damaged by op (0: none; 1 cut in the table, 2 cut
 * in the data, 3 LZSS bytes flipped, 4 an entry's size rewritten). */
static int arc_write(struct dmg_gen *g, struct arc *a, const char *path, int op, unsigned folder)
{
    struct rtm_buf b;
    char what[WHAT];
    char prefix[32];
    snprintf(prefix, sizeof prefix, "dmg_%02u", folder);
    struct pbo_write_prop prop = { "prefix", prefix };
    rtm_buf_init(&b);
    int rc = pbo_write(a->e, a->n, &prop, 1, 0, &b) || b.oom ? -1 : 0;
    snprintf(what, sizeof what, "none: %zu entries, LZSS and stored", a->n);
    struct pbo *p = NULL;
    struct rtm_error err;
    if (!rc && op && !pbo_read_table((const uint8_t *)b.p, b.len, b.len, &p, &err)) {
        const struct pbo_entry *e = &p->entries[rng_next(&g->rng) % p->nentries];
        uint8_t *u = (uint8_t *)b.p;
        size_t at;
        if (op == 1) {
            at = 1 + rng_next(&g->rng) % (p->table_bytes - 1);
            snprintf(what, sizeof what, "cut-table: at byte %zu, in the table of %llu bytes", at,
                     (unsigned long long)p->table_bytes);
            b.len = at;
        } else if (op == 2) {
            at = p->table_bytes + rng_next(&g->rng) % (b.len - p->table_bytes);
            snprintf(what, sizeof what, "cut-data: at byte %zu of %zu, in the entries' data", at, b.len);
            b.len = at;
        } else if (op == 3) {
            e = &p->entries[0];             /* an LZSS entry: they alternate from the first */
            at = e->offset + rng_next(&g->rng) % e->data_size;
            u[at] ^= (uint8_t)rng_range(&g->rng, 1, 255);
            snprintf(what, sizeof what, "lzss: byte %zu of entry '%s' flipped", at, e->name);
        } else {
            at = e->header_offset + e->name_len + 1 + 16;
            uint32_t v = (uint32_t)rng_next(&g->rng) % (e->data_size * 2 + 64);
            u[at] = (uint8_t)v, u[at + 1] = (uint8_t)(v >> 8), u[at + 2] = (uint8_t)(v >> 16), u[at + 3] = 0;
            snprintf(what, sizeof what, "entry-size: entry '%s' data size %u rewritten to %u", e->name,
                     e->data_size, v & 0xffffff);
        }
    }
    pbo_free(p);
    if (!rc)
        rc = put_archive(g, path, &b, DMG_PBO_OK, what, a->what, a->n);
    else
        rtm_err_oom(g->err, "out of memory");
    rtm_buf_free(&b);
    return rc;
}

static int folder_archive(struct dmg_gen *g, struct sched *s, const char *dir, unsigned f,
                          const anim_names names, int op)
{
    struct arc a;
    char path[256];
    int rc = 0;
    a.n = 0;
    for (unsigned i = 0; !rc && i < (op ? 4u : (unsigned)ENTRIES); i++)
        rc = arc_anim(g, s, &a, op || i < ENTRIES_GOOD, "anims");
    if (!rc && !op)
        rc = arc_config(g, &a, 1, f, names, f % 2) ||
             (f % 4 == 2 && arc_config(g, &a, 2, f, names, f % 8 == 2));
    snprintf(path, sizeof path, "%s/%s_%02u.pbo", dir, op ? "broken" : "anims", f);
    if (!rc)
        rc = arc_write(g, &a, path, op, f);
    else
        rtm_err_oom(g->err, "out of memory");
    arc_free(&a);
    return rc;
}

/* The table tricks, each archive's first entry good, the others damaged. */
static int tricks(struct dmg_gen *g, struct sched *s)
{
    int rc = 0;
    for (unsigned t = 0; !rc && t < PBO_TRICKS; t++) {
        struct arc a;
        const uint8_t *data[PBO_TRICK_ENTRIES];
        size_t len[PBO_TRICK_ENTRIES];
        struct rtm_buf b;
        char path[64];
        a.n = 0;
        for (size_t i = 0; !rc && i < pbo_trick_entries(t); i++) {
            rc = arc_anim(g, s, &a, i == 0, "x");
            data[i] = a.e[i].data, len[i] = a.e[i].len;
        }
        rtm_buf_init(&b);
        snprintf(path, sizeof path, "@dmg_tricks/addons/tricks%u.pbo", t);
        rc = rc || pbo_write_trick(t, data, len, &b) || b.oom ? -1 : 0;
        if (!rc)
            rc = put_archive(g, path, &b, DMG_PBO_TRICKS, "trick: the table tricks of pbo_tricks.h",
                             a.what, a.n);
        else
            rtm_err_oom(g->err, "out of memory");
        rtm_buf_free(&b);
        arc_free(&a);
    }
    return rc;
}

/* Folder f: its loose animations, configs and archives. */
static int folder(struct dmg_gen *g, struct sched *s, unsigned f)
{
    char dir[64], path[128];
    anim_names names;
    snprintf(dir, sizeof dir, "@dmg_%02u/anims", f);
    int rc = 0;
    for (unsigned i = 0; !rc && i < LOOSE; i++)
        rc = loose(g, s, dir, f * LOOSE + i, i < LOOSE_GOOD, names[i]);
    snprintf(path, sizeof path, "%s/config.cpp", dir);
    rc = rc || loose_config(g, path, 0, f, names, f % 3 == 2);
    snprintf(path, sizeof path, "%s/model.cfg", dir);
    rc = rc || (f % 2 == 1 && loose_config(g, path, 2, f, names, f % 4 == 1));
    snprintf(path, sizeof path, "@dmg_%02u/config.bin", f);
    rc = rc || loose_config(g, path, 1, f, names, f % 3 == 1);
    snprintf(dir, sizeof dir, "@dmg_%02u/addons", f);
    rc = rc || folder_archive(g, s, dir, f, names, 0) ||
         folder_archive(g, s, dir, f, names, 1 + (int)(f % 4));
    return rc ? -1 : 0;
}

int damaged_tree(const struct damaged_opts *o, const struct damaged_out *out,
                 struct rtm_error *err)
{
    struct dmg_gen g = { .rng = o->seed ? o->seed : 1, .out = out, .mix = o->mix,
                         .nmix = o->mix ? o->nmix : 0, .err = err,
                         .max_frames = o->max_frames && o->max_frames < 1000 ? o->max_frames : 48 };
    struct sched s;
    memset(&s, 0, sizeof s);
    if (o->mix && !o->nmix) {
        rtm_err_nooff(err, "an empty mix");
        return -1;
    }
    if (rtm_skeleton_open(RTM_SKELETON_OFP2, &g.skel, err))
        return -1;
    int rc = tricks(&g, &s);
    for (unsigned f = 0; !rc && g.damaged < o->n; f++)
        rc = folder(&g, &s, f);
    rtm_skeleton_free(g.skel);
    return rc;
}
