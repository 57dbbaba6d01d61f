/* rtmcat_args.h - rtmcat's command line (rtmcat(1)): its options read
 * into one struct, which main (rtmcat.c) dispatches on. */
#ifndef RTM_RTMCAT_ARGS_H
#define RTM_RTMCAT_ARGS_H

#include "mocap_retarget.h"

struct rtmcat_args {
    const char *skel_spec;          /* -s, or "ofp2" */
    int skel_given;                 /* -s was given */
    const char *cdir;               /* -C DIR, or NULL */
    const char *inc[64];            /* -I DIR, ninc of them */
    int ninc;
    int estimate, raw, check, game, pp_only;
    int digits;                     /* -d, or RTM_DIGITS_EXACT */
    unsigned check_flags;           /* --strict, --format=json */
    struct rtm_mocap_opts mocap;    /* --bvh-unit, --bvh-fps */
};

/* Reads the options of argv into *a, optind then at the first operand:
 * -1 to go on, or the exit status (--help, --version: 0; a bad option
 * said on stderr: 2). */
int rtmcat_args_parse(int argc, char **argv, struct rtmcat_args *a);

#endif
