/* rtmcat_usage.h - rtmcat's --help text (rtmcat_usage.c), with the
 * paragraphs of --check (rtmcat_check.h) and of configs (rtmcat_config.h). */
#ifndef RTM_RTMCAT_USAGE_H
#define RTM_RTMCAT_USAGE_H

#include <stdio.h>

void rtmcat_usage(FILE *f);

#endif
