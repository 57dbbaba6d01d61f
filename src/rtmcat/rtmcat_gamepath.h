/* rtmcat_gamepath.h - rtmcat -g SOURCE GAMEPATH [VIEW] (rtmcat_gamepath.c):
 * a game path resolved under SOURCE as a -o gamepaths mount resolves it. */
#ifndef RTM_RTMCAT_GAMEPATH_H
#define RTM_RTMCAT_GAMEPATH_H

#include <stdio.h>

/* The help's paragraph on -g. */
void rtmcat_gamepath_usage(FILE *f);

/* args[0] is SOURCE, args[1] GAMEPATH ('\' or '/' between parts), n the
 * arguments left.  1 with args[1] turned into the file on disk the game
 * path shows (FILE, maybe ARCHIVE.pbo/ENTRY, in a buffer of this module's):
 * rtmcat goes on with args + 1 as FILE [VIEW].  0 when done, with the exit
 * status in *status: 0 after printing the names in a folder the game's
 * tree makes up, 1 when nothing is there, 2 on bad usage. */
int rtmcat_gamepath(int n, char **args, int *status);

#endif
