/* tree_states_index.c - the states table remembered in the persistent
 * index (index.h), so that a later mount reads no config: the table's lines
 * are keyed by the generation of the configs read, the walk's root and
 * the path and version (fileid.h) of every archive and loose config found
 * under it.  A later mount walks SOURCE's folders, stats what it meets,
 * makes the same generation and gets the lines back; anything added,
 * removed or rewritten makes another generation, and the configs are read
 * again.  Only tables whose configs depend on nothing the generation
 * does not key are remembered (tree_states_read.c's config_read):
 * rapified configs, and text ones in archives that looked for no include
 * on disk and asked no date or time (the $PBOPREFIX$ files are in the
 * generation: with none, an include has nowhere to be found); a loose
 * text config's includes may change while it does not.  A table is
 * remembered once its lines are made, or when the mount ends
 * (tree_states.c).  Part of the tree layer (tree_int.h).
 *
 * The record: the key is no file's (device, inode and times 0), of kind
 * RTM_STORE_STATES, its rendering key "states:" + the generation's hash + the
 * line format's version; the value, LZO-compressed (lzo.h: the lines
 * repeat their config's path; 21,000 states of rtmgen -I's install took
 * 5.8 MB plain) after its plain length, holds the whole generation
 * (checked byte for byte: a hash that collides reads as not known), the
 * configs' paths in path order, then each line's key, text, file, config
 * and entry, in key order (read back without a sort), then what the root
 * check.txt keeps (states_check.h's bytes, after their length). */
#include "tree_states.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lzo.h"
#include "states.h"
#include "states_check.h"

/* The lines' format: states.c's text (RTM_RENDER_VERSION) and this file's. */
#define STORE_VERSION 7
/* A plain value longer is not believed (a damaged record). */
#define PLAIN_MAX (1u << 30)

char *tree_states_gen_entry(const char *path, const struct stat *st)
{
    struct rtm_fileid id = rtm_fileid_of(st);
    char *out = NULL;
    /* the path's length first: no name can make two sets read alike */
    if (asprintf(&out, "%zu:%s %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRId64 " %" PRId64 "\n",
                 strlen(path), path, id.dev, id.ino, id.size, id.mtime_ns, id.ctime_ns) < 0)
        return NULL;
    return out;
}

static int by_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char *tree_states_gen(const char *root, char **entries, size_t n)
{
    struct rtm_buf b;
    size_t len;
    rtm_buf_init(&b);
    if (n)
        qsort(entries, n, sizeof *entries, by_str);   /* readdir's order is no order */
    rtm_buf_printf(&b, "%zu:%s\n", strlen(root), root);
    for (size_t i = 0; i < n; i++)
        rtm_buf_puts(&b, entries[i]);
    rtm_buf_putc(&b, 0);
    if (b.oom) {
        rtm_buf_free(&b);
        return NULL;
    }
    return rtm_buf_take(&b, &len);
}

static void index_key(const char *gen, char render[64], struct rtm_store_key *k)
{
    snprintf(render, 64, "states:%016" PRIx64 ":%d:%d", rtm_hash_str(gen), STORE_VERSION,
             RTM_RENDER_VERSION);
    *k = (struct rtm_store_key){ .kind = RTM_STORE_STATES, .render = render };
}

/* ---- the value ---- */

static void put_str(struct rtm_buf *b, const char *s) { rtm_buf_put(b, s, strlen(s) + 1); }

int tree_states_pack(const char *gen, const struct rtm_states *s, struct rtm_buf *out)
{
    struct rtm_buf b;
    size_t n = rtm_states_nlines(s), ncfg = 0;
    rtm_buf_init(&b);
    put_str(&b, gen);
    while (rtm_states_config(s, ncfg))
        ncfg++;
    rtm_buf_put_u32(&b, (uint32_t)ncfg);
    for (size_t i = 0; i < ncfg; i++)
        put_str(&b, rtm_states_config(s, i));
    rtm_buf_put_u32(&b, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        struct rtm_state_line l;
        rtm_states_line(s, i, &l);
        put_str(&b, l.key);
        put_str(&b, l.text);
        put_str(&b, l.file);
        put_str(&b, l.speed);
        rtm_buf_put_u32(&b, (uint32_t)l.speed_known);
        rtm_buf_put_u32(&b, (uint32_t)l.cfg);
        rtm_buf_put_u32(&b, l.entry);
    }
    struct rtm_buf check;
    rtm_buf_init(&check);
    int bad = rtm_states_check_pack(s, &check) || check.len > UINT32_MAX;
    rtm_buf_put_u32(&b, (uint32_t)check.len);
    rtm_buf_put(&b, check.p, check.len);
    rtm_buf_free(&check);
    uint64_t plain = b.len;
    int rc = -1;
    rtm_buf_init(out);
    rtm_buf_put(out, &plain, sizeof plain);
    if (!b.oom && !bad && plain <= PLAIN_MAX && ncfg <= UINT32_MAX && n <= UINT32_MAX &&
        rtm_lzo_init() == 0 && rtm_lzo_encode((const uint8_t *)b.p, b.len, out) == 0 && !out->oom)
        rc = 0;
    rtm_buf_free(&b);
    if (rc)
        rtm_buf_free(out);
    return rc;
}

void tree_states_remember(const struct rtm_store *ix, const char *gen, const struct rtm_states *s)
{
    struct rtm_buf z;
    char render[64];
    struct rtm_store_key k;
    index_key(gen, render, &k);
    if (tree_states_pack(gen, s, &z) == 0)
        rtm_store_put(ix, &k, z.p, z.len);
    rtm_buf_free(&z);
}

void tree_states_forget(const struct rtm_store *ix, const char *gen)
{
    char render[64];
    struct rtm_store_key k;
    index_key(gen, render, &k);
    rtm_store_drop(ix, &k);
}

/* A reader of a value: each get checks the bytes that justify it. */
struct reader {
    const char *p, *end;
};

static const char *get_str(struct reader *r)
{
    const char *s = r->p, *nul = r->p < r->end ? memchr(r->p, 0, (size_t)(r->end - r->p)) : NULL;
    if (!nul)
        return NULL;
    r->p = nul + 1;
    return s;
}

static int get_u32(struct reader *r, uint32_t *v)
{
    if (r->end - r->p < 4)
        return -1;
    memcpy(v, r->p, 4);
    r->p += 4;
    return 0;
}

/* The table value val (len bytes) holds for gen: 0, or -1. */
static int decode(const char *val, size_t len, const char *gen, struct rtm_states *s)
{
    struct reader r = { val, val + len };
    const char *g = get_str(&r);
    uint32_t ncfg, n;
    if (!g || strcmp(g, gen) || get_u32(&r, &ncfg))
        return -1;                      /* another generation of the same hash */
    for (uint32_t i = 0; i < ncfg; i++) {
        const char *rel = get_str(&r);
        if (!rel || rtm_states_add(s, NULL, rel))
            return -1;
    }
    if (get_u32(&r, &n))
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        struct rtm_state_line l;
        uint32_t cfg, known;
        if (!(l.key = get_str(&r)) || !(l.text = get_str(&r)) || !(l.file = get_str(&r)) ||
            !(l.speed = get_str(&r)) || get_u32(&r, &known) || known > 1 ||
            get_u32(&r, &cfg) || get_u32(&r, &l.entry))
            return -1;
        l.speed_known = (int)known;
        l.cfg = cfg;
        if (rtm_states_add_line(s, &l))
            return -1;
    }
    uint32_t nc;
    if (get_u32(&r, &nc) || (size_t)(r.end - r.p) != nc ||
        rtm_states_check_unpack(s, (const uint8_t *)r.p, nc))
        return -1;
    return rtm_states_finish(s);
}

/* The plain value of stored bytes val (len): malloc'd, its length in
 * *plain_len; NULL when they do not decode to the length they say. */
static char *unpack(const void *val, size_t len, size_t *plain_len)
{
    uint64_t plain;
    if (len < sizeof plain || rtm_lzo_init())
        return NULL;
    memcpy(&plain, val, sizeof plain);
    char *out = plain <= PLAIN_MAX ? malloc(plain ? plain : 1) : NULL;
    /* the stream is the rest of the value: one pass (rtm_lzo_decode,
     * which must find where a BMTR array's stream ends, decoded the whole
     * value again at each candidate end: 10 to 20 passes here) */
    if (!out || rtm_lzo_decode_exact((const uint8_t *)val + sizeof plain, len - sizeof plain,
                                     (uint8_t *)out, plain)) {
        free(out);
        return NULL;
    }
    *plain_len = plain;
    return out;
}

int tree_states_recall(const struct rtm_store *ix, const char *gen, struct rtm_states **out)
{
    char render[64];
    struct rtm_store_key k;
    void *val;
    size_t len;
    index_key(gen, render, &k);
    *out = NULL;
    if (rtm_store_get(ix, &k, &val, &len))
        return -1;
    int rc = tree_states_unpack(val, len, gen, out);
    free(val);
    return rc;
}

int tree_states_unpack(const void *val, size_t len, const char *gen, struct rtm_states **out)
{
    char *plain = unpack(val, len, &len);
    *out = NULL;
    struct rtm_states *s = plain ? rtm_states_new() : NULL;
    if (!s || decode(plain, len, gen, s)) {
        rtm_states_free(s);
        free(plain);
        return -1;
    }
    free(plain);
    *out = s;
    return 0;
}
