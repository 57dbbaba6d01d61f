/* pbo_names.c - one name for every entry (rtm(5), PBO paths).
 *
 * The rule, applied once when the table is read, so that the tree, rtmcat
 * and the index all see the same names:
 *   - a part of a path longer than 255 bytes (more than a Linux file name
 *     holds) becomes its first 200 bytes, '~', the FNV-1a hash of the whole
 *     part in 8 hex digits, and its extension (up to 16 bytes): the same
 *     part gives the same name in every entry, so a folder stays one folder;
 *   - of entries with the same path (ignoring ASCII case), the first in the
 *     table keeps it; each other becomes STEM~N.EXT in the same folder, N
 *     its number in the table (from 1);
 *   - a path that is both an entry and a folder (other entries lie below
 *     it) is the folder; the entry becomes STEM~N.EXT the same way.
 * The extension is kept, so an animation stays an animation; N comes from
 * the table, so names (and inode numbers) are the same at every mount.  A
 * new name that collides again is renamed again, a few rounds at most: a
 * name of an entry's own beats a new one (the index sorts it first).
 * Each renamed entry records why (pbo_entry.renamed), for pbo.txt. */
#include "pbo_int.h"

#include <stdio.h>
#include <stdlib.h>

#define PART_MAX 255u
#define EXT_MAX 16u

/* Where the extension of a part starts (len when it has none). */
static size_t ext_at(const char *s, size_t len)
{
    for (size_t i = len; i-- > 1;)
        if (s[i] == '.')
            return len - i <= EXT_MAX ? i : len;
    return len;
}

static char *own(struct pbo *p, size_t n)
{
    if (p->nowned == p->owned_cap) {
        size_t cap = p->owned_cap ? 2 * p->owned_cap : 16;
        char **o = realloc(p->owned, cap * sizeof *o);
        if (!o)
            return NULL;
        p->owned = o;
        p->owned_cap = cap;
    }
    char *s = malloc(n);
    if (s) {
        p->owned[p->nowned++] = s;
        p->owned_bytes += n;
    }
    return s;
}

static uint32_t fnv1a(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* Parts over PART_MAX bytes shortened by their hash. */
static int shorten_long(struct pbo *p)
{
    for (size_t i = 0; i < p->nentries; i++) {
        struct pbo_entry *e = &p->entries[i];
        const char *s = e->path;
        size_t len = strlen(s), longest = 0;
        for (size_t a = 0; a <= len;) {
            size_t b = a;
            while (b < len && s[b] != '/')
                b++;
            if (b - a > longest)
                longest = b - a;
            a = b + 1;
        }
        if (longest <= PART_MAX)
            continue;
        char *d = own(p, len + 1), *o = d;       /* never longer than before */
        if (!d)
            return -1;
        for (size_t a = 0; a <= len;) {
            size_t b = a;
            while (b < len && s[b] != '/')
                b++;
            size_t n = b - a;
            if (n > PART_MAX) {
                size_t x = ext_at(s + a, n);
                memcpy(o, s + a, 200);
                o += 200;
                o += sprintf(o, "~%08x", fnv1a(s + a, n));
                memcpy(o, s + a + x, n - x);
                o += n - x;
            } else {
                memcpy(o, s + a, n);
                o += n;
            }
            if (b < len)
                *o++ = '/';
            a = b + 1;
        }
        *o = 0;
        e->path = d;
        e->renamed |= PBO_RENAMED_LONG;
    }
    return 0;
}

/* Entry i becomes STEM~N.EXT in its folder. */
static int rename_entry(struct pbo *p, size_t i, unsigned why, uint32_t other)
{
    struct pbo_entry *e = &p->entries[i];
    const char *s = e->path, *slash = strrchr(s, '/');
    size_t dir = slash ? (size_t)(slash - s) + 1 : 0, len = strlen(s);
    const char *part = s + dir;
    size_t n = len - dir, x = ext_at(part, n);
    char num[16];
    int nl = snprintf(num, sizeof num, "~%zu", i + 1);
    size_t stem = x;
    if (stem + (size_t)nl + (n - x) > PART_MAX)
        stem = 200;
    if (dir + stem + (size_t)nl + (n - x) > PBO_NAME_MAX)     /* still findable */
        stem = dir + (size_t)nl + (n - x) < PBO_NAME_MAX ?
               PBO_NAME_MAX - dir - (size_t)nl - (n - x) : 0;
    char *d = own(p, dir + stem + (size_t)nl + (n - x) + 1);
    if (!d)
        return -1;
    memcpy(d, s, dir + stem);
    memcpy(d + dir + stem, num, (size_t)nl);
    memcpy(d + dir + stem + nl, part + x, n - x);
    d[dir + stem + (size_t)nl + (n - x)] = 0;
    e->path = d;
    if (why == PBO_RENAMED_DUP && !(e->renamed & PBO_RENAMED_DUP))
        e->renamed_other = other;           /* the first collision: its own name's */
    else if (why == PBO_RENAMED_FOLDER && !(e->renamed & PBO_RENAMED_FOLDER))
        e->renamed_below = other;
    e->renamed |= why;
    return 0;
}

static int name_entries(struct pbo *p)
{
    if (shorten_long(p))
        return -1;
    for (int round = 0; round < 8; round++) {
        if (pbo_build_index(p))
            return -1;
        int changed = 0;
        size_t first = 0;
        for (size_t k = 0; k < p->nindex; k++) {
            const struct pbo_index *ix = &p->by_path[k];
            if (!ix->path[0])
                continue;
            if (k > 0 && pbo_path_cmp(ix->path, p->by_path[first].path) == 0) {
                if (rename_entry(p, ix->entry, PBO_RENAMED_DUP, p->by_path[first].entry))
                    return -1;
                changed = 1;
                continue;
            }
            first = k;
            long below = pbo_index_first_below(p, k);
            if (below >= 0) {
                if (rename_entry(p, ix->entry, PBO_RENAMED_FOLDER, (uint32_t)below))
                    return -1;
                changed = 1;
            }
        }
        if (!changed)
            return 0;
    }
    return pbo_build_index(p);
}

int pbo_read_table(const uint8_t *head, size_t len, uint64_t file_size,
                   struct pbo **out, struct rtm_error *err)
{
    int rc = pbo_read_entries(head, len, file_size, out, err);
    if (rc)
        return rc;                      /* -1, or more bytes wanted (pbo.h) */
    struct pbo *p = *out;
    if (name_entries(p)) {
        pbo_free(p);
        *out = NULL;
        rtm_err_oom(err, "out of memory reading the PBO table");
        return -1;
    }
    uint64_t after = file_size - p->data_end;
    uint64_t want = after < PBO_TAIL_MAX ? after : PBO_TAIL_MAX;
    if (p->ncut || len >= p->data_end + want)
        pbo_set_trailer(p, head + p->data_end, (size_t)want);
    else
        pbo_set_trailer(p, NULL, 0);
    return 0;
}
