/* skeleton.c - the built-in OFP2_ManSkeleton, the skeleton file reader and
 * its writer. */
#include "skeleton.h"
#include "rtm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <math.h>

/* The built-in OFP2_ManSkeleton with its rest pose (generated; see there). */
#include "numfmt.h"
#include "ofp2_table.h"

/* Longest bone name, most bones, longest number word: limits that keep a
 * hostile file's cost small and its messages readable. */
enum { SKEL_MAX_NAME = 255, SKEL_MAX_BONES = 4096, SKEL_MAX_NUMBER = 64 };
_Static_assert(SKEL_MAX_NUMBER == 64, "decimal()'s message says 64");

void rtm_skeleton_free(struct rtm_skeleton *s)
{
    if (!s)
        return;
    for (uint32_t i = 0; !s->name_block && i < s->nbones; i++)
        free(s->bone[i]);
    free(s->name_block);
    free(s->bone);
    free(s->parent);
    free(s->slots);
    free(s->pivot);
    free(s->placed);
    free(s->name);
    free(s->render_id);
    free(s);
}

int rtm_skeleton_has_pivots(const struct rtm_skeleton *s)
{
    return s && s->pivot;
}

/* Whether (name, len) is bone, ASCII case-insensitively.  Bytes that are
 * equal need no folding, and most names are found as they are spelled. */
static int name_is(const char *name, size_t len, const char *bone)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char a = (unsigned char)name[i], b = (unsigned char)bone[i];
        if (!b || (a != b && rtm_ascii_lower(a) != rtm_ascii_lower(b)))
            return 0;
    }
    return !bone[len];
}

/* One word of a name, A-Z bytes folded to a-z all at once (SWAR): a
 * byte's 0x20 bit is set where its low 7 bits are 0x41 to 0x5a and its
 * top bit is clear; no sum carries into the next byte. */
static uint64_t fold_word(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101ull;
    uint64_t low7 = w & 0x7f * ones;
    uint64_t upper = (low7 + 0x3f * ones) & ~(low7 + 0x25 * ones) & ~w & 0x80 * ones;
    return w | upper >> 2;
}

/* The slots' hash of a name, ASCII-folded as name_is compares, 8 bytes
 * at a time: byte at a time (fold, then multiply), the built-in
 * skeleton's table was most of rtmcat's start on a small file.  The tail
 * is gathered byte by byte, never read past.  Private to the table,
 * which nothing keeps: any good spread will do. */
static uint64_t fold_hash(const char *name, size_t len)
{
    const uint64_t k = 0x9e3779b97f4a7c15ull;
    uint64_t h = len * k, w;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        memcpy(&w, name + i, 8);
        h = (h ^ fold_word(w)) * k;
    }
    if (i < len) {
        w = 0;
        for (size_t j = 0; i + j < len; j++)
            w |= (uint64_t)(unsigned char)name[i + j] << (8 * j);
        h = (h ^ fold_word(w)) * k;
    }
    h ^= h >> 32;
    return h ^ h >> 29;
}

/* A hash table of the bones by name, built as they are added: every
 * animation loaded looks up each of its bones here three times, where a
 * search by comparisons cost a sixth of rtmfs's instructions on a grep -r.
 * A slot holds the bone's index + 1 (SLOT_INDEX_BITS), its name's length
 * (SLOT_LEN_BITS; SLOT_LEN_LONG from there on) and the top bits of its
 * hash: a probe compares names only where all agree, and then, the
 * lengths being equal, a word at a time. */
enum { SLOT_INDEX_BITS = 13, SLOT_LEN_BITS = 8, SLOT_LEN_LONG = (1 << SLOT_LEN_BITS) - 1 };
_Static_assert(SKEL_MAX_BONES < (1 << SLOT_INDEX_BITS), "a bone's index + 1 fits its bits");
#define SLOT_INDEX(v) ((v) & ((1u << SLOT_INDEX_BITS) - 1))

static uint32_t slot_tag(uint64_t hash, size_t len)
{
    uint32_t l = len < SLOT_LEN_LONG ? (uint32_t)len : SLOT_LEN_LONG;
    uint32_t top = (uint32_t)(hash >> (64 - (32 - SLOT_INDEX_BITS - SLOT_LEN_BITS)));
    return (l | top << SLOT_LEN_BITS) << SLOT_INDEX_BITS;
}

/* name_is for a bone whose name is known to be len bytes long. */
static int same_name(const char *name, size_t len, const char *bone)
{
    if (len >= SLOT_LEN_LONG)
        return name_is(name, len, bone);
    size_t i = 0;
    for (uint64_t a, b; i + 8 <= len; i += 8) {
        memcpy(&a, name + i, 8);
        memcpy(&b, bone + i, 8);
        if (a != b && fold_word(a) != fold_word(b))
            return 0;
    }
    for (; i < len; i++) {
        unsigned char a = (unsigned char)name[i], b = (unsigned char)bone[i];
        if (a != b && rtm_ascii_lower(a) != rtm_ascii_lower(b))
            return 0;
    }
    return 1;
}

/* The slot holding (name, len), or the free one where it goes; *tag is
 * what its slot holds beside the index. */
static uint32_t *slot_of(const struct rtm_skeleton *s, const char *name, size_t len,
                         uint32_t *tag)
{
    uint64_t h = fold_hash(name, len);
    *tag = slot_tag(h, len);
    for (uint32_t i = (uint32_t)h & (s->nslots - 1);; i = (i + 1) & (s->nslots - 1)) {
        uint32_t *slot = &s->slots[i];
        if (!*slot || ((*slot & ~SLOT_INDEX(~0u)) == *tag &&
                       same_name(name, len, s->bone[SLOT_INDEX(*slot) - 1])))
            return slot;
    }
}

/* Puts bone k (name, len) in its slot. */
static void slot_put(struct rtm_skeleton *s, const char *name, size_t len, uint32_t k)
{
    uint32_t tag, *slot = slot_of(s, name, len, &tag);
    *slot = tag | (k + 1);
}

int32_t rtm_skeleton_find(const struct rtm_skeleton *s, const char *name, size_t len)
{
    uint32_t tag, *slot = s->nslots ? slot_of(s, name, len, &tag) : NULL;
    return slot && *slot ? (int32_t)SLOT_INDEX(*slot) - 1 : -1;
}

/* Room for bone n in the table (at most half full), rehashing into a
 * larger one when needed. */
static int slots_room(struct rtm_skeleton *s, uint32_t n)
{
    if (2 * (n + 1) <= s->nslots)
        return 0;
    struct rtm_skeleton grown = *s;
    grown.nslots = s->nslots ? 2 * s->nslots : 64;
    if (!(grown.slots = calloc(grown.nslots, sizeof *grown.slots)))
        return -1;
    for (uint32_t k = 0; k < n; k++)
        slot_put(&grown, s->bone[k], strlen(s->bone[k]), k);
    free(s->slots);
    s->slots = grown.slots;
    s->nslots = grown.nslots;
    return 0;
}

static struct rtm_skeleton *skel_new(const char *name)
{
    struct rtm_skeleton *s = calloc(1, sizeof *s);
    if (s && !(s->name = strdup(name))) {
        free(s);
        s = NULL;
    }
    return s;
}

/* Grows the pivot arrays by one entry for bone nbones.  Called for every
 * bone or for none (the first bone line decides), so they stay nbones long. */
static int skel_add_pivot(struct rtm_skeleton *s, const float xyz[3], uint8_t placed)
{
    float (*nv)[3] = realloc(s->pivot, (s->nbones + 1) * sizeof *nv);
    if (!nv)
        return -1;
    s->pivot = nv;
    uint8_t *npl = realloc(s->placed, s->nbones + 1);
    if (!npl)
        return -1;
    s->placed = npl;
    memcpy(s->pivot[s->nbones], xyz, sizeof s->pivot[0]);
    s->placed[s->nbones] = placed;
    return 0;
}

/* Appends a bone; xyz is NULL for a skeleton without pivots. */
static int skel_add(struct rtm_skeleton *s, const char *bone, size_t blen, int32_t parent,
                    const float *xyz, uint8_t placed)
{
    if (s->nbones >= SKEL_MAX_BONES)
        return -1;
    char **nb = realloc(s->bone, (s->nbones + 1) * sizeof *nb);
    if (!nb)
        return -1;
    s->bone = nb;
    int32_t *np = realloc(s->parent, (s->nbones + 1) * sizeof *np);
    if (!np)
        return -1;
    s->parent = np;
    if (slots_room(s, s->nbones))
        return -1;
    if (xyz && skel_add_pivot(s, xyz, placed))
        return -1;
    if (!(s->bone[s->nbones] = strndup(bone, blen)))
        return -1;
    s->parent[s->nbones] = parent;
    slot_put(s, bone, blen, s->nbones);     /* a name listed twice is refused before */
    s->nbones++;
    return 0;
}

/* A word of the text: a run of bytes other than ' ', '\t', '\r', '\n' and
 * '#' (NUL never gets this far).  Bone names are words, nothing else. */
struct word {
    const char *p;
    size_t n;
};

/* The reader's position and what the lines so far decided. */
struct parser {
    struct rtm_skeleton *s;
    const char *p, *end;
    uint64_t line;
    int pivots;        /* -1 before the first bone line, then whether it has X Y Z */
    uint64_t first;    /* the first bone line, for messages */
    struct rtm_error *err;
};

/* A word's length for "%.*s" in a message: long words are cut to 64 bytes. */
static int shown(const struct word *w)
{
    return w->n > 64 ? 64 : (int)w->n;
}

/* Next word on the current line; stops (and stays) at '\n' or '#'. */
static int next_word(struct parser *ps, struct word *w)
{
    const char *q = ps->p, *end = ps->end;
    while (q < end && (*q == ' ' || *q == '\t' || *q == '\r'))
        q++;
    if (q >= end || *q == '\n' || *q == '#') {
        ps->p = q;
        return 0;
    }
    w->p = q;
    while (q < end && *q != ' ' && *q != '\t' && *q != '\r' && *q != '\n' && *q != '#')
        q++;
    w->n = (size_t)(q - w->p);
    ps->p = q;
    return 1;
}

/* The next word without taking it. */
static int peek_word(struct parser *ps, struct word *w)
{
    const char *at = ps->p;
    int got = next_word(ps, w);
    ps->p = at;
    return got;
}

static int word_is(const struct word *w, const char *lit)
{
    return w->n == strlen(lit) && memcmp(w->p, lit, w->n) == 0;
}

/* A finite decimal number ("-0.25", "1e-3") into *v (v may be NULL): NULL,
 * or why not.  strtof alone would also take "nan", "inf" and hex floats,
 * hence the character check; the copy gives strtof the NUL it needs. */
static const char *decimal(const struct word *w, float *v)
{
    char t[SKEL_MAX_NUMBER + 1];
    if (w->n > SKEL_MAX_NUMBER)
        return "longer than 64 characters for a number";
    memcpy(t, w->p, w->n);
    t[w->n] = 0;
    char *e;
    float f = strtof(t, &e);
    if (strspn(t, "0123456789+-.eE") != w->n || e != t + w->n)
        return "not a decimal number";
    if (!isfinite(f))
        return "out of range for a float";
    if (v)
        *v = f;
    return NULL;
}

/* The bone's name and parent are sound: *parent is the parent's index. */
static int check_pair(struct parser *ps, const struct word *b, const struct word *par,
                      int32_t *parent)
{
    unsigned long long line = ps->line;
    if (b->n > SKEL_MAX_NAME || par->n > SKEL_MAX_NAME) {
        rtm_err_nooff(ps->err, "line %llu: bone name longer than %d bytes", line,
                      SKEL_MAX_NAME);
        return -1;
    }
    if (rtm_skeleton_find(ps->s, b->p, b->n) >= 0) {
        rtm_err_nooff(ps->err, "line %llu: bone '%.*s' listed twice", line, (int)b->n, b->p);
        return -1;
    }
    *parent = -1;
    if (word_is(par, "-"))
        return 0;
    *parent = rtm_skeleton_find(ps->s, par->p, par->n);
    if (*parent < 0) {
        rtm_err_nooff(ps->err, "line %llu: parent '%.*s' of '%.*s' is not listed "
                      "on an earlier line", line, (int)par->n, par->p, (int)b->n, b->p);
        return -1;
    }
    return 0;
}

/* Either every bone line has X Y Z or none does: the first one decides, and
 * the first line that differs from it is the error. */
static int same_columns(struct parser *ps, const struct word *b, int has,
                        const struct word *next)
{
    if (ps->pivots < 0) {
        ps->pivots = has;
        ps->first = ps->line;
        return 0;
    }
    if (has == ps->pivots)
        return 0;
    if (has)
        rtm_err_nooff(ps->err, "line %llu: '%.*s' after the parent of '%.*s', but the "
                      "first bone line (line %llu) has no pivot: give every bone "
                      "X Y Z or none", (unsigned long long)ps->line, shown(next), next->p,
                      shown(b), b->p, (unsigned long long)ps->first);
    else
        rtm_err_nooff(ps->err, "line %llu: bone '%.*s' has no pivot (X Y Z), but the "
                      "first bone line (line %llu) has one: give every bone X Y Z "
                      "or none", (unsigned long long)ps->line, shown(b), b->p,
                      (unsigned long long)ps->first);
    return -1;
}

/* One of X, Y, Z of bone b. */
static int read_coord(struct parser *ps, const struct word *b, char axis, float *v)
{
    struct word w;
    if (!next_word(ps, &w)) {
        rtm_err_nooff(ps->err, "line %llu: the pivot of '%.*s' has no %c (write X Y Z)",
                      (unsigned long long)ps->line, shown(b), b->p, axis);
        return -1;
    }
    const char *why = decimal(&w, v);
    if (why) {
        rtm_err_nooff(ps->err, "line %llu: %c of '%.*s' is '%.*s', %s",
                      (unsigned long long)ps->line, axis, shown(b), b->p, shown(&w), w.p,
                      why);
        return -1;
    }
    return 0;
}

/* X Y Z [placed] of bone b; nothing else may follow on the line. */
static int read_pivot(struct parser *ps, const struct word *b, float xyz[3], uint8_t *placed)
{
    for (int k = 0; k < 3; k++)
        if (read_coord(ps, b, (char)('X' + k), &xyz[k]))
            return -1;
    struct word w;
    *placed = peek_word(ps, &w) && word_is(&w, "placed");
    if (*placed)
        next_word(ps, &w);
    if (peek_word(ps, &w)) {
        rtm_err_nooff(ps->err, "line %llu: '%.*s' after the pivot of '%.*s': only the "
                      "word 'placed' may follow X Y Z", (unsigned long long)ps->line,
                      shown(&w), w.p, shown(b), b->p);
        return -1;
    }
    return 0;
}

/* One record, "BONE PARENT [X Y Z [placed]]", whose BONE has been read. */
static int read_record(struct parser *ps, const struct word *b)
{
    struct word par, next;
    if (!next_word(ps, &par)) {
        rtm_err_nooff(ps->err, "line %llu: bone '%.*s' has no parent (write '-' for a root)",
                      (unsigned long long)ps->line, shown(b), b->p);
        return -1;
    }
    int32_t parent;
    if (check_pair(ps, b, &par, &parent))
        return -1;
    /* any word after PARENT starts the pivot (and a bad one is an error) */
    int has = peek_word(ps, &next);
    if (same_columns(ps, b, has, &next))
        return -1;
    float xyz[3];
    uint8_t placed = 0;
    if (has && read_pivot(ps, b, xyz, &placed))
        return -1;
    if (skel_add(ps->s, b->p, b->n, parent, has ? xyz : NULL, placed)) {
        rtm_err_nooff(ps->err, "line %llu: out of memory or too many bones",
                      (unsigned long long)ps->line);
        return -1;
    }
    return 0;
}

/* Reads every line: one record a line (read_record leaves nothing after
 * it). */
static int read_lines(struct parser *ps)
{
    while (ps->p < ps->end) {
        struct word b;
        while (next_word(ps, &b))
            if (read_record(ps, &b))
                return -1;
        while (ps->p < ps->end && *ps->p != '\n')
            ps->p++;
        if (ps->p < ps->end) {
            ps->p++;
            ps->line++;
        }
    }
    return 0;
}

/* The one reader of skeleton text (files, model.cfg skeletons). */
static int parse_text(const char *text, size_t len, const char *name,
                      struct rtm_skeleton **out, struct rtm_error *err)
{
    *out = NULL;
    struct parser ps = { skel_new(name), text, text + len, 1, -1, 0, err };
    if (!ps.s) {
        rtm_err_oom(err, "out of memory");
        return -1;
    }
    if (memchr(text, 0, len)) {
        rtm_err_nooff(err, "a NUL byte: this is not a text file");
        rtm_skeleton_free(ps.s);
        return -1;
    }
    if (read_lines(&ps)) {
        rtm_skeleton_free(ps.s);
        return -1;
    }
    *out = ps.s;
    return 0;
}

int rtm_skeleton_parse(const char *text, size_t len, const char *name,
                       struct rtm_skeleton **out, struct rtm_error *err)
{
    return parse_text(text, len, name, out, err);
}

/* One coordinate as " %.4f".  A negative zero, or a negative value that
 * rounds to zero, would print "-0.0000" and read back as -0, which prints
 * the same way only by luck of the sign: write it 0.0000. */
static void put_coord(struct rtm_buf *out, float v)
{
    char t[RTM_FLOAT_CHARS + 8];    /* FLT_MAX: 39 digits, sign, point, 4 decimals */
    rtm_buf_putc(out, ' ');
    if (!isfinite(v)) {
        snprintf(t, sizeof t, "%.4f", (double)v);
        rtm_buf_puts(out, t);
        return;
    }
    /* "%.4f" less its trailing zeros, "-0" as "0" (numfmt.h), without
     * printf: a config's every skeleton writes its pivots so */
    size_t n = rtm_fmt_num(v, 4, t);
    const char *dot = memchr(t, '.', n);
    size_t decimals = dot ? n - (size_t)(dot - t) - 1 : 0;
    if (!dot)
        t[n++] = '.';
    while (decimals++ < 4)
        t[n++] = '0';
    rtm_buf_put(out, t, n);
}

void rtm_skeleton_put_pivot(struct rtm_buf *out, const float xyz[3], int placed)
{
    for (int k = 0; k < 3; k++)
        put_coord(out, xyz[k]);
    if (placed)
        rtm_buf_puts(out, " placed");
}

/* Names are written as they are: every skeleton comes from the reader (or
 * is "none"), whose bone names are words, so they hold no blank, line end,
 * '#' or NUL and the reader splits the line back the same way.  A bone
 * named "-" cannot be anyone's parent ("-" as PARENT is a root), so "-" in
 * the PARENT column is never ambiguous. */
int rtm_skeleton_write(const struct rtm_skeleton *s, struct rtm_buf *out)
{
    for (uint32_t i = 0; i < s->nbones; i++) {
        rtm_buf_puts(out, s->bone[i]);
        rtm_buf_putc(out, ' ');
        rtm_buf_puts(out, s->parent[i] < 0 ? "-" : s->bone[s->parent[i]]);
        if (s->pivot)
            rtm_skeleton_put_pivot(out, s->pivot[i], s->placed[i]);
        rtm_buf_putc(out, '\n');
    }
    return out->oom ? -1 : 0;
}

static int read_file(const char *path, char **text, size_t *len, struct rtm_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        /* a mistyped built-in name lands here too: say what the choices are */
        rtm_err_nooff(err, "skeleton '%s': %s (not a built-in name, "
                      RTM_SKELETON_BUILTINS ", nor a readable file)", path, strerror(errno));
        return -1;
    }
    struct rtm_buf b;
    rtm_buf_init(&b);
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        rtm_buf_put(&b, chunk, n);
    int bad = ferror(f);
    fclose(f);
    if (bad || b.oom) {
        rtm_err_nooff(err, "skeleton '%s': %s", path, bad ? "read error" : "out of memory");
        rtm_buf_free(&b);
        return -1;
    }
    *text = rtm_buf_take(&b, len);
    return 0;
}

int32_t *rtm_skeleton_first_bones(const struct rtm_skeleton *s, const struct rtm_str *bones,
                                  uint32_t n)
{
    return rtm_skeleton_match(s, bones, n, NULL);
}

int32_t *rtm_skeleton_match(const struct rtm_skeleton *s, const struct rtm_str *bones,
                            uint32_t n, int32_t *index)
{
    int32_t *first = malloc((s->nbones ? s->nbones : 1) * sizeof *first);
    if (!first)
        return NULL;
    for (uint32_t k = 0; k < s->nbones; k++)
        first[k] = -1;
    for (uint32_t b = n; b-- > 0;) {        /* the first of duplicates wins */
        int32_t k = rtm_skeleton_find(s, bones[b].s, bones[b].len);
        if (k >= 0)
            first[k] = (int32_t)b;
        if (index)
            index[b] = k;
    }
    return first;
}

int rtm_skeleton_is_builtin(const char *name)
{
    return strcasecmp(name, RTM_SKELETON_NONE) == 0 ||
           strcasecmp(name, RTM_SKELETON_OFP2) == 0;
}

#define OFP2_NBONES ((uint32_t)(sizeof OFP2_BONES / sizeof OFP2_BONES[0]))
_Static_assert(OFP2_NBONES <= (uint32_t)SKEL_MAX_BONES,
               "the built-in table fits the reader's limit");

/* Every array of s sized for n bones at once, and a table of slots at most
 * half full (as slots_room keeps it). */
static int skel_reserve(struct rtm_skeleton *s, uint32_t n)
{
    s->nslots = 64;
    while (s->nslots < 2 * n)
        s->nslots *= 2;
    s->bone = calloc(n, sizeof *s->bone);
    s->parent = malloc(n * sizeof *s->parent);
    s->slots = calloc(s->nslots, sizeof *s->slots);
    s->pivot = malloc(n * sizeof *s->pivot);
    s->placed = malloc(n);
    return s->bone && s->parent && s->slots && s->pivot && s->placed ? 0 : -1;
}

/* The built-in ofp2 from its generated table (ofp2_table.h), which holds
 * the rows its text gave, already checked by the generator: names unique,
 * parents earlier.  No parsing: rtmcat opens it once a process, and
 * reading it as text was two fifths of the instructions on a median file.
 * The names are copied into one block, as a malloc each cost more than
 * the rest of the table. */
static int builtin_ofp2(struct rtm_skeleton **out, struct rtm_error *err)
{
    size_t bytes = 0;
    for (uint32_t i = 0; i < OFP2_NBONES; i++)
        bytes += strlen(OFP2_BONES[i].name) + 1;
    struct rtm_skeleton *s = skel_new(RTM_SKELETON_OFP2);
    if (!s || skel_reserve(s, OFP2_NBONES) || !(s->name_block = malloc(bytes))) {
        rtm_skeleton_free(s);
        rtm_err_oom(err, "out of memory");
        return -1;
    }
    char *p = s->name_block;
    for (uint32_t i = 0; i < OFP2_NBONES; i++) {
        const struct ofp2_bone *b = &OFP2_BONES[i];
        size_t n = strlen(b->name);
        s->bone[i] = memcpy(p, b->name, n + 1);
        p += n + 1;
        s->parent[i] = b->parent;
        memcpy(s->pivot[i], b->pivot, sizeof s->pivot[i]);
        s->placed[i] = b->placed;
        slot_put(s, b->name, n, i);
    }
    s->nbones = OFP2_NBONES;
    *out = s;
    return 0;
}

int rtm_skeleton_builtin(const char *name, struct rtm_skeleton **out, struct rtm_error *err)
{
    *out = NULL;
    if (strcasecmp(name, RTM_SKELETON_NONE) == 0) {
        if (!(*out = skel_new(RTM_SKELETON_NONE))) {
            rtm_err_oom(err, "out of memory");
            return -1;
        }
        return 0;
    }
    if (strcasecmp(name, RTM_SKELETON_OFP2) == 0)
        return builtin_ofp2(out, err);
    return 1;
}

int rtm_skeleton_load(const char *path, struct rtm_skeleton **out, struct rtm_error *err)
{
    *out = NULL;
    char *text = NULL;
    size_t len = 0;
    if (read_file(path, &text, &len, err))
        return -1;
    struct rtm_error e2;
    int rc = rtm_skeleton_parse(text ? text : "", len, path, out, &e2);
    free(text);
    if (rc)
        rtm_err_nooff(err, "skeleton '%s': %s", path, e2.msg);
    return rc;
}

uint32_t rtm_skeleton_held(const struct rtm_skeleton *s, const struct rtm_str *bones, uint32_t n)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        k += rtm_skeleton_find(s, bones[i].s, bones[i].len) >= 0;
    return k;
}
