/* rtmcat_args.h - rtmcat's command line (rtmcat(1)): its options read
 * into one struct, which main (rtmcat.c) dispatches on. */
#ifndef RTM_RTMCAT_ARGS_H
#define RTM_RTMCAT_ARGS_H

#include "shared_opts.h"

struct rtmcat_args {
    struct rtm_shared_opts shared;  /* -s, -d, --bvh-unit, --bvh-fps (the
                                       options rtmfs takes too) */
    const char *cdir;               /* -C DIR, or NULL */
    const char *outdir;             /* -o OUTDIR, or NULL */
    const char *inc[64];            /* -I DIR, ninc of them */
    int ninc;
    int estimate, raw, check, game, pp_only;
    unsigned check_flags;           /* --strict, --format=json */
};

/* Reads the options of argv into *a, optind then at the first operand:
 * -1 to go on, or the exit status (--help, --version: 0; a bad option
 * said on stderr: 2). */
int rtmcat_args_parse(int argc, char **argv, struct rtmcat_args *a);

#endif
