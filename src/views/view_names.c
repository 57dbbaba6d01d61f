/* view_names.c - the files in an animation's folders (views.h): how many
 * each folder holds, their names, and the names back to a frame or bone.
 * The view table (view_table.c) names these for frames/, joints/ and
 * tracks/; the fixed views' names are in the table itself. */
#include "view_rows.h"

#include <string.h>

#include "names.h"

uint32_t count_frames(const struct rtm_anim *a)
{
    return a->nframes;
}

uint32_t count_joints(const struct rtm_anim *a)
{
    return a->pivot ? a->nframes : 0;
}

uint32_t count_tracks(const struct rtm_anim *a)
{
    return a->tracks ? a->tracks->n : 0;
}

/* NNN: wide enough for the last frame, and at least 3 digits. */
static int frame_width(const struct rtm_anim *a)
{
    int w = 1;
    for (uint32_t n = a->nframes ? a->nframes - 1 : 0; n >= 10; n /= 10)
        w++;
    return w < 3 ? 3 : w;
}

/* Written by hand, not by snprintf: a walk lists every frame of every
 * animation it enters (grep -r of a first mount: frames/ and joints/),
 * and printf took 7 % of the daemon's time there. */
void rtm_frame_name(const struct rtm_anim *a, uint32_t frame, char *buf)
{
    int w = frame_width(a);             /* <= 10: a uint32_t's digits */
    for (int i = w - 1; i >= 0; i--, frame /= 10)
        buf[i] = (char)('0' + frame % 10);
    memcpy(buf + w, ".csv", sizeof ".csv");
}

void frame_entry_name(const struct rtm_anim *a, uint32_t i, char *buf)
{
    rtm_frame_name(a, i, buf);
}

/* As snprintf's "%s.csv" into RTM_VIEW_NAME_MAX bytes, cut the same way
 * (a form is far shorter: names.h's rule), without printf (above). */
void track_entry_name(const struct rtm_anim *a, uint32_t i, char *buf)
{
    const char *form = a->tracks->form[i];
    size_t n = strnlen(form, RTM_VIEW_NAME_MAX), all = n + sizeof ".csv" - 1;
    size_t keep = all < RTM_VIEW_NAME_MAX ? all : RTM_VIEW_NAME_MAX - 1;
    memcpy(buf, form, keep < n ? keep : n);
    if (keep > n)
        memcpy(buf + n, ".csv", keep - n);
    buf[keep] = 0;
}

int rtm_frame_lookup(const struct rtm_anim *a, const char *name, uint32_t *frame)
{
    size_t w = (size_t)frame_width(a);
    if (strlen(name) != w + 4 || strcmp(name + w, ".csv") != 0)
        return -1;
    uint64_t n = 0;
    for (size_t i = 0; i < w; i++) {
        if (name[i] < '0' || name[i] > '9')
            return -1;
        n = n * 10 + (uint64_t)(name[i] - '0');
    }
    if (n >= a->nframes)
        return -1;
    *frame = (uint32_t)n;
    return 0;
}

/* NAME.csv, NAME found exactly or ignoring case (names.h's file rule). */
int track_entry_lookup(const struct rtm_anim *a, const char *name, uint32_t *bone)
{
    size_t n = strlen(name);
    if (!a->tracks || n < 4 || strcmp(name + n - 4, ".csv") != 0)
        return -1;
    int64_t k = rtm_names_find(a->tracks, name, n - 4);
    if (k < 0)
        return -1;
    *bone = (uint32_t)k;
    return 0;
}
