/* skeleton.c - the built-in OFP2_ManSkeleton and the skeleton file reader. */
#include "skeleton.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <ctype.h>

/* Arma 3 OFP2_ManSkeleton as shipped by armaio (FORMAT.md 6.3), parents first. */
static const char OFP2_TEXT[] =
    "Pelvis - Spine Pelvis Spine1 Spine Spine2 Spine1 Spine3 Spine2 Camera Pelvis\n"
    "weapon Spine1 launcher Spine1 neck Spine3 neck1 neck head neck1\n"
    "Face_Hub head Face_Jawbone Face_Hub Face_Jowl Face_Jawbone\n"
    "Face_chopRight Face_Jawbone Face_chopLeft Face_Jawbone\n"
    "Face_LipLowerMiddle Face_Jawbone Face_LipLowerLeft Face_Jawbone\n"
    "Face_LipLowerRight Face_Jawbone Face_Chin Face_Jawbone Face_Tongue Face_Jawbone\n"
    "Face_CornerRight Face_Hub Face_CheekSideRight Face_CornerRight\n"
    "Face_CornerLeft Face_Hub Face_CheekSideLeft Face_CornerLeft\n"
    "Face_CheekFrontRight Face_Hub Face_CheekFrontLeft Face_Hub\n"
    "Face_CheekUpperRight Face_Hub Face_CheekUpperLeft Face_Hub\n"
    "Face_LipUpperMiddle Face_Hub Face_LipUpperRight Face_Hub Face_LipUpperLeft Face_Hub\n"
    "Face_NostrilRight Face_Hub Face_NostrilLeft Face_Hub Face_Forehead Face_Hub\n"
    "Face_BrowFrontRight Face_Forehead Face_BrowFrontLeft Face_Forehead\n"
    "Face_BrowMiddle Face_Forehead Face_BrowSideRight Face_Forehead\n"
    "Face_BrowSideLeft Face_Forehead Face_Eyelids Face_Hub\n"
    "Face_EyelidUpperRight Face_Hub Face_EyelidUpperLeft Face_Hub\n"
    "Face_EyelidLowerRight Face_Hub Face_EyelidLowerLeft Face_Hub\n"
    "EyeLeft Face_Hub EyeRight Face_Hub\n"
    "LeftShoulder Spine3 LeftArm LeftShoulder LeftArmRoll LeftArm\n"
    "LeftForeArm LeftArmRoll LeftForeArmRoll LeftForeArm LeftHand LeftForeArmRoll\n"
    "LeftHandRing LeftHand LeftHandRing1 LeftHandRing LeftHandRing2 LeftHandRing1\n"
    "LeftHandRing3 LeftHandRing2 LeftHandPinky1 LeftHandRing\n"
    "LeftHandPinky2 LeftHandPinky1 LeftHandPinky3 LeftHandPinky2\n"
    "LeftHandMiddle1 LeftHand LeftHandMiddle2 LeftHandMiddle1\n"
    "LeftHandMiddle3 LeftHandMiddle2 LeftHandIndex1 LeftHand\n"
    "LeftHandIndex2 LeftHandIndex1 LeftHandIndex3 LeftHandIndex2\n"
    "LeftHandThumb1 LeftHand LeftHandThumb2 LeftHandThumb1 LeftHandThumb3 LeftHandThumb2\n"
    "RightShoulder Spine3 RightArm RightShoulder RightArmRoll RightArm\n"
    "RightForeArm RightArmRoll RightForeArmRoll RightForeArm RightHand RightForeArmRoll\n"
    "RightHandRing RightHand RightHandRing1 RightHandRing RightHandRing2 RightHandRing1\n"
    "RightHandRing3 RightHandRing2 RightHandPinky1 RightHandRing\n"
    "RightHandPinky2 RightHandPinky1 RightHandPinky3 RightHandPinky2\n"
    "RightHandMiddle1 RightHand RightHandMiddle2 RightHandMiddle1\n"
    "RightHandMiddle3 RightHandMiddle2 RightHandIndex1 RightHand\n"
    "RightHandIndex2 RightHandIndex1 RightHandIndex3 RightHandIndex2\n"
    "RightHandThumb1 RightHand RightHandThumb2 RightHandThumb1 RightHandThumb3 RightHandThumb2\n"
    "LeftUpLeg Pelvis LeftUpLegRoll LeftUpLeg LeftLeg LeftUpLegRoll LeftLegRoll LeftLeg\n"
    "LeftFoot LeftLegRoll LeftToeBase LeftFoot RightUpLeg Pelvis RightUpLegRoll RightUpLeg\n"
    "RightLeg RightUpLegRoll RightLegRoll RightLeg RightFoot RightLegRoll\n"
    "RightToeBase RightFoot\n";

enum { SKEL_MAX_NAME = 255, SKEL_MAX_BONES = 4096 };

void rtm_skeleton_free(struct rtm_skeleton *s)
{
    if (!s)
        return;
    for (uint32_t i = 0; i < s->nbones; i++)
        free(s->bone[i]);
    free(s->bone);
    free(s->parent);
    free(s->sorted);
    free(s->name);
    free(s);
}

/* ASCII case-insensitive order of (name, len) against a C string. */
static int name_cmp(const char *name, size_t len, const char *bone)
{
    for (size_t i = 0; i < len; i++) {
        int a = tolower((unsigned char)name[i]), b = tolower((unsigned char)bone[i]);
        if (a != b || b == 0)
            return a - b;
    }
    return bone[len] ? -1 : 0;
}

/* Binary search over the name-sorted index, built when the skeleton is. */
int32_t rtm_skeleton_find(const struct rtm_skeleton *s, const char *name, size_t len)
{
    uint32_t lo = 0, hi = s->nbones;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int c = name_cmp(name, len, s->bone[s->sorted[mid]]);
        if (c == 0)
            return (int32_t)s->sorted[mid];
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return -1;
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

static int skel_add(struct rtm_skeleton *s, const char *bone, size_t blen, int32_t parent)
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
    uint32_t *ns = realloc(s->sorted, (s->nbones + 1) * sizeof *ns);
    if (!ns)
        return -1;
    s->sorted = ns;
    if (!(s->bone[s->nbones] = strndup(bone, blen)))
        return -1;
    s->parent[s->nbones] = parent;
    /* insertion keeps sorted[] ordered; skeletons are small (<= 4096) */
    uint32_t at = s->nbones;
    while (at > 0 && name_cmp(bone, blen, s->bone[s->sorted[at - 1]]) < 0) {
        s->sorted[at] = s->sorted[at - 1];
        at--;
    }
    s->sorted[at] = s->nbones++;
    return 0;
}

/* Next whitespace-separated word on the current line; stops at '#'. */
static int next_word(const char **p, const char *end, const char **w, size_t *wlen)
{
    const char *q = *p;
    while (q < end && (*q == ' ' || *q == '\t' || *q == '\r'))
        q++;
    if (q >= end || *q == '\n' || *q == '#') {
        *p = q;
        return 0;
    }
    *w = q;
    while (q < end && *q != ' ' && *q != '\t' && *q != '\r' && *q != '\n' && *q != '#')
        q++;
    *wlen = (size_t)(q - *w);
    *p = q;
    return 1;
}

static int parse_pair(struct rtm_skeleton *s, const char *bone, size_t blen,
                      const char *par, size_t plen, uint64_t line,
                      struct rtm_error *err)
{
    if (blen > SKEL_MAX_NAME || plen > SKEL_MAX_NAME) {
        rtm_err_nooff(err, "line %llu: bone name longer than %d bytes",
                      (unsigned long long)line, SKEL_MAX_NAME);
        return -1;
    }
    if (rtm_skeleton_find(s, bone, blen) >= 0) {
        rtm_err_nooff(err, "line %llu: bone '%.*s' listed twice",
                      (unsigned long long)line, (int)blen, bone);
        return -1;
    }
    int32_t parent = -1;
    if (!(plen == 1 && par[0] == '-')) {
        parent = rtm_skeleton_find(s, par, plen);
        if (parent < 0) {
            rtm_err_nooff(err, "line %llu: parent '%.*s' of '%.*s' is not listed "
                          "on an earlier line", (unsigned long long)line,
                          (int)plen, par, (int)blen, bone);
            return -1;
        }
    }
    if (skel_add(s, bone, blen, parent)) {
        rtm_err_nooff(err, "line %llu: out of memory or too many bones",
                      (unsigned long long)line);
        return -1;
    }
    return 0;
}

/* The text is a sequence of "bone parent" pairs.  A file has one pair a line;
 * the built-in table packs several pairs a line, which the same reader takes. */
int rtm_skeleton_parse(const char *text, size_t len, const char *name,
                       struct rtm_skeleton **out, struct rtm_error *err)
{
    struct rtm_skeleton *s = skel_new(name);
    *out = NULL;
    if (!s) {
        rtm_err_oom(err, "out of memory");
        return -1;
    }
    const char *p = text, *end = text + len;
    uint64_t line = 1;
    if (memchr(text, 0, len)) {
        rtm_err_nooff(err, "a NUL byte: this is not a text file");
        goto fail;
    }
    while (p < end) {
        const char *b, *par;
        size_t blen, plen;
        while (next_word(&p, end, &b, &blen)) {
            if (!next_word(&p, end, &par, &plen)) {
                rtm_err_nooff(err, "line %llu: bone '%.*s' has no parent "
                              "(write '-' for a root)", (unsigned long long)line,
                              (int)(blen > 64 ? 64 : blen), b);
                goto fail;
            }
            if (parse_pair(s, b, blen, par, plen, line, err))
                goto fail;
        }
        while (p < end && *p != '\n')
            p++;
        if (p < end) {
            p++;
            line++;
        }
    }
    *out = s;
    return 0;
fail:
    rtm_skeleton_free(s);
    return -1;
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
    buf_init(&b);
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_put(&b, chunk, n);
    int bad = ferror(f);
    fclose(f);
    if (bad || b.oom) {
        rtm_err_nooff(err, "skeleton '%s': %s", path, bad ? "read error" : "out of memory");
        buf_free(&b);
        return -1;
    }
    *text = buf_take(&b, len);
    return 0;
}

int rtm_skeleton_open(const char *spec, struct rtm_skeleton **out, struct rtm_error *err)
{
    *out = NULL;
    if (strcasecmp(spec, "none") == 0) {
        if (!(*out = skel_new("none"))) {
            rtm_err_oom(err, "out of memory");
            return -1;
        }
        return 0;
    }
    if (strcasecmp(spec, "ofp2") == 0)
        return rtm_skeleton_parse(OFP2_TEXT, sizeof OFP2_TEXT - 1, "ofp2", out, err);
    char *text = NULL;
    size_t len = 0;
    if (read_file(spec, &text, &len, err))
        return -1;
    struct rtm_error e2;
    int rc = rtm_skeleton_parse(text ? text : "", len, spec, out, &e2);
    free(text);
    if (rc)
        rtm_err_nooff(err, "skeleton '%s': %s", spec, e2.msg);
    return rc;
}
