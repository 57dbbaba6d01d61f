/* shared_opts.c - the options both programs take (shared_opts.h): one
 * row an option, the rendering key they make, and the usage list of
 * views. */
#include "shared_opts.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fileid.h"
#include "mocap.h"
#include "views.h"

/* Reads value into o: 0, or -1 when it is not one the option takes. */
typedef int shared_parse_fn(struct rtm_shared_opts *o, const char *value);

struct shared_row {
    const char *name;           /* as rtmfs spells it; rtmcat writes '-' for '_' */
    const char *expects;        /* said after a bad value */
    shared_parse_fn *parse;
};

static int parse_skeleton(struct rtm_shared_opts *o, const char *value)
{
    o->skeleton = value;        /* opened, and judged, by rtm_skeleton_open */
    return 0;
}

static int parse_digits(struct rtm_shared_opts *o, const char *value)
{
    return (o->digits = rtm_digits_parse(value)) < 0 ? -1 : 0;
}

static int parse_bvh_unit(struct rtm_shared_opts *o, const char *value)
{
    return rtm_mocap_unit_parse(value, &o->mocap.unit) ? -1 : 0;
}

static int parse_bvh_fps(struct rtm_shared_opts *o, const char *value)
{
    char *end;
    o->mocap.fps = strtod(value, &end);
    return *end || !(o->mocap.fps > 0 && o->mocap.fps <= 1000) ? -1 : 0;
}

static const struct shared_row SHARED[] = {
    { "skeleton", "", parse_skeleton },
    { "digits", RTM_DIGITS_HELP, parse_digits },
    { "bvh_unit", "m, cm, mm, in, cmu or metres", parse_bvh_unit },
    { "bvh_fps", "frames a second, above 0, at most 1000", parse_bvh_fps },
};

/* Whether name is row's, '-' standing for '_'. */
static int named(const struct shared_row *row, const char *name)
{
    const char *r = row->name;
    for (; *r && (*name == *r || (*name == '-' && *r == '_')); r++, name++)
        ;
    return !*r && !*name;
}

int rtm_shared_opt_set(struct rtm_shared_opts *o, const char *name, const char *value,
                       char *msg, size_t n)
{
    for (size_t i = 0; i < sizeof SHARED / sizeof *SHARED; i++) {
        if (!named(&SHARED[i], name))
            continue;
        if (SHARED[i].parse(o, value) == 0)
            return 0;
        snprintf(msg, n, "bad %s '%s' (%s)", name, value, SHARED[i].expects);
        return -1;
    }
    return 1;
}

const char *rtm_shared_skeleton(const struct rtm_shared_opts *o)
{
    return o->skeleton ? o->skeleton : RTM_SKELETON_DEFAULT;
}

/* ---- the rendering key ---- */

/* How the key names the skeleton: a model.cfg's identity, class and
 * bones; a built-in one's name; or "file" and the file's identity. */
static int put_skeleton(char *out, size_t n, const struct rtm_shared_opts *o,
                        const struct rtm_skeleton *skel)
{
    const char *spec = rtm_shared_skeleton(o);
    if (skel->render_id)
        return snprintf(out, n, "%s", skel->render_id);
    if (rtm_skeleton_is_builtin(spec))
        return snprintf(out, n, "%s", spec);
    struct stat st;
    struct rtm_fileid id = stat(spec, &st) ? RTM_FILEID_NONE : rtm_fileid_of(&st);
    return snprintf(out, n, "file@%llu:%llu:%llu:%lld:%lld",
                    (unsigned long long)id.dev, (unsigned long long)id.ino,
                    (unsigned long long)id.size, (long long)id.mtime_ns, (long long)id.ctime_ns);
}

void rtm_render_key(char *out, size_t n, const struct rtm_shared_opts *o,
                    const struct rtm_skeleton *skel)
{
    int k = snprintf(out, n, "v=%d digits=%d skeleton=", RTM_RENDER_VERSION, o->digits);
    if (k >= 0 && (size_t)k < n)
        k += put_skeleton(out + k, n - (size_t)k, o, skel);
    if (k >= 0 && (size_t)k < n)
        snprintf(out + k, n - (size_t)k, " bvh_unit=%.17g bvh_fps=%.17g", o->mocap.unit,
                 o->mocap.fps);
}

/* ---- the usage list of views ---- */

/* Appends name to a wrapped list: *col is the column reached. */
static void put_name(FILE *f, const char *name, const char *indent, size_t *col, int first)
{
    size_t len = strlen(name);
    if (!first && *col + 1 + len >= 80) {
        fprintf(f, "\n%s", indent);
        *col = strlen(indent);
    } else if (!first) {
        fputc(' ', f);
        (*col)++;
    }
    fputs(name, f);
    *col += len;
}

void rtm_views_usage(FILE *f, const char *lead, const char *indent)
{
    size_t col = strlen(lead);
    int first = 1;
    fputs(lead, f);
    for (int k = 0; k < RTM_NVIEW_KINDS; k++) {
        int pivots;
        const char *name = rtm_view_usage_name((enum rtm_view_kind)k, &pivots);
        if (!pivots)
            put_name(f, name, indent, &col, first), first = 0;
        if (k + 1 == RTM_NFIXED_VIEWS)  /* the tree's file beside the views */
            put_name(f, "states.txt", indent, &col, first), first = 0;
    }
    fprintf(f, "\n%s", indent);
    col = strlen(indent);
    first = 1;
    for (int k = 0; k < RTM_NVIEW_KINDS; k++) {
        int pivots;
        const char *name = rtm_view_usage_name((enum rtm_view_kind)k, &pivots);
        if (pivots)
            put_name(f, name, indent, &col, first), first = 0;
    }
    fputs(" (with a skeleton that has pivots)\n", f);
}
