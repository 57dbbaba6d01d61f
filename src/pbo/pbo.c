/* pbo.c - the PBO header table, entry lookup and BI's LZSS.
 *
 * The table is walked twice by the same function: the first walk validates
 * it and counts entries, properties and string bytes; the second, over bytes
 * already known to be good, fills arrays allocated from those counts.  So
 * nothing is allocated before the bytes that justify it have been seen.
 *
 * LZSS ("Cprs" entries), as implemented by pbo_lzss_decode():
 *   - A flag byte gives, LSB first, the kind of the next 8 items:
 *     1 = one literal byte, 0 = a 2-byte reference b1 b2 with
 *     rpos = b1 | (b2 & 0xF0) << 4 (1..4095) and rlen = (b2 & 0x0F) + 3.
 *   - A reference copies rlen bytes one by one from rpos bytes back, so it
 *     may overlap what it writes; while the source lies before the start of
 *     the output (output position < rpos) the byte is a space, 0x20.
 *   - Decoding stops as soon as original_size bytes are out, even inside a
 *     reference or a flag byte's group; then a u32 LE follows: the unsigned
 *     32-bit sum of all output bytes.
 *   Checked against three independent public decoders, which agree: grad_aff
 *   src/a3lzss.cpp (ExpandUnknownInputLength, the BI wiki's code, "special
 *   case space fill" while Rpos > Fl), armatools lzss.cpp (decompress_buf:
 *   space fill while rpos > out_pos, unsigned sum; its *signed* variant is
 *   for PAA textures, not PBOs) and dztk pbo.py lzss_decompress (0x20 when
 *   pos + k < 0).
 *   Our choices where they are silent or differ: rpos = 0 (a copy of the
 *   byte being written, undefined in all three) is an error; bytes after the
 *   checksum are ignored; unused flag bits after the end are not checked
 *   (the BI wiki code's EXCESS_1BITS test is not applied by armatools).
 *   Expansion: the densest stream, a flag byte and eight references of 18
 *   bytes, turns 17 bytes into 144 (8.47x), so an original size above 9x the
 *   stored size is refused before allocating.
 */
#include "pbo.h"
#include "pbo_int.h"

#include <stdio.h>
#include <stdlib.h>


/* One walk over the table.  Without p it validates and counts; with p it
 * fills p's arrays (sized by a counting walk over the same bytes). */
struct walk {
    const uint8_t *head;
    size_t len;
    uint64_t file_size;
    struct pbo *p;
    size_t nentries, nprops, pool_bytes;
    uint64_t pos;
    char *pool_at;
    struct rtm_error *err;
};

enum { W_OK = 0, W_ERR = -1, W_MORE = PBO_NEED_MORE };

/* The table goes on past the bytes given: ask for more if there are more. */
static int ran_out(struct walk *w, const char *what)
{
    if (w->len < w->file_size && w->len < PBO_TABLE_MAX) {
        rtm_err_set(w->err, w->len, "PBO table continues past the first %llu bytes "
                    "(inside %s): need more bytes", (unsigned long long)w->len, what);
        return W_MORE;
    }
    if (w->len >= PBO_TABLE_MAX)
        rtm_err_set(w->err, w->pos, "PBO table longer than %u bytes", PBO_TABLE_MAX);
    else
        rtm_err_set(w->err, w->pos, "file ends inside the PBO table (%s)", what);
    return W_ERR;
}

static int walk_str(struct walk *w, const uint8_t **s, uint32_t *n, const char *what)
{
    size_t left = w->len - (size_t)w->pos;
    size_t scan = left < PBO_NAME_MAX + 1 ? left : PBO_NAME_MAX + 1;
    const uint8_t *start = w->head + w->pos;
    const uint8_t *nul = memchr(start, 0, scan);
    if (!nul) {
        if (left <= PBO_NAME_MAX)
            return ran_out(w, what);
        rtm_err_set(w->err, w->pos, "PBO %s longer than %u bytes", what, PBO_NAME_MAX);
        return W_ERR;
    }
    *s = start;
    *n = (uint32_t)(nul - start);
    w->pos += *n + 1;
    return W_OK;
}

static char *pool_put(struct walk *w, const uint8_t *s, uint32_t n)
{
    char *d = w->pool_at;
    if (n)
        memcpy(d, s, n);
    d[n] = 0;
    w->pool_at += n + 1;
    return d;
}

/* Writes name (n bytes) as a path into dst (room for n + 1 bytes): split on
 * '\\' and '/', empty, "." and ".." components dropped, joined with '/'.
 * Returns one past the NUL. */
static char *normalise(char *dst, const uint8_t *name, uint32_t n)
{
    long len = rtm_path_norm((const char *)name, n, '/', dst, (size_t)n + 1);
    return dst + len + 1;               /* n + 1 bytes always hold it */
}

static char *pool_path(struct walk *w, const uint8_t *name, uint32_t n)
{
    char *d = w->pool_at;
    w->pool_at = normalise(d, name, n);
    return d;
}

static int walk_props(struct walk *w)
{
    for (;;) {
        const uint8_t *k, *v;
        uint32_t kn, vn;
        int rc = walk_str(w, &k, &kn, "property key");
        if (rc)
            return rc;
        if (kn == 0)
            return W_OK;
        if ((rc = walk_str(w, &v, &vn, "property value")))
            return rc;
        if (w->p) {
            struct pbo_prop *pr = &w->p->props[w->nprops];
            pr->key = pool_put(w, k, kn);
            pr->value = pool_put(w, v, vn);
        }
        w->nprops++;
        w->pool_bytes += (size_t)kn + vn + 2;
    }
}

static int walk_table(struct walk *w)
{
    for (int first = 1;; first = 0) {
        uint64_t at = w->pos;
        if (at > PBO_TABLE_MAX) {
            rtm_err_set(w->err, at, "PBO table longer than %u bytes", PBO_TABLE_MAX);
            return W_ERR;
        }
        const uint8_t *name;
        uint32_t n;
        int rc = walk_str(w, &name, &n, "entry name");
        if (rc)
            return rc;
        if (w->len - w->pos < 20)
            return ran_out(w, "entry header");
        const uint8_t *f = w->head + w->pos;
        w->pos += 20;
        uint32_t method = le_u32(f);
        if (n == 0 && first && method == PBO_METHOD_VERS) {
            if ((rc = walk_props(w)))
                return rc;
            continue;
        }
        if (n == 0)
            return W_OK;    /* the end of the table, whatever its fields */
        if (w->p) {
            struct pbo_entry *e = &w->p->entries[w->nentries];
            e->name = pool_put(w, name, n);
            e->path = pool_path(w, name, n);
            e->name_len = n;
            e->method = method;
            e->original_size = le_u32(f + 4);
            e->reserved = le_u32(f + 8);
            e->timestamp = le_u32(f + 12);
            e->data_size = le_u32(f + 16);
            e->header_offset = at;
        }
        w->nentries++;
        w->pool_bytes += 2 * ((size_t)n + 1);
    }
}

/* Entry offsets follow from the table's end.  An entry whose data does not
 * lie wholly inside the file (a download cut short) is marked cut: listed,
 * never found.  data_end is one past the last whole entry's data. */
static void place_entries(struct pbo *p)
{
    uint64_t off = p->table_bytes;
    p->data_end = off;
    for (size_t i = 0; i < p->nentries; i++) {
        struct pbo_entry *e = &p->entries[i];
        e->offset = off;
        off += e->data_size;    /* at most 2^32 entries of < 2^32: no overflow */
        e->cut = off > p->file_size;
        if (e->cut)
            p->ncut++;
        else
            p->data_end = off;
    }
}

/* ASCII case folding, as Arma matches file names. */
static int fold(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

int pbo_path_cmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        unsigned char p = (unsigned char)*a, q = (unsigned char)*b;
        if (p == q) {                   /* most bytes: a shared start */
            if (!p)
                return 0;
            continue;
        }
        int x = fold(p), y = fold(q);
        if (x != y)
            return x - y;
    }
}

/* pbo_path_cmp of two paths of known lengths: the words they share
 * skipped 8 bytes at a time first (an archive's paths share long starts:
 * sorting a table compared them a byte at a time for a third of its
 * instructions). */
static int path_cmp_len(const char *a, size_t la, const char *b, size_t lb)
{
    size_t n = la < lb ? la : lb, i = 0;
    for (uint64_t x, y; i + 8 <= n && (memcpy(&x, a + i, 8), memcpy(&y, b + i, 8), x == y);)
        i += 8;
    return pbo_path_cmp(a + i, b + i);
}

static int index_cmp(const void *va, const void *vb)
{
    const struct pbo_index *a = va, *b = vb;
    int c = path_cmp_len(a->path, a->len, b->path, b->len);
    if (c)
        return c;
    if (a->renamed != b->renamed)   /* a name of its own before a new name */
        return a->renamed ? 1 : -1;
    return a->entry < b->entry ? -1 : a->entry > b->entry;  /* first entry first */
}

/* The index holds the entries that can be read: not the cut ones. */
int pbo_build_index(struct pbo *p)
{
    free(p->by_path);
    p->by_path = malloc((p->nentries ? p->nentries : 1) * sizeof *p->by_path);
    if (!p->by_path)
        return -1;
    p->nindex = 0;
    for (size_t i = 0; i < p->nentries; i++)
        if (!p->entries[i].cut)
            p->by_path[p->nindex++] = (struct pbo_index){ p->entries[i].path, (uint32_t)i,
                                                          (uint32_t)strlen(p->entries[i].path),
                                                          p->entries[i].renamed != 0 };
    if (p->nindex > 1)
        qsort(p->by_path, p->nindex, sizeof *p->by_path, index_cmp);
    return 0;
}

int pbo_read_entries(const uint8_t *head, size_t len, uint64_t file_size,
                     struct pbo **out, struct rtm_error *err)
{
    *out = NULL;
    if (len > file_size) {
        rtm_err_nooff(err, "PBO: %llu bytes given of a %llu-byte archive",
                      (unsigned long long)len, (unsigned long long)file_size);
        return -1;
    }
    struct walk w = { .head = head, .len = len, .file_size = file_size, .err = err };
    int rc = walk_table(&w);
    if (rc)
        return rc;
    /* Counts are bounded by the table bytes (each entry takes >= 22 of them). */
    struct pbo *p = calloc(1, sizeof *p);
    if (!p)
        goto oom;
    p->file_size = file_size;
    p->table_bytes = w.pos;
    p->nentries = w.nentries;
    p->nprops = w.nprops;
    p->entries = calloc(w.nentries ? w.nentries : 1, sizeof *p->entries);
    p->props = calloc(w.nprops ? w.nprops : 1, sizeof *p->props);
    p->pool = malloc(w.pool_bytes ? w.pool_bytes : 1);
    p->pool_bytes = w.pool_bytes;
    if (!p->entries || !p->props || !p->pool)
        goto oom;
    struct walk fill = { .head = head, .len = len, .file_size = file_size, .p = p,
                         .pool_at = p->pool, .err = err };
    if (walk_table(&fill) != W_OK || fill.nentries != w.nentries ||
        fill.nprops != w.nprops) {
        rtm_err_nooff(err, "PBO table changed between two walks");   /* cannot happen */
        goto fail;
    }
    place_entries(p);
    *out = p;
    return 0;
oom:
    rtm_err_oom(err, "out of memory reading the PBO table");
fail:
    pbo_free(p);
    return -1;
}

void pbo_free(struct pbo *p)
{
    if (!p)
        return;
    free(p->entries);
    free(p->props);
    free(p->by_path);
    free(p->pool);
    for (size_t i = 0; i < p->nowned; i++)
        free(p->owned[i]);
    free(p->owned);
    free(p);
}

enum pbo_trailer pbo_trailer_of(const struct pbo *p, const uint8_t *tail, size_t len,
                                uint8_t sha1[20])
{
    uint64_t after = p->file_size - p->data_end;
    memset(sha1, 0, 20);
    if (p->ncut)
        return PBO_TRAILER_CUT;
    if (after == 0)
        return PBO_TRAILER_NONE;
    if (after != PBO_TAIL_MAX)
        return PBO_TRAILER_ODD;
    if (!tail || len < PBO_TAIL_MAX)
        return PBO_TRAILER_UNKNOWN;
    if (tail[0] != 0)
        return PBO_TRAILER_ODD;
    memcpy(sha1, tail + 1, 20);
    return PBO_TRAILER_SHA1;
}

void pbo_set_trailer(struct pbo *p, const uint8_t *tail, size_t len)
{
    p->trailer = pbo_trailer_of(p, tail, len, p->sha1);
}

/* The first index position whose path is >= q (folded). */
static size_t lower_bound(const struct pbo *p, const char *q)
{
    size_t lo = 0, hi = p->nindex;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (pbo_path_cmp(p->by_path[mid].path, q) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

long pbo_find(const struct pbo *p, const char *path)
{
    /* Normalise the query as the entries' paths were; a longer query cannot
     * match, since a path is never longer than its name. */
    char q[PBO_NAME_MAX + 1];
    size_t n = strlen(path);
    if (n > PBO_NAME_MAX)
        return -1;
    normalise(q, (const uint8_t *)path, (uint32_t)n);
    if (!q[0])
        return -1;
    size_t lo = lower_bound(p, q);
    if (lo < p->nindex && pbo_path_cmp(p->by_path[lo].path, q) == 0)
        return (long)p->by_path[lo].entry;
    return -1;
}

/* Whether path starts with the n bytes of prefix, case-insensitively. */
static int has_prefix(const char *path, const char *prefix, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (path[i] != prefix[i] &&     /* most bytes: the same */
            (!path[i] || fold((unsigned char)path[i]) != fold((unsigned char)prefix[i])))
            return 0;
    return 1;
}

/* Normalises path into q (PBO_NAME_MAX + 2 bytes) and appends '/' unless it
 * is the root: the prefix every path below it starts with.  Its length, or
 * -1 when too long. */
static long dir_prefix(const char *path, char *q)
{
    size_t n = strlen(path);
    if (n > PBO_NAME_MAX)
        return -1;
    normalise(q, (const uint8_t *)path, (uint32_t)n);
    n = strlen(q);
    if (n)
        q[n++] = '/';
    q[n] = 0;
    return (long)n;
}

long pbo_dir_prefix_len(const char *dir)
{
    char q[PBO_NAME_MAX + 2];
    return dir_prefix(dir, q);
}

enum pbo_node pbo_lookup(const struct pbo *p, const char *path, long *entry)
{
    char q[PBO_NAME_MAX + 2];
    long n = dir_prefix(path, q);
    *entry = -1;
    if (n <= 0)
        return n == 0 ? PBO_DIR : PBO_NONE;
    if ((*entry = pbo_find(p, path)) >= 0)
        return PBO_FILE;
    size_t i = lower_bound(p, q);
    return i < p->nindex && has_prefix(p->by_path[i].path, q, (size_t)n) ? PBO_DIR
                                                                            : PBO_NONE;
}

int pbo_list(const struct pbo *p, const char *dir, pbo_child_fn fn, void *arg)
{
    char q[PBO_NAME_MAX + 2], child[PBO_NAME_MAX + 2];
    long entry;
    if (pbo_lookup(p, dir, &entry) != PBO_DIR)
        return -1;
    size_t n = (size_t)dir_prefix(dir, q);
    const char *last_file = NULL;
    for (size_t i = lower_bound(p, q); i < p->nindex;) {
        const char *path = p->by_path[i].path;
        if (!has_prefix(path, q, n))
            break;
        const char *name = path + n, *slash = strchr(name, '/');
        size_t len = slash ? (size_t)(slash - name) : strlen(name);
        int rc = 0;
        if (len == 0) {                 /* an entry whose name is all separators */
            i++;
        } else if (!slash) {
            /* duplicates of one path are adjacent; the first is the one found */
            if (!last_file || pbo_path_cmp(last_file, path))
                rc = fn(arg, name, len, (long)p->by_path[i].entry);
            last_file = path;
            i++;
        } else {
            /* a directory that is also a file's name: cannot happen once
             * pbo_names.c renamed the file, kept as a guard */
            memcpy(child, path, n + len + 1);
            child[n + len] = 0;
            if (pbo_find(p, child) < 0)
                rc = fn(arg, name, len, -1);
            child[n + len] = '/';
            while (i < p->nindex && has_prefix(p->by_path[i].path, child, n + len + 1))
                i++;
        }
        if (rc)
            return rc;
    }
    return 0;
}

/* An index path is normalised already, so the folder it would be is it
 * and a '/'.  The paths below it follow it in index order, after its
 * duplicates and the paths that go on with a byte sorting before '/'
 * ("anims.txt" after "anims"): a few of those are stepped over, which
 * is all a table ever has; past them, a search. */
long pbo_index_first_below(const struct pbo *p, size_t k)
{
    enum { STEPS = 8 };
    const char *dir = p->by_path[k].path;
    size_t n = strlen(dir), i = k + 1;
    if (n == 0 || n > PBO_NAME_MAX)
        return -1;                      /* as dir_prefix has it */
    for (int step = 0; i < p->nindex && step < STEPS; i++, step++) {
        const char *path = p->by_path[i].path;
        if (!has_prefix(path, dir, n))
            return -1;                  /* those that start so are all passed */
        int c = fold((unsigned char)path[n]);
        if (c == '/')
            return (long)p->by_path[i].entry;
        if (c > '/')
            return -1;                  /* and so is every later one */
    }
    if (i >= p->nindex)
        return -1;
    char q[PBO_NAME_MAX + 2];
    memcpy(q, dir, n);
    q[n] = '/';
    q[n + 1] = 0;
    i = lower_bound(p, q);
    return i < p->nindex && has_prefix(p->by_path[i].path, q, n + 1)
               ? (long)p->by_path[i].entry : -1;
}

int pbo_each_below(const struct pbo *p, const char *dir, pbo_entry_fn fn, void *arg)
{
    char q[PBO_NAME_MAX + 2];
    long n = dir_prefix(dir, q);
    if (n < 0)
        return 0;
    const char *last = NULL;
    for (size_t i = lower_bound(p, q); i < p->nindex; i++) {
        const char *path = p->by_path[i].path;
        if (!has_prefix(path, q, (size_t)n))
            break;
        /* duplicates of one path are adjacent; the first is the one found */
        int rc = last && pbo_path_cmp(last, path) == 0 ? 0 : fn(arg, (long)p->by_path[i].entry);
        if (rc)
            return rc;
        last = path;
    }
    return 0;
}

void pbo_describe_cut(const struct pbo *p, char *out, size_t n)
{
    char at[32];
    rtm_format_count(p->file_size, at, sizeof at);
    snprintf(out, n, "archive cut short at byte %s: %zu of %zu entries lie past the end",
             at, p->ncut, p->nentries);
}

uint64_t pbo_entry_content_size(const struct pbo_entry *e)
{
    return pbo_entry_compressed(e) ? e->original_size : e->data_size;
}

size_t pbo_mem_bytes(const struct pbo *p)
{
    return sizeof *p + p->nentries * (sizeof *p->entries + sizeof *p->by_path) +
           p->nprops * sizeof *p->props + p->pool_bytes + p->owned_bytes + 4 * 32;
}

const char *pbo_prop(const struct pbo *p, const char *key)
{
    for (size_t i = 0; i < p->nprops; i++)
        if (strcmp(p->props[i].key, key) == 0)
            return p->props[i].value;
    return NULL;
}

int pbo_entry_compressed(const struct pbo_entry *e)
{
    if (e->method == PBO_METHOD_CPRS)
        return 1;
    return e->method == PBO_METHOD_STORED && e->original_size != 0 &&
           e->original_size != e->data_size;
}

/* Decodes src until out_len bytes are out: 0 with *ip and *sum where the
 * stream stopped, or -1 with err. */
static int lzss_run(const uint8_t *src, size_t src_len, uint8_t *out, size_t out_len,
                    size_t *ipp, uint32_t *sump, uint64_t base, struct rtm_error *err)
{
    size_t ip = 0, op = 0;
    uint32_t sum = 0;
    unsigned flags = 0, nbits = 0;
    while (op < out_len) {
        if (nbits == 0) {
            if (ip >= src_len)
                goto cut;
            flags = src[ip++];
            nbits = 8;
        }
        unsigned literal = flags & 1;
        flags >>= 1;
        nbits--;
        if (literal) {
            if (ip >= src_len)
                goto cut;
            sum += out[op++] = src[ip++];
            continue;
        }
        if (src_len - ip < 2)
            goto cut;
        size_t rpos = src[ip] | (size_t)(src[ip + 1] & 0xF0) << 4;
        size_t rlen = (size_t)(src[ip + 1] & 0x0F) + 3;
        if (rpos == 0) {
            rtm_err_set(err, base + ip, "LZSS reference with distance 0");
            return -1;
        }
        ip += 2;
        if (rlen > out_len - op)
            rlen = out_len - op;
        for (size_t k = 0; k < rlen; k++, op++)
            sum += out[op] = op < rpos ? 0x20 : out[op - rpos];
    }
    *ipp = ip;
    *sump = sum;
    return 0;
cut:
    rtm_err_set(err, base + ip, "LZSS stream ends after %zu of %zu bytes", op, out_len);
    return -1;
}

int pbo_lzss_decode(const uint8_t *src, size_t src_len, uint8_t *out, size_t out_len,
                    size_t *used, uint64_t base, struct rtm_error *err)
{
    size_t ip;
    uint32_t sum;
    if (lzss_run(src, src_len, out, out_len, &ip, &sum, base, err))
        return -1;
    if (src_len - ip < 4) {
        rtm_err_set(err, base + ip, "LZSS stream ends before its checksum");
        return -1;
    }
    uint32_t want = le_u32(src + ip);
    if (want != sum) {
        rtm_err_set(err, base + ip, "LZSS checksum mismatch: stored 0x%08x, "
                    "computed 0x%08x", want, sum);
        return -1;
    }
    *used = ip + 4;
    return 0;
}

int pbo_lzss_decode_head(const uint8_t *src, size_t src_len, uint8_t *out, size_t out_len,
                         uint64_t base, struct rtm_error *err)
{
    size_t ip;
    uint32_t sum;
    return lzss_run(src, src_len, out, out_len, &ip, &sum, base, err);
}

size_t pbo_lzss_src_max(size_t out_len)
{
    /* the sparsest stream is all literals, a flag byte for every 8 items,
     * but for its last item: a 2-byte reference of which one byte is
     * wanted (a reference gives 3 bytes or more, so never sparser) */
    return out_len ? out_len + 1 + (out_len + 7) / 8 : 0;
}

static const char *method_name(uint32_t m)
{
    switch (m) {
    case PBO_METHOD_ENCR: return " (Encr: encrypted)";
    case PBO_METHOD_VERS: return " (Vers)";
    default: return "";
    }
}

int pbo_entry_readable(const struct pbo_entry *e, struct rtm_error *err)
{
    if (!pbo_entry_compressed(e) && e->method != PBO_METHOD_STORED) {
        rtm_err_set(err, e->header_offset, "PBO entry '%.200s': packing method "
                    "0x%08x%s is not supported", e->name, e->method, method_name(e->method));
        return -1;
    }
    if (pbo_entry_compressed(e) && (uint64_t)e->original_size > 9 * (uint64_t)e->data_size) {
        rtm_err_set(err, e->header_offset, "PBO entry '%.200s': original size %u "
                    "cannot come from %u bytes of LZSS", e->name, e->original_size,
                    e->data_size);
        return -1;
    }
    return 0;
}

int pbo_entry_data(const struct pbo *p, size_t i, const uint8_t *blob, size_t blob_len,
                   uint8_t **out, size_t *out_len, struct rtm_error *err)
{
    *out = NULL;
    *out_len = 0;
    if (i >= p->nentries) {
        rtm_err_nooff(err, "PBO entry %zu of %zu", i, p->nentries);
        return -1;
    }
    const struct pbo_entry *e = &p->entries[i];
    if (blob_len != e->data_size) {
        rtm_err_set(err, e->offset, "PBO entry '%.200s': %zu bytes given, %u stored",
                    e->name, blob_len, e->data_size);
        return -1;
    }
    if (pbo_entry_readable(e, err))
        return -1;
    if (!pbo_entry_compressed(e)) {
        uint8_t *d = malloc(blob_len ? blob_len : 1);
        if (!d)
            goto oom;
        if (blob_len)
            memcpy(d, blob, blob_len);
        *out = d;
        *out_len = blob_len;
        return 0;
    }
    size_t n = e->original_size, used;
    uint8_t *d = malloc(n ? n : 1);
    if (!d)
        goto oom;
    if (pbo_lzss_decode(blob, blob_len, d, n, &used, e->offset, err)) {
        free(d);
        if (!err)
            return -1;
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        rtm_err_set(err, err->offset, "PBO entry '%.100s': %s", e->name, msg);
        return -1;
    }
    *out = d;
    *out_len = n;
    return 0;
oom:
    rtm_err_oom(err, "out of memory reading PBO entry '%.200s'", e->name);
    return -1;
}
