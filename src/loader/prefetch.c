/* prefetch.c - reads of an archive's animations started before a walk
 * asks for them (loader_int.h: loader_prefetch).
 *
 * A walk reads an archive's animations one request at a time, on one
 * thread (grep -r: a head each; du: every entry whole, a few threads), and
 * archives are opened with readahead off (their neighbours are textures
 * nobody asked for), so on a cold disk every animation waited for a read
 * of its own: 20,000 heads of a whole install took more time waiting than
 * everything else together.  Once a read finds its first page not cached,
 * the reads of the next animations in the table (their heads, or whole)
 * are started at once, which the disk serves together, and the walk then
 * finds them cached: one wait a window instead of one an animation.  A
 * read that finds its page cached starts nothing (a later mount, a walk
 * the window is ahead of), and where the cache cannot be asked nothing is
 * started.  Only hints: what is read never depends on them. */
#include "loader_int.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/uio.h>

#include "pbo.h"
#include "rtm.h"

/* Heads are a page or two each: many fit in one wait.  Whole entries are
 * the size of the animation (tens to hundreds of KiB each), read by threads
 * that parse them as they come: a few suffice. */
enum { PREFETCH_HEADS = 64, PREFETCH_WHOLE = 8 };

/* Whether the page at off of fd is cached: 1, 0, or -1 when the kernel
 * cannot say without reading (no RWF_NOWAIT for this file). */
static int cached(int fd, uint64_t off)
{
    char c;
    struct iovec v = { &c, 1 };
    ssize_t n = preadv2(fd, &v, 1, (off_t)off, RWF_NOWAIT);
    if (n == 1)
        return 1;
    return n < 0 && errno != EAGAIN ? -1 : 0;
}

/* The stored bytes a read of e takes: the whole, or what a head of
 * head_len content bytes may need (an LZSS stream's worst case). */
static uint64_t stored_span(const struct pbo_entry *e, int whole, size_t head_len)
{
    if (whole)
        return e->data_size;
    uint64_t n = pbo_entry_compressed(e) ? pbo_lzss_src_max(head_len) : head_len;
    return n < e->data_size ? n : e->data_size;
}

static int is_anim_entry(const struct pbo_entry *e)
{
    return !e->cut && e->data_size && rtm_is_anim_name(e->path, strlen(e->path));
}

void loader_prefetch(int fd, const struct pbo *p, size_t i, int whole, size_t head_len)
{
    if (i >= p->nentries || !is_anim_entry(&p->entries[i]) ||
        cached(fd, p->entries[i].offset) != 0)
        return;
    size_t want = whole ? PREFETCH_WHOLE : PREFETCH_HEADS;
    for (size_t k = i, n = 0; k < p->nentries && n < want; k++) {
        const struct pbo_entry *e = &p->entries[k];
        if (!is_anim_entry(e))
            continue;
        posix_fadvise(fd, (off_t)e->offset, (off_t)stored_span(e, whole, head_len),
                      POSIX_FADV_WILLNEED);
        n++;
    }
}
