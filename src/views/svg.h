/* svg.h - preview.svg: the animation drawn as a stick figure that moves,
 * in two orthographic panels, as an SVG a browser plays (SMIL) and librsvg
 * and thumbnailers show still (the first frame).
 *
 * What it draws: the joints pivot · M (pivots.h: rtm_joints, as joints/),
 * never row 4 of the matrices, which is where the model's origin goes.
 *
 * Layout, in the viewBox 0 0 RTM_SVG_WIDTH RTM_SVG_HEIGHT (user units; y down):
 *  - panel 0, "front", seen from in front of the character (who faces -Z,
 *    +X its left, +Y up): model X to the right; panel 1, "side": model Z to
 *    the right, so the character faces left.  Panel k's box has its left
 *    edge at RTM_SVG_MARGIN + k (RTM_SVG_PANEL_W + RTM_SVG_MARGIN), its top
 *    at RTM_SVG_TOP, and is RTM_SVG_PANEL_W x RTM_SVG_PANEL_H.
 *  - One scale s for both: the largest that fits the bounding box of every
 *    joint drawn over every frame drawn, spans (at least RTM_SVG_MIN_SPAN)
 *    inside the box less RTM_SVG_PAD on each side; the box's centre mid
 *    goes to the panel's centre:
 *        x = left_k + PANEL_W/2 + s (X - mid_X)   (Z - mid_Z on the side)
 *        y = TOP + PANEL_H/2 - s (Y - mid_Y)
 *    written with one decimal (rtm_fmt_fixed).  A faint ground line lies at
 *    the lowest Y reached.
 *  - A title line, the format ("BMTR v5, 41 frames, 67 bones"; never the
 *    file's name, so the same animation gives the same bytes anywhere), as
 *    the document's <title> and as text; a caption under each panel.
 *
 * The figure: the joints of the bones the skeleton gives a pivot, unless
 * it is "placed" by a rule (skeleton.txt) on a bone with a parent here:
 * such a guess (ofp2's camera, weapon, launcher) is a point the bone's
 * matrix was never meant to move, and would draw a line across the picture.
 * Per panel, a line from each joint to its parent's (the skeleton's parent
 * here), one path per colour; a dot per joint, a circle at 0 0 moved by
 * transform="translate(x y)", with the bone's name (numfmt.h's escapes,
 * then XML's) as its <title>.  Colours: bones whose name holds "left" (any
 * case), "right", and the rest.  Joints whose position is NaN or infinite
 * in any frame drawn are left out too.  A <desc> says how many bones have
 * no joint drawn, and why; then, for a timing that is not the empty
 * generation, its sentence (timing.h; '<' and '&' escaped, bytes outside
 * printable ASCII as '?').
 *
 * Animation: the frames with a finite phase, in phase order (rtm_phase_order;
 * the others are left out, and the <desc> says so).  Every path animates
 * "d" and every dot "transform" through <animate>/<animateTransform> with
 * the same dur: the timing's seconds when it has some (timing.h: the first
 * frame drawn to the last is one pass), else the convention, one frame a
 * 1/30 s, at least 1 s; repeatCount="indefinite",
 * calcMode="linear", and keyTimes (phases normalised to 0..1, 4 decimals)
 * unless every step is equal within 1e-6 of the span.  The static attributes
 * hold the first frame.  One frame drawn, or a span of 0, gives a still
 * picture without any animation element.
 *
 * Without pivots the SVG is a line of text, RTM_SVG_NO_REST_POSE.
 *
 * Contract: rtm_write_svg_timed() appends the SVG of a (which needs
 * matrices) timed by tm (NULL: the empty generation; the caller's, read
 * during the call) to out: always well-formed XML in ASCII; -1 when a has
 * no matrices or when out of memory.  Pure: same anim and timing, same
 * bytes.  rtm_write_svg() is it with tm NULL.
 */
#ifndef RTM_SVG_H
#define RTM_SVG_H

#include "rtm.h"
#include "timing.h"

enum {
    RTM_SVG_MARGIN = 10,
    RTM_SVG_TOP = 26,
    RTM_SVG_PANEL_W = 240,
    RTM_SVG_PANEL_H = 290,
    RTM_SVG_PAD = 12,
    RTM_SVG_WIDTH = 3 * RTM_SVG_MARGIN + 2 * RTM_SVG_PANEL_W,
    RTM_SVG_HEIGHT = RTM_SVG_TOP + RTM_SVG_PANEL_H + 24,
};
#define RTM_SVG_MIN_SPAN 0.01           /* metres: a still point is not a blow-up */
#define RTM_SVG_NO_REST_POSE "no rest pose: mount with a skeleton that has pivots"

int rtm_write_svg(const struct rtm_anim *a, struct rtm_buf *out);
int rtm_write_svg_timed(const struct rtm_anim *a, const struct rtm_timing *tm,
                        struct rtm_buf *out);
/* The size of that SVG timed by tm, in *size, from untimed, its size with
 * tm NULL: what a timing changes is measured, not the coordinates, which it
 * never changes (the same number as rendering it, much cheaper); -1 as
 * rtm_write_svg_timed(). */
int rtm_svg_timed_size(const struct rtm_anim *a, const struct rtm_timing *tm, uint64_t untimed,
                       uint64_t *size);

#endif
