/* fuzz_tree_source.h - fuzz_tree's SOURCE: a small folder under /dev/shm
 * whose files the input makes (fuzz_tree.h gives the layout), with the
 * project's own writers (samples, pbo_write, rap_write) cut, flipped and
 * overwritten by the input, or of its raw bytes; and the changes the
 * script makes to them.  Every write leaves the file an mtime of its own
 * (fz_touch): a version is (device, inode, size, mtime, ctime), and two
 * rewrites of one size within a clock tick would otherwise be one version,
 * which rtmfs(1) does not promise to tell apart. */
#ifndef RTM_FUZZ_TREE_SOURCE_H
#define RTM_FUZZ_TREE_SOURCE_H

#include <fcntl.h>
#include <ftw.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "fuzz_tree.h"
#include "pbo_write.h"
#include "samples.h"
#include "skeleton.h"

/* The input, read front to back; past its end every byte is 0. */
struct fz_in {
    const uint8_t *p;
    size_t n, i;
};

uint8_t fz_u8(struct fz_in *in);
int fz_more(const struct fz_in *in);

/* Where each slot lives in SOURCE (the folders anims/ and cfg/ always are). */
extern const char *const fz_slot_path[FZ_NSLOTS];

/* A file spec read from the input (fuzz_tree.h) into b for slot s: 0, or
 * -1 for "absent". */
int fz_spec(struct fz_in *in, const struct rtm_skeleton *ofp2, int s, struct rtm_buf *b);

/* Gives path (in dfd) an mtime no other version in this process had. */
void fz_touch(int dfd, const char *path);

/* Writes b as path in dfd: in place (truncated, then written), or as a
 * new file renamed over it, as editors and cp do. */
void fz_write(int dfd, const char *path, const struct rtm_buf *b, int in_place);

/* rm -rf dir, without a shell (inputs come hundreds a second). */
void fz_rm_rf(const char *dir);

#endif
