/* mocap_read.c - BVH text to struct rtm_mocap (mocap.h).  The hierarchy is
 * read by a loop whose only state is the joint open at the moment (its
 * parent is where a '}' returns to), so nesting costs no stack; the motion
 * by a decimal reader that does in one pass what strtod does in several
 * (mocap.h gives the grammar; rtm(5), BVH SOURCES, the rules). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mocap.h"
#include "mocap_text.h"
#include "rtm.h"

/* The hierarchy as it grows: joints, their names' offsets in names, and
 * what each has declared so far. */
enum { SEEN_OFFSET = 1, SEEN_CHANNELS = 2, SEEN_END_OFFSET = 4 };
struct hier {
    struct rtm_mocap_joint *j;
    uint32_t *noff;
    uint8_t *seen;
    uint32_t n, cap, nvalues;
    struct rtm_buf names;
};

/* ---- the hierarchy ---- */

/* The rest of the line as a name, trimmed; a '{' closing it is taken as
 * the joint's opening brace (*brace). */
static int read_name(struct rd *r, const char *what, const uint8_t **s, size_t *n, int *brace)
{
    skip_blanks(r);
    const uint8_t *a = r->p;
    while (!at_eol(r))
        r->p++;
    const uint8_t *b = r->p;
    while (b > a && is_blank(b[-1]))
        b--;
    *brace = b > a && b[-1] == '{';
    if (*brace)
        for (b--; b > a && is_blank(b[-1]);)
            b--;
    for (const uint8_t *q = a; q < b; q++)
        if (*q < 0x20 || *q == 0x7f)
            return rtm_bvh_fail_at(r, q, "the name of a %s holds the byte 0x%02x", what, *q);
    *s = a;
    *n = (size_t)(b - a);
    return 0;
}

static int grow(struct hier *h, struct rd *r)
{
    if (h->n == RTM_MOCAP_MAX_JOINTS)
        return rtm_bvh_fail(r, "more than %d joints", RTM_MOCAP_MAX_JOINTS);
    if (h->n < h->cap)
        return 0;
    uint32_t cap = h->cap ? h->cap * 2 : 32;
    struct rtm_mocap_joint *j = realloc(h->j, cap * sizeof *j);
    if (j)
        h->j = j;
    uint32_t *noff = j ? realloc(h->noff, cap * sizeof *noff) : NULL;
    if (noff)
        h->noff = noff;
    uint8_t *seen = noff ? realloc(h->seen, cap) : NULL;
    if (!seen) {
        rtm_err_oom(r->err, "out of memory for %u joints", cap);
        return -1;
    }
    h->seen = seen;
    h->cap = cap;
    return 0;
}

/* ROOT or JOINT NAME: a new joint under parent. */
static int open_joint(struct hier *h, struct rd *r, int32_t parent, const char *what, int *brace)
{
    uint32_t line = r->line;
    const uint8_t *s;
    size_t n;
    if (read_name(r, what, &s, &n, brace))
        return -1;
    if (n == 0)
        return rtm_bvh_fail(r, "%s without a name", what);
    if (grow(h, r))
        return -1;
    h->noff[h->n] = (uint32_t)h->names.len;
    rtm_buf_put(&h->names, s, n);
    rtm_buf_putc(&h->names, 0);
    if (h->names.oom) {
        rtm_err_oom(r->err, "out of memory for joint names");
        return -1;
    }
    h->j[h->n] = (struct rtm_mocap_joint){ .parent = parent, .first = h->nvalues, .line = line };
    h->seen[h->n] = 0;
    h->n++;
    return 0;
}

/* OFFSET X Y Z, on one line. */
static int read_offset(struct rd *r, double v[3], const char *whose)
{
    for (int k = 0; k < 3; k++) {
        skip_blanks(r);
        if (at_eol(r))
            return rtm_bvh_fail(r, "OFFSET of %s has %d numbers, not 3", whose, k);
        if (rtm_bvh_num(r, &v[k], "OFFSET"))
            return -1;
    }
    skip_blanks(r);
    if (!at_eol(r))
        return rtm_bvh_fail(r, "OFFSET of %s has more than 3 numbers", whose);
    return 0;
}

/* A channel name: 'X' 'Y' 'Z' for positions, 'x' 'y' 'z' for rotations. */
static char channel(const uint8_t *w, size_t n)
{
    if (n != 9 || ((w[0] | 0x20) < 'x' || (w[0] | 0x20) > 'z'))
        return 0;
    if (rtm_bvh_is_kw(w + 1, 8, "position"))
        return (char)((w[0] | 0x20) - 'a' + 'A');
    if (rtm_bvh_is_kw(w + 1, 8, "rotation"))
        return (char)(w[0] | 0x20);
    return 0;
}

/* CHANNELS N NAME..., on one line: 0, 3 (three rotations or three
 * positions) or 6 (each once). */
static int read_channels(struct hier *h, struct rd *r, struct rtm_mocap_joint *j, const char *whose)
{
    const uint8_t *w;
    uint32_t n;
    char t[48];
    skip_blanks(r);
    if (at_eol(r))
        return rtm_bvh_fail(r, "CHANNELS of %s without a count", whose);
    const uint8_t *at = r->p;
    if (rtm_bvh_count(r, &n, "CHANNELS"))
        return -1;
    if (n != 0 && n != 3 && n != 6)
        return rtm_bvh_fail_at(r, at, "CHANNELS %u: a joint has 0, 3 or 6 channels", n);
    unsigned rot = 0, pos = 0;
    for (uint32_t i = 0; i < n; i++) {
        size_t len = rtm_bvh_word_here(r, &w);
        if (!len)
            return rtm_bvh_fail(r, "CHANNELS %u of %s lists %u channels", n, whose, i);
        char c = channel(w, len);
        if (!c)
            return rtm_bvh_fail_at(r, w, "unknown channel '%s'", rtm_bvh_shown(w, len, t));
        unsigned bit = 1u << (c >= 'a' ? c - 'x' : c - 'X');
        unsigned *set = c >= 'a' ? &rot : &pos;
        if (*set & bit)
            return rtm_bvh_fail_at(r, w, "channel '%s' twice", rtm_bvh_shown(w, len, t));
        *set |= bit;
        j->chan[i] = c;
    }
    if (rtm_bvh_word_here(r, &w))
        return rtm_bvh_fail_at(r, w, "CHANNELS %u of %s lists more than %u channels", n, whose, n);
    if (n == 3 && rot && pos)
        return rtm_bvh_fail(r, "CHANNELS 3 of %s mixes positions and rotations", whose);
    j->nchan = (uint8_t)n;
    j->first = h->nvalues;
    h->nvalues += n;
    return 0;
}

/* End [Site]: the rest of the line is "Site", perhaps with its brace. */
static int open_end(struct hier *h, struct rd *r, int32_t cur, int *brace)
{
    const uint8_t *s;
    size_t n;
    char t[48];
    if (read_name(r, "End Site", &s, &n, brace))
        return -1;
    if (n && !rtm_bvh_is_kw(s, n, "Site"))
        return rtm_bvh_fail(r, "'End %s' where End Site was expected", rtm_bvh_shown(s, n, t));
    if (h->j[cur].has_end)
        return rtm_bvh_fail(r, "a second End Site in joint '%s'", h->names.p + h->noff[cur]);
    h->j[cur].has_end = 1;
    return 0;
}

/* Reads from after HIERARCHY to the root's closing brace. */
static int read_joints(struct hier *h, struct rd *r)
{
    int32_t cur = -1;
    uint32_t depth = 0;
    int in_end = 0, want_brace = 0;
    const uint8_t *w;
    char t[48];
    for (;;) {
        size_t n = rtm_bvh_word(r, &w);
        const char *whose = cur >= 0 ? h->names.p + h->noff[cur] : "";
        if (!n)
            return rtm_bvh_fail_cut(r, "the hierarchy ends %s", cur < 0 ? "before its ROOT" : "inside a joint");
        if (want_brace && !rtm_bvh_is_kw(w, n, "{"))
            return rtm_bvh_fail_at(r, w, "'%s' where '{' was expected", rtm_bvh_shown(w, n, t));
        if (rtm_bvh_is_kw(w, n, "{")) {
            if (!want_brace)
                return rtm_bvh_fail_at(r, w, "a '{' that opens nothing");
            want_brace = 0;
        } else if (rtm_bvh_is_kw(w, n, "}")) {
            if (in_end) {
                if (!(h->seen[cur] & SEEN_END_OFFSET))
                    return rtm_bvh_fail(r, "the End Site of '%s' has no OFFSET", whose);
                in_end = 0;
                continue;
            }
            if (cur < 0)
                return rtm_bvh_fail_at(r, w, "a '}' that closes nothing");
            if (!(h->seen[cur] & SEEN_OFFSET))
                return rtm_bvh_fail(r, "joint '%s' has no OFFSET", whose);
            cur = h->j[cur].parent;
            depth--;
            if (cur < 0)
                return 0;
        } else if (rtm_bvh_is_kw(w, n, "ROOT") || rtm_bvh_is_kw(w, n, "JOINT")) {
            int root = (w[0] | 0x20) == 'r';
            if (root && h->n)
                return rtm_bvh_fail_at(r, w, "a second ROOT (one skeleton a file)");
            if (!root && (cur < 0 || in_end))
                return rtm_bvh_fail_at(r, w, "JOINT %s", cur < 0 ? "before ROOT" : "inside an End Site");
            if (depth == RTM_MOCAP_MAX_DEPTH)
                return rtm_bvh_fail_at(r, w, "joints nested deeper than %d", RTM_MOCAP_MAX_DEPTH);
            if (open_joint(h, r, cur, root ? "ROOT" : "JOINT", &want_brace))
                return -1;
            cur = (int32_t)h->n - 1;
            depth++;
            want_brace = !want_brace;
        } else if (cur < 0) {
            return rtm_bvh_fail_at(r, w, "'%s' where ROOT was expected", rtm_bvh_shown(w, n, t));
        } else if (rtm_bvh_is_kw(w, n, "End")) {
            if (in_end)
                return rtm_bvh_fail_at(r, w, "End Site inside an End Site");
            if (open_end(h, r, cur, &want_brace))
                return -1;
            in_end = 1;
            want_brace = !want_brace;
        } else if (rtm_bvh_is_kw(w, n, "OFFSET")) {
            unsigned bit = in_end ? SEEN_END_OFFSET : SEEN_OFFSET;
            if (h->seen[cur] & bit)
                return rtm_bvh_fail_at(r, w, "a second OFFSET in %s'%s'", in_end ? "the End Site of " : "",
                               whose);
            h->seen[cur] |= (uint8_t)bit;
            if (read_offset(r, in_end ? h->j[cur].end : h->j[cur].offset, whose))
                return -1;
        } else if (rtm_bvh_is_kw(w, n, "CHANNELS")) {
            if (in_end)
                return rtm_bvh_fail_at(r, w, "CHANNELS in the End Site of '%s'", whose);
            if (h->seen[cur] & SEEN_CHANNELS)
                return rtm_bvh_fail_at(r, w, "a second CHANNELS in '%s'", whose);
            h->seen[cur] |= SEEN_CHANNELS;
            if (read_channels(h, r, &h->j[cur], whose))
                return -1;
        } else {
            return rtm_bvh_fail_at(r, w, "'%s' is not a keyword of the hierarchy", rtm_bvh_shown(w, n, t));
        }
    }
}

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

/* No name twice (exact bytes), found in one pass over a hash table. */
static int check_names(const struct rtm_mocap *m, struct rd *r)
{
    uint32_t size = 64;
    while (size < 2 * m->njoints)
        size *= 2;
    uint32_t *slot = calloc(size, sizeof *slot);
    if (!slot) {
        rtm_err_oom(r->err, "out of memory for %u joint names", m->njoints);
        return -1;
    }
    int rc = 0;
    for (uint32_t i = 0; i < m->njoints && !rc; i++) {
        uint32_t k = name_hash(m->joint[i].name) & (size - 1);
        for (; slot[k]; k = (k + 1) & (size - 1)) {
            const struct rtm_mocap_joint *o = &m->joint[slot[k] - 1];
            if (strcmp(o->name, m->joint[i].name) == 0) {
                char t[48];
                const char *nm = m->joint[i].name;
                rtm_err_nooff(r->err, "line %u: joint '%s' is named twice (first on line %u)",
                              m->joint[i].line, rtm_bvh_shown((const uint8_t *)nm, strlen(nm), t),
                              o->line);
                rc = -1;
                break;
            }
        }
        slot[k] = i + 1;
    }
    free(slot);
    return rc;
}

/* HIERARCHY ... the root's '}', into m (joints and names). */
static int read_hierarchy(struct rd *r, struct rtm_mocap *m)
{
    const uint8_t *w;
    char t[48];
    if (r->end - r->p >= 3 && memcmp(r->p, "\xef\xbb\xbf", 3) == 0)
        r->p += 3;      /* a UTF-8 byte order mark, as Windows tools write */
    size_t n = rtm_bvh_word(r, &w);
    if (!n)
        return rtm_bvh_fail_cut(r, "no HIERARCHY: the text is empty");
    if (!rtm_bvh_is_kw(w, n, "HIERARCHY"))
        return rtm_bvh_fail_at(r, w, "'%s' where HIERARCHY was expected", rtm_bvh_shown(w, n, t));
    struct hier h = { 0 };
    rtm_buf_init(&h.names);
    int rc = read_joints(&h, r);
    free(h.seen);
    m->joint = h.j;
    m->njoints = h.n;
    m->nvalues = h.nvalues;
    m->arena = rtm_buf_take(&h.names, &n);
    for (uint32_t i = 0; i < h.n; i++)
        m->joint[i].name = m->arena + h.noff[i];
    free(h.noff);
    return rc ? rc : check_names(m, r);
}

/* ---- the motion ---- */

/* A label word ("Frames", "Frame Time") and its optional colon. */
static int label(struct rd *r, const char *a, const char *b)
{
    const uint8_t *w;
    char t[48];
    size_t n = rtm_bvh_word(r, &w);
    if (!n)
        return rtm_bvh_fail_cut(r, "the text ends before '%s%s%s:'", a, b ? " " : "", b ? b : "");
    if (!rtm_bvh_is_kw(w, n, a) || (b && !rtm_bvh_is_kw(w, n = rtm_bvh_word_here(r, &w), b)))
        return rtm_bvh_fail_at(r, w, "'%s' where '%s%s%s:' was expected", rtm_bvh_shown(w, n, t), a, b ? " " : "",
                       b ? b : "");
    skip_blanks(r);
    if (r->p < r->end && *r->p == ':')
        r->p++;
    skip_blanks(r);
    if (at_eol(r))
        return rtm_bvh_fail(r, "'%s%s%s:' without a value", a, b ? " " : "", b ? b : "");
    return 0;
}

static int end_of_line(struct rd *r, const char *what)
{
    skip_blanks(r);
    if (!at_eol(r))
        return rtm_bvh_fail_at(r, r->p, "text after %s", what);
    if (r->p < r->end)
        eat_eol(r);
    return 0;
}

/* MOTION, Frames: N, Frame Time: T; rest is the bytes the rows may use. */
static int read_motion_head(struct rd *r, struct rtm_mocap *m, uint64_t file_size)
{
    const uint8_t *w;
    char t[48];
    size_t n = rtm_bvh_word(r, &w);
    if (!n)
        return rtm_bvh_fail_cut(r, "the text ends before MOTION");
    if (!rtm_bvh_is_kw(w, n, "MOTION"))
        return rtm_bvh_fail_at(r, w, rtm_bvh_is_kw(w, n, "ROOT") ? "a second ROOT (one skeleton a file)"
                                                 : "'%s' where MOTION was expected",
                       rtm_bvh_shown(w, n, t));
    if (label(r, "Frames", NULL))
        return -1;
    uint32_t frames_line = r->line;
    if (rtm_bvh_count(r, &m->nframes, "Frames"))
        return -1;
    if (m->nframes == 0)
        return rtm_bvh_fail(r, "Frames: 0: no motion");
    if (end_of_line(r, "the frame count"))
        return -1;
    if (label(r, "Frame", "Time") || rtm_bvh_num(r, &m->frame_time, "Frame Time"))
        return -1;
    if (!(m->frame_time > 0))
        return rtm_bvh_fail(r, "Frame Time %g: it must be more than 0", m->frame_time);
    if (end_of_line(r, "the frame time"))
        return -1;
    m->motion_at = (uint64_t)(r->p - r->base);
    if (m->nvalues == 0)
        return rtm_bvh_fail(r, "no joint has CHANNELS: the motion holds nothing");
    /* Each value takes a byte and a blank or line end after it, but the last. */
    uint64_t least = (uint64_t)m->nframes * m->nvalues * 2 - 1;
    uint64_t left = file_size > m->motion_at ? file_size - m->motion_at : 0;
    if (least > left) {
        r->line = frames_line; /* the count is what is wrong, or the file cut */
        return rtm_bvh_fail(r, "Frames says %u frames of %u values, at least %llu bytes; %llu "
                               "follow (cut short?)", m->nframes, m->nvalues,
                            (unsigned long long)least, (unsigned long long)left);
    }
    return 0;
}

/* The rows: one line of nvalues numbers a frame. */
static int read_rows(struct rd *r, struct rtm_mocap *m)
{
    double *v = m->values;
    const uint32_t nv = m->nvalues;
    for (uint32_t f = 0; f < m->nframes; f++) {
        skip_space(r);
        if (r->p == r->end)
            return rtm_bvh_fail(r, "the motion ends after %u of %u frames (cut short?)", f, m->nframes);
        for (uint32_t k = 0; k < nv; k++, v++) {
            skip_blanks(r);
            if (at_eol(r))
                return rtm_bvh_fail(r, "frame %u has %u values; its channels take %u", f, k, nv);
            if (rtm_bvh_num(r, v, "a value"))
                return -1;
        }
        skip_blanks(r);
        if (!at_eol(r))
            return rtm_bvh_fail_at(r, r->p, "frame %u has more than the %u values its channels take", f,
                           nv);
    }
    skip_space(r);
    if (r->p != r->end)
        return rtm_bvh_fail(r, "text after the last frame: Frames says %u", m->nframes);
    return 0;
}

/* ---- the entry points ---- */

void rtm_mocap_free(struct rtm_mocap *m)
{
    if (!m)
        return;
    free(m->joint);
    free(m->arena);
    free(m->values);
    free(m);
}

int rtm_mocap_sniff(const uint8_t *data, size_t len)
{
    size_t i = len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
    while (i < len && (is_blank(data[i]) || is_eol(data[i])))
        i++;
    return len - i >= 9 && rtm_bvh_is_kw(data + i, 9, "HIERARCHY") &&
           (len - i == 9 || is_blank(data[i + 9]) || is_eol(data[i + 9]));
}

/* The head's text: with more of the file to come, only whole lines (so
 * that no word is read cut), else all of it. */
static size_t head_end(const uint8_t *data, size_t len, uint64_t file_size, unsigned flags)
{
    if (!(flags & RTM_MOCAP_HEAD) || len >= file_size)
        return len;
    size_t all = len;
    /* A CR that ends the bytes may be half a CRLF: that line is not whole. */
    while (len > 0 && (!is_eol(data[len - 1]) || (len == all && data[len - 1] == '\r')))
        len--;
    return len;
}

int rtm_mocap_read(const uint8_t *data, size_t len, uint64_t file_size, unsigned flags,
                   struct rtm_mocap **out, uint64_t *need, struct rtm_error *err)
{
    *out = NULL;
    if (!(flags & RTM_MOCAP_HEAD) || file_size < len)
        file_size = len;
    struct rd r = { data, data, data + head_end(data, len, file_size, flags), 1, data, 0, err };
    struct rtm_mocap *m = calloc(1, sizeof *m);
    if (!m) {
        rtm_err_oom(err, "out of memory for a BVH file");
        return -1;
    }
    int rc = read_hierarchy(&r, m);
    if (!rc)
        rc = read_motion_head(&r, m, file_size);
    if (!rc && !(flags & RTM_MOCAP_HEAD)) {
        m->values = malloc((size_t)m->nframes * m->nvalues * sizeof *m->values);
        if (!m->values) {
            rtm_err_oom(err, "out of memory for %u frames of %u values", m->nframes, m->nvalues);
            rc = -1;
        } else {
            rc = read_rows(&r, m);
        }
    }
    if (rc) {
        rtm_mocap_free(m);
        if (r.cut && len < file_size) {
            if (need) {
                uint64_t want = len + (len > 65536 ? len : 65536);
                *need = want < file_size ? want : file_size;
            }
            return RTM_PARSE_NEED_MORE;
        }
        return -1;
    }
    *out = m;
    return 0;
}
