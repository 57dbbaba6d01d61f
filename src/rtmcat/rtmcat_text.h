/* rtmcat_text.h - rtmcat on a config file named on the command line
 * (rtmcat_text.c). */
#ifndef RTM_RTMCAT_TEXT_H
#define RTM_RTMCAT_TEXT_H

#include <stdio.h>

/* The help's paragraph on text configs, -E and -I. */
void rtmcat_text_usage(FILE *f);

/* file, a path on disk: when it starts with "\0raP", whatever its name,
 * its text as a rapified config prints (cfg_print_text); when its name is
 * a text config's (config.cpp, model.cfg, *.hpp, *.ext), it is
 * preprocessed (cfg_pp.h: #include from its folder, its addon's game
 * paths and include/, then the folders inc[0 .. ninc)) and parsed, and its
 * text prints the same way; with pp_only the preprocessed text prints
 * instead.  A VIEW is refused.  Messages are one line.  rtmcat's exit
 * status, or -1 when file is neither (and pp_only is not set, which makes
 * that an error): rtmcat then goes on as before. */
int rtmcat_text(const char *file, const char *view, int pp_only, const char *const *inc,
                int ninc);

#endif
