/* states_check.c - the root check.txt (states_check.h): what the configs
 * say wrong, found while a states table is finished, and the bones of
 * each state's file compared with its class's skeleton when it is made. */
#include "states_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "array.h"
#include "skeleton_cfg.h"
#include "states_int.h"

/* The codes' levels and names, in the order check.txt writes them
 * (states_int.h: enum check_code; rtmfs-views(7) says what each means and
 * where it comes from). */
static const struct {
    const char *level, *code;
} CODES[NCODES] = {
    [CODE_BONE] = { "error", "bone-not-in-skeleton" },
    [CODE_NAME] = { "error", "name-not-defined" },
    [CODE_PAIRS] = { "error", "not-pairs" },
    [CODE_IK] = { "error", "ik-curve-size" },
    [CODE_MASK_BONE] = { "warning", "mask-bone-not-in-skeleton" },
    [CODE_NAME_GAME] = { "note", "name-not-in-source" },
    [CODE_SKELETON] = { "note", "skeleton-not-in-source" },
};

/* Members whose targets are states, as (state, weight) pairs. */
static const char *const PAIRED[] = { "connectTo", "interpolateTo", "connectFrom",
                                      "variantsPlayer", "variantsAI" };
static const char *const IK_CURVES[] = { "leftHandIKCurve", "rightHandIKCurve",
                                         "leftLegIKCurve", "rightLegIKCurve" };
/* The state every Arma's CfgMovesMaleSdr has: SOURCE holds the base game
 * when a config under it defines it. */
#define GAME_STATE "CfgMovesMaleSdr/States/AmovPercMstpSnonWnonDnon"
/* The man's skeleton every Arma's configs define: where no config under
 * SOURCE does, the game's own is rtmfs's built-in ofp2 (skeleton.h), which
 * an animation's check.txt already uses, so a released mod's states are
 * checked as the game will check them. */
#define GAME_SKELETON "OFP2_ManSkeleton"
/* How a finding names where that skeleton came from. */
#define GAME_ORIGIN " (the game's own, built into rtmfs)"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

int states_check_reads(const char *n, int checks)
{
    static const char *const more[] = { "actions", "mask", "equivalentTo" };
    if (!checks)                        /* the skeleton a state's class names */
        return rtm_ascii_lower((unsigned char)n[0]) == 's' && !strcasecmp(n, "skeletonName");
    if (!strcasecmp(n, "skeletonName"))
        return 1;
    for (size_t i = 0; i < NELEM(PAIRED); i++)
        if (!strcasecmp(n, PAIRED[i]))
            return 1;
    for (size_t i = 0; i < NELEM(IK_CURVES); i++)
        if (!strcasecmp(n, IK_CURVES[i]))
            return 1;
    for (size_t i = 0; i < NELEM(more); i++)
        if (!strcasecmp(n, more[i]))
            return 1;
    return 0;
}

void states_check_free(struct states_check *k)
{
    for (size_t i = 0; i < k->nf; i++)
        free(k->f[i].text);
    for (size_t i = 0; i < k->nb; i++)
        free(k->b[i].key);              /* the strings' one block */
    for (size_t i = 0; i < k->nk; i++) {
        free(k->k[i].name);
        rtm_skeleton_free(k->k[i].s);
    }
    free(k->f);
    free(k->b);
    free(k->k);
    free(k->by_key);
    free(k->key_slot);
    memset(k, 0, sizeof *k);
}

/* ---- collecting, while the configs are there ---- */

/* What one collection keeps besides the table: which members were checked
 * (one report for a member many states inherit), SOURCE holding the game,
 * a failure to remember. */
struct collect {
    struct rtm_states *s;
    uint8_t **seen;             /* per config, per entry: checked already */
    int findings;               /* checking: not a table whose check comes later */
    struct moves_skel {         /* each moves class's skeleton, found once */
        size_t cfg, skel;       /* for all its states */
        uint32_t mc;
    } *moves;
    size_t nmoves, capmoves, last;
    int game, oom;
    /* the last States class a state was of (want_bones): its config and
     * entry, its path's length (0: none yet), then the path (the state's
     * name is put after it, and taken off) */
    size_t path_cfg, path_len;
    uint32_t path_up;
    char path[CLASS_PATH_MAX];
};

static int seen_once(struct collect *x, size_t ci, long entry)
{
    const struct cfg *c = x->s->cfgs[ci].c;
    if (!x->seen[ci] && !(x->seen[ci] = calloc(c->ne ? c->ne : 1, 1))) {
        x->oom = 1;
        return 1;
    }
    if (x->seen[ci][entry])
        return 1;
    x->seen[ci][entry] = 1;
    return 0;
}

/* A finding of code about the class that holds entry of config ci. */
static void find(struct collect *x, unsigned code, size_t ci, long entry, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void find(struct collect *x, unsigned code, size_t ci, long entry, const char *fmt, ...)
{
    struct states_check *k = &x->s->check;
    const struct cfg *c = x->s->cfgs[ci].c;
    if (!x->findings)
        return;
    uint32_t cls = c->e[entry].kind == CFG_CLASS ? (uint32_t)entry : c->e[entry].up;
    char path[CLASS_PATH_MAX], *msg = NULL, *text = NULL;
    if (states_class_path(c, cls, path, sizeof path))
        snprintf(path, sizeof path, "?");
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&msg, fmt, ap);
    va_end(ap);
    if (n < 0 || asprintf(&text, "%s: %s: %s", x->s->cfgs[ci].rel, path, msg) < 0)
        text = NULL;
    free(n < 0 ? NULL : msg);
    void *f = k->f;
    if (!text || rtm_array_grow(&f, &k->capf, k->nf + 1, sizeof *k->f, 16)) {
        free(text);
        x->oom = 1;
        return;
    }
    k->f = f;
    k->f[k->nf] = (struct check_finding){ text, ci, cls, (uint32_t)k->nf, code };
    k->nf++;
}

/* A value's entry of config ci as an array, or NULL. */
static const struct cfg_value *array_at(const struct rtm_states *s, struct found f)
{
    if (f.entry < 0)
        return NULL;
    const struct cfg_entry *e = &s->cfgs[f.cfg].c->e[f.entry];
    return e->kind == CFG_ARRAY ? &e->v : NULL;
}

static int is_number(const struct cfg_value *v)
{
    return v->type == CFG_T_FLOAT || v->type == CFG_T_INT || v->type == CFG_T_INT64;
}

/* Whether the moves class that holds States class st (config ci) has a
 * state called name, in any config. */
static int state_defined(const struct rtm_states *s, size_t ci, uint32_t st, const char *name)
{
    size_t cj;
    long k;
    return states_member_class(s, ci, st, name, &cj, &k) == 0;
}

/* A name that no config under SOURCE defines: an error when SOURCE holds
 * the game, else maybe the game's own. */
static void undefined(struct collect *x, struct found f, const char *member, const char *what,
                      const char *name)
{
    find(x, x->game ? CODE_NAME : CODE_NAME_GAME, f.cfg, f.entry,
         "%s names %s '%s', which no config under SOURCE defines%s", member, what, name,
         x->game ? "" : " (the game's own, or a mistake)");
}

/* Array a (found at f) of (NAME, weight) pairs: its shape, and each name
 * (when states is not 0: the States class the names are states of). */
static void check_pairs(struct collect *x, struct found f, const struct cfg_value *a,
                        const char *member, size_t ci, uint32_t states)
{
    const struct rtm_states *s = x->s;
    const struct cfg *c = s->cfgs[f.cfg].c;
    if (a->n % 2)
        find(x, CODE_PAIRS, f.cfg, f.entry, "%s[] has %u elements: pairs (name, weight) need "
             "an even count", member, a->n);
    for (uint32_t i = 0; i < a->n; i++) {
        const struct cfg_value *v = &c->v[a->u.first + i];
        if (i % 2 && !is_number(v))
            find(x, CODE_PAIRS, f.cfg, f.entry, "%s[] element %u, a weight, is no number",
                 member, i + 1);
        else if (!(i % 2) && v->type != CFG_T_STRING)
            find(x, CODE_PAIRS, f.cfg, f.entry, "%s[] element %u, a name, is no string",
                 member, i + 1);
        else if (!(i % 2) && states && v->u.s.len && !state_defined(s, ci, states, v->u.s.p))
            undefined(x, f, member, "state", v->u.s.p);
    }
}

/* The string value of member name of state k (config ci), or NULL. */
static const char *string_of(const struct rtm_states *s, size_t ci, uint32_t k, const char *name,
                             struct found *f)
{
    *f = states_lookup(s, ci, k, name, 1);
    const struct cfg_value *v = states_value_of(s, *f);
    return v && v->type == CFG_T_STRING ? v->u.s.p : NULL;
}

/* The skeleton of moves class mc (config ci) by its skeletonName, as an
 * index into the check's skeletons: SIZE_MAX when it names none, or none
 * under SOURCE (said once a moves class). */
static size_t skeleton_lookup(struct collect *x, size_t ci, uint32_t mc)
{
    struct rtm_states *s = x->s;
    struct states_check *k = &s->check;
    struct found f;
    const char *name = string_of(s, ci, mc, "skeletonName", &f);
    if (!name || !*name)
        return SIZE_MAX;
    for (size_t i = 0; i < k->nk; i++)
        if (!strcasecmp(k->k[i].name, name))
            return i;
    struct rtm_skeleton *sk = NULL;
    for (size_t j = 0; !sk && j < s->ncfgs; j++)
        sk = rtm_skeleton_cfg_class((const uint8_t *)s->cfgs[j].skeletons.p,
                                    s->cfgs[j].skeletons.len, name);
    int game = !sk && !strcasecmp(name, GAME_SKELETON);
    struct rtm_error e;
    if (game && rtm_skeleton_builtin(RTM_SKELETON_OFP2, &sk, &e)) {
        x->oom = 1;
        return SIZE_MAX;
    }
    if (!sk) {
        if (!seen_once(x, f.cfg, f.entry))
            find(x, CODE_SKELETON, f.cfg, f.entry, "skeletonName '%s' is a class of "
                 "CfgSkeletons no config under SOURCE has: no bone is checked", name);
        return SIZE_MAX;
    }
    void *arr = k->k;
    char *n = strdup(name);
    if (!n || rtm_array_grow(&arr, &k->capk, k->nk + 1, sizeof *k->k, 4)) {
        free(n);
        rtm_skeleton_free(sk);
        x->oom = 1;
        return SIZE_MAX;
    }
    k->k = arr;
    k->k[k->nk] = (struct check_skel){ n, sk, game };
    return k->nk++;
}

/* skeleton_lookup, once a moves class (mc of config ci).  Lines come by
 * config, so the last moves class found is most often the one asked. */
static size_t skeleton_of(struct collect *x, size_t ci, uint32_t mc)
{
    if (x->nmoves && x->moves[x->last].cfg == ci && x->moves[x->last].mc == mc)
        return x->moves[x->last].skel;
    for (size_t i = 0; i < x->nmoves; i++)
        if (x->moves[i].cfg == ci && x->moves[i].mc == mc)
            return x->moves[x->last = i].skel;
    size_t skel = skeleton_lookup(x, ci, mc);
    void *m = x->moves;
    if (rtm_array_grow(&m, &x->capmoves, x->nmoves + 1, sizeof *x->moves, 16)) {
        x->oom = 1;
        return skel;
    }
    x->moves = m;
    x->last = x->nmoves;
    x->moves[x->nmoves++] = (struct moves_skel){ ci, skel, mc };
    return skel;
}

/* mask names an entry of the BlendAnims class moves class mc sees: its
 * pairs, and its bones against skeleton skel. */
static void check_mask(struct collect *x, size_t ci, uint32_t k, uint32_t mc, size_t skel)
{
    const struct rtm_states *s = x->s;
    struct found f, e = { 0, -1, NULL };
    const char *mask = string_of(s, ci, k, "mask", &f);
    size_t bj;
    long blend;
    if (!mask || !*mask || seen_once(x, f.cfg, f.entry))
        return;
    if (states_member_class(s, ci, mc, "BlendAnims", &bj, &blend) == 0)
        e = states_lookup(s, bj, (uint32_t)blend, mask, 1);
    if (e.entry < 0) {
        undefined(x, f, "mask", "an entry of BlendAnims", mask);
        return;
    }
    const struct cfg_value *a = array_at(s, e);
    if (!a || seen_once(x, e.cfg, e.entry))
        return;                         /* a class (weights), or checked */
    check_pairs(x, e, a, mask, ci, 0);
    const struct cfg *c = s->cfgs[e.cfg].c;
    const struct rtm_skeleton *sk = skel == SIZE_MAX ? NULL : s->check.k[skel].s;
    for (uint32_t i = 0; sk && i < a->n; i += 2) {
        const struct cfg_value *v = &c->v[a->u.first + i];
        if (v->type == CFG_T_STRING && rtm_skeleton_find(sk, v->u.s.p, v->u.s.len) < 0)
            find(x, CODE_MASK_BONE, e.cfg, e.entry, "%s[] names bone '%s', which skeleton "
                 "%s%s does not have", mask, v->u.s.p, s->check.k[skel].name,
                 s->check.k[skel].game ? GAME_ORIGIN : "");
    }
}

/* actions names a class of the Actions class moves class mc sees. */
static void check_actions(struct collect *x, size_t ci, uint32_t k, uint32_t mc)
{
    const struct rtm_states *s = x->s;
    struct found f;
    const char *act = string_of(s, ci, k, "actions", &f);
    size_t aj, cj;
    long actions, cls;
    if (!act || !*act || seen_once(x, f.cfg, f.entry))
        return;
    if (states_member_class(s, ci, mc, "Actions", &aj, &actions) ||
        states_member_class(s, aj, (uint32_t)actions, act, &cj, &cls))
        undefined(x, f, "actions", "a class of Actions", act);
}

/* The IK curves: one value, or (phase, value) pairs. */
static void check_ik(struct collect *x, size_t ci, uint32_t k)
{
    for (size_t i = 0; i < NELEM(IK_CURVES); i++) {
        struct found f = states_lookup(x->s, ci, k, IK_CURVES[i], 1);
        const struct cfg_value *a = array_at(x->s, f);
        if (a && a->n > 1 && a->n % 2 && !seen_once(x, f.cfg, f.entry))
            find(x, CODE_IK, f.cfg, f.entry, "%s[] has %u elements, neither one value nor "
                 "(phase, value) pairs: the game logs '%s, wrong size'", IK_CURVES[i], a->n,
                 IK_CURVES[i]);
    }
}

int states_check_bones_strings(struct check_bones *b, const char *key, size_t nk,
                               const char *where1, size_t nw1, const char *where2,
                               size_t nw2, const char *file, size_t nf)
{
    size_t nw = nw1 + (where2 ? 2 + nw2 : 0);
    char *p = malloc(nk + 1 + nw + 1 + nf + 1);
    if (!p)
        return -1;
    b->key_hash = states_key_hash(key, nk);
    b->key = p;
    memcpy(p, key, nk);
    p[nk] = 0;
    b->where = p += nk + 1;
    memcpy(p, where1, nw1);
    if (where2) {
        memcpy(p + nw1, ": ", 2);
        memcpy(p + nw1 + 2, where2, nw2);
    }
    p[nw] = 0;
    b->file = p += nw + 1;
    memcpy(p, file, nf);
    p[nf] = 0;
    return 0;
}

/* The class path of state l (x->path, its length; -1 when too long):
 * its States class's, made once for all the states it holds (the lines
 * come by class), then its name. */
static long state_path(struct collect *x, const struct state_ref *l)
{
    const struct cfg *c = x->s->cfgs[l->cfg].c;
    uint32_t up = c->e[l->entry].up;
    const struct cfg_str *name = &c->e[l->entry].name;
    if (!x->path_len || x->path_cfg != l->cfg || x->path_up != up) {
        if (states_class_path(c, up, x->path, sizeof x->path))
            return -1;
        x->path_cfg = l->cfg;
        x->path_up = up;
        x->path_len = strlen(x->path);
    }
    size_t n = x->path_len + (x->path_len != 0);
    if (n + name->len >= sizeof x->path)
        return -1;
    x->path[x->path_len] = '/';         /* the class's path, then the name */
    memcpy(x->path + n, name->p, name->len);
    x->path[n + name->len] = 0;
    return (long)(n + name->len);
}

/* Remembers that the bones of state l's file are compared with skeleton
 * skel when check.txt is made. */
static void want_bones(struct collect *x, const struct state_ref *l, size_t skel)
{
    struct states_check *k = &x->s->check;
    const char *rel = x->s->cfgs[l->cfg].rel;
    void *b = k->b;
    long np = state_path(x, l);
    if (np < 0 ||
        (k->nb == k->capb && rtm_array_grow(&b, &k->capb, k->nb + 1, sizeof *k->b, 16))) {
        x->oom = 1;
        return;
    }
    k->b = b;
    struct check_bones *nb = &k->b[k->nb];
    *nb = (struct check_bones){ .cfg = l->cfg, .skel = skel, .entry = l->entry };
    int rc = states_check_bones_strings(nb, l->key, strlen(l->key), rel, strlen(rel), x->path,
                                        (size_t)np, l->file, l->flen);
    x->path[x->path_len] = 0;           /* the class's path again, for the next */
    if (rc) {
        x->oom = 1;
        return;
    }
    k->nb++;
}

/* Every check of state l, counted (states_visit calls it, with x): 0, or
 * 1 to stop (memory ran out). */
static int check_state(void *ctx, const struct state_ref *l)
{
    struct collect *x = ctx;
    const struct cfg *c = x->s->cfgs[l->cfg].c;
    uint32_t k = l->entry, states = c->e[k].up, mc = states;
    while (mc && c->e[mc].up)
        mc = c->e[mc].up;               /* the moves class: a root class */
    struct found f;
    size_t skel = skeleton_of(x, l->cfg, mc);
    x->s->nstates++;
    if (skel != SIZE_MAX)
        want_bones(x, l, skel);
    if (!x->findings)
        return x->oom;
    for (size_t i = 0; i < NELEM(PAIRED); i++) {
        f = states_lookup(x->s, l->cfg, k, PAIRED[i], 1);
        const struct cfg_value *a = array_at(x->s, f);
        if (a && !seen_once(x, f.cfg, f.entry))
            check_pairs(x, f, a, PAIRED[i], l->cfg, states);
    }
    const char *eq = string_of(x->s, l->cfg, k, "equivalentTo", &f);
    if (eq && *eq && !seen_once(x, f.cfg, f.entry) && !state_defined(x->s, l->cfg, states, eq))
        undefined(x, f, "equivalentTo", "state", eq);
    check_actions(x, l->cfg, k, mc);
    check_mask(x, l->cfg, k, mc, skel);
    check_ik(x, l->cfg, k);
    return x->oom;
}

int states_check_collect(struct rtm_states *s)
{
    struct collect x = { .s = s, .seen = calloc(s->ncfgs ? s->ncfgs : 1, sizeof *x.seen),
                         .findings = !s->check_later };
    if (!x.seen)
        return -1;
    for (size_t i = 0; i < s->ncfgs && !x.game; i++)
        x.game = s->cfgs[i].c && cfg_class(s->cfgs[i].c, GAME_STATE) >= 0;
    s->nstates = 0;
    states_visit(s, check_state, &x);
    for (size_t i = 0; i < s->ncfgs; i++)
        free(x.seen[i]);
    free(x.seen);
    free(x.moves);
    return x.oom ? -1 : 0;
}

/* ---- check.txt ---- */

/* A line to write: its order and its text (the table's, or made). */
struct out_line {
    unsigned code;
    size_t cfg;
    uint32_t entry, seq;
    const char *text;
    char *own;                  /* made here: freed after */
};

static int by_order(const void *a, const void *b)
{
    const struct out_line *x = a, *y = b;
    if (x->code != y->code)
        return x->code < y->code ? -1 : 1;
    if (x->cfg != y->cfg)
        return x->cfg < y->cfg ? -1 : 1;
    if (x->entry != y->entry)
        return x->entry < y->entry ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The bones of one file that its state's skeleton lacks: the first, and
 * LACKING_NAMED more by name (a man's animation on a dog's skeleton lacks
 * 60 and more). */
enum { LACKING_NAMED = 8 };
struct lacking {
    const struct rtm_skeleton *s;
    struct rtm_buf names;       /* ", a, b" */
    uint32_t n;
    char first[256];
};

static void visit_bones(void *vctx, const struct rtm_str *bones, uint32_t n)
{
    struct lacking *l = vctx;
    for (uint32_t i = 0; i < n; i++) {
        if (rtm_skeleton_find(l->s, bones[i].s, bones[i].len) >= 0)
            continue;
        if (l->n++ == 0)
            snprintf(l->first, sizeof l->first, "%.*s", (int)bones[i].len, bones[i].s);
        else if (l->n <= 1 + LACKING_NAMED)
            rtm_buf_printf(&l->names, "%s%.*s", l->n > 2 ? ", " : "", (int)bones[i].len,
                           bones[i].s);
        else if (l->n == 2 + LACKING_NAMED)
            rtm_buf_puts(&l->names, ", ...");
    }
}

/* The line of state b when its file has bones its skeleton lacks, else
 * NULL (also when the file is missing or out of memory). */
static char *bones_line(const struct states_check *k, const struct check_bones *b,
                        rtm_states_bones_fn *bones, void *ctx)
{
    const struct check_skel *sk = &k->k[b->skel];
    struct lacking l = { .s = sk->s };
    struct rtm_buf t;
    size_t len;
    rtm_buf_init(&l.names);
    rtm_buf_init(&t);
    if (bones(ctx, b->key, visit_bones, &l) == 0 && l.n) {
        rtm_buf_printf(&t, "%s: file %s: Bone %s doesn't exist in skeleton %s%s", b->where,
                       b->file, l.first, sk->name, sk->game ? GAME_ORIGIN : "");
        if (l.n > 1)
            rtm_buf_printf(&t, " (and %u more: %.*s)", l.n - 1, (int)l.names.len, l.names.p);
        rtm_buf_putc(&t, 0);
    }
    int bad = t.oom || l.names.oom || !t.len;
    rtm_buf_free(&l.names);
    if (bad) {
        rtm_buf_free(&t);
        return NULL;
    }
    return rtm_buf_take(&t, &len);
}

void rtm_states_check_render(const struct rtm_states *s, rtm_states_bones_fn *bones, void *ctx,
                             struct rtm_buf *b)
{
    const struct states_check *k = s ? &s->check : NULL;
    size_t n = k ? k->nf + (bones ? k->nb : 0) : 0, m = 0;
    struct out_line *o = n ? calloc(n, sizeof *o) : NULL;
    if (n && !o) {
        b->oom = 1;
        return;
    }
    for (size_t i = 0; k && i < k->nf; i++)
        o[m++] = (struct out_line){ k->f[i].code, k->f[i].cfg, k->f[i].entry, k->f[i].seq,
                                    k->f[i].text, NULL };
    for (size_t i = 0; k && bones && i < k->nb; i++) {
        char *t = bones_line(k, &k->b[i], bones, ctx);
        if (t)
            o[m++] = (struct out_line){ CODE_BONE, k->b[i].cfg, k->b[i].entry, (uint32_t)i,
                                        t, t };
    }
    if (m)
        qsort(o, m, sizeof *o, by_order);
    for (size_t i = 0; i < m; i++) {
        rtm_buf_printf(b, "%s %s: ", CODES[o[i].code].level, CODES[o[i].code].code);
        for (const char *c = o[i].text; *c; c++)     /* one line a finding */
            rtm_buf_putc(b, (unsigned char)*c < 0x20 || *c == 0x7f ? '?' : *c);
        rtm_buf_putc(b, '\n');
        free(o[i].own);
    }
    free(o);
}
