/* numfmt.h - the text forms of numbers and names used by every text view.
 *
 * Contract:
 *  - rtm_fmt_float() writes the shortest decimal that strtof() reads back as
 *    the same float32 (the nearest such when several qualify), "-0" for
 *    negative zero, "nan", "inf", "-inf".  Plain notation for exponents -5..8,
 *    otherwise d.ddde+XX.  buf needs RTM_FLOAT_CHARS bytes; returns the length.
 *  - rtm_fmt_num() writes v with digits decimals (0..RTM_DIGITS_MAX) as
 *    "%.*f" would, then drops trailing zeros and a bare point, and writes
 *    "-0" as "0": numbers that diff well.  RTM_DIGITS_EXACT (below) is
 *    rtm_fmt_float().  nan and inf as rtm_fmt_float() either way.
 *  - rtm_put_name() escapes raw name bytes: printable ASCII as is, other
 *    bytes and the backslash as \xNN.  The csv and json variants add RFC 4180
 *    quoting (only when needed) and RFC 8259 string quoting on top; the
 *    token variant escapes the space too, for space-separated fields; the
 *    XML variant writes & < > as entities, for SVG text.
 *  - All functions are pure; output is appended to a caller-owned buffer.
 */
#ifndef RTM_NUMFMT_H
#define RTM_NUMFMT_H

#include <stddef.h>

#include "util.h"

/* A view's numbers: RTM_DIGITS_EXACT, the shortest round trip, or that
 * many decimals in fixed point (-o digits=N, rtmcat -d N). */
#define RTM_DIGITS_EXACT (-1)
enum { RTM_DIGITS_MAX = 9 };

/* Room for any number either way: FLT_MAX in fixed point with 9 decimals
 * takes 50 bytes with its sign. */
enum { RTM_FLOAT_CHARS = 64 };

size_t rtm_fmt_float(float v, char *buf);
/* Its length alone, without writing the digits (what sizing needs). */
size_t rtm_float_len(float v);
/* The reference: same result by snprintf/strtof search (slow; for tests). */
size_t rtm_fmt_float_slow(float v, char *buf);
void rtm_put_float(struct rtm_buf *b, float v);
/* The decimals of a digits option: "0" to "9" (RTM_DIGITS_MAX), else -1. */
int rtm_digits_parse(const char *s);
#define RTM_DIGITS_HELP "a number of decimals, 0 to 9"
size_t rtm_fmt_num(float v, int digits, char *buf);
/* Its length: rtm_float_len() for RTM_DIGITS_EXACT. */
size_t rtm_num_len(float v, int digits);
/* The lengths of n numbers, added (a matrix row in one call). */
uint64_t rtm_nums_len(const float *v, size_t n, int digits);
/* A double in fixed point the same way (digits clamped to 0..9), rounded
 * half to even from v · 10^digits; for a float v exactly rtm_fmt_num(). */
size_t rtm_fmt_fixed(double v, int digits, char *buf);
/* Its length alone, without writing the digits (what sizing needs). */
size_t rtm_fixed_len(double v, int digits);
/* The lengths of n of them, added (a frame's channels in one call). */
uint64_t rtm_fixed_lens(const double *v, size_t n, int digits);
/* The lengths of printf's "%.*f" (decimals 0..9) and "%.*g" (precision
 * 1..9) of v, without printf's digits where the rounding is clear (a
 * counting buffer's views: sizing). */
size_t rtm_printf_f_len(double v, int decimals);
size_t rtm_printf_g_len(double v, int precision);
/* The reference: the same by snprintf (slower; for tests). */
size_t rtm_fmt_num_slow(float v, int digits, char *buf);
void rtm_put_num(struct rtm_buf *b, float v, int digits);
/* JSON has no nan/inf: those become null. */
void rtm_put_json_num(struct rtm_buf *b, float v, int digits);
void rtm_put_name(struct rtm_buf *b, struct rtm_str s);
void rtm_put_token(struct rtm_buf *b, struct rtm_str s);
void rtm_put_csv_name(struct rtm_buf *b, struct rtm_str s);
void rtm_put_json_name(struct rtm_buf *b, struct rtm_str s);
void rtm_put_xml_name(struct rtm_buf *b, struct rtm_str s);

#endif
