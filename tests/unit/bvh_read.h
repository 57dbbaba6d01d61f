/* bvh_read.h - a small BVH reader for the tests: the hierarchy (names,
 * parents, offsets, channel order) and the motion, and the world pose of
 * every joint composed down the hierarchy as BVH readers do it: a joint's
 * local transform is its position channels (or its OFFSET without them)
 * and its rotation channels applied in the order they are listed, on
 * column vectors (Zrotation Xrotation Yrotation: R = Rz Rx Ry).
 * Independent of src/views/bvh.c: it reads only the text. */
#ifndef RTM_BVH_READ_H
#define RTM_BVH_READ_H

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct bvh_joint {
    char name[256];
    int parent;                 /* index of the parent joint, -1 for the root */
    double offset[3];
    int nchan;
    char chan[6];               /* 'X' 'Y' 'Z' position, 'x' 'y' 'z' rotation */
    int first;                  /* its first value in a motion line */
};

struct bvh_file {
    struct bvh_joint *j;
    int n;
    int frames;
    double frame_time;
    double *motion;             /* frames x values */
    int values;                 /* a motion line's numbers */
};

/* Parses text; 0, or -1 with why filled. */
int bvh_parse(const char *text, struct bvh_file *f, char *why, size_t whylen);

void bvh_free(struct bvh_file *f);

/* World rotation (column form) and position of every joint in frame f. */
void bvh_pose(const struct bvh_file *f, int frame, double (*rot)[3][3],
              double (*pos)[3]);

#endif
