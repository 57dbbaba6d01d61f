/* pbo_tricks.c - the archives of pbo_tricks.h: each trick's table of names
 * written with pbo_write(). */
#include "pbo_tricks.h"

#include <string.h>

#include "pbo_write.h"

/* A name part of 290 bytes (over the 255 a file system allows) then a file. */
static const char *long_name(void)
{
    static const char name[] =
        "LLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLL"
        "LLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLL"
        "LLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLL\\a.rtm";
    return name;
}

/* The names of each trick's entries; NULL ends a shorter list. */
static const char *trick_name(unsigned t, size_t i)
{
    static const char *const names[PBO_TRICKS][PBO_TRICK_ENTRIES] = {
        { "anims\\walk.rtm", "anims\\walk.rtm", "anims\\walk~2.rtm" },
        { "Anims\\Walk.rtm", "anims\\WALK.RTM", NULL },
        { "anims", "anims\\walk.rtm", "anims~1" },
        { NULL, "\\..\\a.rtm", "con\\w\x01.rtm" },          /* [0]: long_name() */
    };
    if (t >= PBO_TRICKS || i >= PBO_TRICK_ENTRIES)
        return NULL;
    return t == 3 && i == 0 ? long_name() : names[t][i];
}

size_t pbo_trick_entries(unsigned t)
{
    size_t n = 0;
    while (trick_name(t, n))
        n++;
    return n;
}

int pbo_write_trick(unsigned t, const uint8_t *const data[PBO_TRICK_ENTRIES],
                    const size_t len[PBO_TRICK_ENTRIES], struct rtm_buf *out)
{
    struct pbo_write_entry e[PBO_TRICK_ENTRIES];
    size_t n = pbo_trick_entries(t);
    for (size_t i = 0; i < n; i++)
        e[i] = (struct pbo_write_entry){ trick_name(t, i), data[i], len[i], PBO_PACK_STORE, 0 };
    return n ? pbo_write(e, n, NULL, 0, 0, out) : -1;
}
