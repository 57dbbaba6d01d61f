/* repair.c - fixed.rtm (repair.h): which bones the repaired file keeps and
 * what it names them, its bytes, and header.txt's line that says so. */
#include "repair.h"

#include <stdlib.h>
#include <string.h>

#include "format_table.h"
#include "numfmt.h"

/* header.txt names this many bones of each fate, then counts the rest. */
enum { NAMED_MAX = 8 };

static int ascii_lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

int rtm_name_casecmp(const char *x, size_t nx, const char *y, size_t ny)
{
    for (size_t i = 0; i < nx && i < ny; i++) {
        int d = ascii_lower((unsigned char)x[i]) - ascii_lower((unsigned char)y[i]);
        if (d)
            return d;
    }
    return nx < ny ? -1 : nx > ny;
}

int rtm_anim_skeleton_match(const struct rtm_anim *a, const char **sk, int32_t *match)
{
    size_t *len = malloc((a->skel_nbones ? a->skel_nbones : 1) * sizeof *len);
    if (!len)
        return -1;
    const char *p = a->skel_names;
    for (uint32_t k = 0; k < a->skel_nbones; k++, p += len[k - 1] + 1) {
        sk[k] = p;
        len[k] = strlen(p);
    }
    for (uint32_t b = 0; b < a->nbones; b++) {
        match[b] = -1;
        for (uint32_t k = 0; k < a->skel_nbones && match[b] < 0; k++)
            if (len[k] == a->bones[b].len &&        /* only names of one length match */
                rtm_name_casecmp(a->bones[b].s, a->bones[b].len, sk[k], len[k]) == 0)
                match[b] = (int32_t)k;
    }
    free(len);
    return 0;
}

static int is_helper(struct rtm_str s)
{
    static const char TAIL[] = "_end";
    size_t n = sizeof TAIL - 1;
    return s.len >= n && rtm_name_casecmp(s.s + s.len - n, n, TAIL, n) == 0;
}

void rtm_repair_free(struct rtm_repair *r)
{
    free(r->bone);
    free(r->name);
    free(r->fate);
    memset(r, 0, sizeof *r);
}

/* Each bone's fate from its skeleton bone (match), the first of a name
 * kept (taken: skel_nbones flags). */
static void decide(const struct rtm_anim *a, const char **sk, const int32_t *match,
                   uint8_t *taken, struct rtm_repair *r)
{
    for (uint32_t b = 0; b < a->nbones; b++) {
        int32_t k = match[b];
        enum rtm_repair_fate f;
        if (k < 0)
            f = is_helper(a->bones[b]) ? RTM_REPAIR_HELPER : RTM_REPAIR_FOREIGN;
        else if (taken[k])
            f = RTM_REPAIR_DUPLICATE;
        else if (strlen(sk[k]) != a->bones[b].len || memcmp(sk[k], a->bones[b].s, a->bones[b].len))
            f = RTM_REPAIR_RENAMED;
        else
            f = RTM_REPAIR_KEPT;
        if (k >= 0 && !taken[k]) {
            taken[k] = 1;
            r->bone[r->n] = b;
            r->name[r->n++] = (struct rtm_str){ sk[k], (uint32_t)strlen(sk[k]) };
        }
        r->fate[b] = (uint8_t)f;
        r->count[f]++;
    }
}

int rtm_repair_plan(const struct rtm_anim *a, struct rtm_repair *r)
{
    memset(r, 0, sizeof *r);
    size_t nb = a->nbones ? a->nbones : 1;
    r->fate = calloc(nb, 1);
    if (!r->fate)
        return -1;
    if (!a->skel_names) {               /* nothing to check against: all kept */
        r->count[RTM_REPAIR_KEPT] = a->nbones;
        return 0;
    }
    r->skeleton = 1;
    size_t nsk = a->skel_nbones ? a->skel_nbones : 1;
    const char **sk = malloc(nsk * sizeof *sk);
    int32_t *match = malloc(nb * sizeof *match);
    uint8_t *taken = calloc(nsk, 1);
    r->bone = malloc(nb * sizeof *r->bone);
    r->name = malloc(nb * sizeof *r->name);
    int rc = sk && match && taken && r->bone && r->name ? rtm_anim_skeleton_match(a, sk, match) : -1;
    if (rc == 0)
        decide(a, sk, match, taken, r);
    free(sk);
    free(match);
    free(taken);
    if (rc)
        rtm_repair_free(r);
    return rc;
}

int rtm_repair_changes(const struct rtm_repair *r)
{
    return r->skeleton && (r->count[RTM_REPAIR_RENAMED] || r->count[RTM_REPAIR_FOREIGN] ||
                           r->count[RTM_REPAIR_HELPER] || r->count[RTM_REPAIR_DUPLICATE]);
}

int rtm_repair_write(const struct rtm_anim *a, struct rtm_buf *out)
{
    struct rtm_repair r;
    if (rtm_repair_plan(a, &r))
        return -1;
    int rc;
    if (!rtm_repair_changes(&r))        /* plain.rtm: the file's own, or written */
        rc = rtm_format_of(a)->is_plain_rtm && a->source
                 ? (rtm_buf_put(out, a->source, a->source_bytes), out->oom ? -1 : 0)
                 : rtm_write_plain(a, out);
    else
        rc = rtm_write_plain_bones(a, r.bone, r.name, r.n, out);
    rtm_repair_free(&r);
    return rc;
}

/* "3 not in the skeleton (a, b, c)": the bones of fate f, NAMED_MAX by
 * name, after sep when there were others before. */
static void put_fate(const struct rtm_anim *a, const struct rtm_repair *r,
                     enum rtm_repair_fate f, const char *one, const char *many, int *any,
                     struct rtm_buf *b)
{
    if (!r->count[f])
        return;
    rtm_buf_printf(b, "%s%u %s (", *any ? ", " : "", r->count[f], r->count[f] == 1 ? one : many);
    *any = 1;
    uint32_t named = 0, kept = 0;
    for (uint32_t i = 0; i < a->nbones; i++) {
        if (r->fate[i] == f && named < NAMED_MAX) {
            rtm_buf_puts(b, named++ ? ", " : "");
            rtm_put_name(b, a->bones[i]);
            if (f == RTM_REPAIR_RENAMED) {
                rtm_buf_puts(b, " as ");
                rtm_put_name(b, r->name[kept]);
            }
        }
        kept += r->fate[i] == RTM_REPAIR_KEPT || r->fate[i] == RTM_REPAIR_RENAMED;
    }
    if (r->count[f] > named)
        rtm_buf_printf(b, " and %u more", r->count[f] - named);
    rtm_buf_putc(b, ')');
}

void rtm_repair_put_header(const struct rtm_anim *a, struct rtm_buf *b)
{
    struct rtm_repair r;
    if (rtm_repair_plan(a, &r)) {
        b->oom = 1;
        return;
    }
    if (!r.skeleton) {
        rtm_buf_puts(b, "fixed: nothing: no skeleton to check the bones against (skeleton none), "
                        "so fixed.rtm is plain.rtm\n");
    } else if (!rtm_repair_changes(&r)) {
        rtm_buf_puts(b, "fixed: nothing to fix: fixed.rtm is plain.rtm\n");
    } else {
        int any = 0;
        rtm_buf_printf(b, "fixed: fixed.rtm keeps %u of %u bones", r.n, a->nbones);
        if (r.n < a->nbones)
            rtm_buf_puts(b, "; left out: ");
        put_fate(a, &r, RTM_REPAIR_FOREIGN, "not in the skeleton", "not in the skeleton", &any,
                 b);
        put_fate(a, &r, RTM_REPAIR_HELPER, "exporter's _end helper", "exporter's _end helpers",
                 &any, b);
        put_fate(a, &r, RTM_REPAIR_DUPLICATE, "repeating an earlier bone's name",
                 "repeating an earlier bone's name", &any, b);
        any = 0;
        if (r.count[RTM_REPAIR_RENAMED])
            rtm_buf_puts(b, "; renamed as the skeleton names them: ");
        put_fate(a, &r, RTM_REPAIR_RENAMED, "bone", "bones", &any, b);
        rtm_buf_putc(b, '\n');
    }
    rtm_repair_free(&r);
}
