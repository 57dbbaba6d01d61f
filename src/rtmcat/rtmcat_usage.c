/* rtmcat_usage.c - rtmcat's help text (rtmcat_usage.h); out of rtmcat.c,
 * which keeps the finding and printing of views. */
#include "rtmcat_usage.h"

#include "rtmcat_check.h"
#include "rtmcat_config.h"
#include "rtmcat_missing.h"
#include "rtmcat_gamepath.h"
#include "rtmcat_states.h"
#include "rtmcat_text.h"
#include "shared_opts.h"

void rtmcat_usage(FILE *f)
{
    fprintf(f,
            "usage: rtmcat [-s SKELETON] [-d DIGITS] [-C DIR] FILE [VIEW]\n"
            "       rtmcat [-s SKELETON] [-d DIGITS] [-C DIR] -o OUTDIR FILE [VIEW...]\n"
            "       rtmcat -C DIR missing.txt\n"
            "       rtmcat [-s SKELETON] --estimate-pivots FILE...\n"
            "       rtmcat --raw FILE\n"
            "       rtmcat [-E] [-I DIR]... CONFIG\n"
            "       rtmcat [-s SKELETON] --check [--strict] [--format=json] FILE...\n"
            "       rtmcat [-s SKELETON] [-d DIGITS] -g SOURCE GAMEPATH [VIEW]\n"
            "Print VIEW of the Arma animation FILE (.rtm, plain or BMTR, or a .bvh\n"
            "motion capture retargeted onto the skeleton), or list\n"
            "its views with their sizes in bytes when VIEW is omitted.  FILE may\n"
            "name an entry inside a PBO archive: ARCHIVE.pbo/path/in/archive.rtm.\n"
            "For FILE an archive (ARCHIVE.pbo), VIEW is pbo.txt (its header\n"
            "properties); without VIEW its entries are listed, and so are those of\n"
            "a folder in it (ARCHIVE.pbo/anims).\n\n");
    rtm_views_usage(f, "Views: ", "       ");
    fprintf(f, "\n"
            "  -s, --skeleton=SKEL  " RTM_SKELETON_DEFAULT " (default), " RTM_SKELETON_NONE
            ", or a skeleton file\n"
            "  -d, --digits=N       write the numbers of frames, tracks, joints, phases\n"
            "                       and props with N decimals (0-9), for diff; default:\n"
            "                       exact (the shortest that reads back the same)\n"
            "      --bvh-unit=UNIT  a BVH FILE's unit: m, cm, mm, in, cmu or metres\n"
            "                       (default: inferred from the skeleton's height)\n"
            "      --bvh-fps=N      resample a BVH FILE's motion to N frames a second\n"
            "  -o, --output=OUTDIR  write the VIEWs of FILE (all of them when none is\n"
            "                       named) as files below OUTDIR, made when missing\n"
            "      --estimate-pivots  estimate the skeleton's pivots (rest-pose joint\n"
            "                       positions) from the animation FILEs; print a\n"
            "                       skeleton file with them and a report per joint\n"
            "  -h, --help           show this help\n"
            "  -V, --version        show the version\n");
    rtmcat_check_usage(f);
    rtmcat_config_usage(f);
    rtmcat_text_usage(f);
    rtmcat_states_usage(f);
    rtmcat_missing_usage(f);
    rtmcat_gamepath_usage(f);
}
