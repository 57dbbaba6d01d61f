/* array.c - growing an array by doubling (see array.h). */
#include "array.h"

#include <stdlib.h>

/* The capacity that holds need: cap, or min_cap (1 if 0) when cap is 0,
 * doubled until it does; 0 when a doubling would overflow. */
static size_t doubled(size_t cap, size_t need, size_t min_cap)
{
    size_t nc = cap ? cap : min_cap ? min_cap : 1;
    while (nc < need) {
        if (nc > SIZE_MAX / 2)
            return 0;
        nc *= 2;
    }
    return nc;
}

/* *arr realloc'd to nc elements of elem bytes (at least one byte: realloc
 * of 0 bytes may free): 0, or -1 with *arr untouched. */
static int resize(void **arr, size_t nc, size_t elem)
{
    if (elem && nc > SIZE_MAX / elem)
        return -1;
    size_t bytes = nc * elem;
    void *p = realloc(*arr, bytes ? bytes : 1);
    if (!p)
        return -1;
    *arr = p;
    return 0;
}

int rtm_array_grow(void **arr, size_t *cap, size_t need, size_t elem, size_t min_cap)
{
    if (need <= *cap)
        return 0;
    size_t nc = doubled(*cap, need, min_cap);
    if (!nc || resize(arr, nc, elem))
        return -1;
    *cap = nc;
    return 0;
}

int rtm_array_grow_max(void **arr, size_t *cap, size_t need, size_t elem, size_t min_cap,
                       size_t max_cap)
{
    if (need <= *cap)
        return 0;
    if (need > max_cap)
        return -1;
    size_t nc = doubled(*cap, need, min_cap);
    if (!nc || nc > max_cap)            /* need <= max_cap: the cut still holds it */
        nc = max_cap;
    if (resize(arr, nc, elem))
        return -1;
    *cap = nc;
    return 0;
}

int rtm_array_grow32(void **arr, uint32_t *cap, size_t need, size_t elem, size_t min_cap)
{
    if (need <= *cap)
        return 0;
    size_t nc = doubled(*cap, need, min_cap);
    if (!nc || nc > UINT32_MAX || resize(arr, nc, elem))
        return -1;
    *cap = (uint32_t)nc;
    return 0;
}
