/* glb.h - the glTF 2.0 binary container (GLB): a 12-byte header ("glTF",
 * version 2, total length), a JSON chunk and an optional BIN chunk, each
 * an 8-byte chunk header (length, type) and its bytes padded to 4.  The
 * one place that knows the layout: anim.glb's writer, the glTF reader and
 * the FBX converter all go through it.
 *
 * Contract:
 *  - rtm_glb_split() finds the chunks of data (len bytes) without copying:
 *    out points into data, which must outlive it.  -1 with err naming the
 *    byte and what is wrong there: a short or foreign header, a version
 *    other than 2, a total length that is not len, a first chunk that is
 *    not JSON, a chunk running past the end or not a multiple of 4 long,
 *    a second chunk that is not BIN.  Chunks of other types after BIN are
 *    skipped, as the specification asks.  A JSON chunk that is empty is
 *    refused; BIN is absent (bin NULL, bin_len 0) when the file ends after
 *    JSON.
 *  - rtm_glb_join() appends the GLB of json (json_len bytes, padded with
 *    spaces) and bin (bin_len bytes, padded with zeros; no BIN chunk when
 *    bin_len is 0) to out; rtm_glb_size() is its length, so a view's size
 *    is known before its bytes.  -1 when out of memory, or when the file
 *    would pass the format's 4 GiB bound.
 *  - No global state; any thread.
 */
#ifndef RTM_GLB_H
#define RTM_GLB_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

struct rtm_glb {
    const uint8_t *json;        /* the JSON chunk's bytes, padding included */
    size_t json_len;
    const uint8_t *bin;         /* the BIN chunk's bytes, or NULL */
    size_t bin_len;
};

enum { RTM_GLB_HEADER = 12, RTM_GLB_CHUNK_HEADER = 8 };

int rtm_glb_split(const uint8_t *data, size_t len, struct rtm_glb *out, struct rtm_error *err);
uint64_t rtm_glb_size(size_t json_len, size_t bin_len);
int rtm_glb_join(const char *json, size_t json_len, const uint8_t *bin, size_t bin_len,
                 struct rtm_buf *out);
/* Does the buffer start as a GLB does ("glTF")?  For the format dispatch. */
int rtm_glb_sniff(const uint8_t *data, size_t len);

#endif
