/* rtm.h - the in-memory model of one Arma animation and the parser entry point.
 *
 * Contract:
 *  - rtm_parse() reads a plain RTM (RTM_0101, optional leading RTM_MDAT), a
 *    binarised BMTR (v3, v4, v5), a BVH motion capture (retargeted onto
 *    the skeleton, mocap_retarget.h) or a glTF, GLB or FBX clip (gltf.h;
 *    FBX through the caller's converter, rtm_parse_opts) from a byte buffer it does not keep, and
 *    returns a newly allocated struct rtm_anim that the caller releases with
 *    rtm_free().  Every string and array inside belongs to the anim.
 *  - BMTR transforms are converted to plain model-space matrices at parse time
 *    with the given skeleton (rtm(5), CONVERSION); the skeleton is only read
 *    during the call (its hierarchy and pivots for this anim's bones are
 *    copied into the anim), and NULL means no hierarchy (as "none").
 *  - On failure it returns -1, *out is NULL and err says what is wrong and at
 *    which byte.  It never reads outside the buffer and allocates nothing
 *    that the bytes present cannot justify.
 *  - The core has no global state and no FUSE dependency; it is safe to call
 *    from several threads on different buffers.
 */
#ifndef RTM_RTM_H
#define RTM_RTM_H

#include <stddef.h>
#include <stdint.h>

#include "numfmt.h"
#include "util.h"

struct rtm_skeleton;
struct rtm_names;
struct rtm_mocap_opts;

/* The source formats, each a row of the format table (format_table.h),
 * which says all that any layer asks of one.  BVH: motion capture text
 * retargeted onto the skeleton (mocap_retarget.h); its plain.rtm and
 * bmtr.rtm are written from the matrices, as a BMTR file's plain.rtm is.
 * glTF (JSON text) and GLB (its binary container): read into the same
 * mocap as an equivalent BVH and retargeted alike (gltf.h); FBX: turned
 * into GLB by the caller's converter (rtm_parse_opts.convert), then read
 * as GLB.
 * The persistent index stores the ids (shape.h): a new one goes last. */
enum rtm_format { RTM_FORMAT_PLAIN, RTM_FORMAT_BMTR, RTM_FORMAT_BVH, RTM_FORMAT_GLTF,
                  RTM_FORMAT_GLB, RTM_FORMAT_FBX, RTM_NFORMATS };

/* What header.txt says of a BVH source (and of glTF, GLB and FBX, read
 * as one): how its joints were read and mapped.  The anim owns it (rtm_free); every string
 * is in names, or static. */
struct rtm_bvh_joint {
    const char *name;           /* the source joint's */
    const char *target;         /* the bone it stands for, or NULL */
    const char *how;            /* static: "map file", "name", "naming",
                                   "taken", or NULL (no rule knew it) */
    const char *wanted;         /* when taken: the bone a joint nearer the root
                                   holds; else NULL */
};
struct rtm_bvh_info {
    uint32_t njoints, nmapped;
    uint32_t source_frames;     /* the Frames line */
    double frame_time;          /* the Frame Time line, seconds */
    double fps;                 /* resampled to this rate; 0: every frame kept */
    double unit;                /* metres a file unit */
    const char *unit_name;      /* static: "cm", "m", "in", "cmu" (inferred) or "set" */
    double height;              /* the rest pose's height, file units */
    const char *naming;         /* static: the naming the names were read in */
    int identity;               /* the skeleton's own: taken as it is */
    int zup;                    /* its up is z (Blender's export), not y */
    double hip_ratio;           /* target hip height over the source's (1 on the
                                   identity path) */
    struct rtm_bvh_joint *joint;    /* njoints, file order */
    char *names;                /* the strings joint[] points into */
};
void rtm_bvh_info_free(struct rtm_bvh_info *in);

struct rtm_prop {
    float phase;
    struct rtm_str name, value;
    int32_t type_id;            /* BMTR keystone type; -1 for plain MDAT */
};

/* How deep an anim was made: which of its fields hold the file's values.
 * Each depth holds all that the one before holds, and more:
 *
 *  SHAPE  what the persistent index remembers of a file (shape.h): format,
 *         nframes, nbones, bones, tracks, and whether pivot is NULL
 *         (its values are not kept).  Enough for the views' names and
 *         bones.txt.  Every other field is 0 or NULL in a decoded shape;
 *         a head parse (rtm_parse_head) fills some more of them from the
 *         head (version, props, the skeleton's links, pivots,
 *         source_bytes) but its phases are 0, so it too is only a shape.
 *  LIGHT  a parse with RTM_PARSE_NO_MATRICES: also version, motion,
 *         phases, props, source_bytes, the format's own fields,
 *         skeleton_name and the skeleton's copy per bone (skel_parent ...
 *         pivot_placed).  matrices is a placeholder of one float; source,
 *         skel_names, skel_parents, unusable and scaled_bones are NULL
 *         and 0.
 *  FULL   a parse without it: also matrices, source (the file's bytes),
 *         the skeleton's own bones (skel_nbones ... skel_parents) and the
 *         tallies (unusable, scaled_bones).
 *
 * The maker of an anim sets it, through rtm_anim_alloc(), which
 * allocates matrices only for FULL: rtm_parse*() make FULL, or LIGHT with
 * RTM_PARSE_NO_MATRICES; rtm_parse_head() and rtm_shape_decode() (shape.h)
 * make SHAPE; a writer or a test that fills an anim by hand says how much
 * it filled.  It is the one thing asked to know what an anim holds: a view
 * renders only from an anim at least as deep as its row says (views.h,
 * rtm_view_depth), and the cache loads an anim to the depth a view asks
 * (cache.h: enum rtmc_level, one level a depth).
 *
 * tracks is no sign of depth: every maker above makes it, at every depth;
 * it is NULL only in an anim filled by hand (rtm_anim_alloc alone), which
 * then shows no tracks/ and cannot be sized (views.h: rtm_view_sizes). */
enum rtm_depth { RTM_DEPTH_SHAPE, RTM_DEPTH_LIGHT, RTM_DEPTH_FULL };

struct rtm_anim {
    enum rtm_format format;
    enum rtm_depth depth;       /* what the fields below hold: see above */
    uint32_t version;           /* BMTR 3..5; 0 for plain (RTM_0101) */
    float motion[3];
    uint32_t nframes, nbones, nprops;
    struct rtm_str *bones;      /* nbones, file order */
    float *phases;              /* nframes, file order */
    float *matrices;            /* nframes * nbones * 12, file order */
    struct rtm_prop *props;     /* nprops, file order */
    uint64_t source_bytes;
    uint8_t *source;            /* with matrices, the file's bytes: plain.rtm of
                                   a plain file, bmtr.rtm of a BMTR one */

    /* plain only */
    int has_mdat;
    uint64_t trailing_bytes;    /* bytes after the last frame, tolerated */

    /* BMTR only */
    uint8_t bmtr_byte8;         /* "Always1" / Reversed */
    uint32_t preload_count;
    uint32_t nmeta;             /* v4+ metadata strings (dropped) */
    int flag_bytes;             /* 1 if arrays carried a compression flag */
    char *skeleton_name;        /* the skeleton it was read with (both formats) */
    uint32_t composed;          /* bones composed with their parent */

    /* BVH, glTF, GLB, FBX (NULL for RTM): what header.txt says of the source */
    struct rtm_bvh_info *bvh;

    /* A source of several clips (glTF's animations, FBX's stacks; 0 and
     * NULL for the others): how many the file holds, which one this is (0
     * the first), their names (clip_names, nclips of them, in one block
     * with their bytes) and their folder names in the mount's clips/
     * (names.h, RTM_NAMES_FILE: unique, a file system's names); both made
     * by rtm_anim_set_clips(). */
    uint32_t nclips, clip;
    struct rtm_str *clip_names;
    struct rtm_names *clips;

    /* The skeleton the anim was read with, per bone (both formats; taken at
     * parse time, so the anim needs the skeleton no longer): */
    int32_t *skel_parent;       /* nbones: the bone of this anim that is its
                                   parent in the skeleton, or -1 */
    uint8_t *in_skeleton;       /* nbones: 1 when the skeleton has the bone */
    float (*pivot)[3];          /* nbones rest-pose pivots (pivots.h), or NULL
                                   when the skeleton has none; 0 0 0 for bones
                                   it lacks */
    uint8_t *pivot_placed;      /* with pivot: 1 where placed, not measured */
    /* With matrices, the skeleton's own bones, for check.txt (check.h),
     * which names the bones the anim lacks and a name's case there: their
     * names in the skeleton's order, each NUL-terminated, one after the
     * other, and each one's parent (an index into them, -1 for a root).
     * NULL and 0 without a skeleton or after RTM_PARSE_NO_MATRICES. */
    uint32_t skel_nbones;
    char *skel_names;
    int32_t *skel_parents;

    /* Derived at parse time, by a full parse (0 after RTM_PARSE_NO_MATRICES): */
    uint64_t unusable;          /* matrices with NaN, infinity or det <= 0
                                   (motion.h), which measures leave out */
    uint32_t scaled_bones;      /* bones with a usable matrix that is not a
                                   rotation (motion.h) */
    /* and by both: */
    struct rtm_names *tracks;   /* the bones' tracks/ file names (names.h) */

    /* How text views write numbers: RTM_DIGITS_EXACT (shortest round trip),
     * or that many decimals in fixed point (numfmt.h).  A parse sets it
     * exact; the anim's owner may change it while nothing renders. */
    int digits;

    /* private: the arena that holds every string above */
    char *arena;
    size_t arena_len, arena_cap;
};

/* What the skeleton's copy (skel_parent ... pivot_placed) holds a bone. */
#define RTM_SKEL_BYTES_PER_BONE (sizeof(int32_t) + 2 * sizeof(uint8_t) + 3 * sizeof(float))

int rtm_parse(const uint8_t *data, size_t len, const struct rtm_skeleton *skel,
              struct rtm_anim **out, struct rtm_error *err);

/* Whether a file of this name (len bytes) is read as an animation: .rtm
 * (plain or BMTR), .bvh (motion capture, mocap.h), .gltf, .glb or .fbx,
 * in any case: a
 * format's row's extension (format_table.h).  The one rule the mount,
 * the index's walks and rtmcat name animations by. */
int rtm_is_anim_name(const char *name, size_t len);

/* With RTM_PARSE_NO_MATRICES the file is read and checked exactly as by
 * rtm_parse() (same result, same errors) but matrices are not computed
 * (BMTR) or kept (plain), nor the source: the anim then renders the
 * views that need none (rtm_view_needs_matrices()).  Cheap for listings
 * and bones.txt. */
enum { RTM_PARSE_NO_MATRICES = 1 };
int rtm_parse_flags(const uint8_t *data, size_t len, const struct rtm_skeleton *skel,
                    unsigned flags, struct rtm_anim **out, struct rtm_error *err);

/* Asked by a reader, once its counts are checked and before it allocates
 * the anim, for the bytes this parse will hold (the source it reads from
 * excepted); full is what a parse with matrices would hold, which a light
 * parse (RTM_PARSE_NO_MATRICES) only reports.  0 to go on, or -1 with err
 * filled, which the parse then fails with.  This is how a caller keeps a
 * file from taking more memory than it may (rtmfs: cache_size). */
typedef int (*rtm_reserve_fn)(void *ctx, uint64_t bytes, uint64_t full, struct rtm_error *err);

struct rtm_parse_opts {
    const struct rtm_skeleton *skel;
    /* When set, the skeleton is the one choose gives for the animation's
     * bones once they are read (NULL from it: skel), as a model.cfg's
     * classes are chosen by the bones they hold.  It may be asked more
     * than once in a parse and must then give the same skeleton, which
     * must live until the parse returns. */
    const struct rtm_skeleton *(*choose)(void *ctx, const struct rtm_str *bones, uint32_t n);
    void *choose_ctx;
    unsigned flags;               /* RTM_PARSE_NO_MATRICES */
    rtm_reserve_fn reserve;       /* NULL: no limit */
    void *reserve_ctx;
    /* The source was malloc'd by the caller, who hands it over: an anim
     * parsed with matrices keeps it as its source instead of a copy
     * (then a->source == data and the caller must not free it). */
    int give_source;
    /* How a BVH source is read (mocap_retarget.h: unit, frame rate, map
     * file); NULL: as zeroed.  glTF, GLB and FBX sources take it too. */
    const struct rtm_mocap_opts *mocap;
    /* Which clip of a source that holds several (glTF's animations[],
     * from 0, in file order) the parse reads.  0: the
     * first.  Past the last: the parse fails naming the count. */
    uint32_t clip;
    /* A file a source names beside itself (a .gltf's buffers by their
     * uri, percent-decoded, never absolute nor with a ".." part): the
     * callee mallocs *data (len bytes), which the parse frees, and
     * returns 0; or -1 with err saying why (a missing file, named).
     * NULL: a source that names one fails, naming it.  The core never
     * opens a file itself. */
    int (*read_beside)(void *ctx, const char *name, uint8_t **data, size_t *len,
                       struct rtm_error *err);
    void *beside_ctx;
    /* Turns a source of a format the core does not read itself (format:
     * "fbx") into GLB: the callee mallocs *glb (*glb_len bytes), which
     * the parse reads as a GLB source and frees, and returns 0; or -1
     * with err.  NULL: an FBX parse fails saying the converter is
     * needed.  It may be called from any thread the parse runs on. */
    int (*convert)(void *ctx, const char *format, const uint8_t *data, size_t len,
                   uint8_t **glb, size_t *glb_len, struct rtm_error *err);
    void *convert_ctx;
};
int rtm_parse_opts(const uint8_t *data, size_t len, const struct rtm_parse_opts *o,
                   struct rtm_anim **out, struct rtm_error *err);
/* The skeleton a parse with o reads the animation of these bones with. */
const struct rtm_skeleton *rtm_parse_skeleton(const struct rtm_parse_opts *o,
                                              const struct rtm_str *bones, uint32_t n);
/* A head parse: the names and counts of a file of file_size bytes from its
 * first len bytes (head), for a listing that reads no more of the file
 * than they need.  Returns 0 with *out: an anim that holds what a shape
 * (shape.h) holds (format, version, counts, names, properties, the
 * skeleton's links and pivots, tracks; phases 0, no matrices, source_bytes
 * file_size), to be used as one; or RTM_PARSE_NEED_MORE when the head
 * goes on past len, with *need the bytes to give next (> len, <=
 * file_size); or -1 with err.  What it checks is what precedes the
 * frames: a plain file's MDAT block, header and names, and its frame and
 * bone counts against file_size; a BMTR file's header, names, metadata
 * and properties.  Damage after that (a plain file's frames, BMTR's
 * arrays, LZO or not, cut or not) only a full parse finds.  Given the
 * whole file (len == file_size) it fails as rtm_parse_opts() does on
 * damage in the head.  o->flags and o->give_source are not looked at. */
enum { RTM_PARSE_NEED_MORE = 1 };
int rtm_parse_head(const uint8_t *head, size_t len, uint64_t file_size,
                   const struct rtm_parse_opts *o, struct rtm_anim **out, uint64_t *need,
                   struct rtm_error *err);
void rtm_free(struct rtm_anim *a);

/* Memory a parsed anim holds, close enough for a budget: its arrays with
 * the heap's cost of each, its track names, its source if it keeps one.
 * 0 for NULL. */
size_t rtm_anim_mem_bytes(const struct rtm_anim *a);

/* Matrix of bone b in frame f: 12 floats, rows 0-2 rotation, row 3 translation. */
static inline const float *rtm_matrix(const struct rtm_anim *a, uint32_t f, uint32_t b)
{
    return a->matrices + ((size_t)f * a->nbones + b) * 12;
}

/* Writes the animation as a plain RTM the way the reference converter does
 * (rtm(5), Writing plain files): MDAT only when there are properties,
 * properties and frames stably sorted by phase, names NUL-padded to 32
 * bytes (longer ones cut to 32), MDAT strings cut to 255 bytes.  Returns -1 only when out of memory. */
int rtm_write_plain(const struct rtm_anim *a, struct rtm_buf *out);
/* The same, handed to flush a piece at a time: whenever out holds chunk
 * bytes or more (after a frame) and at the end.  flush takes out's bytes
 * (leaving out->len 0) and returns 0, or -1 to stop: then -1 here, as when
 * out of memory.  Memory: about chunk bytes and a frame, not the file. */
typedef int (*rtm_plain_flush_fn)(void *ctx, struct rtm_buf *out);
int rtm_write_plain_each(const struct rtm_anim *a, struct rtm_buf *out, size_t chunk,
                         rtm_plain_flush_fn flush, void *ctx);
/* The same for an anim whose matrices make gives, a frame at a time (it
 * may hold none: a light parse): make(make_ctx, f, m, stride) writes
 * frame f's, bone b's 12 floats at m + b * stride bytes, unaligned; it is
 * called once for each frame written, in the order written. */
typedef void (*rtm_plain_frame_fn)(void *ctx, uint32_t f, uint8_t *m, size_t stride);
int rtm_write_plain_made(const struct rtm_anim *a, rtm_plain_frame_fn make, void *make_ctx,
                         struct rtm_buf *out, size_t chunk, rtm_plain_flush_fn flush, void *ctx);
/* A plain RTM of only the bones bone[0, n) of a (indices, each once),
 * bone[i] named name[i], for fixed.rtm (views.h).  A plain anim with its
 * source is rewritten from its own bytes: the MDAT block, header, frames
 * in file order, each kept bone's name field (when its name is unchanged)
 * and matrices, and the trailing bytes as they are, so that picking every
 * bone under its own name gives plain.rtm; any other is written as
 * rtm_write_plain() writes it.  -1 only when out of memory. */
int rtm_write_plain_bones(const struct rtm_anim *a, const uint32_t *bone,
                          const struct rtm_str *name, uint32_t n, struct rtm_buf *out);
/* The frames in phase order, as the writers and the views take them
 * (stable: equal phases keep file order; NaN last): a new array of
 * nframes (at least 1) the caller frees, NULL when out of memory. */
uint32_t *rtm_phase_order(const struct rtm_anim *a);
/* The properties in phase order, the same way (nprops, at least 1). */
uint32_t *rtm_prop_order(const struct rtm_anim *a);

/* Internal allocation helper shared by the readers: allocates the anim's
 * arrays after the counts have been checked against the source size, the
 * matrices only at RTM_DEPTH_FULL, and records depth: the caller promises
 * to fill what that depth holds (struct rtm_anim). */
struct rtm_anim *rtm_anim_alloc(enum rtm_format fmt, uint32_t nframes,
                                uint32_t nbones, uint32_t nprops,
                                size_t string_bytes, enum rtm_depth depth);
/* Copies len bytes into the anim's string arena. */
struct rtm_str rtm_anim_str(struct rtm_anim *a, const void *s, uint32_t len);
/* Says that a is clip `clip` of n (>= 1) whose names are names[0, n) (an
 * empty name stands as "clipI", I counted from 1): -1 when out of memory,
 * or when clip >= n. */
int rtm_anim_set_clips(struct rtm_anim *a, uint32_t clip, uint32_t n,
                       const struct rtm_str *names);

#endif
