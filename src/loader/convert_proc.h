/* convert_proc.h - a source format read by a converter program: the bytes
 * of a file go to its stdin, glTF 2.0 binary (GLB) comes back on its
 * stdout.  FBX is read so, by rtmfs-fbx (src/fbx/): the library that
 * reads FBX (assimp) may crash, hang or leak on hostile input, and the
 * mount must never die (rtmfs(1), DIAGNOSTICS).
 *
 * rtm_convert_proc() is the parse options' convert hook (rtm.h: convert,
 * convert_ctx; ctx is a struct rtm_convert_opts or NULL for the
 * defaults).  For format "fbx" it
 *  - finds rtmfs-fbx: $RTMFS_FBX when set and not empty (the tests plant
 *    converters that crash or hang so), else beside the running program
 *    (/proc/self/exe's folder: the build tree), else in that folder's
 *    ../lib/rtmfs/ (where make install and the Debian package put it:
 *    $(PREFIX)/lib/rtmfs/rtmfs-fbx beside $(PREFIX)/bin);
 *  - starts it with posix_spawn (no fork: the mount is multithreaded) in
 *    a process group of its own, its stdin a socket and its stdout and
 *    stderr pipes, all close-on-exec in this process, every other
 *    descriptor closed in the child, the signals the caller ignores or
 *    blocks back to their defaults;
 *  - feeds stdin while it drains stdout and stderr (poll: neither side
 *    waits on the other), for at most timeout_ms of wall-clock time, then
 *    kills the group (SIGKILL);
 *  - takes at most RTM_CONVERT_CAP(len) bytes of output: 64 times the
 *    input and 16 MiB (the GLB holds each animation key once as float32,
 *    where the FBX holds it as an 8-byte time and a value a curve; the
 *    Blender exports measure about 2 times; compressed FBX arrays are
 *    what the rest of the margin is for); more kills the group;
 *  - always waits for the child: no zombie is left, whatever happened.
 *
 * Returns 0 with *glb (malloc'd, the caller's to free) of *glb_len bytes,
 * or -1 with err: a message the caller prefixes with the file's name:
 * "rtmfs-fbx: <its own line>" when it exits 1 (the file is bad),
 * "rtmfs-fbx died of signal 11 (SEGV)", "rtmfs-fbx took longer than 30 s",
 * "rtmfs-fbx wrote more than N bytes ...", "rtmfs-fbx not found ...".
 * Those are format errors (code 0: error.txt shows them); code is an
 * errno only when this process ran short (ENOMEM, EMFILE, EAGAIN).
 *
 * Threads: any number at once; no global state (the environment is read
 * only).  Fork: a fork of the caller while a conversion runs shares the
 * descriptors, which are close-on-exec.
 */
#ifndef RTM_CONVERT_PROC_H
#define RTM_CONVERT_PROC_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

#define RTM_CONVERT_TIMEOUT_MS 30000u
#define RTM_CONVERT_CAP(len) ((uint64_t)(len) * 64 + ((uint64_t)16 << 20))

struct rtm_convert_opts {
    unsigned timeout_ms;        /* 0: RTM_CONVERT_TIMEOUT_MS */
};

int rtm_convert_proc(void *ctx, const char *format, const uint8_t *data, size_t len, uint8_t **glb,
                     size_t *glb_len, struct rtm_error *err);

#endif
