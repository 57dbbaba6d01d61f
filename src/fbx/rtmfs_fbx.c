/* rtmfs_fbx.c - rtmfs-fbx: an FBX file on stdin, glTF 2.0 binary (GLB)
 * on stdout (fbx_scene.h says what it holds).  rtmfs and rtmcat run it
 * (src/loader/convert_proc.h) so that assimp, which may crash, hang or
 * leak on hostile input, never runs in the mount's process.
 *
 * Exit status 0 with the GLB written; 1 with one line on stderr saying
 * what is wrong (assimp's own message for a file it refuses); 2 for a
 * wrong command line.  Before reading anything it limits itself: no core
 * file, FBX_CPU_SECONDS of CPU time (then SIGXCPU), FBX_MAX_AS bytes of
 * address space (a runaway allocation fails), and reads at most
 * FBX_MAX_INPUT bytes.
 */
#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/metadata.h>
#include <assimp/scene.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "fbx_axes.h"
#include "fbx_scene.h"
#include "version.h"

#define FBX_MAX_INPUT ((size_t)256 << 20)
#define FBX_MAX_AS ((rlim_t)4 << 30)
#define FBX_CPU_SECONDS 60

/* One line on stderr, newlines of a library's message folded. */
static int die(const char *what)
{
    fputs("rtmfs-fbx: ", stderr);
    for (const char *p = what; *p; p++)
        fputc(*p == '\n' || *p == '\r' ? ' ' : *p, stderr);
    fputc('\n', stderr);
    return 1;
}

static void limit_self(void)
{
    struct rlimit core = { 0, 0 }, cpu = { FBX_CPU_SECONDS, FBX_CPU_SECONDS + 1 };
    setrlimit(RLIMIT_CORE, &core);
    setrlimit(RLIMIT_CPU, &cpu);
#if !defined(__SANITIZE_ADDRESS__)
    /* (AddressSanitizer reserves terabytes of shadow: not under SANITIZE=1) */
    struct rlimit as = { FBX_MAX_AS, FBX_MAX_AS };
    setrlimit(RLIMIT_AS, &as);
#endif
}

/* All of stdin, at most FBX_MAX_INPUT bytes. */
static int read_input(struct rtm_buf *in, char *msg, size_t n)
{
    for (;;) {
        if (rtm_buf_reserve(in, 1 << 16) != 0) {
            snprintf(msg, n, "out of memory reading %zu bytes of input", in->len);
            return -1;
        }
        ssize_t got = read(0, in->p + in->len, in->cap - in->len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            snprintf(msg, n, "reading stdin: %s", strerror(errno));
            return -1;
        }
        if (got == 0)
            break;
        in->len += (size_t)got;
        if (in->len > FBX_MAX_INPUT) {
            snprintf(msg, n, "the input is larger than %zu MiB", FBX_MAX_INPUT >> 20);
            return -1;
        }
    }
    if (in->len == 0) {
        snprintf(msg, n, "the input is empty");
        return -1;
    }
    return 0;
}

/* A number of the scene's metadata, whichever type assimp stored. */
static int meta_number(const struct aiMetadata *md, const char *key, double *out)
{
    for (unsigned i = 0; md && i < md->mNumProperties; i++) {
        if (strcmp(md->mKeys[i].data, key) != 0 || !md->mValues[i].mData)
            continue;
        const void *d = md->mValues[i].mData;
        switch (md->mValues[i].mType) {
        case AI_BOOL: *out = *(const _Bool *)d; return 1;
        case AI_INT32: *out = *(const int32_t *)d; return 1;
        case AI_UINT64: *out = (double)*(const uint64_t *)d; return 1;
        case AI_FLOAT: *out = *(const float *)d; return 1;
        case AI_DOUBLE: *out = *(const double *)d; return 1;
        default: return 0;
        }
    }
    return 0;
}

static void meta_int(const struct aiMetadata *md, const char *key, int *out)
{
    double v;
    if (meta_number(md, key, &v))
        *out = v >= -8 && v <= 8 ? (int)v : 99;     /* out of range: refused later */
}

static void axes_of(const struct aiScene *sc, struct fbx_axes *a)
{
    const struct aiMetadata *md = sc->mMetaData;
    fbx_axes_default(a);
    meta_int(md, "UpAxis", &a->up);
    meta_int(md, "UpAxisSign", &a->up_sign);
    meta_int(md, "FrontAxis", &a->front);
    meta_int(md, "FrontAxisSign", &a->front_sign);
    meta_int(md, "CoordAxis", &a->coord);
    meta_int(md, "CoordAxisSign", &a->coord_sign);
    meta_number(md, "UnitScaleFactor", &a->unit_cm);
}

static const struct aiScene *import(const struct rtm_buf *in)
{
    struct aiPropertyStore *props = aiCreatePropertyStore();
    if (!props)
        return NULL;
    /* pivots baked into the nodes, not kept as helper nodes; nothing read
     * that an animation does not need */
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, 0);
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_FBX_READ_MATERIALS, 0);
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_FBX_READ_TEXTURES, 0);
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_FBX_READ_CAMERAS, 0);
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_FBX_READ_LIGHTS, 0);
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_FBX_READ_ANIMATIONS, 1);
    const struct aiScene *sc = aiImportFileFromMemoryWithProperties(in->p, (unsigned)in->len, 0, "fbx", props);
    aiReleasePropertyStore(props);
    return sc;
}

static int write_all(const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(1, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int main(int argc, char **argv)
{
    char msg[512];
    struct rtm_buf in, out;
    struct rtm_error err = { 0 };
    if (argc > 1) {
        if (!strcmp(argv[1], "--version")) {
            printf("rtmfs-fbx %s\n", RTMFS_VERSION);
            return 0;
        }
        fputs("usage: rtmfs-fbx < FILE.fbx > FILE.glb\n", stderr);
        return 2;
    }
    limit_self();
    rtm_buf_init(&in);
    rtm_buf_init(&out);
    if (read_input(&in, msg, sizeof msg) != 0) {
        rtm_buf_free(&in);
        return die(msg);
    }
    const struct aiScene *sc = import(&in);
    rtm_buf_free(&in);
    if (!sc)
        return die(aiGetErrorString());
    struct fbx_axes axes;
    axes_of(sc, &axes);
    int rc = fbx_scene_to_glb(sc, &axes, &out, &err);
    aiReleaseImport(sc);
    if (rc != 0) {
        rtm_err_format(&err, msg, sizeof msg);
        rtm_buf_free(&out);
        return die(msg);
    }
    if (write_all(out.p, out.len) != 0) {
        snprintf(msg, sizeof msg, "writing stdout: %s", strerror(errno));
        rtm_buf_free(&out);
        return die(msg);
    }
    rtm_buf_free(&out);
    return 0;
}
