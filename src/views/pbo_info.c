/* pbo_info.c - an archive's pbo.txt (views.h: rtm_view_pbo_info): its
 * sizes, trailer, header properties and what its table hid or changed.
 * Not an animation's view, so not in the view table (view_table.c). */
#include "views.h"

#include <stdio.h>
#include <string.h>

#include "pbo.h"

/* Printable ASCII as is, other bytes as \xNN; in a key also ':' and ' ',
 * so that the first ": " of a line always ends the key. */
static void put_pbo_text(struct rtm_buf *b, const char *s, int key)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x20 || *p > 0x7e || (key && (*p == ':' || *p == ' ')))
            rtm_buf_printf(b, "\\x%02x", *p);
        else
            rtm_buf_putc(b, (char)*p);
    }
}

/* p's trailer, or when unknown the one tail says. */
static void put_trailer(const struct pbo *p, const uint8_t *tail, size_t tail_len,
                        struct rtm_buf *b)
{
    uint8_t sha1[20];
    enum pbo_trailer trailer = p->trailer;
    memcpy(sha1, p->sha1, sizeof sha1);
    if (trailer == PBO_TRAILER_UNKNOWN)
        trailer = pbo_trailer_of(p, tail, tail_len, sha1);
    switch (trailer) {
    case PBO_TRAILER_SHA1:
        rtm_buf_puts(b, "trailer: sha1 ");
        for (int i = 0; i < 20; i++)
            rtm_buf_printf(b, "%02x", sha1[i]);
        rtm_buf_putc(b, '\n');
        break;
    case PBO_TRAILER_NONE: rtm_buf_puts(b, "trailer: none\n"); break;
    case PBO_TRAILER_UNKNOWN: rtm_buf_puts(b, "trailer: not read\n"); break;
    case PBO_TRAILER_ODD:
        rtm_buf_printf(b, "trailer: unexpected (%llu bytes after the data)\n",
                       (unsigned long long)(p->file_size - p->data_end));
        break;
    case PBO_TRAILER_CUT: {
        char cut[160];
        pbo_describe_cut(p, cut, sizeof cut);
        rtm_buf_printf(b, "trailer: none (%s)\n", cut);
        break;
    }
    }
}

struct note_ctx {
    struct rtm_buf *b;
    const struct pbo *p;
};

/* One line a note (pbo_each_note()): the entry's number in the table and
 * its header's byte, its stored name, what happened. */
static int put_note(void *arg, const struct pbo_note *n)
{
    static const char *const kind[] = {
        [PBO_NOTE_SKIPPED] = "skipped", [PBO_NOTE_RENAMED] = "renamed",
        [PBO_NOTE_ODD_NAME] = "odd name", [PBO_NOTE_METHOD] = "unknown method",
        [PBO_NOTE_DUPLICATE] = "duplicate", [PBO_NOTE_HIDDEN] = "renamed",
    };
    struct note_ctx *c = arg;
    struct rtm_buf *b = c->b;
    const struct pbo_entry *e = &c->p->entries[n->entry];
    rtm_buf_printf(b, "entry %zu at byte %llu '", n->entry + 1,
                   (unsigned long long)e->header_offset);
    put_pbo_text(b, e->name, 0);
    rtm_buf_printf(b, "': %s", kind[n->kind]);
    switch (n->kind) {
    case PBO_NOTE_METHOD:
        rtm_buf_printf(b, " 0x%08x", e->method);
        break;
    case PBO_NOTE_RENAMED:
        rtm_buf_printf(b, ": %s", n->why);
        goto shown;
    case PBO_NOTE_DUPLICATE:
        rtm_buf_printf(b, ": %s as entry %ld, which keeps it", n->why, n->other + 1);
        goto shown;
    case PBO_NOTE_HIDDEN:
        rtm_buf_printf(b, ": %s (entry %ld lies in it)", n->why, n->other + 1);
    shown:
        rtm_buf_puts(b, ", shown as '");
        put_pbo_text(b, e->path, 0);
        rtm_buf_putc(b, '\'');
        break;
    default:
        rtm_buf_printf(b, ": %s", n->why);
    }
    rtm_buf_putc(b, '\n');
    return 0;
}

/* What the archive hid or changed; nothing for a clean one. */
static void put_pbo_notes(const struct pbo *p, struct rtm_buf *b)
{
    uint64_t after = p->file_size - p->data_end;
    if (p->trailer == PBO_TRAILER_ODD && after > PBO_TAIL_MAX)
        rtm_buf_printf(b, "data after the trailer: %llu bytes\n",
                       (unsigned long long)(after - PBO_TAIL_MAX));
    if (p->nprops > 100)
        rtm_buf_printf(b, "many properties: %zu\n", p->nprops);
    struct note_ctx c = { b, p };
    pbo_each_note(p, put_note, &c);
}

int rtm_view_pbo_info(const struct pbo *p, const uint8_t *tail, size_t tail_len,
                      struct rtm_buf *out)
{
    size_t rtm = 0, compressed = 0;
    for (size_t i = 0; i < p->nentries; i++) {
        const char *path = p->entries[i].path;
        rtm += rtm_name_ends(path, strlen(path), ".rtm") != 0;
        compressed += pbo_entry_compressed(&p->entries[i]) != 0;
    }
    rtm_buf_printf(out, "format: PBO\narchive_bytes: %llu\nentries: %zu\nrtm_entries: %zu\n"
                   "compressed_entries: %zu\ntable_bytes: %llu\ndata_bytes: %llu\n",
                   (unsigned long long)p->file_size, p->nentries, rtm, compressed,
                   (unsigned long long)p->table_bytes,
                   (unsigned long long)(p->data_end - p->table_bytes));
    put_trailer(p, tail, tail_len, out);
    rtm_buf_printf(out, "properties: %zu\n", p->nprops);
    for (size_t i = 0; i < p->nprops; i++) {
        rtm_buf_puts(out, "property ");
        put_pbo_text(out, p->props[i].key, 1);
        rtm_buf_puts(out, ": ");
        put_pbo_text(out, p->props[i].value, 0);
        rtm_buf_putc(out, '\n');
    }
    put_pbo_notes(p, out);
    return out->oom ? -1 : 0;
}
