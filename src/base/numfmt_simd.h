/* numfmt_simd.h - the lengths of many numbers at once, where the processor
 * can (floatlen_avx2.c): what rtm_nums_len (for RTM_DIGITS_EXACT) and
 * rtm_fixed_lens (numfmt.h) use when rtm_float_lens_avx2_ok().
 *
 * Contract:
 *  - rtm_float_lens_avx2() measures v[0..n) four at a time from the start
 *    and stops before the first four it does not take (one holds an
 *    infinity or a NaN) or that are not four: it adds their lengths,
 *    exactly rtm_float_len()'s, to *len and returns how many it measured.
 *    Call it only where rtm_float_lens_avx2_ok(); where the compiler has
 *    no AVX2 it measures none.
 *  - rtm_fixed_lens_avx2() the same for rtm_fixed_len() of doubles with
 *    digits decimals (0 to RTM_DIGITS_MAX): it stops before four whose
 *    scaled value |v| 10^digits is not below 2^47 (or is NaN).
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
size_t rtm_fixed_lens_avx2(const double *v, size_t n, int digits, uint64_t *len);
int rtm_float_lens_avx2_ok(void);

#endif
