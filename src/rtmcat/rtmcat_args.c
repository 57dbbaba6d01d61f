/* rtmcat_args.c - rtmcat's command line (rtmcat_args.h). */
#include "rtmcat_args.h"

#include <getopt.h>
#include <lzo/lzoconf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numfmt.h"
#include "rtmcat_check.h"
#include "rtmcat_usage.h"
#include "version.h"

int rtmcat_args_parse(int argc, char **argv, struct rtmcat_args *a)
{
    static const struct option opts[] = {
        { "skeleton", required_argument, NULL, 's' },
        { "digits", required_argument, NULL, 'd' },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { "estimate-pivots", no_argument, NULL, 'P' },
        { "raw", no_argument, NULL, 'r' },
        { "check", no_argument, NULL, 'K' },
        { "strict", no_argument, NULL, 'S' },
        { "format", required_argument, NULL, 'F' },
        { "gamepath", no_argument, NULL, 'g' },
        { "bvh-unit", required_argument, NULL, 'U' },
        { "bvh-fps", required_argument, NULL, 'R' },
        { NULL, 0, NULL, 0 },
    };
    int ch;
    char *end;
    *a = (struct rtmcat_args){ .skel_spec = "ofp2", .digits = RTM_DIGITS_EXACT };
    while ((ch = getopt_long(argc, argv, "s:d:C:ghVEI:", opts, NULL)) != -1) {
        switch (ch) {
        case 's': a->skel_spec = optarg, a->skel_given = 1; break;
        case 'd':
            if ((a->digits = rtm_digits_parse(optarg)) < 0) {
                fprintf(stderr, "rtmcat: bad digits '%s' (" RTM_DIGITS_HELP ")\n", optarg);
                return 2;
            }
            break;
        case 'U':
            if (rtm_mocap_unit_parse(optarg, &a->mocap.unit)) {
                fprintf(stderr, "rtmcat: bad bvh-unit '%s' (m, cm, mm, in, cmu or metres)\n",
                        optarg);
                return 2;
            }
            break;
        case 'R':
            a->mocap.fps = strtod(optarg, &end);
            if (*end || !(a->mocap.fps > 0 && a->mocap.fps <= 1000)) {
                fprintf(stderr, "rtmcat: bad bvh-fps '%s' (frames a second, above 0, at most "
                        "1000)\n", optarg);
                return 2;
            }
            break;
        case 'P': a->estimate = 1; break;
        case 'E': a->pp_only = 1; break;
        case 'I': if (a->ninc == 64) return fprintf(stderr, "rtmcat: more than 64 -I\n"), 2;
                  a->inc[a->ninc++] = optarg; break;
        case 'r': a->raw = 1; break;
        case 'K': a->check = 1; break;
        case 'g': a->game = 1; break;
        case 'C': a->cdir = optarg; break;
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
