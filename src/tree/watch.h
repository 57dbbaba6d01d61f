/* watch.h - inotify over SOURCE.  The tree asks for each source folder the
 * kernel looks up to be watched (rtm_watch_add, its watch callback); a
 * thread reads the events and hands each change to the tree
 * (rtm_tree_changed), which says what the kernel must forget.
 *
 * Contract:
 *  - When inotify cannot be had, or a folder cannot be watched (the user's
 *    fs.inotify.max_user_watches reached), it says so once on stderr and to
 *    syslog, and rtm_watch_add returns -1: the tree then gives the kernel
 *    short timeouts, so changes still show within a second.
 *  - When the kernel's event queue overflows, events were lost: the tree is
 *    told to forget everything (rtm_tree_changed_all), which is logged once.
 *  - When a folder's watch goes (the folder deleted, a file system
 *    unmounted there), the tree is told its entry changed in its parent,
 *    so that it keeps nothing on the word of a watch that no longer is
 *    (what a folder holds beside its animations: tree_target.h).
 *  - Without inotify by choice (-o watch=poll), rtm_watch_add returns -1
 *    as well, and nothing is said.
 *  - Whether inotify sees changes made elsewhere (it does not on network
 *    and FUSE file systems) is fstype.h's question, not this watcher's:
 *    a blind folder is watched all the same, for the changes made through
 *    this kernel.
 *  - For tests: RTMFS_TEST_NO_INOTIFY=1 makes inotify unavailable, and
 *    RTMFS_TEST_WATCH_LIMIT=N lets only N folders be watched.
 *  - rtm_watch_stop() joins the thread; call it before the notify callbacks
 *    become invalid.  The watcher owns its descriptors and paths.
 */
#ifndef RTM_WATCH_H
#define RTM_WATCH_H

#include "tree.h"

struct rtm_watch;

/* source: SOURCE's absolute path; use_inotify 0: watch nothing, silently.
 * Never NULL but when out of memory; a watcher without inotify watches
 * nothing. */
struct rtm_watch *rtm_watch_new(const char *source, int use_inotify);
/* The tree's watch callback (ctx is the watcher): 0, or -1 when dir is not
 * watched. */
int rtm_watch_add(void *ctx, const char *dir);
/* Starts the thread that reports changes to tree through n. */
int rtm_watch_start(struct rtm_watch *w, struct rtm_tree *tree, const struct rtm_tree_notify *n);
void rtm_watch_stop(struct rtm_watch *w);
void rtm_watch_free(struct rtm_watch *w);

#endif
