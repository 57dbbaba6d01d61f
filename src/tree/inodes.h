/* inodes.h - the inode numbers rtmfs gives the kernel: one per (path,
 * version) that the kernel holds, counted the way FUSE counts lookups.
 *
 * Why a number is a hash of (path, version), not a counter: the kernel
 * forgets inodes it no longer uses and looks them up again later; a hash
 * gives the same file the same number then, so find(1), diff -r and tar see
 * one inode for one file.  A new version of a source file hashes to a new
 * number, so the kernel never serves the old version's cached pages for it,
 * and a file kept open on the old number reads the old version or fails.
 * Two keys hashing alike are told apart by probing to the next free number.
 * A listing holds the numbers it shows (rtm_inodes_hold) for as long as it
 * is kept, so a lookup of a listed name finds the number readdir gave, even
 * after a collision.
 *
 * Families: the numbers of what is inside an animation's folder (its views
 * and folders of views, a million of them in a large install) are not kept
 * one node each.  The folder is a family's head: its number has bit 63 set
 * (no other node's has) and the family's place in the low RTM_INO_HEAD_BITS;
 * its k-th member (the tree says what k stands for) adds k above them
 * (rtm_ino_in_family).  The low bits vary from family to family because the
 * kernel's inode hash mostly looks at them: with families apart only in
 * their high bits, a walk that kept a million views' inodes spent its time
 * in long hash chains.  A member's lookups count on its head, so the head
 * lives while any member is known, and listing or looking up views costs no
 * memory per view.
 *
 * Contract:
 *  - Thread-safe: one mutex inside, never held while calling out.
 *  - rtm_inodes_ref() counts one lookup; rtm_inodes_forget() takes back as
 *    many as the kernel says.  rtm_inodes_hold() and rtm_inodes_release()
 *    count holds the same way.  A number lives while it has lookups or
 *    holds.
 *  - Nothing here aborts.  Taking back more than was counted, a number
 *    never given, or a member's hold is a miscount of the caller's (the
 *    kernel sends back only what it got): the table counts it
 *    (rtm_inodes_miscounts, which tests keep at 0), takes back what there
 *    is, and goes on; a path "" is the root, never counted.
 *  - RTM_INO_ROOT is the mount's root (path ""): always known, never
 *    counted, never in the table.
 *  - The table copies the paths it is given; callers own theirs.
 */
#ifndef RTM_INODES_H
#define RTM_INODES_H

#include <stddef.h>
#include <stdint.h>

#include "fileid.h"

#define RTM_INO_ROOT 1
#define RTM_INO_FAMILY (UINT64_C(1) << 63)
#define RTM_INO_HEAD_BITS 23
#define RTM_INO_HEADS (UINT64_C(1) << RTM_INO_HEAD_BITS)
#define RTM_INO_MEMBERS (RTM_INO_FAMILY >> RTM_INO_HEAD_BITS)

/* A number's place in its family: k for its k-th member, 0 for heads and
 * for numbers outside families. */
static inline uint64_t rtm_ino_member(uint64_t ino)
{
    return ino & RTM_INO_FAMILY ? (ino & ~RTM_INO_FAMILY) >> RTM_INO_HEAD_BITS : 0;
}
/* The head of a member's family; any other number itself. */
static inline uint64_t rtm_ino_head(uint64_t ino)
{
    return ino & RTM_INO_FAMILY ? ino & (RTM_INO_FAMILY | (RTM_INO_HEADS - 1)) : ino;
}
/* Member k (< RTM_INO_MEMBERS) of head's family. */
static inline uint64_t rtm_ino_in_family(uint64_t head, uint64_t k)
{
    return head | k << RTM_INO_HEAD_BITS;
}
/* The number i places after ino among its family's members (ino + i
 * outside families). */
static inline uint64_t rtm_ino_after(uint64_t ino, uint64_t i)
{
    return ino & RTM_INO_FAMILY ? ino + (i << RTM_INO_HEAD_BITS) : ino + i;
}

struct rtm_inodes;

/* The hash a number starts from; tests inject collisions with their own. */
typedef uint64_t (*rtm_ino_hash_fn)(const char *path, const struct rtm_fileid *id);
uint64_t rtm_ino_hash(const char *path, const struct rtm_fileid *id);

/* NULL hash: rtm_ino_hash.  NULL when out of memory. */
struct rtm_inodes *rtm_inodes_new(rtm_ino_hash_fn hash);
void rtm_inodes_free(struct rtm_inodes *t);

/* Counts one lookup of (path, id); its number, or 0 when out of memory. */
uint64_t rtm_inodes_ref(struct rtm_inodes *t, const char *path, const struct rtm_fileid *id);
void rtm_inodes_forget(struct rtm_inodes *t, uint64_t ino, uint64_t n);
/* Holds (path, id)'s number for a listing; 0 when out of memory. */
uint64_t rtm_inodes_hold(struct rtm_inodes *t, const char *path, const struct rtm_fileid *id);
/* The same for a family's head, which keeps RTM_INO_AUX bytes of the
 * caller's about it (aux, copied; what resolving its members needs).  A
 * key is a head or not, and its aux, for as long as it lives: the first
 * ref or hold decides. */
enum { RTM_INO_AUX = 40 };
uint64_t rtm_inodes_ref_head(struct rtm_inodes *t, const char *path, const struct rtm_fileid *id,
                             const void *aux);
uint64_t rtm_inodes_hold_head(struct rtm_inodes *t, const char *path,
                              const struct rtm_fileid *id, const void *aux);
/* Copies the aux of the head of ino's family (RTM_INO_AUX bytes); -ENOENT
 * when ino is no head's and no member's. */
int rtm_inodes_aux(struct rtm_inodes *t, uint64_t ino, void *aux);
/* Counts one lookup of member k (k < RTM_INO_MEMBERS; 0: head itself) of
 * head; its number, or 0 when head is not a living head.  rtm_inodes_forget() takes
 * it back; members are never held (a listing of a family's folder shows numbers
 * that need no hold: the kernel holds the folder, so its head lives). */
uint64_t rtm_inodes_ref_member(struct rtm_inodes *t, uint64_t head, uint64_t k);
void rtm_inodes_release(struct rtm_inodes *t, uint64_t ino);
/* The number of (path, id) when the kernel holds it, else 0. */
uint64_t rtm_inodes_find(struct rtm_inodes *t, const char *path, const struct rtm_fileid *id);
/* Copies ino's path (n bytes at most) and version, for a member its head's;
 * -ENOENT when unknown or the path does not fit. */
int rtm_inodes_path(struct rtm_inodes *t, uint64_t ino, char *buf, size_t n,
                    struct rtm_fileid *id);
/* Calls fn for every number held, on a copy taken under the lock (fn may
 * call back into the table). -ENOMEM when the copy cannot be made. */
int rtm_inodes_each(struct rtm_inodes *t,
                    void (*fn)(void *arg, uint64_t ino, const char *path,
                               const struct rtm_fileid *id),
                    void *arg);
/* How many take-backs did not match a count (see the contract). */
uint64_t rtm_inodes_miscounts(struct rtm_inodes *t);
/* Memory the table holds (nodes, paths, arrays), and how many nodes. */
size_t rtm_inodes_bytes(struct rtm_inodes *t);
size_t rtm_inodes_count(struct rtm_inodes *t);

#endif
