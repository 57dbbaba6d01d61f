/* rtmgen.h - what rtmgen's files share (rtmgen.c: the command line, the
 * small sets, files for the memory tests and the standing figure;
 * rtmgen_mods.c: trees shaped like mods and a whole install).  Messages go
 * to stderr, prefixed "rtmgen: "; functions return 0, or -1 (the rtmgen_*
 * ones 1, rtmgen's exit status) after saying why. */
#ifndef RTM_RTMGEN_H
#define RTM_RTMGEN_H

#include <stddef.h>

#include "samples.h"
#include "util.h"

/* The sample formats rtmgen writes. */
enum kind { K_PLAIN, K_MDAT, K_V3, K_V4, K_V5_RAW, K_V5_LZO, K_KINDS };
/* A sample of kind k into b; -1 when out of memory. */
int make(enum kind k, const struct sample_opts *o, struct rtm_buf *b);

/* mkdir -p: path and every folder above it (n bytes of path). */
int make_dirs(const char *path, size_t n);
int make_dir(const char *path);
/* Writes len bytes of b to path, making the folders above it as needed. */
int write_file(const char *path, const struct rtm_buf *b, size_t len);

/* -P MB DIR: archives of at least MB megabytes shaped like Arma mods; a
 * summary on stdout. */
int rtmgen_mods(const char *dir, long mb);
/* -I N DIR: a whole install of N animations in archives and N/10 loose;
 * a summary on stdout. */
int rtmgen_install(const char *dir, long n);

#endif
