/* numfmt_simd.h - the lengths of many floats at once, where the processor
 * can (floatlen_avx2.c): what rtm_nums_len (numfmt.h) uses for
 * RTM_DIGITS_EXACT when rtm_float_lens_avx2_ok().
 *
 * Contract:
 *  - rtm_float_lens_avx2() measures v[0..n) four at a time from the start
 *    and stops before the first four it does not take (one holds a zero,
 *    an infinity or a NaN) or that are not four: it adds their lengths,
 *    exactly rtm_float_len()'s, to *len and returns how many it measured.
 *    Call it only where rtm_float_lens_avx2_ok(); where the compiler has
 *    no AVX2 it measures none.
 *  - Pure; no state: any thread.  It uses nothing of numfmt.c: the
 *    scalar code calls it, never the other way round. */
#ifndef RTM_NUMFMT_SIMD_H
#define RTM_NUMFMT_SIMD_H

#include <stddef.h>
#include <stdint.h>

/* x86-64 with GCC or clang: built beside the scalar code, chosen at run
 * time. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define RTM_FLOATLEN_AVX2 1
#else
#define RTM_FLOATLEN_AVX2 0
#endif

size_t rtm_float_lens_avx2(const float *v, size_t n, uint64_t *len);
int rtm_float_lens_avx2_ok(void);

#endif
