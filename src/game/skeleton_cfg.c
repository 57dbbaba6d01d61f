/* skeleton_cfg.c - skeletons from a model.cfg's CfgSkeletons (see
 * skeleton_cfg.h for the rules).  The class's bones become skeleton text
 * (skeleton.h's file form) that the one skeleton reader parses, so a
 * model.cfg skeleton is exactly what its skeleton.txt says. */
#include "skeleton_cfg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "array.h"
#include "cfg_pp.h"
#include "config.h"
#include "fileid.h"
#include "gamepath.h"

/* As the skeleton file reader's limits (skeleton.c), so the text it is
 * given always reads. */
enum { SC_MAX_BONES = 4096, SC_MAX_NAME = 255 };

/* One skeletonBones[] pair; names point into the model's arena. */
struct pair {
    const char *bone, *parent;  /* parent "" for a root */
    uint32_t at;                /* index in bones.p */
    uint8_t dup;                /* listed before with the same parent */
};

struct bones {
    struct pair *p;
    uint32_t n, cap;
    struct pair **by_name;      /* the pairs not dup, by name (case ignored) */
    uint32_t nnamed;
};

struct ctx {
    const struct cfg *c;
    uint32_t root;              /* the CfgSkeletons class */
    const char *spec;
    const struct rtm_skeleton *ofp2;
    struct rtm_error *err;
};

static void bones_free(struct bones *b)
{
    free(b->p);
    free(b->by_name);
    *b = (struct bones){ 0 };
}

static int oom(struct ctx *x)
{
    rtm_err_oom(x->err, "skeleton '%s': out of memory", x->spec);
    return -1;
}

/* ---- reading the classes ---- */

/* The class called name in CfgSkeletons (ASCII case ignored), or -1. */
static long skeleton_class(const struct ctx *x, const char *name)
{
    long m = cfg_member(x->c, x->root, name);
    return m >= 0 && x->c->e[m].kind == CFG_CLASS ? m : -1;
}

static const char *class_name(const struct ctx *x, uint32_t cls)
{
    return x->c->e[cls].name.p;
}

/* skeletonInherit of cls through its config parents: *out "" when absent. */
static int inherit_of(struct ctx *x, uint32_t cls, const char **out)
{
    long k = cfg_lookup(x->c, cls, "skeletonInherit", NULL);
    *out = "";
    if (k < 0)
        return 0;
    const struct cfg_entry *e = &x->c->e[k];
    if (e->kind != CFG_VALUE || e->v.type != CFG_T_STRING) {
        rtm_err_nooff(x->err, "skeleton '%s': skeletonInherit of class %s is not a string",
                      x->spec, class_name(x, cls));
        return -1;
    }
    *out = e->v.u.s.p;
    return 0;
}

/* Whether a name can be a bone of a skeleton file: a word, not "-". */
static int name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > SC_MAX_NAME || strcmp(s, "-") == 0)
        return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch <= ' ' || ch == 0x7f || ch == '#')
            return 0;
    }
    return 1;
}

static int add_pair(struct ctx *x, struct bones *b, const char *bone, const char *parent)
{
    if (b->n >= SC_MAX_BONES) {
        rtm_err_nooff(x->err, "skeleton '%s': more than %d bones", x->spec, SC_MAX_BONES);
        return -1;
    }
    void *p = b->p;
    if (rtm_array_grow32(&p, &b->cap, (size_t)b->n + 1, sizeof *b->p, 64))
        return oom(x);
    b->p = p;
    b->p[b->n] = (struct pair){ bone, parent, b->n, 0 };
    b->n++;
    return 0;
}

/* One string of a skeletonBones[] list, checked. */
static int bone_string(struct ctx *x, uint32_t cls, const struct cfg_value *v,
                       int parent, const char **out)
{
    if (v->type != CFG_T_STRING) {
        rtm_err_nooff(x->err, "skeleton '%s': skeletonBones[] of class %s holds a value "
                      "that is not a string", x->spec, class_name(x, cls));
        return -1;
    }
    *out = v->u.s.p;
    if ((parent && !**out) || name_ok(*out))
        return 0;
    rtm_err_nooff(x->err, "skeleton '%s': class %s: bone name '%.64s' cannot be a skeleton "
                  "bone (empty, '-', a blank, '#', a control byte or over %d bytes)",
                  x->spec, class_name(x, cls), *out, SC_MAX_NAME);
    return -1;
}

/* The skeletonBones[] pairs of cls (through its config parents). */
static int own_pairs(struct ctx *x, uint32_t cls, struct bones *b)
{
    long k = cfg_lookup(x->c, cls, "skeletonBones", NULL);
    if (k < 0)
        return 0;
    const struct cfg_entry *e = &x->c->e[k];
    if (e->kind != CFG_ARRAY || e->v.n % 2) {
        rtm_err_nooff(x->err, "skeleton '%s': skeletonBones of class %s is not a list of "
                      "(bone, parent) pairs", x->spec, class_name(x, cls));
        return -1;
    }
    const struct cfg_value *v = &x->c->v[e->v.u.first];
    for (uint32_t i = 0; i < e->v.n; i += 2) {
        const char *bone, *parent;
        if (bone_string(x, cls, &v[i], 0, &bone) || bone_string(x, cls, &v[i + 1], 1, &parent) ||
            add_pair(x, b, bone, parent))
            return -1;
    }
    return 0;
}

/* The game's man skeleton, which every Arma's configs define: a class
 * that inherits it from a file that does not (a mod's model.cfg, counting
 * on the game's) inherits the built-in ofp2, which is that skeleton. */
#define GAME_SKELETON "OFP2_ManSkeleton"

/* The skeletonInherit chain from cls (cls first) into chain (room for
 * every class of CfgSkeletons, so a longer chain is a loop); *game set
 * when it ends in GAME_SKELETON that the file does not define. */
static int inherit_chain(struct ctx *x, uint32_t cls, uint32_t *chain, uint32_t room,
                         uint32_t *n, int *game)
{
    *n = 0;
    *game = 0;
    for (;;) {
        for (uint32_t i = 0; i < *n; i++)
            if (chain[i] == cls) {
                rtm_err_nooff(x->err, "skeleton '%s': skeletonInherit loop: class %s "
                              "inherits itself through %s", x->spec, class_name(x, cls),
                              class_name(x, chain[*n - 1]));
                return -1;
            }
        if (*n >= room)
            return oom(x);      /* cannot happen: distinct classes fit */
        chain[(*n)++] = cls;
        const char *up;
        if (inherit_of(x, cls, &up))
            return -1;
        if (!*up)
            return 0;
        long k = skeleton_class(x, up);
        if (k < 0 && !strcasecmp(up, GAME_SKELETON)) {
            *game = 1;
            return 0;
        }
        if (k < 0) {
            rtm_err_nooff(x->err, "skeleton '%s': skeletonInherit '%.64s' of class %s is not "
                          "a class of CfgSkeletons", x->spec, up, class_name(x, cls));
            return -1;
        }
        cls = (uint32_t)k;
    }
}

/* ---- one class's bones: inherited first, duplicates, parents ---- */

static int pair_cmp(const void *a, const void *b)
{
    const struct pair *p = *(const struct pair *const *)a, *q = *(const struct pair *const *)b;
    int c = strcasecmp(p->bone, q->bone);
    return c ? c : (p->at > q->at) - (p->at < q->at);
}

/* Sorts by name, marks a bone listed again with its parent as dup, and
 * refuses one listed again with another parent. */
static int index_names(struct ctx *x, uint32_t cls, struct bones *b)
{
    if (!(b->by_name = malloc((b->n ? b->n : 1) * sizeof *b->by_name)))
        return oom(x);
    for (uint32_t i = 0; i < b->n; i++)
        b->by_name[i] = &b->p[i];
    qsort(b->by_name, b->n, sizeof *b->by_name, pair_cmp);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < b->n; i++) {
        struct pair *p = b->by_name[i], *first = kept ? b->by_name[kept - 1] : NULL;
        if (!first || strcasecmp(first->bone, p->bone)) {
            b->by_name[kept++] = p;
            continue;
        }
        if (strcasecmp(first->parent, p->parent)) {
            rtm_err_nooff(x->err, "skeleton '%s': class %s lists bone '%.64s' twice, with "
                          "parents '%.64s' and '%.64s'", x->spec, class_name(x, cls),
                          p->bone, first->parent, p->parent);
            return -1;
        }
        p->dup = 1;
    }
    b->nnamed = kept;
    return 0;
}

/* The pair of bone name, or NULL. */
static struct pair *find_bone(const struct bones *b, const char *name)
{
    uint32_t lo = 0, hi = b->nnamed;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int c = strcasecmp(name, b->by_name[mid]->bone);
        if (c == 0)
            return b->by_name[mid];
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

/* The built-in ofp2's bones as pairs: the game's own GAME_SKELETON. */
static int ofp2_pairs(struct ctx *x, struct bones *b)
{
    const struct rtm_skeleton *o = x->ofp2;
    for (uint32_t i = 0; i < o->nbones; i++)
        if (add_pair(x, b, o->bone[i], o->parent[i] < 0 ? "" : o->bone[o->parent[i]]))
            return -1;
    return 0;
}

/* The bones of class cls: its inherited skeleton's, then its own. */
static int class_bones(struct ctx *x, uint32_t cls, struct bones *b)
{
    uint32_t room = x->c->e[x->root].n + 1, n;
    uint32_t *chain = malloc(room * sizeof *chain);
    if (!chain)
        return oom(x);
    int game;
    int rc = inherit_chain(x, cls, chain, room, &n, &game);
    if (rc == 0 && game)
        rc = ofp2_pairs(x, b);
    while (rc == 0 && n-- > 0)          /* the most inherited first */
        rc = own_pairs(x, chain[n], b);
    free(chain);
    return rc ? rc : index_names(x, cls, b);
}

/* How many of b's bones the built-in ofp2 skeleton has. */
static uint32_t ofp2_cover(const struct ctx *x, const struct bones *b)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < b->nnamed; i++)
        n += rtm_skeleton_find(x->ofp2, b->by_name[i]->bone, strlen(b->by_name[i]->bone)) >= 0;
    return n;
}

/* ---- the skeleton text ---- */

struct emit {
    struct ctx *x;
    uint32_t cls;
    const struct bones *b;
    uint8_t *state;             /* per pair: 0 new, 1 on the way up, 2 written */
    uint32_t *stack;
    float (*pivot)[3];          /* per pair, when pivots */
    int pivots;
    struct rtm_buf *out;
};

/* A bone's pivot: ofp2's, else placed beyond its parent (skeleton_cfg.h). */
static void place(struct emit *em, const struct pair *p, float xyz[3], int *placed)
{
    int32_t k = rtm_skeleton_find(em->x->ofp2, p->bone, strlen(p->bone));
    if (k >= 0) {
        memcpy(xyz, em->x->ofp2->pivot[k], sizeof(float[3]));
        *placed = em->x->ofp2->placed[k];
        return;
    }
    *placed = 1;
    const struct pair *up = *p->parent ? find_bone(em->b, p->parent) : NULL;
    const struct pair *gp = up && *up->parent ? find_bone(em->b, up->parent) : NULL;
    float d[3] = { 0, 1, 0 };
    if (!up) {
        xyz[0] = xyz[1] = xyz[2] = 0;
        return;
    }
    if (gp) {
        float v[3], len = 0;
        for (int i = 0; i < 3; i++) {
            v[i] = em->pivot[up->at][i] - em->pivot[gp->at][i];
            len += v[i] * v[i];
        }
        len = sqrtf(len);
        for (int i = 0; len > 1e-6f && i < 3; i++)
            d[i] = v[i] / len;
    }
    for (int i = 0; i < 3; i++)
        xyz[i] = em->pivot[up->at][i] + 0.05f * d[i];
}

static void write_bone(struct emit *em, const struct pair *p)
{
    rtm_buf_puts(em->out, p->bone);
    rtm_buf_putc(em->out, ' ');
    rtm_buf_puts(em->out, *p->parent ? find_bone(em->b, p->parent)->bone : "-");
    if (em->pivots) {
        int placed;
        place(em, p, em->pivot[p->at], &placed);
        rtm_skeleton_put_pivot(em->out, em->pivot[p->at], placed);
    }
    rtm_buf_putc(em->out, '\n');
}

/* Writes pair i after its unwritten ancestors (parents first). */
static int emit_one(struct emit *em, uint32_t i)
{
    uint32_t depth = 0, j = i;
    while (em->state[j] == 0) {
        em->state[j] = 1;
        em->stack[depth++] = j;
        const struct pair *p = &em->b->p[j];
        if (!*p->parent)
            break;
        const struct pair *up = find_bone(em->b, p->parent);
        if (!up || em->state[up->at] == 1) {
            rtm_err_nooff(em->x->err, up ? "skeleton '%s': class %s: bone '%.64s' is its own "
                                           "ancestor through '%.64s'"
                                         : "skeleton '%s': class %s: bone '%.64s' has parent "
                                           "'%.64s', which the skeleton does not list",
                          em->x->spec, class_name(em->x, em->cls), p->bone, p->parent);
            return -1;
        }
        j = up->at;
    }
    while (depth > 0) {
        uint32_t k = em->stack[--depth];
        write_bone(em, &em->b->p[k]);
        em->state[k] = 2;
    }
    return 0;
}

/* b as skeleton text into out. */
static int skeleton_text(struct ctx *x, uint32_t cls, const struct bones *b, struct rtm_buf *out)
{
    size_t n = b->n ? b->n : 1;
    struct emit em = { x, cls, b, calloc(n, 1), malloc(n * sizeof(uint32_t)),
                       malloc(n * sizeof(float[3])), x->ofp2->pivot && ofp2_cover(x, b) > 0,
                       out };
    int rc = em.state && em.stack && em.pivot ? 0 : oom(x);
    for (uint32_t i = 0; rc == 0 && i < b->n; i++)
        if (!b->p[i].dup)
            rc = emit_one(&em, i);
    if (rc == 0 && out->oom)
        rc = oom(x);
    free(em.state);
    free(em.stack);
    free(em.pivot);
    return rc;
}

/* ---- choosing the class, building the skeleton ---- */

/* The class the user named, or the best cover; *cover its ofp2 bones. */
static long choose(struct ctx *x, const char *cls, uint32_t *cover)
{
    if (cls) {
        long k = skeleton_class(x, cls);
        if (k < 0)
            rtm_err_nooff(x->err, "skeleton '%s': CfgSkeletons has no class '%.64s'",
                          x->spec, cls);
        return k;
    }
    const struct cfg_entry *r = &x->c->e[x->root];
    long best = -1;
    uint32_t best_n = 0;
    for (uint32_t m = r->first; m < r->first + r->n; m++) {
        if (x->c->e[m].kind != CFG_CLASS)
            continue;
        struct bones b = { 0 };
        if (class_bones(x, m, &b)) {
            bones_free(&b);
            return -1;
        }
        uint32_t c = ofp2_cover(x, &b);
        if (best < 0 || c > *cover || (c == *cover && b.nnamed > best_n)) {
            best = m;
            *cover = c;
            best_n = b.nnamed;
        }
        bones_free(&b);
    }
    if (best < 0)
        rtm_err_nooff(x->err, "skeleton '%s': CfgSkeletons holds no class", x->spec);
    return best;
}

/* 64-bit FNV-1a: the skeleton's text in its render id. */
static uint64_t fnv1a(const char *p, size_t n)
{
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
    return h;
}

/* The name (with why) and the render id of the skeleton. */
static int name_it(struct ctx *x, const char *path, uint32_t cls, int named, uint32_t cover,
                   const struct rtm_buf *text, char **name, char **id)
{
    struct stat st;
    struct rtm_fileid f = stat(path, &st) ? RTM_FILEID_NONE : rtm_fileid_of(&st);
    int a = named ? asprintf(name, "%s:%s (model.cfg class, named)", path, class_name(x, cls))
                  : asprintf(name, "%s:%s (model.cfg class, best cover: %u of %u ofp2 bones)",
                             path, class_name(x, cls), cover, x->ofp2->nbones);
    if (a < 0) {
        *name = NULL;
        return oom(x);
    }
    if (asprintf(id, "model.cfg:%s@%llu:%llu:%llu:%lld:%lld#%016llx", class_name(x, cls),
                 (unsigned long long)f.dev, (unsigned long long)f.ino,
                 (unsigned long long)f.size, (long long)f.mtime_ns, (long long)f.ctime_ns,
                 (unsigned long long)fnv1a(text->p ? text->p : "", text->len)) < 0) {
        *id = NULL;
        return oom(x);
    }
    return 0;
}

/* The chosen class's skeleton from the model. */
static int build(struct ctx *x, const char *path, const char *cls, struct rtm_skeleton **out)
{
    long k = cfg_member(x->c, 0, "CfgSkeletons");
    if (k < 0 || x->c->e[k].kind != CFG_CLASS) {
        rtm_err_nooff(x->err, "skeleton '%s': no class CfgSkeletons (not a model.cfg?)",
                      x->spec);
        return -1;
    }
    x->root = (uint32_t)k;
    uint32_t cover = 0;
    long m = choose(x, cls, &cover);
    struct bones b = { 0 };
    struct rtm_buf text;
    rtm_buf_init(&text);
    char *name = NULL, *id = NULL;
    int rc = m < 0 || class_bones(x, (uint32_t)m, &b) ||
             skeleton_text(x, (uint32_t)m, &b, &text) ||
             name_it(x, path, (uint32_t)m, cls != NULL, cover, &text, &name, &id);
    struct rtm_error e2;
    if (rc == 0 && rtm_skeleton_parse(text.p ? text.p : "", text.len, name, out, &e2)) {
        rtm_err_nooff(x->err, "skeleton '%s': %s", x->spec, e2.msg);  /* cannot happen */
        rc = 1;
    }
    if (rc == 0)
        (*out)->render_id = id;
    else
        free(id);
    free(name);
    rtm_buf_free(&text);
    bones_free(&b);
    return rc ? -1 : 0;
}

int rtm_skeleton_cfg_open(const char *path, const char *cls, const char *spec,
                          struct rtm_skeleton **out, struct rtm_error *err)
{
    *out = NULL;
    struct gamepath_project *pr = NULL;
    gamepath_project_open(path, &pr);   /* none: relative includes only */
    struct cfg_pp_opts o = { .resolve = pr ? gamepath_project_resolve : NULL, .arg = pr,
                             .include_dir = pr ? gamepath_project_include(pr) : NULL };
    struct cfg *c = NULL;
    struct rtm_error e2;
    int rc = cfg_load_file(path, &o, &c, &e2);
    gamepath_project_free(pr);
    if (rc) {
        rtm_err_nooff(err, "skeleton '%s': %s", spec, e2.msg);
        return -1;
    }
    struct rtm_skeleton *ofp2 = NULL;
    if (rtm_skeleton_builtin(RTM_SKELETON_OFP2, &ofp2, err)) {
        cfg_free(c);
        return -1;
    }
    struct ctx x = { c, 0, spec, ofp2, err };
    rc = build(&x, path, cls, out);
    rtm_skeleton_free(ofp2);
    cfg_free(c);
    return rc;
}

/* ---- the classes of a model.cfg beside an animation ---- */

int rtm_skeleton_cfg_classes(const struct cfg *c, const char *where,
                             const struct rtm_skeleton *ofp2, struct rtm_buf *out,
                             struct rtm_error *err)
{
    struct rtm_skeleton *own = NULL;
    if (!ofp2 && rtm_skeleton_builtin(RTM_SKELETON_OFP2, &own, err))
        return -1;
    struct ctx x = { c, 0, where, ofp2 ? ofp2 : own, err };
    long k = cfg_member(c, 0, "CfgSkeletons");
    int rc = k < 0 || c->e[k].kind != CFG_CLASS ? -1 : 0;
    if (rc)
        rtm_err_nooff(err, "skeleton '%s': no class CfgSkeletons (not a model.cfg?)", where);
    x.root = rc ? 0 : (uint32_t)k;
    const struct cfg_entry *r = &c->e[x.root];
    for (uint32_t m = r->first; rc == 0 && m < r->first + r->n; m++) {
        if (c->e[m].kind != CFG_CLASS)
            continue;
        struct bones b = { 0 };
        struct rtm_buf text;
        rtm_buf_init(&text);
        rc = class_bones(&x, m, &b) || skeleton_text(&x, m, &b, &text) ? -1 : 0;
        const char *name = class_name(&x, m);
        if (rc == 0) {
            rtm_buf_put_u32(out, (uint32_t)strlen(name));
            rtm_buf_put(out, name, strlen(name));
            rtm_buf_put_u32(out, ofp2_cover(&x, &b));
            rtm_buf_put_u32(out, (uint32_t)text.len);
            rtm_buf_put(out, text.p, text.len);
        }
        bones_free(&b);
        rtm_buf_free(&text);
    }
    if (rc == 0 && out->len == 0) {
        rtm_err_nooff(err, "skeleton '%s': CfgSkeletons holds no class", where);
        rc = -1;
    }
    if (rc == 0 && out->oom)
        rc = oom(&x);
    rtm_skeleton_free(own);
    return rc;
}

int rtm_skeleton_cfg_classes_of(const uint8_t *data, size_t len, const char *where,
                                struct rtm_buf *out, struct rtm_error *err)
{
    struct cfg *c = NULL;
    struct rtm_error e2 = { .msg = "" };
    int rc;
    if (rap_is_rapified(data, len)) {
        rc = rap_read(data, len, &c, &e2);
    } else {
        struct cfg_pp_opts o = { .resolve = NULL };
        struct cfg_pp_result pp;
        memset(&pp, 0, sizeof pp);
        rc = cfg_pp_text((const char *)data, len, where, NULL, &o, &pp, &e2) ||
             cfg_parse_text(pp.text.p, pp.text.len, where, &pp.map, &c, &e2);
        cfg_pp_free(&pp);
    }
    if (rc) {
        rtm_err_nooff(err, "skeleton '%s': %s", where, e2.msg);
        return -1;
    }
    rc = rtm_skeleton_cfg_classes(c, where, NULL, out, err);
    cfg_free(c);
    return rc;
}

/* The next class of the bytes rtm_skeleton_cfg_classes wrote: 1 with its
 * name, cover and text, 0 at the end. */
struct class_rec {
    const char *name, *text;
    uint32_t name_len, cover, text_len;
};

static int next_class(const uint8_t *p, size_t len, size_t *at, struct class_rec *c)
{
    if (len - *at < 12)
        return 0;
    c->name_len = le_u32(p + *at);
    if (len - *at - 4 < (uint64_t)c->name_len + 8)
        return 0;
    c->name = (const char *)p + *at + 4;
    c->cover = le_u32(p + *at + 4 + c->name_len);
    c->text_len = le_u32(p + *at + 8 + c->name_len);
    size_t head = 12 + (size_t)c->name_len;
    if (len - *at - head < c->text_len)
        return 0;
    c->text = (const char *)p + *at + head;
    *at += head + c->text_len;
    return 1;
}

struct rtm_skeleton *rtm_skeleton_cfg_class(const uint8_t *classes, size_t len, const char *name)
{
    struct class_rec c;
    for (size_t at = 0; next_class(classes, len, &at, &c);) {
        if (c.name_len != strlen(name) || strncasecmp(c.name, name, c.name_len) != 0)
            continue;
        struct rtm_skeleton *s = NULL;
        struct rtm_error e2;
        char *n = strndup(c.name, c.name_len);
        if (!n || rtm_skeleton_parse(c.text, c.text_len, n, &s, &e2))
            s = NULL;
        free(n);
        return s;
    }
    return NULL;
}

/* Whether class (h, cover, nbones) beats the best so far: the most of the
 * animation's bones (every one first), then ofp2's best cover, then the
 * most bones; file order breaks what is left. */
static int better(uint32_t h, uint32_t cover, uint32_t nb, const uint32_t best[3], int any)
{
    if (!any || h != best[0])
        return !any || h > best[0];
    return cover != best[1] ? cover > best[1] : nb > best[2];
}

/* The skeleton of the class p chose, named "CLASS from WHERE". */
static struct rtm_skeleton *pick_class(struct rtm_skeleton_pick *p, const struct rtm_str *bones,
                                       uint32_t n)
{
    struct class_rec c, win = { 0 };
    uint32_t best[3] = { 0 };
    int any = 0;
    for (size_t at = 0; next_class(p->classes, p->len, &at, &c);) {
        struct rtm_skeleton *s = NULL;
        struct rtm_error e2;
        if (rtm_skeleton_parse(c.text, c.text_len, "class", &s, &e2))
            continue;                   /* cannot happen: this project wrote it */
        uint32_t h = rtm_skeleton_held(s, bones, n);
        if (better(h, c.cover, s->nbones, best, any)) {
            best[0] = h, best[1] = c.cover, best[2] = s->nbones;
            win = c;
            any = 1;
        }
        rtm_skeleton_free(s);
    }
    struct rtm_skeleton *s = NULL;
    char *name = NULL;
    if (!any || asprintf(&name, "%.*s from %s", (int)win.name_len, win.name, p->where) < 0 ||
        rtm_skeleton_parse(win.text, win.text_len, name, &s, &p->err))
        s = NULL;
    free(name);
    if (s && asprintf(&s->render_id, "model.cfg %s#%016llx", s->name,
                      (unsigned long long)fnv1a(win.text, win.text_len)) < 0) {
        s->render_id = NULL;
        rtm_skeleton_free(s);
        s = NULL;
    }
    return s;
}

const struct rtm_skeleton *rtm_skeleton_pick(void *ctx, const struct rtm_str *bones, uint32_t n)
{
    struct rtm_skeleton_pick *p = ctx;
    if (!p->chosen && !p->tried)
        p->chosen = pick_class(p, bones, n);
    p->tried = 1;
    return p->chosen;
}

void rtm_skeleton_pick_done(struct rtm_skeleton_pick *p)
{
    rtm_skeleton_free(p->chosen);
    p->chosen = NULL;
    p->tried = 0;
}
