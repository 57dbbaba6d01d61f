/* rtmgen.h - what rtmgen's files share (rtmgen.c: the command line, the
 * small sets, files for the memory tests and the standing figure;
 * rtmgen_common.c: files, samples by kind, the install's names;
 * rtmgen_mods.c: trees shaped like mods and a whole install;
 * rtmgen_configs.c: the whole install's config.bin files;
 * rtmgen_damaged.c: damaged trees; rtmgen_bvh.c: BVH fixtures).  Messages go
 * to stderr, prefixed "rtmgen: "; functions return 0, or -1 (the rtmgen_*
 * ones 1, rtmgen's exit status) after saying why. */
#ifndef RTM_RTMGEN_H
#define RTM_RTMGEN_H

#include <stddef.h>
#include <stdint.h>

#include "samples.h"
#include "util.h"
#include "xorshift.h"

/* The sample formats rtmgen writes. */
enum kind { K_PLAIN, K_MDAT, K_V3, K_V4, K_V5_RAW, K_V5_LZO, K_KINDS };
/* A sample of kind k into b; -1 when out of memory. */
int rtmgen_sample(enum kind k, const struct sample_opts *o, struct rtm_buf *b);

/* mkdir -p: path and every folder above it (n bytes of path). */
int rtmgen_mkdirs(const char *path, size_t n);
int rtmgen_mkdir(const char *path);
/* Writes len bytes of b to path, making the folders above it as needed. */
int rtmgen_write_file(const char *path, const struct rtm_buf *b, size_t len);

/* -P MB DIR: archives of at least MB megabytes shaped like Arma mods; a
 * summary on stdout. */
int rtmgen_mods(const char *dir, long mb);
/* -I N[,KIND] DIR: a whole install of N animations in archives and N/10
 * loose; a summary on stdout.  What config each archive holds: */
enum install_configs {
    INSTALL_CONFIG_BIN,                 /* a rapified config.bin (rtmgen_config) */
    INSTALL_CONFIG_NONE,                /* none */
    INSTALL_CONFIG_CPP,                 /* a text config.cpp whose states play its
                                           animations with OFP2_ManSkeleton */
};
int rtmgen_install(const char *dir, long n, enum install_configs configs);
/* -D N[,SEED] DIR: at least N damaged files beside good ones (damaged.h)
 * and DIR/damaged.tsv; a summary on stdout.  2 for a bad argument. */
int rtmgen_damaged(const char *arg, const char *dir);

/* -b DIR: BVH files in every naming and style (mocap_write.h) and
 * DIR/bvh.tsv, what each is. */
int rtmgen_bvh(const char *dir);
/* -G DIR: the glTF arm (gltf_write.h) as arm.glb (a skin, two clips),
 * arm.gltf with its buffer beside it ("arm data.bin") and
 * arm_inline.gltf (its buffer in a data: URI, no skin, one clip). */
int rtmgen_gltf(const char *dir);

/* The animations' names of the generated trees. */
enum { RTMGEN_NANIMS = 10 };
extern const char *const RTMGEN_ANIMS[RTMGEN_NANIMS];

/* -I's layout, which a config names: archive i of an install lies in mod
 * folder i % INSTALL_MODS and holds animations 50 i .. 50 i + 49. */
enum { INSTALL_MODS = 20, INSTALL_RTM = 50 };
/* Archive i's name (NAME.pbo without .pbo) and prefix property
 * (mod_XX\addons\NAME) when archives are dealt round mods folders. */
void rtmgen_archive_names(unsigned i, unsigned mods, char *addon, size_t an, char *prefix,
                          size_t pn);
/* The entry path of -I archive i's animation m (anims\characters\...). */
void rtmgen_install_rtm(unsigned i, unsigned m, char *out, size_t n);
/* -I archive i's config.bin, for an install of total animations: rapified
 * (rap_write) into out, which must be empty; -1 (said) on failure. */
int rtmgen_config(unsigned i, long total, struct rtm_buf *out);

#endif
