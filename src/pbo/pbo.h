/* pbo.h - the table of an Arma PBO archive and the content of its entries.
 *
 * Layout (see pbo.c for the details and sources):
 *   entry headers: asciiz name, then five u32 LE (method, original size,
 *     reserved, timestamp, data size); a first header with an empty name and
 *     method "Vers" is followed by asciiz key/value pairs ended by an empty
 *     key; a header with an empty name ends the table;
 *   the data of each entry, in table order, right after the table;
 *   one zero byte and a 20-byte SHA-1 (optional here; never verified).
 *
 * Contract:
 *  - pbo_read_table() parses the table from the first len bytes of an
 *    archive of file_size bytes and returns a new struct pbo that the caller
 *    releases with pbo_free().  Every string and array inside belongs to it.
 *    The caller may pass only a prefix of the archive: when the table goes on
 *    past head[len - 1] and the archive is longer, it returns PBO_NEED_MORE
 *    (err says so) and the caller reads more (twice as much, say, up to
 *    file_size) and calls again.  A table longer than PBO_TABLE_MAX bytes is
 *    an error, so that loop ends.  When head holds the whole archive (or at
 *    least the trailer) the trailer's zero byte and SHA-1 are read too;
 *    else, when 21 bytes follow the data, the trailer is unknown.
 *  - It checks every entry's data range [offset, offset + data_size) against
 *    file_size with 64-bit arithmetic, and allocates only what the bytes of
 *    the table justify.  On failure it returns -1, *out is NULL and err says
 *    what is wrong and at which byte.
 *  - An archive cut short (a download that stopped) whose table is whole
 *    parses: an entry whose data does not lie wholly inside the file is
 *    marked cut and counted in ncut.  Cut entries stay in entries[] (table
 *    order) but no lookup, listing or walk finds them.
 *  - pbo_entry_data() turns an entry's stored bytes (exactly its data range,
 *    read by the caller) into its content: a copy, or the LZSS-decoded bytes.
 *    The caller frees *out.  It never writes past the entry's original size
 *    and fails cleanly on a cut or corrupt stream or a checksum mismatch.
 *  - No global state; a struct pbo is read-only after parsing and may be
 *    shared between threads.
 */
#ifndef RTM_PBO_H
#define RTM_PBO_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"
#include "work.h"

#define PBO_METHOD_STORED 0x00000000u
#define PBO_METHOD_CPRS   0x43707273u     /* "Cprs": LZSS */
#define PBO_METHOD_VERS   0x56657273u     /* "Vers": header properties follow */
#define PBO_METHOD_ENCR   0x456e6372u     /* "Encr": encrypted, not readable */

#define PBO_NAME_MAX  1024u               /* bytes of a name, key or value */
#define PBO_TABLE_MAX (64u << 20)         /* bytes of the whole header table */

/* pbo_read_table(): the table continues past the bytes given. */
#define PBO_NEED_MORE 1

struct pbo_entry {
    const char *name;       /* as stored (backslashes), NUL-terminated */
    const char *path;       /* the name's path: split on '\\' and '/', empty,
                               "." and ".." parts dropped, joined with '/'
                               ("" when nothing is left: never found) */
    uint32_t name_len;
    uint32_t method, original_size, reserved, timestamp, data_size;
    uint64_t offset;        /* of the entry's data in the archive */
    int cut;                /* its data goes past the end of the file */
    uint64_t header_offset; /* of the entry's header, for messages */
    unsigned renamed;       /* PBO_RENAMED_*: why path is not the name's path */
    uint32_t renamed_other; /* with DUP: the entry that keeps the name */
    uint32_t renamed_below; /* with FOLDER: one entry in the folder */
};

/* Why an entry's path was renamed (pbo_read_table() names them: pbo_names.c; rtm(5) PBO paths). */
enum {
    PBO_RENAMED_LONG   = 1, /* a part over 255 bytes: its first 200, ~HASH, extension */
    PBO_RENAMED_DUP    = 2, /* a path an earlier entry has: STEM~N.EXT */
    PBO_RENAMED_FOLDER = 4, /* a folder has its path: STEM~N.EXT */
};

struct pbo_index;

struct pbo_prop {
    const char *key, *value;    /* NUL-terminated, as stored */
};

enum pbo_trailer {
    PBO_TRAILER_UNKNOWN,    /* 21 bytes follow the data, but they were not given */
    PBO_TRAILER_SHA1,       /* a zero byte and the SHA-1 (in sha1) */
    PBO_TRAILER_NONE,       /* the archive ends with the last entry's data */
    PBO_TRAILER_ODD,        /* something else follows the data */
    PBO_TRAILER_CUT,        /* the archive is cut short (ncut > 0) */
};

struct pbo {
    size_t nentries;
    struct pbo_entry *entries;      /* table order, without Vers and end headers */
    size_t ncut;                    /* entries cut off by the end of the file */
    size_t nprops;
    struct pbo_prop *props;         /* file order; duplicates kept */
    uint64_t table_bytes;           /* the header table: the first data byte's offset */
    uint64_t data_end;              /* one past the last whole entry's data */
    uint64_t file_size;
    enum pbo_trailer trailer;
    uint8_t sha1[20];               /* with PBO_TRAILER_SHA1 */

    /* private */
    struct pbo_index *by_path;      /* the entries not cut, sorted by path, case folded */
    size_t nindex;
    char *pool;                     /* every string above */
    size_t pool_bytes;
    char **owned;                   /* renamed paths */
    size_t nowned, owned_cap, owned_bytes;
};

int pbo_read_table(const uint8_t *head, size_t len, uint64_t file_size,
                   struct pbo **out, struct rtm_error *err);
void pbo_free(struct pbo *p);

/* The bytes at data_end (up to PBO_TAIL_MAX) decide the trailer;
 * pbo_read_table() calls it when head reaches that far, a caller may call
 * it with bytes it read.  pbo_trailer_of() is the same question for a
 * table shared read-only: the trailer tail makes of p, its SHA-1 into sha1
 * (zeros unless PBO_TRAILER_SHA1). */
enum { PBO_TAIL_MAX = 21 };
void pbo_set_trailer(struct pbo *p, const uint8_t *tail, size_t len);
enum pbo_trailer pbo_trailer_of(const struct pbo *p, const uint8_t *tail, size_t len,
                                uint8_t sha1[20]);

/* The length of the prefix every entry path below folder dir starts with
 * (dir normalised as the paths are, and a '/' unless it is the root), so
 * that path + it names the entry from dir; -1 when dir is too long. */
long pbo_dir_prefix_len(const char *dir);

/* The index of the first entry (table order) whose path equals path, ASCII
 * case-insensitively as Arma matches names; '\\' and '/' are the same and
 * path is normalised like the entries'.  -1 when there is none.  Paths
 * are unique once read (pbo_names.c renames what collides). */
long pbo_find(const struct pbo *p, const char *path);

/* The archive as a tree: entry paths split on '/', names matched like
 * pbo_find().  No name is both an entry and a directory: the entry was
 * renamed (pbo_names.c).  The root ("") is a directory, even of an empty
 * archive. */
enum pbo_node { PBO_NONE, PBO_FILE, PBO_DIR };
/* What path is; for PBO_FILE *entry is its index (else -1). */
enum pbo_node pbo_lookup(const struct pbo *p, const char *path, long *entry);
/* Calls fn once for each name in directory dir, in the case-folded order of
 * the entries' paths, with the name spelt as the first path in that order
 * spells it (len bytes, not NUL-terminated) and the entry's index for a file
 * or -1 for a directory.  Stops at fn's first non-zero result and returns it; -1 when
 * dir is not a directory; else 0. */
typedef int (*pbo_child_fn)(void *arg, const char *name, size_t len, long entry);
int pbo_list(const struct pbo *p, const char *dir, pbo_child_fn fn, void *arg);

/* Calls fn for every entry (its index) at any depth below folder dir ("":
 * the whole archive), in the case-folded order of their paths (each path
 * is one entry's: pbo_names.c).  Stops at fn's first non-zero result and
 * returns it; else 0 (also when dir is no folder). */
typedef int (*pbo_entry_fn)(void *arg, long entry);
int pbo_each_below(const struct pbo *p, const char *dir, pbo_entry_fn fn, void *arg);

/* For an archive cut short: "archive cut short at byte 90,520: 122 of 125
 * entries lie past the end" into out (n bytes). */
void pbo_describe_cut(const struct pbo *p, char *out, size_t n);

/* Bytes of an entry's content: the original size of LZSS data, else the
 * stored size. */
uint64_t pbo_entry_content_size(const struct pbo_entry *e);
/* Memory the parsed table holds, for a cache's budget. */
size_t pbo_mem_bytes(const struct pbo *p);

/* The value of the first property with this key (case-sensitive), or NULL. */
const char *pbo_prop(const struct pbo *p, const char *key);

/* Whether the entry's data is LZSS: method "Cprs", or method 0 with an
 * original size that is neither 0 nor the data size (old OFP packers). */
int pbo_entry_compressed(const struct pbo_entry *e);

/* The entry's content from its stored bytes (blob_len must be data_size).
 * Stored: a copy.  LZSS: decoded to exactly original_size bytes and the
 * checksum verified; an original size above 9 * data_size is refused.
 * Any other method ("Encr", unknown) is an error.  *out is malloc'd (never
 * NULL on success, even for 0 bytes); the caller frees it. */
int pbo_entry_data(const struct pbo *p, size_t i, const uint8_t *blob, size_t blob_len,
                   uint8_t **out, size_t *out_len, struct rtm_error *err);

/* BI's LZSS: decodes src into exactly out_len bytes of out (caller-owned) and
 * verifies the u32 checksum that follows the stream.  Returns 0, or -1 with
 * err (offsets relative to src, plus base).  *used gets the bytes consumed,
 * the checksum included. */
int pbo_lzss_decode(const uint8_t *src, size_t src_len, uint8_t *out, size_t out_len,
                    size_t *used, uint64_t base, struct rtm_error *err);

/* The same as far as out_len bytes of output, without the checksum (which
 * needs the whole stream): a head of the content.  pbo_lzss_src_max()
 * says how many stored bytes out_len bytes of output can need at most. */
int pbo_lzss_decode_head(const uint8_t *src, size_t src_len, uint8_t *out, size_t out_len,
                         uint64_t base, struct rtm_error *err);
size_t pbo_lzss_src_max(size_t out_len);

/* Whether pbo_entry_data() can read the entry's method and sizes: 0, or -1
 * with err saying why not (before any byte of it is read). */
int pbo_entry_readable(const struct pbo_entry *e, struct rtm_error *err);

/* pbo_file.c: the same from an open archive.  pbo_load_table() reads the
 * table and nothing else: its trailer stays PBO_TRAILER_UNKNOWN unless the
 * bytes read for the table reach it (the archive's last bytes are one more
 * read of every archive a walk lists, and only pbo.txt says what they are:
 * pbo_load_tail() reads them when asked); pbo_load_entry() reads exactly
 * entry i's stored bytes and decodes them into a new buffer the caller
 * frees (a cut entry is refused before anything is allocated for it).
 * Both return 0, or -1 with err set (offsets in the archive).  The bytes
 * read count into w (work.h; NULL: not counted), and so in
 * pbo_load_entry_head. */
int pbo_load_table(struct rtm_work *w, int fd, struct pbo **out, struct rtm_error *err);
/* pbo_load_table() whose first read is of first bytes (at least 1), then
 * twice as many until the table is whole: pbo_load_table() reads 64 KiB
 * first, which holds most tables at once; a walk of many archives that
 * wants only their names reads 4 KiB, as many tables need. */
int pbo_load_table_first(struct rtm_work *w, int fd, size_t first, struct pbo **out,
                         struct rtm_error *err);
/* pbo_load_table_first() that also hands over the bytes the table was read
 * from: *head (the caller frees it), at least table_bytes of them. */
int pbo_load_table_head(struct rtm_work *w, int fd, size_t first, struct pbo **out,
                        uint8_t **head, struct rtm_error *err);
/* The bytes at p's data_end that decide its trailer (pbo_trailer_of()),
 * when p's is unknown and p is the table of the archive open as fd: how
 * many were read into tail (0 when the trailer is known: nothing to read),
 * or -1 with err set. */
long pbo_load_tail(struct rtm_work *w, int fd, const struct pbo *p, uint8_t tail[PBO_TAIL_MAX],
                   struct rtm_error *err);
int pbo_load_entry(struct rtm_work *w, int fd, const struct pbo *p, size_t i, uint8_t **out,
                   size_t *len, struct rtm_error *err);
/* The first len bytes of entry i's content (len at most its content size)
 * into out (caller-owned), reading from fd only the stored bytes they
 * need: a window of a stored entry, or as much LZSS as decodes to len
 * bytes (unchecked: the checksum follows the whole stream; a full read,
 * pbo_load_entry(), checks it).  0, or -1 with err (as pbo_entry_data's). */
int pbo_load_entry_head(struct rtm_work *w, int fd, const struct pbo *p, size_t i,
                        uint8_t *out, size_t len, struct rtm_error *err);

/* pbo_notes.c: what the table hid or changed, for pbo.txt.  Calls fn for
 * each note, entries in table order, and stops at fn's first non-zero
 * result, which it returns; else 0.  A clean archive has none. */
enum pbo_note_kind {
    PBO_NOTE_SKIPPED,       /* never found: cut, or no name left */
    PBO_NOTE_RENAMED,       /* its path is not its stored name (why says what went,
                               or a part over 255 bytes) */
    PBO_NOTE_ODD_NAME,      /* kept as it is, but odd (device name, control bytes) */
    PBO_NOTE_METHOD,        /* an unknown (or encrypted) packing method */
    PBO_NOTE_DUPLICATE,     /* renamed: entry other, earlier, has its path */
    PBO_NOTE_HIDDEN,        /* renamed: a folder (holding entry other) has its path */
};
struct pbo_note {
    size_t entry;
    enum pbo_note_kind kind;
    long other;             /* the entry shown instead, or one below; else -1 */
    const char *why;        /* static text */
};
typedef int (*pbo_note_fn)(void *arg, const struct pbo_note *n);
int pbo_each_note(const struct pbo *p, pbo_note_fn fn, void *arg);

#endif
