/* pbo_notes.c - what an archive's table hides or changes, entry by entry
 * (pbo.h, pbo_each_note()), for pbo.txt.  Everything is derived from the
 * parsed table: no state is kept beside it. */
#include "pbo.h"

#include <stdio.h>

/* Windows device names, which Windows tools cannot create as files. */
static int device_name(const char *s, size_t n)
{
    static const char *const dev[] = { "con", "prn", "aux", "nul" };
    size_t stem = 0;
    while (stem < n && s[stem] != '.')
        stem++;
    char low[5] = { 0 };
    if (stem < 3 || stem > 4)
        return 0;
    for (size_t i = 0; i < stem; i++)
        low[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i]);
    if (stem == 3) {
        for (size_t i = 0; i < sizeof dev / sizeof *dev; i++)
            if (memcmp(low, dev[i], 3) == 0)
                return 1;
        return 0;
    }
    return (memcmp(low, "com", 3) == 0 || memcmp(low, "lpt", 3) == 0) &&
           low[3] >= '1' && low[3] <= '9';
}

static int is_sep(char c) { return c == '\\' || c == '/'; }

static int emit(pbo_note_fn fn, void *arg, size_t i, enum pbo_note_kind k, long other,
                const char *why)
{
    struct pbo_note n = { i, k, other, why };
    return fn(arg, &n);
}

/* The parts of the stored name: what normalising dropped, and odd parts. */
static int name_notes(const struct pbo_entry *e, size_t i, pbo_note_fn fn, void *arg)
{
    const char *s = e->name;
    size_t n = e->name_len;
    int rc = 0, dots = 0, dot = 0, empty = 0, ctrl = 0, dev = 0;
    if (n && is_sep(s[0]) && (rc = emit(fn, arg, i, PBO_NOTE_RENAMED, -1,
                                        "a leading '\\' dropped")))
        return rc;
    for (size_t a = 0; a < n;) {
        size_t b = a;
        while (b < n && !is_sep(s[b]))
            b++;
        size_t len = b - a;
        if (len == 0 && a > 0 && b < n)
            empty = 1;
        else if (len == 2 && s[a] == '.' && s[a + 1] == '.')
            dots = 1;
        else if (len == 1 && s[a] == '.')
            dot = 1;
        dev |= device_name(s + a, len);
        for (size_t k = a; k < b; k++)
            ctrl |= (unsigned char)s[k] < 0x20 || s[k] == 0x7f;
        a = b + 1;
    }
    if (!rc && dots)
        rc = emit(fn, arg, i, PBO_NOTE_RENAMED, -1, "a '..' part dropped");
    if (!rc && dot)
        rc = emit(fn, arg, i, PBO_NOTE_RENAMED, -1, "a '.' part dropped");
    if (!rc && empty)
        rc = emit(fn, arg, i, PBO_NOTE_RENAMED, -1, "an empty part dropped");
    if (!rc && dev)
        rc = emit(fn, arg, i, PBO_NOTE_ODD_NAME, -1, "a Windows device name");
    if (!rc && ctrl)
        rc = emit(fn, arg, i, PBO_NOTE_ODD_NAME, -1, "control bytes");
    return rc;
}

int pbo_each_note(const struct pbo *p, pbo_note_fn fn, void *arg)
{
    int rc = 0;
    for (size_t i = 0; i < p->nentries && !rc; i++) {
        const struct pbo_entry *e = &p->entries[i];
        if (e->cut) {
            rc = emit(fn, arg, i, PBO_NOTE_SKIPPED, -1, "its data lies past the end of the file");
            continue;
        }
        if (!e->path[0]) {
            rc = emit(fn, arg, i, PBO_NOTE_SKIPPED, -1,
                      "its name has no part left (only separators and dots)");
            continue;
        }
        if ((rc = name_notes(e, i, fn, arg)))
            break;
        if (!pbo_entry_compressed(e) && e->method != PBO_METHOD_STORED &&
            (rc = emit(fn, arg, i, PBO_NOTE_METHOD, -1, "")))
            break;
        if (e->renamed & PBO_RENAMED_LONG)
            rc = emit(fn, arg, i, PBO_NOTE_RENAMED, -1, "a name part longer than 255 bytes");
        if (!rc && (e->renamed & PBO_RENAMED_DUP))
            rc = emit(fn, arg, i, PBO_NOTE_DUPLICATE, e->renamed_other,
                      "the same path (ignoring case)");
        if (!rc && (e->renamed & PBO_RENAMED_FOLDER))
            rc = emit(fn, arg, i, PBO_NOTE_HIDDEN, e->renamed_below,
                      "a folder has its path");
    }
    return rc;
}
