/* test_work.c - the work counters (work.h): every counter has its own
 * name, NULL counts nothing, and the counted open, read and slurp add what
 * they did (a file opened, the bytes returned) and nothing on failure. */
#include "testutil.h"

#include <fcntl.h>
#include <unistd.h>

#include "work.h"

static void names_are_distinct(void **state)
{
    (void)state;
    for (int i = 0; i < RTM_WORK_N; i++) {
        assert_string_not_equal(rtm_work_name(i), "?");
        for (int j = 0; j < i; j++)
            assert_string_not_equal(rtm_work_name(i), rtm_work_name(j));
    }
    assert_string_equal(rtm_work_name(RTM_WORK_N), "?");
}

static void null_counts_nothing(void **state)
{
    (void)state;
    rtm_work_add(NULL, RTM_WORK_OPENED, 5);
    assert_int_equal(rtm_work_get(NULL, RTM_WORK_OPENED), 0);
}

static void counts_what_was_done(void **state)
{
    (void)state;
    char dir[] = "/tmp/rtmfs-work.XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/f", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("0123456789", f);
    fclose(f);
    struct rtm_work w = { 0 };
    char buf[64];
    int fd = rtm_work_openat(&w, AT_FDCWD, path, O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(rtm_work_pread(&w, fd, buf, sizeof buf, 4), 6);
    assert_int_equal(rtm_work_pread(&w, fd, buf, sizeof buf, 10), 0);  /* at the end */
    close(fd);
    assert_true(rtm_work_openat(&w, AT_FDCWD, "/nonexistent/x", O_RDONLY) < 0);
    assert_int_equal(rtm_work_get(&w, RTM_WORK_OPENED), 1);
    assert_int_equal(rtm_work_get(&w, RTM_WORK_BYTES), 6);
    assert_int_equal(rtm_work_get(&w, RTM_WORK_READS), 1);     /* one returned bytes */
    uint8_t *data;
    size_t len;
    assert_int_equal(rtm_work_slurp_max(&w, path, 100, &data, &len), 0);
    free(data);
    assert_int_equal(rtm_work_slurp_max(&w, path, 5, &data, &len), -1);   /* too big */
    assert_int_equal(rtm_work_get(&w, RTM_WORK_OPENED), 2);
    assert_int_equal(rtm_work_get(&w, RTM_WORK_BYTES), 16);
    assert_int_equal(rtm_work_get(&w, RTM_WORK_READS), 2);
    rtm_work_reset(&w);
    assert_int_equal(rtm_work_get(&w, RTM_WORK_BYTES), 0);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_are_distinct),
        cmocka_unit_test(null_counts_nothing),
        cmocka_unit_test(counts_what_was_done),
    };
    return run_test_cases(tests, NULL, NULL);
}
