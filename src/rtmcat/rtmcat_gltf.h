/* rtmcat_gltf.h - a view of a loose glTF, GLB or FBX file read by rtmcat
 * itself (rtmcat(1)): the parse gets the files the source names beside
 * it (a .gltf's buffers) and the clip --clip asks for, which the tree's
 * loader does not give.
 *
 * Contract: rtmcat_gltf() returns -1 when it does not apply (no VIEW, not
 * a loose file of those formats: the tree's way then), else rtmcat's exit
 * status after writing the view or a message.  Files beside are read
 * under srcfd, from rel's folder only (the parse refuses absolute names
 * and ".."). */
#ifndef RTM_RTMCAT_GLTF_H
#define RTM_RTMCAT_GLTF_H

#include <stdint.h>

#include "mocap_retarget.h"
#include "skeleton.h"

int rtmcat_gltf(int srcfd, const char *rel, const char *view, const struct rtm_skeleton *skel,
                const struct rtm_mocap_opts *mocap, uint32_t clip, const char *file);

#endif
