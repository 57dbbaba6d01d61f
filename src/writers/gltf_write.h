/* gltf_write.h - a glTF 2.0 animation written by the project (the tests'
 * and rtmgen -G's fixtures): a two-bone arm (RightArm, RightForeArm,
 * RightHand along +x, 1.4 m up) whose forearm turns about z by 0, 45 and
 * 90 degrees at 0, 0.5 and 1 s and whose arm moves 0.1 m a key along x
 * (without a skin); with RTM_ARM_SKIN a skin of the three with inverse
 * bind matrices, with RTM_ARM_TWO_CLIPS a second clip "lift" (the arm
 * turning 30 degrees about z, STEP, over 2 s), with RTM_ARM_REST_TURN the
 * forearm's rest turned 90 degrees about x.
 *
 * Contract: the same flags write the same bytes; rtm_buf's own rule for
 * running out of memory (util.h: oom set, later appends ignored); no
 * state. */
#ifndef RTM_GLTF_WRITE_H
#define RTM_GLTF_WRITE_H

#include <stdint.h>

#include "util.h"

enum { RTM_ARM_SKIN = 1, RTM_ARM_TWO_CLIPS = 2, RTM_ARM_REST_TURN = 4 };

/* The arm's one buffer: 3 inverse bind matrices (at 0), 3 key times
 * (192), 3 forearm rotations (204), 3 arm translations (252), 2 key
 * times of the second clip (288) and its 2 arm rotations (296). */
enum { RTM_GLTF_ARM_BIN = 328 };
void rtm_gltf_arm_bin(uint8_t bin[RTM_GLTF_ARM_BIN], int flags);
/* The JSON, its buffer named uri (NULL: none, a GLB's BIN chunk). */
void rtm_gltf_arm_json(struct rtm_buf *j, int flags, const char *uri);
/* The arm as .gltf text, its buffer in a data: URI. */
void rtm_gltf_arm_text(struct rtm_buf *out, int flags);
/* The arm as a GLB: 0, or -1 when out of memory. */
int rtm_gltf_arm_glb(struct rtm_buf *out, int flags);

#endif
