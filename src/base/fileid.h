/* fileid.h - which version of a source file: one type, one compare, one
 * hash, one constructor from struct stat.
 *
 * Contract:
 *  - A version is (device, inode, size, mtime, ctime), times in ns.  ctime
 *    cannot be set by a user, so a same-size rewrite whose mtime was put
 *    back (cp -p, touch -r, tar -x) is still a new version.
 *  - The all-zero value, RTM_FILEID_NONE, means "no version": directories
 *    and passed-through files, whose bytes are never cached.
 *  - salt, 0 for a file alone, stands for what else its views depend on
 *    (an animation's model.cfg: its version's hash), so that a change of
 *    that is a new version too.  The file on disk is still the same
 *    (rtm_fileid_check looks at the file's own fields).
 *  - skel, 0 for the loader's own rule, names a skeleton the configs under
 *    SOURCE chose for the file (loader.h: skeletons), so that views made
 *    with it are of a version of their own.  Only a request for such a view
 *    sets it: the file's listing and inode numbers never depend on it.
 *  - clip, 0 for the first, says which clip of a source that holds several
 *    (glTF's animations, FBX's stacks: rtm(5)) the version shows: each
 *    clip is an animation of its own, parsed and remembered apart.
 *  - Plain values: nothing to free.
 */
#ifndef RTM_FILEID_H
#define RTM_FILEID_H

#include <stdint.h>
#include <sys/stat.h>

struct rtm_fileid {
    uint64_t dev, ino, size;
    int64_t mtime_ns, ctime_ns;
    uint64_t salt;
    uint64_t skel;
    uint32_t clip;
};

#define RTM_FILEID_NONE ((struct rtm_fileid){ .dev = 0 })

struct rtm_fileid rtm_fileid_of(const struct stat *st);
int rtm_fileid_same(const struct rtm_fileid *a, const struct rtm_fileid *b);
/* The version of the file itself, whatever skeleton or clip a view of it
 * is of: an archive's table is one, for every entry's views. */
static inline struct rtm_fileid rtm_fileid_file(struct rtm_fileid id)
{
    id.skel = 0;
    id.clip = 0;
    return id;
}
int rtm_fileid_none(const struct rtm_fileid *id);
/* 0 for RTM_FILEID_NONE, so that a path's hash alone names it. */
uint64_t rtm_fileid_hash(const struct rtm_fileid *id);
/* Whether open file fd is still version id (its salt aside): 0, -ESTALE
 * when it is not, or -errno when fstat fails. */
int rtm_fileid_check(int fd, const struct rtm_fileid *id);
/* Writes the version's size and times into *st (the rest is left). */
void rtm_fileid_to_stat(const struct rtm_fileid *id, struct stat *st);

#endif
