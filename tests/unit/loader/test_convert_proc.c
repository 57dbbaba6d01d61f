/* test_convert_proc.c - a converter run as a process (convert_proc.h):
 * converters planted through RTMFS_FBX that succeed, crash, hang, write
 * too much, exit 1 with a message or do not exist.  Each ends in its own
 * clear result, leaves no child behind (no zombie: waitpid finds no
 * child) and no descriptor open that was not open before. */
#include "testutil.h"
#include "convert_proc.h"

#include <dirent.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char dir[64];

static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    int n = 0;
    assert_non_null(d);
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}

/* Plants a shell script as the converter. */
static void plant(const char *body)
{
    char path[128];
    snprintf(path, sizeof path, "%s/conv", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\n%s\n", body);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(path, 0755), 0);
    assert_int_equal(setenv("RTMFS_FBX", path, 1), 0);
}

struct outcome {
    int rc;
    uint8_t *glb;
    size_t len;
    struct rtm_error err;
    double seconds;
};

/* Runs the planted converter on n bytes; checks what every run must. */
static struct outcome run(size_t n, unsigned timeout_ms)
{
    struct outcome o = { 0 };
    uint8_t *data = malloc(n ? n : 1);
    assert_non_null(data);
    for (size_t i = 0; i < n; i++)
        data[i] = (uint8_t)(i * 7 + 3);
    struct rtm_convert_opts opts = { .timeout_ms = timeout_ms };
    int before = open_fds();
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    o.rc = rtm_convert_proc(&opts, "fbx", data, n, &o.glb, &o.len, &o.err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    o.seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    assert_int_equal(open_fds(), before);
    errno = 0;
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);   /* no child left, not even a zombie */
    assert_int_equal(errno, ECHILD);
    if (o.rc != 0) {
        assert_null(o.glb);
        print_message("    message: %s\n", o.err.msg);
    }
    free(data);
    return o;
}

static void echoes_four_mebibytes(void **state)
{
    (void)state;
    plant("exec cat");          /* reads and writes at once: no deadlock */
    struct outcome o = run((size_t)4 << 20, 10000);
    assert_int_equal(o.rc, 0);
    assert_int_equal(o.len, (size_t)4 << 20);
    for (size_t i = 0; i < o.len; i++)
        if (o.glb[i] != (uint8_t)(i * 7 + 3))
            fail_msg("byte %zu came back as %u", i, o.glb[i]);
    free(o.glb);
}

static void crash_is_its_signal(void **state)
{
    (void)state;
    plant("kill -SEGV $$");
    struct outcome o = run(1000, 10000);
    assert_int_equal(o.rc, -1);
    assert_int_equal(o.err.code, 0);
    assert_string_equal(o.err.msg, "rtmfs-fbx died of signal 11 (SEGV)");
}

static void hang_is_killed(void **state)
{
    (void)state;
    plant("sleep 30");          /* a grandchild holds the pipes too */
    struct outcome o = run(1000, 300);
    assert_int_equal(o.rc, -1);
    assert_string_equal(o.err.msg, "rtmfs-fbx took longer than 0.3 s");
    assert_true(o.seconds < 5);
}

static void too_much_is_cut(void **state)
{
    (void)state;
    plant("exec cat /dev/zero");
    struct outcome o = run(1000, 10000);
    assert_int_equal(o.rc, -1);
    assert_non_null(strstr(o.err.msg, "rtmfs-fbx wrote more than 16841216 bytes for a 1000-byte file"));
}

static void exit_one_says_why(void **state)
{
    (void)state;
    plant("cat >/dev/null; echo 'rtmfs-fbx: FBX-Tokenize: unexpected end' >&2; echo more >&2; exit 1");
    struct outcome o = run(300000, 10000);
    assert_int_equal(o.rc, -1);
    assert_int_equal(o.err.code, 0);
    assert_string_equal(o.err.msg, "rtmfs-fbx: FBX-Tokenize: unexpected end");
}

static void unread_input_is_no_signal(void **state)
{
    (void)state;
    plant("echo -n done");      /* never reads its 8 MiB of stdin */
    struct outcome o = run((size_t)8 << 20, 10000);
    assert_int_equal(o.rc, 0);
    assert_int_equal(o.len, 4);
    assert_memory_equal(o.glb, "done", 4);
    free(o.glb);
}

static void other_failures_say_so(void **state)
{
    (void)state;
    plant("exit 3");
    struct outcome o = run(10, 10000);
    assert_string_equal(o.err.msg, "rtmfs-fbx exited with status 3");
    plant("exit 0");
    o = run(10, 10000);
    assert_string_equal(o.err.msg, "rtmfs-fbx wrote nothing");
}

static void missing_converter(void **state)
{
    (void)state;
    assert_int_equal(setenv("RTMFS_FBX", "/nonexistent/rtmfs-fbx", 1), 0);
    struct outcome o = run(10, 10000);
    assert_int_equal(o.rc, -1);
    assert_string_equal(o.err.msg, "cannot run /nonexistent/rtmfs-fbx: No such file or directory");
}

static void only_fbx(void **state)
{
    (void)state;
    uint8_t *glb;
    size_t len;
    struct rtm_error err = { 0 };
    assert_int_equal(rtm_convert_proc(NULL, "dae", (const uint8_t *)"x", 1, &glb, &len, &err), -1);
    assert_string_equal(err.msg, "no converter reads dae files");
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/rtmfs-conv.XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/conv", dir);
    unlink(path);
    rmdir(dir);
    unsetenv("RTMFS_FBX");
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(echoes_four_mebibytes),
        cmocka_unit_test(crash_is_its_signal),
        cmocka_unit_test(hang_is_killed),
        cmocka_unit_test(too_much_is_cut),
        cmocka_unit_test(exit_one_says_why),
        cmocka_unit_test(unread_input_is_no_signal),
        cmocka_unit_test(other_failures_say_so),
        cmocka_unit_test(missing_converter),
        cmocka_unit_test(only_fbx),
    };
    return run_test_cases(tests, setup, teardown);
}
