/* fstype.h - whether inotify sees every change on a file system ("blind"
 * when it does not), and the mount's record of it for each device.
 *
 * inotify reports what passes through this kernel's VFS.  On a network or
 * FUSE file system, a change made by the server, another client, Windows
 * (WSL's 9p drives) or below the FUSE daemon never does: inotify_add_watch
 * succeeds and then stays silent.  A local block device through FUSE
 * (fuseblk: ntfs-3g) is not blind: every change to it passes through here.
 *
 * Contract:
 *  - rtm_fstype_blind() is pure: a decision over the type name as
 *    /proc/self/mountinfo gives it ("nfs4", "fuse.sshfs"; NULL or "" when
 *    unknown) and statfs's f_type.  The name decides (f_type cannot tell
 *    sshfs from ntfs-3g: every FUSE file system reports one magic number);
 *    the magic is the check: a blind magic makes a not-blind name blind,
 *    unless the name's own row has that magic (fuseblk's FUSE magic).  One
 *    table in fstype.c holds every blind type; rtmfs(1) lists it.
 *  - rtm_mountinfo_type() is pure: the type of the mount of device
 *    major:minor in mountinfo text.
 *  - A map (struct rtm_fsmap) remembers the verdict per device (st_dev) for
 *    the life of a mount: thread-safe, lookups lock-free.  It probes a
 *    device the first time it meets it (fstatfs, mountinfo), in every
 *    mode: the verdict is the file system's, which the index's rules need
 *    (loader.h).  The mode only changes what the tree is told to do
 *    (rtm_fsmap_check): RTM_WATCH_AUTO follows the verdict and says a
 *    blind device once, on stderr and to syslog, with its path and type;
 *    RTM_WATCH_INOTIFY trusts every device and RTM_WATCH_POLL none, and
 *    neither says anything.
 */
#ifndef RTM_FSTYPE_H
#define RTM_FSTYPE_H

#include <stddef.h>
#include <stdint.h>

/* Whether inotify misses changes on a file system of type name (may be
 * NULL) and statfs magic: 1 blind, 0 not. */
int rtm_fstype_blind(const char *type, uint32_t magic);

/* The type of the mount of device major:minor in text (the contents of
 * /proc/self/mountinfo), octal escapes decoded, into type (n bytes): 0, or
 * -1 when no line names that device or the type does not fit. */
int rtm_mountinfo_type(const char *text, unsigned major, unsigned minor, char *type, size_t n);

enum rtm_watch_mode {
    RTM_WATCH_AUTO,               /* blind where the table says so */
    RTM_WATCH_INOTIFY,            /* trust inotify everywhere */
    RTM_WATCH_POLL,               /* every folder is blind */
};
/* "auto", "inotify" or "poll" into *mode: 0, or -1. */
int rtm_watch_mode_parse(const char *s, enum rtm_watch_mode *mode);

struct rtm_fsmap;
/* source: SOURCE's folder as an absolute path, for the messages.  NULL
 * only when out of memory. */
struct rtm_fsmap *rtm_fsmap_new(enum rtm_watch_mode mode, const char *source);
void rtm_fsmap_free(struct rtm_fsmap *m);
/* The file system's verdict on device dev, whatever the mode: 1 blind, 0
 * not, -1 not probed yet.  Lock-free. */
int rtm_fsmap_blind(const struct rtm_fsmap *m, uint64_t dev);
/* Whether the tree must take dev as blind (see the mode), probing rel
 * (relative to dirfd; "" for dirfd itself) when dev is new.  In mode auto,
 * a probe that fails, or a map that is full, answers 1 (short timeouts
 * are never wrong, only slower) and records nothing. */
int rtm_fsmap_check(struct rtm_fsmap *m, int dirfd, const char *rel, uint64_t dev);
/* Records a verdict without probing (tests): 0, or -1 when full. */
int rtm_fsmap_set(struct rtm_fsmap *m, uint64_t dev, int blind);

#endif
