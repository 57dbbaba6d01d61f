/* numfmt.h - the text forms of numbers and names used by every text view.
 *
 * Contract:
 *  - rtm_fmt_float() writes the shortest decimal that strtof() reads back as
 *    the same float32 (the nearest such when several qualify), "-0" for
 *    negative zero, "nan", "inf", "-inf".  Plain notation for exponents -5..8,
 *    otherwise d.ddde+XX.  buf needs RTM_FLOAT_CHARS bytes; returns the length.
 *  - rtm_put_name() escapes raw name bytes: printable ASCII as is, other
 *    bytes and the backslash as \xNN.  The csv and json variants add RFC 4180
 *    quoting (only when needed) and RFC 8259 string quoting on top.
 *  - All functions are pure; output is appended to a caller-owned buffer.
 */
#ifndef RTM_NUMFMT_H
#define RTM_NUMFMT_H

#include <stddef.h>

#include "rtm.h"
#include "util.h"

enum { RTM_FLOAT_CHARS = 32 };

size_t rtm_fmt_float(float v, char *buf);
/* The reference: same result by snprintf/strtof search (slow; for tests). */
size_t rtm_fmt_float_slow(float v, char *buf);
void rtm_put_float(struct rtm_buf *b, float v);
/* JSON has no nan/inf: those become null. */
void rtm_put_json_float(struct rtm_buf *b, float v);
void rtm_put_name(struct rtm_buf *b, struct rtm_str s);
void rtm_put_csv_name(struct rtm_buf *b, struct rtm_str s);
void rtm_put_json_name(struct rtm_buf *b, struct rtm_str s);

#endif
