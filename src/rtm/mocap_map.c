/* mocap_map.c - which bone of a skeleton each BVH joint stands for
 * (mocap.h, rtm_mocap_map), and the unit a file's numbers are in.
 *
 * The namings are tables of "source name -> man bone" (ofp2's names, then
 * looked up in the skeleton at hand).  In a source pattern '<' stands for
 * Left or Right and '@' for L or R; in a target '<' for Left or Right.
 * A target "-" is a joint the naming knows to have no counterpart;
 * "#spine" and "#neck" are the joints of the spine and the neck, given the
 * man's Spine..Spine3 and neck, neck1 in their order from the root (so
 * that LowerBack Spine Spine1 and Spine Spine1 Spine2 both fill Spine,
 * Spine1, Spine2).  The suffix styles are parsed, not listed. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mocap.h"
#include "skeleton.h"

struct pat {
    const char *src, *dst;
};

#define FINGERS(S, D)                                                                      \
    { S "Thumb1", D "Thumb1" }, { S "Thumb2", D "Thumb2" }, { S "Thumb3", D "Thumb3" },    \
    { S "Index1", D "Index1" }, { S "Index2", D "Index2" }, { S "Index3", D "Index3" },    \
    { S "Middle1", D "Middle1" }, { S "Middle2", D "Middle2" },                           \
    { S "Middle3", D "Middle3" }, { S "Ring1", D "Ring1" }, { S "Ring2", D "Ring2" },      \
    { S "Ring3", D "Ring3" }, { S "Pinky1", D "Pinky1" }, { S "Pinky2", D "Pinky2" },     \
    { S "Pinky3", D "Pinky3" }

/* HumanIK, MotionBuilder, Mixamo; CMU's MotionBuilder release adds
 * LowerBack (the first spine joint, at the hips), LHipJoint (the hip's
 * offset from the pelvis: rotating the thigh by it would be wrong),
 * LeftFingerBase, LFingers and LThumb (its coarse hand, left at rest). */
static const struct pat HUMANIK[] = {
    { "Hips", "Pelvis" }, { "Reference", "-" }, { "LowerBack", "#spine" },
    { "Spine", "#spine" }, { "Spine1", "#spine" }, { "Spine2", "#spine" },
    { "Spine3", "#spine" }, { "Spine4", "#spine" }, { "Neck", "#neck" }, { "Neck1", "#neck" },
    { "Neck2", "#neck" }, { "Head", "head" }, { "HeadTop_End", "-" }, { "HeadEnd", "-" },
    { "<Eye", "-" }, { "<Shoulder", "<Shoulder" }, { "<Arm", "<Arm" },
    { "<ArmRoll", "<ArmRoll" }, { "<ForeArm", "<ForeArm" }, { "<ForeArmRoll", "<ForeArmRoll" },
    { "<Hand", "<Hand" }, FINGERS("<Hand", "<Hand"), { "<HandThumb4", "-" },
    { "<HandIndex4", "-" }, { "<HandMiddle4", "-" }, { "<HandRing4", "-" },
    { "<HandPinky4", "-" }, { "<UpLeg", "<UpLeg" }, { "<UpLegRoll", "<UpLegRoll" },
    { "<Leg", "<Leg" }, { "<LegRoll", "<LegRoll" }, { "<Foot", "<Foot" },
    { "<ToeBase", "<ToeBase" }, { "<Toe_End", "-" }, { "<ToeEnd", "-" },
    { "@HipJoint", "-" }, { "<FingerBase", "-" }, { "@Fingers", "-" }, { "@Thumb", "-" },
};

/* CMU's 3ds Max friendly release (LeftCollar is the clavicle, LeftShoulder
 * the upper arm, LeftHip the thigh), bvhacker's Chest..Chest4, and the
 * names of CMU's own ASF skeleton (lfemur, lhumerus...).  CMU's lhand is
 * the palm after the wrist, at the wrist's place: the hand takes the
 * wrist's rotation. */
static const struct pat CMU_MAX[] = {
    { "Hips", "Pelvis" }, { "hip", "Pelvis" }, { "root", "Pelvis" }, { "@HipJoint", "-" },
    { "<Hip", "<UpLeg" }, { "<Knee", "<Leg" }, { "<Ankle", "<Foot" }, { "<Toe", "<ToeBase" },
    { "lowerback", "#spine" }, { "upperback", "#spine" }, { "thorax", "#spine" },
    { "Chest", "#spine" }, { "Chest2", "#spine" }, { "Chest3", "#spine" },
    { "Chest4", "#spine" }, { "lowerneck", "#neck" }, { "upperneck", "#neck" },
    { "Neck", "#neck" }, { "Neck1", "#neck" }, { "Head", "head" }, { "<Collar", "<Shoulder" },
    { "<Shoulder", "<Arm" }, { "<Elbow", "<ForeArm" }, { "<Wrist", "<Hand" },
    { "@hand", "-" }, { "@Fingers", "-" }, { "@Thumb", "-" }, { "@femur", "<UpLeg" },
    { "@tibia", "<Leg" }, { "@foot", "<Foot" }, { "@toes", "<ToeBase" },
    { "@clavicle", "<Shoulder" }, { "@humerus", "<Arm" }, { "@radius", "<ForeArm" },
    { "@wrist", "<Hand" },
};

/* Poser and DAZ (Genesis splits bones into Bend and Twist). */
static const struct pat POSER[] = {
    { "hip", "Pelvis" }, { "pelvis", "-" }, { "abdomen", "#spine" }, { "abdomen2", "#spine" },
    { "abdomenLower", "#spine" }, { "abdomenUpper", "#spine" }, { "chest", "#spine" },
    { "chest2", "#spine" }, { "chestLower", "#spine" }, { "chestUpper", "#spine" },
    { "neck", "#neck" }, { "neck1", "#neck" }, { "neck2", "#neck" }, { "neckLower", "#neck" },
    { "neckUpper", "#neck" }, { "head", "head" }, { "@Eye", "-" }, { "@Collar", "<Shoulder" },
    { "@Shldr", "<Arm" }, { "@ShldrBend", "<Arm" }, { "@ShldrTwist", "<ArmRoll" },
    { "@ForeArm", "<ForeArm" }, { "@ForearmBend", "<ForeArm" },
    { "@ForearmTwist", "<ForeArmRoll" }, { "@Hand", "<Hand" }, { "@Thigh", "<UpLeg" },
    { "@ThighBend", "<UpLeg" }, { "@ThighTwist", "<UpLegRoll" }, { "@Shin", "<Leg" },
    { "@Foot", "<Foot" }, { "@Toe", "<ToeBase" }, { "@Toes", "<ToeBase" },
    { "@Thumb1", "<HandThumb1" }, { "@Thumb2", "<HandThumb2" }, { "@Thumb3", "<HandThumb3" },
    { "@Index1", "<HandIndex1" }, { "@Index2", "<HandIndex2" }, { "@Index3", "<HandIndex3" },
    { "@Mid1", "<HandMiddle1" }, { "@Mid2", "<HandMiddle2" }, { "@Mid3", "<HandMiddle3" },
    { "@Ring1", "<HandRing1" }, { "@Ring2", "<HandRing2" }, { "@Ring3", "<HandRing3" },
    { "@Pinky1", "<HandPinky1" }, { "@Pinky2", "<HandPinky2" }, { "@Pinky3", "<HandPinky3" },
};

/* The suffix styles' words, separators taken out: side parts, then the
 * middle of the body. */
static const struct pat SIDE_PARTS[] = {
    { "clavicle", "<Shoulder" }, { "shoulder", "<Shoulder" }, { "collar", "<Shoulder" },
    { "upperarm", "<Arm" }, { "arm", "<Arm" }, { "uparm", "<Arm" }, { "forearm", "<ForeArm" },
    { "lowerarm", "<ForeArm" }, { "lowarm", "<ForeArm" }, { "elbow", "<ForeArm" },
    { "hand", "<Hand" }, { "wrist", "<Hand" }, { "thigh", "<UpLeg" }, { "upperleg", "<UpLeg" },
    { "upleg", "<UpLeg" }, { "hip", "<UpLeg" }, { "shin", "<Leg" }, { "calf", "<Leg" },
    { "lowerleg", "<Leg" }, { "leg", "<Leg" }, { "knee", "<Leg" }, { "foot", "<Foot" },
    { "ankle", "<Foot" }, { "toe", "<ToeBase" }, { "toes", "<ToeBase" },
    { "toebase", "<ToeBase" }, { "ball", "<ToeBase" }, { "eye", "-" },
};
static const struct pat MIDDLE_PARTS[] = {
    { "hips", "Pelvis" }, { "pelvis", "Pelvis" }, { "hip", "Pelvis" }, { "spine", "#spine" },
    { "chest", "#spine" }, { "upperchest", "#spine" }, { "neck", "#neck" }, { "head", "head" },
    { "headend", "-" }, { "headtop", "-" },
};

/* ---- names ---- */

static int ieq(const char *a, const char *b, size_t n)
{
    return strncasecmp(a, b, n) == 0;
}

/* The name without a namespace ("mixamorig:", "Character1|") or a
 * tool's prefix ("Bip01 ", "CC_Base_", "DEF-"). */
static const char *stripped(const char *name)
{
    static const char *const PREFIX[] = { "bip01 ", "bip01_", "bip001 ", "bip001_", "cc_base_",
                                          "def-" };
    const char *s = name;
    for (const char *p = name; *p; p++)
        if ((*p == ':' || *p == '|') && p[1])
            s = p + 1;
    for (size_t i = 0; i < sizeof PREFIX / sizeof *PREFIX; i++) {
        size_t n = strlen(PREFIX[i]);
        if (ieq(s, PREFIX[i], n) && s[n])
            return s + n;
    }
    return s;
}

/* Does name match pattern pat with some side?  *side: 0 none, 1 left, 2 right. */
static int match(const char *name, const char *pat, int *side)
{
    const char *ph = strpbrk(pat, "<@");
    if (!ph) {
        *side = 0;
        return strcasecmp(name, pat) == 0;
    }
    size_t pre = (size_t)(ph - pat);
    if (!ieq(name, pat, pre))
        return 0;
    static const char *const SIDES[2][2] = { { "Left", "Right" }, { "L", "R" } };
    for (int k = 0; k < 2; k++) {
        const char *sd = SIDES[*ph == '@'][k];
        size_t n = strlen(sd);
        if (ieq(name + pre, sd, n) && strcasecmp(name + pre + n, ph + 1) == 0) {
            *side = k + 1;
            return 1;
        }
    }
    return 0;
}

/* A target with its side put in: "<Arm" on the right is "RightArm". */
static void target(const char *dst, int side, char *out, size_t n)
{
    const char *ph = strchr(dst, '<');
    if (!ph || !side) {
        snprintf(out, n, "%s", dst);
        return;
    }
    snprintf(out, n, "%.*s%s%s", (int)(ph - dst), dst, side == 1 ? "Left" : "Right", ph + 1);
}

static int lookup(const struct pat *t, size_t n, const char *name, char *out, size_t on)
{
    int side;
    for (size_t i = 0; i < n; i++)
        if (match(name, t[i].src, &side)) {
            target(t[i].dst, side, out, on);
            return 1;
        }
    return 0;
}

/* A side word at either end of name: 1 left, 2 right, 0 none; *rest and
 * *len get what is left.  "UpperArm_L", "upperarm.l", "Left_Arm", "L Thigh". */
static int side_of(const char *name, const char **rest, size_t *len)
{
    static const char *const WORD[2][2] = { { "left", "l" }, { "right", "r" } };
    size_t n = strlen(name);
    for (int s = 0; s < 2; s++)
        for (int w = 0; w < 2; w++) {
            size_t k = strlen(WORD[s][w]);
            if (n > k + 1 && strchr("_. -", name[n - k - 1]) && ieq(name + n - k, WORD[s][w], k)) {
                *rest = name, *len = n - k - 1;
                return s + 1;
            }
            if (n > k + 1 && strchr("_. -", name[k]) && ieq(name, WORD[s][w], k)) {
                *rest = name + k + 1, *len = n - k - 1;
                return s + 1;
            }
        }
    *rest = name, *len = n;
    return 0;
}

/* The suffix styles: side and part, separators dropped; fingers as
 * [f]thumb|index|middle|ring|pinky, then 1-3 or 01-03. */
static int lookup_suffix(const char *name, char *out, size_t on)
{
    const char *rest;
    size_t len, k = 0;
    char key[40];
    int side = side_of(name, &rest, &len);
    for (size_t i = 0; i < len; i++) {
        if (strchr("_. -", rest[i]))
            continue;
        if (k + 1 >= sizeof key)
            return 0;
        key[k++] = (char)tolower((unsigned char)rest[i]);
    }
    key[k] = 0;
    if (!side) {
        /* spine, spine1, spine_01, spine.002; neck, neck_01 */
        size_t d = k;
        while (d > 0 && isdigit((unsigned char)key[d - 1]))
            d--;
        if (d < k && (d == 5 && memcmp(key, "spine", 5) == 0))
            key[d] = 0;
        if (d < k && (d == 4 && memcmp(key, "neck", 4) == 0))
            key[d] = 0;
        return lookup(MIDDLE_PARTS, sizeof MIDDLE_PARTS / sizeof *MIDDLE_PARTS, key, out, on);
    }
    static const char *const FINGER[] = { "Thumb", "Index", "Middle", "Ring", "Pinky" };
    const char *f = key[0] == 'f' && key[1] != 'o' ? key + 1 : key;  /* not "foot" */
    for (size_t i = 0; i < 5; i++) {
        size_t fl = strlen(FINGER[i]);
        if (!ieq(f, FINGER[i], fl))
            continue;
        const char *d = f + fl + (f[fl] == '0');
        if (d[0] >= '1' && d[0] <= '3' && !d[1]) {
            snprintf(out, on, "%sHand%s%c", side == 1 ? "Left" : "Right", FINGER[i], d[0]);
            return 1;
        }
    }
    if (!lookup(SIDE_PARTS, sizeof SIDE_PARTS / sizeof *SIDE_PARTS, key, out, on))
        return 0;
    char tmp[64];
    target(out, side, tmp, sizeof tmp);
    snprintf(out, on, "%s", tmp);
    return 1;
}

/* What naming nm says of a (stripped) joint name: 1 with the man's bone,
 * "-", "#spine" or "#neck" in out; 0 when the naming does not know it. */
static int naming_says(enum rtm_mocap_naming nm, const char *name, char *out, size_t on)
{
    switch (nm) {
    case RTM_NAMING_HUMANIK:
        return lookup(HUMANIK, sizeof HUMANIK / sizeof *HUMANIK, name, out, on);
    case RTM_NAMING_CMU_MAX:
        return lookup(CMU_MAX, sizeof CMU_MAX / sizeof *CMU_MAX, name, out, on);
    case RTM_NAMING_POSER:
        return lookup(POSER, sizeof POSER / sizeof *POSER, name, out, on);
    case RTM_NAMING_SUFFIX:
        return lookup_suffix(name, out, on);
    default:
        return 0;
    }
}

const char *rtm_mocap_naming_name(enum rtm_mocap_naming n)
{
    switch (n) {
    case RTM_NAMING_SKELETON: return "skeleton";
    case RTM_NAMING_HUMANIK: return "humanik";
    case RTM_NAMING_CMU_MAX: return "cmu-max";
    case RTM_NAMING_POSER: return "poser";
    case RTM_NAMING_SUFFIX: return "suffix";
    default: return "none";
    }
}

/* A bone of s called name, or with the name stripped of its prefix. */
static int32_t exact_bone(const struct rtm_skeleton *s, const char *name)
{
    int32_t b = rtm_skeleton_find(s, name, strlen(name));
    if (b < 0) {
        const char *t = stripped(name);
        if (t != name)
            b = rtm_skeleton_find(s, t, strlen(t));
    }
    return b;
}

/* The naming the whole set of names is: the one that knows most of them
 * (the skeleton's own names first on a tie, then the order of the enum). */
static enum rtm_mocap_naming recognise(const struct rtm_mocap *m, const struct rtm_skeleton *s)
{
    uint32_t score[RTM_NAMING_SUFFIX + 1] = { 0 };
    char out[64];
    for (uint32_t i = 0; i < m->njoints; i++) {
        const char *t = stripped(m->joint[i].name);
        score[RTM_NAMING_SKELETON] += exact_bone(s, m->joint[i].name) >= 0;
        for (int nm = RTM_NAMING_HUMANIK; nm <= RTM_NAMING_SUFFIX; nm++)
            score[nm] += (uint32_t)naming_says((enum rtm_mocap_naming)nm, t, out, sizeof out);
    }
    enum rtm_mocap_naming best = RTM_NAMING_NONE;
    for (int nm = RTM_NAMING_SKELETON; nm <= RTM_NAMING_SUFFIX; nm++)
        if (score[nm] > score[best])
            best = (enum rtm_mocap_naming)nm;
    return best;
}

/* ---- the map file ---- */

/* The joint a map file's SOURCE names: its exact name, then in any case,
 * then without its prefix; -1 when none. */
static int32_t find_joint(const struct rtm_mocap *m, const char *s, size_t n)
{
    for (int pass = 0; pass < 3; pass++)
        for (uint32_t i = 0; i < m->njoints; i++) {
            const char *j = pass == 2 ? stripped(m->joint[i].name) : m->joint[i].name;
            if (strlen(j) == n && (pass ? ieq(j, s, n) : memcmp(j, s, n) == 0))
                return (int32_t)i;
        }
    return -1;
}

/* One "SOURCE TARGET" line (# comments and blanks already gone): the
 * target is the last word, the source all before it (it may hold spaces). */
static int map_line(const struct rtm_mocap *m, const struct rtm_skeleton *s, const char *p,
                    size_t n, uint32_t line, const char *name, int32_t *file_bone,
                    uint32_t *file_line, struct rtm_error *err)
{
    size_t t = n;
    while (t > 0 && !isspace((unsigned char)p[t - 1]))
        t--;
    size_t sn = t;
    while (sn > 0 && isspace((unsigned char)p[sn - 1]))
        sn--;
    if (sn == 0) {
        rtm_err_nooff(err, "%s line %u: '%.*s' has no target (SOURCE TARGET, or SOURCE -)",
                      name, line, (int)(n > 60 ? 60 : n), p);
        return -1;
    }
    int32_t j = find_joint(m, p, sn);
    if (j < 0) {
        rtm_err_nooff(err, "%s line %u: no joint '%.*s' in the BVH", name, line,
                      (int)(sn > 60 ? 60 : sn), p);
        return -1;
    }
    if (file_line[j]) {
        rtm_err_nooff(err, "%s line %u: joint '%s' is mapped on line %u already", name, line,
                      m->joint[j].name, file_line[j]);
        return -1;
    }
    int32_t b = -1;
    if (!(n - t == 1 && p[t] == '-')) {
        b = rtm_skeleton_find(s, p + t, n - t);
        if (b < 0) {
            rtm_err_nooff(err, "%s line %u: no bone '%.*s' in skeleton %s", name, line,
                          (int)(n - t > 60 ? 60 : n - t), p + t, s->name ? s->name : "");
            return -1;
        }
        for (uint32_t k = 0; k < m->njoints; k++)
            if (file_line[k] && file_bone[k] == b) {
                rtm_err_nooff(err, "%s line %u: bone '%s' is the target of line %u already",
                              name, line, s->bone[b], file_line[k]);
                return -1;
            }
    }
    file_bone[j] = b;
    file_line[j] = line;
    return 0;
}

/* The map file's lines into file_bone (and file_line, 0: no line). */
static int read_map_file(const struct rtm_mocap *m, const struct rtm_skeleton *s,
                         const char *text, size_t len, const char *name, int32_t *file_bone,
                         uint32_t *file_line, struct rtm_error *err)
{
    uint32_t line = 0;
    for (size_t i = 0; i < len;) {
        size_t a = i, e;
        while (i < len && text[i] != '\n' && text[i] != '\r')
            i++;
        e = i;
        if (i < len && text[i] == '\r' && i + 1 < len && text[i + 1] == '\n')
            i++;
        i++;
        line++;
        const char *hash = memchr(text + a, '#', e - a);
        if (hash)
            e = (size_t)(hash - text);
        while (a < e && isspace((unsigned char)text[a]))
            a++;
        while (e > a && isspace((unsigned char)text[e - 1]))
            e--;
        if (memchr(text + a, 0, e - a)) {
            rtm_err_nooff(err, "%s line %u: a NUL byte", name, line);
            return -1;
        }
        if (e > a && map_line(m, s, text + a, e - a, line, name, file_bone, file_line, err))
            return -1;
    }
    return 0;
}

/* ---- the map ---- */

static uint32_t depth_of(const struct rtm_mocap *m, uint32_t j)
{
    uint32_t d = 0;
    for (int32_t p = m->joint[j].parent; p >= 0; p = m->joint[p].parent)
        d++;
    return d;
}

/* The joints in order of their depth, then of the file: order[njoints]. */
static void by_depth(const struct rtm_mocap *m, uint32_t *order, uint32_t *depth)
{
    uint32_t max = 0, k = 0;
    for (uint32_t i = 0; i < m->njoints; i++) {
        depth[i] = depth_of(m, i);
        max = depth[i] > max ? depth[i] : max;
    }
    for (uint32_t d = 0; d <= max; d++)
        for (uint32_t i = 0; i < m->njoints; i++)
            if (depth[i] == d)
                order[k++] = i;
}

/* Spine (or neck) joints in order from the root onto the man's names:
 * as many as there are, or beyond the man's count the first ones and the
 * last (the chest that carries the shoulders, the neck under the head). */
static void ordinals(const struct rtm_mocap_map *map, const uint32_t *order, uint32_t n,
                     const uint8_t *cls, uint8_t which, const char *const *man, uint32_t nman,
                     const struct rtm_skeleton *s)
{
    uint32_t total = 0, k = 0;
    for (uint32_t i = 0; i < n; i++)
        total += cls[order[i]] == which;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = order[i];
        if (cls[j] != which)
            continue;
        uint32_t slot = k; /* nman: none */
        if (total > nman)
            slot = k < nman - 1 ? k : k == total - 1 ? nman - 1 : nman;
        k++;
        map->wanted[j] = slot < nman ? rtm_skeleton_find(s, man[slot], strlen(man[slot])) : -1;
    }
}

enum { CLS_NONE, CLS_SPINE, CLS_NECK };

/* What the rules say of each joint: how[] and wanted[], before the
 * bones are dealt out. */
static void decide(const struct rtm_mocap *m, const struct rtm_skeleton *s,
                   struct rtm_mocap_map *map, const int32_t *file_bone, const uint32_t *file_line,
                   const uint32_t *order, uint8_t *cls)
{
    static const char *const SPINE[] = { "Spine", "Spine1", "Spine2", "Spine3" };
    static const char *const NECK[] = { "neck", "neck1" };
    char out[64];
    for (uint32_t j = 0; j < m->njoints; j++) {
        cls[j] = CLS_NONE;
        map->wanted[j] = -1;
        map->how[j] = RTM_MAP_NONE;
        if (file_line && file_line[j]) {
            map->how[j] = RTM_MAP_FILE;
            map->wanted[j] = file_bone[j];
            continue;
        }
        if (naming_says(map->naming, stripped(m->joint[j].name), out, sizeof out)) {
            int32_t b = -1;
            if (strcmp(out, "#spine") == 0 || strcmp(out, "#neck") == 0)
                cls[j] = out[1] == 's' ? CLS_SPINE : CLS_NECK;
            else if (strcmp(out, "-") != 0 && (b = rtm_skeleton_find(s, out, strlen(out))) < 0)
                goto exact; /* the man's bone is not in this skeleton */
            map->how[j] = RTM_MAP_NAMING;
            map->wanted[j] = b;
            continue;
        }
    exact:
        map->wanted[j] = exact_bone(s, m->joint[j].name);
        if (map->wanted[j] >= 0)
            map->how[j] = RTM_MAP_EXACT;
    }
    ordinals(map, order, m->njoints, cls, CLS_SPINE, SPINE, 4, s);
    ordinals(map, order, m->njoints, cls, CLS_NECK, NECK, 2, s);
}

/* Bones dealt out: the map file's first, then nearer the root first. */
static void deal(const struct rtm_mocap *m, struct rtm_mocap_map *map, const uint32_t *order,
                 uint8_t *held)
{
    map->nmapped = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < m->njoints; i++) {
            uint32_t j = order[i];
            if ((map->how[j] == RTM_MAP_FILE) != (pass == 0))
                continue;
            int32_t b = map->wanted[j];
            map->bone[j] = -1;
            if (b < 0)
                continue;
            if (held[b]) {
                map->how[j] = RTM_MAP_TAKEN;
                continue;
            }
            held[b] = 1;
            map->bone[j] = b;
            map->nmapped++;
        }
}

void rtm_mocap_map_free(struct rtm_mocap_map *map)
{
    if (!map)
        return;
    free(map->bone);
    free(map->how);
    free(map->wanted);
    memset(map, 0, sizeof *map);
}

int rtm_mocap_map(const struct rtm_mocap *m, const struct rtm_skeleton *s,
                  const char *map_text, size_t map_len, const char *map_name,
                  struct rtm_mocap_map *out, struct rtm_error *err)
{
    size_t n = m->njoints ? m->njoints : 1;
    memset(out, 0, sizeof *out);
    out->bone = malloc(n * sizeof *out->bone);
    out->how = malloc(n);
    out->wanted = malloc(n * sizeof *out->wanted);
    int32_t *file_bone = map_text ? malloc(n * sizeof *file_bone) : NULL;
    uint32_t *file_line = map_text ? calloc(n, sizeof *file_line) : NULL;
    uint32_t *order = malloc(n * sizeof *order), *depth = malloc(n * sizeof *depth);
    uint8_t *cls = malloc(n), *held = calloc(s->nbones ? s->nbones : 1, 1);
    int rc = 0;
    if (!out->bone || !out->how || !out->wanted || !order || !depth || !cls || !held ||
        (map_text && (!file_bone || !file_line))) {
        rtm_err_oom(err, "out of memory for the map of %u joints", m->njoints);
        rc = -1;
    } else if (map_text && read_map_file(m, s, map_text, map_len,
                                         map_name && *map_name ? map_name : "map file",
                                         file_bone, file_line, err)) {
        rc = -1;
    } else {
        out->naming = recognise(m, s);
        by_depth(m, order, depth);
        decide(m, s, out, file_bone, file_line, order, cls);
        deal(m, out, order, held);
    }
    free(file_bone);
    free(file_line);
    free(order);
    free(depth);
    free(cls);
    free(held);
    if (rc)
        rtm_mocap_map_free(out);
    return rc;
}

/* ---- units ---- */

/* The units a file may be in: those inference chooses among first. */
static const struct { double metres; const char *name; } UNIT[] = {
    { 1.0, "m" }, { 0.01, "cm" }, { 0.0254, "in" }, { 0.0254 / 0.45, "cmu" }, { 0.001, "mm" },
};
enum { INFERRED_UNITS = 4 };

int rtm_mocap_unit_parse(const char *s, double *metres)
{
    for (size_t u = 0; u < sizeof UNIT / sizeof *UNIT; u++)
        if (strcasecmp(s, UNIT[u].name) == 0) {
            *metres = UNIT[u].metres;
            return 0;
        }
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !isfinite(v) || v <= 0)
        return -1;
    *metres = v;
    return 0;
}

double rtm_mocap_unit_infer(const struct rtm_mocap *m, double *height, const char **name)
{
    double lo[3] = { 0, 0, 0 }, hi[3] = { 0, 0, 0 };
    for (uint32_t i = 0; i < m->njoints; i++) {
        double p[3] = { 0, 0, 0 };
        for (int32_t k = (int32_t)i; k >= 0; k = m->joint[k].parent)
            for (int a = 0; a < 3; a++)
                p[a] += m->joint[k].offset[a];
        for (int e = 0; e < 1 + m->joint[i].has_end; e++)
            for (int a = 0; a < 3; a++) {
                double v = p[a] + (e ? m->joint[i].end[a] : 0);
                if (i == 0 && e == 0)
                    lo[a] = hi[a] = v;
                lo[a] = v < lo[a] ? v : lo[a];
                hi[a] = v > hi[a] ? v : hi[a];
            }
    }
    double h = 0;
    for (int a = 0; a < 3; a++)
        h = hi[a] - lo[a] > h ? hi[a] - lo[a] : h;
    size_t best = 0;
    if (h > 0 && isfinite(h))
        for (size_t u = 1; u < INFERRED_UNITS; u++)
            if (fabs(log(h * UNIT[u].metres / 1.7)) < fabs(log(h * UNIT[best].metres / 1.7)))
                best = u;
    if (height)
        *height = h;
    if (name)
        *name = UNIT[best].name;
    return UNIT[best].metres;
}
