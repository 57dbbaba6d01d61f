/* fuzz_pbo - libFuzzer target: the PBO table reader and entry decoding.
 *
 * The input is a whole archive.  The table is read from all of it, then
 * every entry is decoded from exactly its data range (a private copy, so an
 * over-read is seen), looked up by name and by path.  The table is also read
 * from the first half of the input as the head of the whole file: when both
 * reads succeed they must agree, and a head read may only fail by asking for
 * more or with an error.  The LZSS decoder is fuzzed directly too, on the
 * input with an output size taken from its first two bytes.  The archive's
 * tree is walked from the root: every name listed must look up as what the
 * listing called it, and pbo.txt renders.  The same is done with the input
 * cut short at three quarters, as a download that stopped: entries past the
 * cut are marked and never found, the whole ones still decode and list. */
#include <stdint.h>
#include <stdlib.h>

#include "pbo.h"
#include "views.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A head of a good LZSS stream (what a listing decodes) is the start of
 * its content, from no more stored bytes than pbo_lzss_src_max says. */
static void check_lzss_heads(const uint8_t *blob, size_t blob_len, const uint8_t *content,
                             size_t len)
{
    size_t lens[] = { 0, 1, len / 3, len / 2, len };
    uint8_t *out = malloc(len ? len : 1);
    if (!out)
        abort();
    for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
        size_t n = lens[k], src = pbo_lzss_src_max(n);
        struct rtm_error err = { .msg = "" };
        if (n > len)
            continue;                   /* an empty content has no head of 1 */
        if (src > blob_len)
            src = blob_len;
        if (pbo_lzss_decode_head(blob, src, out, n, 0, &err) || memcmp(out, content, n))
            abort();
    }
    free(out);
}

static void decode_entries(const struct pbo *p, const uint8_t *data)
{
    size_t ncut = 0;
    for (size_t i = 0; i < p->nentries; i++) {
        const struct pbo_entry *e = &p->entries[i];
        if (e->cut != (e->offset + e->data_size > p->file_size))
            abort();    /* cut exactly when its data goes past the end */
        if (e->cut) {
            ncut++;
            if (pbo_find(p, e->path) == (long)i)
                abort();    /* and then never found */
            continue;
        }
        if (e->offset + e->data_size > p->data_end || p->data_end > p->file_size)
            abort();
        uint8_t *blob = malloc(e->data_size ? e->data_size : 1);
        if (!blob)
            abort();
        memcpy(blob, data + e->offset, e->data_size);
        struct rtm_error err = { .msg = "" };
        uint8_t *out = NULL;
        size_t out_len = 0;
        if (pbo_entry_data(p, i, blob, e->data_size, &out, &out_len, &err) == 0) {
            size_t want = pbo_entry_compressed(e) ? e->original_size : e->data_size;
            if (!out || out_len != want)
                abort();
            if (pbo_entry_compressed(e))
                check_lzss_heads(blob, e->data_size, out, out_len);
            free(out);
        } else if (out || !err.msg[0]) {
            abort();    /* a failure must say why and leave nothing behind */
        }
        free(blob);
        /* every entry has a path of its own (rtm(5) PBO paths), and one
         * not renamed is found by its stored name too */
        if (e->path[0] && !e->cut && (pbo_find(p, e->path) != (long)i ||
                                      (!e->renamed && pbo_find(p, e->name) != (long)i)))
            abort();
    }
    if (ncut != p->ncut || (ncut > 0) != (p->trailer == PBO_TRAILER_CUT))
        abort();
}

struct walk {
    const struct pbo *p;
    char path[PBO_NAME_MAX + 2];
    size_t files;
};

static int walk_dir(struct walk *w);

static int visit(void *arg, const char *name, size_t len, long entry)
{
    struct walk *w = arg;
    size_t n = strlen(w->path), sep = n > 0;
    if (len == 0 || memchr(name, '/', len) || n + sep + len >= sizeof w->path)
        abort();    /* a name is one non-empty component of a real path */
    if (sep)
        w->path[n] = '/';
    memcpy(w->path + n + sep, name, len);
    w->path[n + sep + len] = 0;
    long found;
    enum pbo_node node = pbo_lookup(w->p, w->path, &found);
    if (entry >= 0 ? node != PBO_FILE || found != entry : node != PBO_DIR)
        abort();
    if (entry >= 0 && (++w->files > w->p->nentries - w->p->ncut || w->p->entries[entry].cut))
        abort();    /* each whole file is listed once, a cut one never */
    if (entry < 0 && walk_dir(w))
        abort();
    w->path[n] = 0;
    return 0;
}

static int walk_dir(struct walk *w) { return pbo_list(w->p, w->path, visit, w); }

static void walk_tree(const struct pbo *p)
{
    struct walk w = { .p = p };
    struct rtm_buf b;
    if (walk_dir(&w))
        abort();
    rtm_buf_init(&b);
    if (rtm_view_pbo_info(p, NULL, 0, &b) || !b.len || b.p[b.len - 1] != '\n')
        abort();
    rtm_buf_free(&b);
}

/* The table of the first len bytes as a whole file, checked and walked;
 * the table (the caller frees it), or NULL. */
static struct pbo *exercise(const uint8_t *data, size_t len)
{
    struct rtm_error err = { .msg = "" };
    struct pbo *p = NULL;
    int rc = pbo_read_table(data, len, len, &p, &err);
    if (rc != 0) {
        if (rc != -1 || p || !err.msg[0])
            abort();
        return NULL;
    }
    decode_entries(p, data);
    walk_tree(p);
    return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rtm_error err = { .msg = "" };
    pbo_free(exercise(data, size - size / 4));          /* cut short */
    struct pbo *p = exercise(data, size);
    int rc = p ? 0 : -1;

    struct pbo *h = NULL;
    int hrc = pbo_read_table(data, size / 2, size, &h, &err);
    if (hrc != 0 && (h || (hrc != -1 && hrc != PBO_NEED_MORE) ||
                     (hrc == PBO_NEED_MORE && size / 2 >= size)))
        abort();
    if (hrc == 0 && (rc != 0 || h->nentries != p->nentries ||
                     h->table_bytes != p->table_bytes || h->data_end != p->data_end))
        abort();    /* the head and the whole file must tell the same table */
    if (hrc == 0 && h->trailer == PBO_TRAILER_UNKNOWN) {
        /* its trailer from the tail, as pbo.txt reads it: the whole file's */
        uint8_t sha1[20];
        if (h->data_end + PBO_TAIL_MAX > size ||
            pbo_trailer_of(h, data + h->data_end, PBO_TAIL_MAX, sha1) != p->trailer ||
            memcmp(sha1, p->sha1, sizeof sha1))
            abort();
        struct rtm_buf b;
        rtm_buf_init(&b);
        if (rtm_view_pbo_info(h, data + h->data_end, PBO_TAIL_MAX, &b) || !b.len)
            abort();
        rtm_buf_free(&b);
    }
    pbo_free(h);
    pbo_free(p);

    if (size >= 2) {
        size_t out_len = (size_t)data[0] | (size_t)data[1] << 8;
        uint8_t *out = malloc(out_len ? out_len : 1);
        size_t used = 0;
        if (!out)
            abort();
        if (pbo_lzss_decode(data + 2, size - 2, out, out_len, &used, 2, &err) == 0 &&
            used > size - 2)
            abort();
        free(out);
    }
    return 0;
}
