/* mocap_write.h - BVH motion capture for the tests, the fuzzers' seeds and
 * rtmgen -b: a small person (22 joints, 24 with CMU's hip joints) that
 * walks forward at 1.2 m/s swinging its arms, written in one of the
 * namings public mocap uses, any rotation order, 3 or 6 channels, a unit,
 * a T-pose or arms-hanging rest, and LF or CRLF, spaces or tabs.
 *
 * Contract:
 *  - Deterministic; bytes are appended to out; -1 only when out of memory.
 *  - The motion is the same whatever the options: every joint's world
 *    position, in metres, in every frame is the same (to the 6 decimals
 *    written) for every naming, order, channel count, unit and rest.  An
 *    arms-hanging rest turns the arms' OFFSETs down and their rotations
 *    by the same turn, so the arms move as in the T-pose file.
 *  - Y is up, the person faces +Z, +X is its left; the rest's feet are
 *    at Y = 0 and the top of the head (the head's End Site) at 1.71 m.
 *  - Every joint but the toes turns about all three axes, so that a
 *    rotation order read wrongly shows.  The toes do not turn, so that
 *    CHANNELS 0 on them (zero_toes) changes nothing.
 */
#ifndef RTM_MOCAP_WRITE_H
#define RTM_MOCAP_WRITE_H

#include <stdint.h>

#include "util.h"

/* The namings the writer knows (mocap.h recognises them). */
enum mocap_style {
    MOCAP_MIXAMO,       /* HumanIK names with the mixamorig: prefix */
    MOCAP_CMU_MB,       /* CMU's MotionBuilder release: LowerBack, LHipJoint */
    MOCAP_CMU_MAX,      /* CMU's 3ds Max release: LeftHip, LeftCollar, Chest2 */
    MOCAP_POSER,        /* Poser / DAZ: hip, abdomen, lShldr, rShin */
    MOCAP_SUFFIX,       /* UpperArm_L, LowerLeg_R, Chest, UpperChest */
    MOCAP_SUFFIX_DOT,   /* upperarm.l, thigh.r, spine.001 */
    MOCAP_SIDE_WORD,    /* Left_Arm, Right_UpLeg */
    MOCAP_UNREAL,       /* thigh_l, calf_r, spine_01, clavicle_l */
    MOCAP_OFP2,         /* the man skeleton's own names: Pelvis, LeftUpLeg */
    MOCAP_STYLES
};

/* Rotation orders, as the CHANNELS list them (ZXY: Zrotation Xrotation
 * Yrotation, R = Rz Rx Ry); MOCAP_MIXED gives the file's k-th joint
 * order k % 6. */
enum { MOCAP_XYZ, MOCAP_XZY, MOCAP_YXZ, MOCAP_YZX, MOCAP_ZXY, MOCAP_ZYX, MOCAP_MIXED };

struct mocap_write_opts {
    enum mocap_style style;
    int order;              /* MOCAP_XYZ .. MOCAP_MIXED */
    int six;                /* 6 channels on every joint, not only the root */
    int end_sites;          /* End Site after the head, hands and toes */
    int zero_toes;          /* CHANNELS 0 on the toes */
    int arms_down;          /* the rest with the arms hanging, not a T-pose */
    int crlf;               /* CRLF line ends, else LF */
    int tabs;               /* tabs to indent and between values, else spaces */
    double unit;            /* metres a unit of the file (0.01: cm); 0: cm */
    uint32_t nframes;       /* 0: 40 */
    double frame_time;      /* seconds; 0: 1/30 */
};

int rtm_mocap_write(const struct mocap_write_opts *o, struct rtm_buf *out);

/* The joints of a style's file, in file order: up to max names (without
 * the style's prefix) and the man skeleton's (ofp2) bone each stands for
 * (NULL: none, CMU's hip joints).  Returns how many the file has. */
uint32_t rtm_mocap_write_joints(enum mocap_style s, const char **names, const char **man,
                                uint32_t max);
/* "mixamorig:" for MOCAP_MIXAMO, else "". */
const char *rtm_mocap_style_prefix(enum mocap_style s);
/* "mixamo", "cmu-mb", "cmu-max", "poser", "suffix", "suffix-dot",
 * "side-word", "unreal", "ofp2". */
const char *rtm_mocap_style_name(enum mocap_style s);
/* "XYZ" .. "ZYX", "mixed". */
const char *rtm_mocap_order_name(int order);

#endif
