/* fileid.c - the version of a source file (see fileid.h). */
#include "fileid.h"

#include <errno.h>

static int64_t ns(struct timespec t) { return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec; }

static struct timespec ts(int64_t n)
{
    int64_t s = n / 1000000000, r = n % 1000000000;
    if (r < 0) {                        /* before 1970: a negative second */
        s--;
        r += 1000000000;
    }
    return (struct timespec){ .tv_sec = (time_t)s, .tv_nsec = (long)r };
}

struct rtm_fileid rtm_fileid_of(const struct stat *st)
{
    return (struct rtm_fileid){ .dev = (uint64_t)st->st_dev, .ino = (uint64_t)st->st_ino,
                                .size = (uint64_t)st->st_size, .mtime_ns = ns(st->st_mtim),
                                .ctime_ns = ns(st->st_ctim) };
}

int rtm_fileid_same(const struct rtm_fileid *a, const struct rtm_fileid *b)
{
    return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
           a->mtime_ns == b->mtime_ns && a->ctime_ns == b->ctime_ns && a->salt == b->salt &&
           a->skel == b->skel && a->clip == b->clip;
}

int rtm_fileid_none(const struct rtm_fileid *id)
{
    return rtm_fileid_same(id, &RTM_FILEID_NONE);
}

uint64_t rtm_fileid_hash(const struct rtm_fileid *id)
{
    if (rtm_fileid_none(id))
        return 0;
    uint64_t h = id->ino * 0x9e3779b97f4a7c15ull ^ id->size * 0xc2b2ae3d27d4eb4full ^
                 (uint64_t)id->mtime_ns * 0x165667b19e3779f9ull ^
                 (uint64_t)id->ctime_ns * 0x27d4eb2f165667c5ull ^ id->dev ^
                 id->salt * 0x94d049bb133111ebull ^ id->clip * 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 31);
}

void rtm_fileid_to_stat(const struct rtm_fileid *id, struct stat *st)
{
    st->st_dev = (dev_t)id->dev;
    st->st_ino = (ino_t)id->ino;
    st->st_size = (off_t)id->size;
    st->st_mtim = ts(id->mtime_ns);
    st->st_ctim = ts(id->ctime_ns);
}

int rtm_fileid_check(int fd, const struct rtm_fileid *id)
{
    struct stat st;
    if (fstat(fd, &st))
        return -errno;
    struct rtm_fileid now = rtm_fileid_of(&st);
    now.salt = id->salt;
    now.skel = id->skel;
    now.clip = id->clip;
    return rtm_fileid_same(&now, id) ? 0 : -ESTALE;
}
