/* array.h - growing an array by doubling: the one rule every growable array
 * of rtmfs follows (as libgit2's git_array).
 *
 * Contract:
 *  - *arr is the caller's: a malloc'd block of *cap elements of elem bytes
 *    each, or NULL with *cap 0.  The caller keeps the length; these
 *    functions only make room, realloc'ing *arr (its first *cap elements
 *    survive, the new ones are uninitialised), and the caller frees it.
 *  - When *cap already holds need elements nothing happens.  Otherwise the
 *    new capacity is *cap, or min_cap (1 if 0) when *cap is 0, doubled as
 *    often as it takes to hold need; a block is never asked for 0 bytes.
 *  - 0 on success.  -1 when a doubling or the byte count (capacity times
 *    elem) would overflow, the capacity passes the function's limit, or
 *    realloc fails: *arr and *cap are then untouched (*arr still owns its
 *    elements and still needs freeing).  No message: the caller says what
 *    ran out, as it did before.
 *  - No global state: callers on different arrays need no lock; one array
 *    is the caller's to guard.
 *  - arr must point to a void * (a typed pointer is copied into one and
 *    back), so that no pointer is read through another pointer type.
 */
#ifndef RTM_ARRAY_H
#define RTM_ARRAY_H

#include <stddef.h>
#include <stdint.h>

int rtm_array_grow(void **arr, size_t *cap, size_t need, size_t elem, size_t min_cap);

/* The same, but the capacity stops at max_cap (the last doubling is cut to
 * it, min_cap too): for an array whose final length is known.  need past
 * max_cap is refused (-1). */
int rtm_array_grow_max(void **arr, size_t *cap, size_t need, size_t elem, size_t min_cap,
                       size_t max_cap);

/* The same for a uint32_t capacity: a capacity past UINT32_MAX is refused
 * (-1), never wrapped. */
int rtm_array_grow32(void **arr, uint32_t *cap, size_t need, size_t elem, size_t min_cap);

#endif
