/* rtmcat_args.c - rtmcat's command line (rtmcat_args.h). */
#include "rtmcat_args.h"

#include <getopt.h>
#include <lzo/lzoconf.h>
#include <stdio.h>
#include <string.h>

#include "rtmcat_check.h"
#include "rtmcat_usage.h"
#include "version.h"

/* An option rtmfs takes too (shared_opts.h): its long name in opts, its
 * value read by the one parser both programs use.  0, or 2 after saying
 * why not. */
static int shared_option(const struct option *opts, int ch, const char *value,
                         struct rtm_shared_opts *o)
{
    char msg[256];
    while (opts->name && opts->val != ch)
        opts++;
    if (!opts->name || rtm_shared_opt_set(o, opts->name, value, msg, sizeof msg) >= 0)
        return 0;
    fprintf(stderr, "rtmcat: %s\n", msg);
    return 2;
}

int rtmcat_args_parse(int argc, char **argv, struct rtmcat_args *a)
{
    static const struct option opts[] = {
        { "skeleton", required_argument, NULL, 's' },       /* shared */
        { "digits", required_argument, NULL, 'd' },         /* shared */
        { "bvh-unit", required_argument, NULL, 'U' },       /* shared */
        { "bvh-fps", required_argument, NULL, 'R' },        /* shared */
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { "estimate-pivots", no_argument, NULL, 'P' },
        { "raw", no_argument, NULL, 'r' },
        { "check", no_argument, NULL, 'K' },
        { "strict", no_argument, NULL, 'S' },
        { "format", required_argument, NULL, 'F' },
        { "gamepath", no_argument, NULL, 'g' },
        { "output", required_argument, NULL, 'o' },
        { NULL, 0, NULL, 0 },
    };
    int ch;
    *a = (struct rtmcat_args){ .shared = RTM_SHARED_OPTS_INIT };
    while ((ch = getopt_long(argc, argv, "s:d:C:o:ghVEI:", opts, NULL)) != -1) {
        switch (ch) {
        case 's': case 'd': case 'U': case 'R':
            if (shared_option(opts, ch, optarg, &a->shared))
                return 2;
            break;
        case 'P': a->estimate = 1; break;
        case 'E': a->pp_only = 1; break;
        case 'I': if (a->ninc == 64) return fprintf(stderr, "rtmcat: more than 64 -I\n"), 2;
                  a->inc[a->ninc++] = optarg; break;
        case 'r': a->raw = 1; break;
        case 'K': a->check = 1; break;
        case 'g': a->game = 1; break;
        case 'C': a->cdir = optarg; break;
        case 'o': a->outdir = optarg; break;
        case 'S': a->check_flags |= RTMCAT_CHECK_STRICT; break;
        case 'F':
            if (strcmp(optarg, "json") && strcmp(optarg, "text")) {
                fprintf(stderr, "rtmcat: bad format '%s' (text or json)\n", optarg);
                return 2;
            }
            a->check_flags |= strcmp(optarg, "json") ? 0u : (unsigned)RTMCAT_CHECK_JSON;
            break;
        case 'h': rtmcat_usage(stdout); return 0;
        case 'V':
            printf("rtmcat %s (LZO %s)\n", RTMFS_VERSION, lzo_version_string());
            return 0;
        default: rtmcat_usage(stderr); return 2;
        }
    }
    return -1;
}
