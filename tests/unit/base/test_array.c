/* test_array.c - growing an array by doubling (array.h): the first
 * capacity, the doublings, the cut at a maximum, the uint32_t capacity, and
 * the refusals (a byte count or a doubling that overflows), which leave the
 * array and its capacity as they were.  The refusals are checked without
 * allocating: a capacity that large only ever stands in for one. */
#include "testutil.h"

#include "array.h"

/* An array of n ints 0, 7, 14, ... in a block of exactly n. */
static int *ints(size_t n)
{
    int *a = malloc(n * sizeof *a);
    assert_non_null(a);
    for (size_t i = 0; i < n; i++)
        a[i] = (int)(i * 7);
    return a;
}

static void assert_ints(const int *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        assert_int_equal(a[i], (int)(i * 7));
}

/* An empty array gets min_cap, or min_cap doubled when need is more; a
 * min_cap of 0 counts as 1. */
static void first_capacity(void **state)
{
    (void)state;
    void *p = NULL;
    size_t cap = 0;
    assert_int_equal(rtm_array_grow(&p, &cap, 1, sizeof(int), 16), 0);
    assert_non_null(p);
    assert_int_equal(cap, 16);
    free(p);

    p = NULL;
    cap = 0;
    assert_int_equal(rtm_array_grow(&p, &cap, 40, sizeof(int), 16), 0);
    assert_int_equal(cap, 64);
    free(p);

    p = NULL;
    cap = 0;
    assert_int_equal(rtm_array_grow(&p, &cap, 1, sizeof(int), 0), 0);
    assert_int_equal(cap, 1);
    free(p);

    /* nothing needed: nothing allocated */
    p = NULL;
    cap = 0;
    assert_int_equal(rtm_array_grow(&p, &cap, 0, sizeof(int), 16), 0);
    assert_null(p);
    assert_int_equal(cap, 0);

    /* elements of no bytes still get a block (realloc of 0 may free) */
    assert_int_equal(rtm_array_grow(&p, &cap, 3, 0, 4), 0);
    assert_non_null(p);
    assert_int_equal(cap, 4);
    free(p);
}

/* A full array doubles, as often as need takes; room enough is left alone. */
static void doubles(void **state)
{
    (void)state;
    void *p = NULL;
    size_t cap = 0;
    assert_int_equal(rtm_array_grow(&p, &cap, 1, 8, 16), 0);
    void *was = p;
    for (size_t need = 2; need <= 16; need++) {
        assert_int_equal(rtm_array_grow(&p, &cap, need, 8, 16), 0);
        assert_ptr_equal(p, was);
        assert_int_equal(cap, 16);
    }
    assert_int_equal(rtm_array_grow(&p, &cap, 17, 8, 16), 0);
    assert_int_equal(cap, 32);
    assert_int_equal(rtm_array_grow(&p, &cap, 100, 8, 16), 0);
    assert_int_equal(cap, 128);
    /* the start is the capacity, whatever it is (a reserve may leave 100) */
    free(p);
    p = malloc(100 * 8);
    cap = 100;
    assert_int_equal(rtm_array_grow(&p, &cap, 101, 8, 16), 0);
    assert_int_equal(cap, 200);
    free(p);
}

/* Appending one at a time, as the callers do: every element survives every
 * growth, and the capacity only ever doubles. */
static void content_survives(void **state)
{
    (void)state;
    void *p = NULL;
    size_t cap = 0, n = 0, growths = 0;
    while (n < 100000) {
        size_t before = cap;
        assert_int_equal(rtm_array_grow(&p, &cap, n + 1, sizeof(int), 64), 0);
        if (cap != before) {
            assert_int_equal(cap, before ? before * 2 : 64);
            assert_ints(p, n);
            growths++;
        }
        ((int *)p)[n] = (int)(n * 7);
        n++;
    }
    assert_ints(p, n);
    assert_int_equal(growths, 12);      /* 64 to 131072 */
    free(p);
}

/* need times elem past SIZE_MAX: refused, the array as it was. */
static void refuses_byte_overflow(void **state)
{
    (void)state;
    int *a = ints(4);
    void *p = a;
    size_t cap = 4;
    assert_int_equal(rtm_array_grow(&p, &cap, SIZE_MAX / 16 + 1, 16, 4), -1);
    assert_ptr_equal(p, a);
    assert_int_equal(cap, 4);
    assert_ints(a, 4);
    /* the same from empty */
    void *q = NULL;
    size_t qcap = 0;
    assert_int_equal(rtm_array_grow(&q, &qcap, SIZE_MAX / 2, sizeof(int), 16), -1);
    assert_null(q);
    assert_int_equal(qcap, 0);
    free(a);
}

/* A doubling past SIZE_MAX: refused before any realloc, the array as it
 * was (the large capacity only stands in for one). */
static void refuses_doubling_overflow(void **state)
{
    (void)state;
    int *a = ints(4);
    void *p = a;
    size_t big = SIZE_MAX / 2 + 1, cap = big;
    assert_int_equal(rtm_array_grow(&p, &cap, big + 1, 1, 16), -1);
    assert_ptr_equal(p, a);
    assert_int_equal(cap, big);
    /* from empty: no power of two of min_cap reaches need */
    void *q = NULL;
    size_t qcap = 0;
    assert_int_equal(rtm_array_grow(&q, &qcap, SIZE_MAX, 1, 3), -1);
    assert_null(q);
    assert_int_equal(qcap, 0);
    assert_ints(a, 4);
    free(a);
}

/* rtm_array_grow_max: the doubling stops at max_cap, need past it is
 * refused. */
static void stops_at_max(void **state)
{
    (void)state;
    void *p = NULL;
    size_t cap = 0;
    const size_t want[] = { 1, 2, 3, 4, 5 }, got[] = { 1, 2, 4, 4, 5 };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        assert_int_equal(rtm_array_grow_max(&p, &cap, want[i], sizeof(int), 1, 5), 0);
        assert_int_equal(cap, got[i]);
        ((int *)p)[want[i] - 1] = (int)((want[i] - 1) * 7);
    }
    assert_ints(p, 5);
    void *was = p;
    assert_int_equal(rtm_array_grow_max(&p, &cap, 6, sizeof(int), 1, 5), -1);
    assert_ptr_equal(p, was);
    assert_int_equal(cap, 5);
    assert_ints(p, 5);
    free(p);
    /* min_cap is cut too */
    p = NULL;
    cap = 0;
    assert_int_equal(rtm_array_grow_max(&p, &cap, 2, sizeof(int), 64, 3), 0);
    assert_int_equal(cap, 3);
    free(p);
}

/* rtm_array_grow32: grows as the others, and refuses a capacity past
 * UINT32_MAX instead of wrapping it. */
static void uint32_capacity(void **state)
{
    (void)state;
    void *p = NULL;
    uint32_t cap = 0;
    assert_int_equal(rtm_array_grow32(&p, &cap, 1, sizeof(int), 64), 0);
    assert_int_equal(cap, 64);
    assert_int_equal(rtm_array_grow32(&p, &cap, 65, sizeof(int), 64), 0);
    assert_int_equal(cap, 128);
    for (size_t i = 0; i < 128; i++)
        ((int *)p)[i] = (int)(i * 7);
    void *was = p;
    uint32_t big = (uint32_t)1 << 31;
    cap = big;
    assert_int_equal(rtm_array_grow32(&p, &cap, (size_t)big + 1, sizeof(int), 64), -1);
    assert_ptr_equal(p, was);
    assert_int_equal(cap, big);
    cap = 128;
    assert_int_equal(rtm_array_grow32(&p, &cap, (size_t)UINT32_MAX + 1, 1, 64), -1);
    assert_int_equal(cap, 128);
    assert_ints(p, 128);
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(first_capacity),
        cmocka_unit_test(doubles),
        cmocka_unit_test(content_survives),
        cmocka_unit_test(refuses_byte_overflow),
        cmocka_unit_test(refuses_doubling_overflow),
        cmocka_unit_test(stops_at_max),
        cmocka_unit_test(uint32_capacity),
    };
    return run_test_cases(tests, NULL, NULL);
}
