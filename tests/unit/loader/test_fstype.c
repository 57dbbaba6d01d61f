/* test_fstype.c - the blind-or-not decision without mounting anything: a
 * table of file system names and statfs magic numbers, sample lines of
 * /proc/self/mountinfo, -o watch= values, and the per-device map in each
 * mode (a verdict set by hand, and a probe of the test's own folder). */
#include <fcntl.h>
#include <unistd.h>

#include "testutil.h"
#include "fstype.h"

static const struct {
    const char *type;             /* as mountinfo names it; NULL: unknown */
    uint32_t magic;               /* statfs f_type */
    int blind;
} cases[] = {
    { "nfs", 0x6969, 1 },
    { "nfs4", 0x6969, 1 },
    { "cifs", 0xFF534D42u, 1 },
    { "smb3", 0xFF534D42u, 1 },
    { "smb3", 0xFE534D42u, 1 },
    { "9p", 0x01021997, 1 },                      /* WSL2's /mnt/c */
    { "afs", 0x6B414653, 1 },
    { "ceph", 0x00C36400, 1 },
    { "lustre", 0x0BD00BD0, 1 },
    { "vboxsf", 0x786F4256, 1 },
    { "virtiofs", 0x65735546, 1 },
    { "fuse.sshfs", 0x65735546, 1 },
    { "fuse.rclone", 0x65735546, 1 },
    { "fuse.bindfs", 0x65735546, 1 },
    { "fuse", 0x65735546, 1 },                    /* bindfs without a subtype */
    { "fuseblk", 0x65735546, 0 },                 /* ntfs-3g: a local disk */
    { "fuseblk.ntfs-3g", 0x65735546, 0 },
    { "ext4", 0xEF53, 0 },
    { "xfs", 0x58465342, 0 },
    { "btrfs", 0x9123683E, 0 },
    { "tmpfs", 0x01021994, 0 },
    { "overlay", 0x794C7630, 0 },
    { NULL, 0xEF53, 0 },                          /* no mountinfo line: magic */
    { "", 0x6969, 1 },
    { NULL, 0x65735546, 1 },                      /* FUSE, which one unknown */
    { "ext4", 0x6969, 1 },                        /* the magic belies the name */
    { "fuseblk", 0x6969, 1 },
    { "fuse.", 0x65735546, 1 },                   /* no subtype after the dot: magic */
    { "nfsd", 0x6E667364, 0 },                    /* the server's control fs */
};

static void decision_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int got = rtm_fstype_blind(cases[i].type, cases[i].magic);
        if (got != cases[i].blind)
            fail_msg("%s 0x%x: %d, want %d", cases[i].type ? cases[i].type : "(null)",
                     (unsigned)cases[i].magic, got, cases[i].blind);
    }
}

static const char mountinfo[] =
    "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
    "27 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
    "40 27 0:39 / /home/me/nas rw,nosuid shared:5 master:2 - nfs4 nas:/export rw,vers=4.2\n"
    "41 27 0:40 / /home/me/my\\040mods rw - fuse.sshfs me@host:/mods rw,user_id=1000\n"
    "42 27 8:17 / /mnt/steam rw - fuseblk /dev/sdb1 rw,default_permissions\n"
    "43 27 0:41 / /mnt/c rw,noatime - 9p drvfs rw,aname=drvfs;path=C:\\;uid=1000\n"
    "44 27 0:42 /sub /mnt/with\\040-\\040dash rw - fuse.odd\\040name src rw\n"
    "45 27 0:43 / /last rw - tmpfs tmpfs rw";   /* no line end */

static void mountinfo_lines(void **state)
{
    (void)state;
    char type[64];
    assert_int_equal(rtm_mountinfo_type(mountinfo, 8, 1, type, sizeof type), 0);
    assert_string_equal(type, "ext4");
    assert_int_equal(rtm_mountinfo_type(mountinfo, 0, 39, type, sizeof type), 0);
    assert_string_equal(type, "nfs4");            /* past the optional fields */
    assert_int_equal(rtm_mountinfo_type(mountinfo, 0, 40, type, sizeof type), 0);
    assert_string_equal(type, "fuse.sshfs");
    assert_int_equal(rtm_mountinfo_type(mountinfo, 8, 17, type, sizeof type), 0);
    assert_string_equal(type, "fuseblk");
    assert_int_equal(rtm_mountinfo_type(mountinfo, 0, 41, type, sizeof type), 0);
    assert_string_equal(type, "9p");
    assert_int_equal(rtm_mountinfo_type(mountinfo, 0, 42, type, sizeof type), 0);
    assert_string_equal(type, "fuse.odd name");   /* escapes decoded */
    assert_int_equal(rtm_mountinfo_type(mountinfo, 0, 43, type, sizeof type), 0);
    assert_string_equal(type, "tmpfs");
    assert_int_equal(rtm_mountinfo_type(mountinfo, 0, 99, type, sizeof type), -1);
    assert_int_equal(rtm_mountinfo_type(mountinfo, 0, 4, type, sizeof type), -1);
    assert_int_equal(rtm_mountinfo_type(mountinfo, 0, 40, type, 5), -1);   /* too long */
    assert_int_equal(rtm_mountinfo_type("", 8, 1, type, sizeof type), -1);
    assert_int_equal(rtm_mountinfo_type("garbage\n\n1 2 8:1 no separator\n", 8, 1, type,
                                        sizeof type), -1);
}

static void watch_modes(void **state)
{
    (void)state;
    enum rtm_watch_mode m;
    assert_int_equal(rtm_watch_mode_parse("auto", &m), 0);
    assert_int_equal(m, RTM_WATCH_AUTO);
    assert_int_equal(rtm_watch_mode_parse("inotify", &m), 0);
    assert_int_equal(m, RTM_WATCH_INOTIFY);
    assert_int_equal(rtm_watch_mode_parse("poll", &m), 0);
    assert_int_equal(m, RTM_WATCH_POLL);
    assert_int_equal(rtm_watch_mode_parse("Poll", &m), -1);
    assert_int_equal(rtm_watch_mode_parse("", &m), -1);
    assert_int_equal(rtm_watch_mode_parse(NULL, &m), -1);
}

/* The map answers the tree by its mode, and the loader by the verdict. */
static void map_modes(void **state)
{
    (void)state;
    const enum rtm_watch_mode modes[] = { RTM_WATCH_AUTO, RTM_WATCH_INOTIFY, RTM_WATCH_POLL };
    for (size_t i = 0; i < 3; i++) {
        struct rtm_fsmap *m = rtm_fsmap_new(modes[i], "/src");
        assert_non_null(m);
        assert_int_equal(rtm_fsmap_blind(m, 7), -1);
        assert_int_equal(rtm_fsmap_set(m, 7, 1), 0);
        assert_int_equal(rtm_fsmap_set(m, 8, 0), 0);
        assert_int_equal(rtm_fsmap_blind(m, 7), 1);
        assert_int_equal(rtm_fsmap_blind(m, 8), 0);
        int want7 = modes[i] != RTM_WATCH_INOTIFY, want8 = modes[i] == RTM_WATCH_POLL;
        assert_int_equal(rtm_fsmap_check(m, AT_FDCWD, "", 7), want7);
        assert_int_equal(rtm_fsmap_check(m, AT_FDCWD, "", 8), want8);
        /* a device that cannot be probed (not the folder's): not trusted */
        assert_int_equal(rtm_fsmap_check(m, AT_FDCWD, "", 9), modes[i] != RTM_WATCH_INOTIFY);
        assert_int_equal(rtm_fsmap_blind(m, 9), -1);
        rtm_fsmap_free(m);
    }
}

/* A real probe of the test's own folder records its device, whatever
 * file system the machine has there. */
static void map_probes_a_folder(void **state)
{
    (void)state;
    struct stat st;
    assert_int_equal(stat(".", &st), 0);
    struct rtm_fsmap *m = rtm_fsmap_new(RTM_WATCH_INOTIFY, "/src");
    assert_non_null(m);
    assert_int_equal(rtm_fsmap_check(m, AT_FDCWD, "", (uint64_t)st.st_dev), 0);
    assert_true(rtm_fsmap_blind(m, (uint64_t)st.st_dev) >= 0);
    rtm_fsmap_free(m);
}

/* The map is bounded: once full, new devices are not trusted. */
static void map_full(void **state)
{
    (void)state;
    struct rtm_fsmap *m = rtm_fsmap_new(RTM_WATCH_AUTO, "/src");
    uint64_t dev = 1000;
    while (rtm_fsmap_set(m, dev, 0) == 0)
        dev++;
    assert_true(dev > 1000);
    assert_int_equal(rtm_fsmap_check(m, AT_FDCWD, "", dev), 1);
    assert_int_equal(rtm_fsmap_check(m, AT_FDCWD, "", 1000), 0);
    rtm_fsmap_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(decision_table),
        cmocka_unit_test(mountinfo_lines),
        cmocka_unit_test(watch_modes),
        cmocka_unit_test(map_modes),
        cmocka_unit_test(map_probes_a_folder),
        cmocka_unit_test(map_full),
    };
    return run_test_cases(tests, NULL, NULL);
}
