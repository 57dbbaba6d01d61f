/* mocap.h - a BVH motion-capture file as it was written: its hierarchy
 * (joints, offsets, channels) and its motion (one row of values a frame),
 * and which bone of a skeleton each of its joints stands for.  The first
 * step of reading BVH as an animation source (mocap_retarget.h is the
 * second).  Nothing here knows the RTM model beyond struct rtm_skeleton.
 *
 * Contract:
 *  - rtm_mocap_read() reads BVH text from a buffer it does not keep: the
 *    HIERARCHY (ROOT, JOINT, End Site, OFFSET, CHANNELS with 0, 3 or 6
 *    channels in any order on any joint) and the MOTION (Frames, Frame
 *    Time, one row a frame), with tabs, CR, LF and CRLF line ends mixed
 *    anywhere.  It returns 0 and a new struct rtm_mocap that the caller
 *    frees with rtm_mocap_free(); or -1 with err saying what is wrong, at
 *    which line ("line 12: ...") and at which byte (err->offset).
 *  - With RTM_MOCAP_HEAD it reads the hierarchy and the Frames and Frame
 *    Time lines only (values NULL), for a listing that reads no more of a
 *    file than it needs: RTM_PARSE_NEED_MORE (rtm.h) when those go on
 *    past len and len < file_size (*need: the bytes to give next, or
 *    left 0 when unknown).
 *  - It allocates nothing the bytes do not justify: a joint costs at least
 *    its "JOINT x {}" in the text, a value at least one byte and a
 *    separator, so a file that claims more frames or values than its bytes
 *    can hold fails before any allocation.  Depth is bounded by the text
 *    too (no recursion on the file's nesting).
 *  - Every value is finite, or the read fails naming its line and column.
 *    A number is decimal text ([+-]digits[.digits][(e|E)[+-]digits], or
 *    .digits) read to the nearest double, as strtod rounds it (past 19
 *    significant digits, within one ULP: the rest are dropped); "nan",
 *    "inf", "1.#IND", hex and a comma are refused by name.
 *  - Keywords are read in any case; OFFSET takes three numbers and
 *    CHANNELS its count and names on its own line; a joint's name is the
 *    rest of its line (it may hold spaces: "Bip01 L Thigh").  CHANNELS is
 *    0 (or absent), 3 (three rotations, or three positions, in any order)
 *    or 6 (each of the six once, in any order).  A row is one line of
 *    exactly nvalues numbers; blank lines between rows and a missing last
 *    line end are taken, a row split over lines is not (no writer does
 *    it, and a row a line lets every message name the frame's line).
 *    The hierarchy holds one ROOT, at most RTM_MOCAP_MAX_JOINTS joints,
 *    none deeper than RTM_MOCAP_MAX_DEPTH, no name twice, each joint one
 *    OFFSET and at most one End Site; Frames is 1 or more, Frame Time
 *    finite and > 0, and no text follows the last row.
 *  - rtm_mocap_map() says, for each joint, which bone of the skeleton it
 *    stands for (or none), by the first rule that gives one: a map file's
 *    line for it; then, when the whole set of joint names is recognised
 *    as a public naming (enum rtm_mocap_naming) that knows the name, what
 *    the naming says, translated to the man skeleton's names and looked
 *    up in the skeleton (the naming may say "nothing": CMU's LHipJoint is
 *    the hip's offset, not the thigh); otherwise the same name as a bone
 *    (case-insensitive, also without a "mixamorig:"-like prefix).  A name
 *    means what its naming says: in CMU's 3ds Max naming LeftShoulder is
 *    the upper arm, in HumanIK it is the clavicle, so the naming goes
 *    before the exact name wherever it knows the name.  Spine and neck
 *    joints are given the man's Spine, Spine1, Spine2, Spine3 and neck,
 *    neck1 in their order from the root, whatever they are called (more
 *    than four: the first three and the last).  Two joints on one bone:
 *    the one nearer the root keeps it, the other is RTM_MAP_TAKEN.
 *  - No global state; safe from several threads on different inputs.
 */
#ifndef RTM_MOCAP_H
#define RTM_MOCAP_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

struct rtm_skeleton;

struct rtm_mocap_joint {
    const char *name;           /* NUL-terminated, in the mocap's arena */
    int32_t parent;             /* index of its parent joint, -1 for the root */
    double offset[3];           /* OFFSET, in the file's units */
    int has_end;                /* 1 when it holds an End Site */
    double end[3];              /* the End Site's OFFSET, when has_end */
    uint8_t nchan;              /* 0, 3 or 6 */
    char chan[6];               /* in file order: 'X' 'Y' 'Z' position,
                                   'x' 'y' 'z' rotation (degrees) */
    uint32_t first;             /* its first value's index in a row */
    uint32_t line;              /* where it is declared, for messages */
};

struct rtm_mocap {
    uint32_t njoints;
    struct rtm_mocap_joint *joint;  /* file order: a parent before its children */
    uint32_t nframes;           /* the Frames line */
    double frame_time;          /* seconds, > 0 */
    uint32_t nvalues;           /* channels a row: the sum of nchan */
    double *values;             /* nframes * nvalues, row after row; NULL
                                   after a head read */
    uint64_t motion_at;         /* byte where the first row starts */
    char *arena;                /* private: the names */
};

enum { RTM_MOCAP_HEAD = 1 };
/* Bounds of a hierarchy (a person has about 20 joints deep at most, and
 * a few hundred with face and fingers); beyond them a read fails. */
enum { RTM_MOCAP_MAX_DEPTH = 256, RTM_MOCAP_MAX_JOINTS = 4096 };

int rtm_mocap_read(const uint8_t *data, size_t len, uint64_t file_size, unsigned flags,
                   struct rtm_mocap **out, uint64_t *need, struct rtm_error *err);
void rtm_mocap_free(struct rtm_mocap *m);

/* A mocap made in code (another format's reader, glTF's; a test):
 * rtm_mocap_new() gives njoints joints named name[j] (copied into the
 * mocap's arena; a name holding a NUL is cut there) and everything else
 * 0: the caller sets each joint's parent (a parent before its children,
 * the root first with -1), offset, channels and first, and nframes,
 * frame_time and nvalues, to what rtm_mocap_read() promises of them;
 * then rtm_mocap_alloc_values() gives values (nframes * nvalues, 0),
 * unless the mocap is to be a head (values NULL).  The mocap is then one
 * as rtm_mocap_read() makes, freed by rtm_mocap_free().  NULL / -1 when
 * out of memory or past RTM_MOCAP_MAX_JOINTS (NULL too). */
struct rtm_mocap *rtm_mocap_new(uint32_t njoints, const struct rtm_str *name);
int rtm_mocap_alloc_values(struct rtm_mocap *m);

/* Does the buffer look like BVH (its first word, after blanks, is
 * HIERARCHY, in any case)?  For the format dispatch (parse.c). */
int rtm_mocap_sniff(const uint8_t *data, size_t len);

/* The namings public motion capture uses; what the set of names says. */
enum rtm_mocap_naming {
    RTM_NAMING_NONE,            /* no joint name known: exact names only */
    RTM_NAMING_SKELETON,        /* every mapped joint is a bone's own name */
    RTM_NAMING_HUMANIK,         /* HumanIK / MotionBuilder / Mixamo, and CMU's
                                   MotionBuilder release (LowerBack,
                                   LHipJoint, LFingers): Hips Spine Spine1
                                   LeftShoulder LeftArm... */
    RTM_NAMING_CMU_MAX,         /* CMU's 3ds Max friendly release, its ASF
                                   names and bvhacker's: LHipJoint LeftHip
                                   LeftKnee LeftCollar Chest2 lfemur... */
    RTM_NAMING_POSER,           /* Poser and DAZ: hip abdomen chest lShldr... */
    RTM_NAMING_SUFFIX,          /* side as a suffix: UpperArm_L, upperarm.l,
                                   thigh_l, or a prefix word: Left_Arm, L Thigh */
};
/* "none", "skeleton", "humanik", "cmu-max", "poser", "suffix". */
const char *rtm_mocap_naming_name(enum rtm_mocap_naming n);

/* Which rule decided a joint.  FILE and NAMING may decide "nothing"
 * (bone -1: a map file's "-", a naming's joint with no counterpart such
 * as CMU's LHipJoint or Mixamo's HeadTop_End); NONE is no rule at all. */
enum rtm_mocap_how { RTM_MAP_NONE, RTM_MAP_FILE, RTM_MAP_EXACT, RTM_MAP_NAMING,
                     RTM_MAP_TAKEN /* its rule gave wanted[j], which a joint
                                      nearer the root holds: bone -1 */ };

struct rtm_mocap_map {
    enum rtm_mocap_naming naming;
    int32_t *bone;              /* njoints: the skeleton's bone index, or -1 */
    uint8_t *how;               /* njoints: enum rtm_mocap_how */
    int32_t *wanted;            /* njoints: the bone its rule gave (for TAKEN
                                   the one it lost), or -1 */
    uint32_t nmapped;           /* joints with bone >= 0 */
};

/* The map of m onto s.  map_text (NULL: none) is a map file's bytes, one
 * "SOURCE TARGET" pair a line (# starts a comment; a TARGET of - maps the
 * joint to nothing), map_name its name for messages.  -1 with err when the
 * map file has a bad line ("NAME line 3: ...") or names a joint or bone
 * that does not exist, or when out of memory. */
int rtm_mocap_map(const struct rtm_mocap *m, const struct rtm_skeleton *s,
                  const char *map_text, size_t map_len, const char *map_name,
                  struct rtm_mocap_map *out, struct rtm_error *err);
void rtm_mocap_map_free(struct rtm_mocap_map *map);

/* The metres one unit of the file stands for, inferred from the rest
 * pose's height (the highest joint or end site above the lowest; the
 * largest extent along X, Y or Z, so that a Z-up file or a T-pose's span
 * reads the same), as the unit that makes it closest to 1.7 m in ratio:
 * metres, centimetres, inches, or CMU's unit (1/0.45 inch, about 5.64 cm).
 * *height gets the height in file units; *name the unit's name ("cm",
 * "m", "in", "cmu").  A rest of no height (one joint) is metres. */
double rtm_mocap_unit_infer(const struct rtm_mocap *m, double *height, const char **name);
/* The metres a unit a user names stands for: m, cm, mm, in or cmu (any
 * case), or a positive number of metres.  0, or -1 for anything else. */
int rtm_mocap_unit_parse(const char *s, double *metres);

#endif
