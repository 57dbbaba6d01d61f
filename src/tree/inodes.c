/* inodes.c - (path, version) <-> inode number (see inodes.h). */
#include "inodes.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct node {
    struct node *inext, *pnext;   /* hash chains by number and by path */
    uint64_t ino, nlookup, holds;  /* a head's nlookup counts its members' too */
    int head;
    unsigned char aux[RTM_INO_AUX];
    struct rtm_fileid id;
    char *path;
};

struct rtm_inodes {
    pthread_mutex_t lock;
    rtm_ino_hash_fn hash;
    struct node **by_ino, **by_path;
    size_t size, count;
    size_t bytes;
    uint64_t miscounts;           /* numbers taken back that were not counted */
};

uint64_t rtm_ino_hash(const char *path, const struct rtm_fileid *id)
{
    return rtm_hash_str(path) ^ rtm_fileid_hash(id);
}

static size_t node_bytes(const struct node *n)
{
    return rtm_heap_bytes(sizeof *n) + rtm_heap_bytes(strlen(n->path) + 1);
}

static size_t arrays_bytes(size_t size) { return 2 * rtm_heap_bytes(size * sizeof(struct node *)); }

struct rtm_inodes *rtm_inodes_new(rtm_ino_hash_fn hash)
{
    struct rtm_inodes *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->hash = hash ? hash : rtm_ino_hash;
    t->size = 1 << 12;
    t->by_ino = calloc(t->size, sizeof *t->by_ino);
    t->by_path = calloc(t->size, sizeof *t->by_path);
    if (!t->by_ino || !t->by_path) {
        free(t->by_ino);
        free(t->by_path);
        free(t);
        return NULL;
    }
    t->bytes = rtm_heap_bytes(sizeof *t) + arrays_bytes(t->size);
    pthread_mutex_init(&t->lock, NULL);
    return t;
}

void rtm_inodes_free(struct rtm_inodes *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->size; i++)
        for (struct node *n = t->by_ino[i], *next; n; n = next) {
            next = n->inext;
            free(n->path);
            free(n);
        }
    free(t->by_ino);
    free(t->by_path);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

static size_t path_slot(const struct rtm_inodes *t, const char *path)
{
    return rtm_hash_str(path) % t->size;
}

/* Mixed, so that numbers apart in any bits spread over the slots. */
static size_t ino_slot(const struct rtm_inodes *t, uint64_t ino)
{
    ino ^= ino >> 33;
    ino *= UINT64_C(0xff51afd7ed558ccd);
    ino ^= ino >> 33;
    return (size_t)(ino % t->size);
}

static struct node *find_ino(const struct rtm_inodes *t, uint64_t ino)
{
    struct node *n = t->by_ino[ino_slot(t, ino)];
    while (n && n->ino != ino)
        n = n->inext;
    return n;
}

static struct node *find_key(const struct rtm_inodes *t, const char *path,
                             const struct rtm_fileid *id)
{
    struct node *n = t->by_path[path_slot(t, path)];
    while (n && (strcmp(n->path, path) || !rtm_fileid_same(&n->id, id)))
        n = n->pnext;
    return n;
}

/* The hash of (path, id), probed past numbers in use and the root's:
 * below RTM_INO_FAMILY for a node, a free family's head for a head (0 when
 * every family is taken, which memory would never allow). */
static uint64_t free_number(const struct rtm_inodes *t, const char *path,
                            const struct rtm_fileid *id, int head)
{
    uint64_t h = t->hash(path, id);
    if (!head) {
        uint64_t ino = h & ~RTM_INO_FAMILY;
        while (ino <= RTM_INO_ROOT || find_ino(t, ino))
            ino = (ino + 1) & ~RTM_INO_FAMILY;
        return ino;
    }
    for (uint64_t tries = RTM_INO_HEADS; tries; tries--, h++) {
        uint64_t ino = RTM_INO_FAMILY | (h & (RTM_INO_HEADS - 1));
        if (!find_ino(t, ino))
            return ino;
    }
    return 0;
}

static void link_node(struct rtm_inodes *t, struct node *n)
{
    size_t i = ino_slot(t, n->ino), p = path_slot(t, n->path);
    n->inext = t->by_ino[i];
    t->by_ino[i] = n;
    n->pnext = t->by_path[p];
    t->by_path[p] = n;
}

/* Doubles both arrays so chains stay short; keeps the old ones on OOM. */
static void grow(struct rtm_inodes *t)
{
    struct node **oi = t->by_ino, **op = t->by_path;
    size_t old = t->size;
    struct node **ni = calloc(old * 2, sizeof *ni), **np = calloc(old * 2, sizeof *np);
    if (!ni || !np) {
        free(ni);
        free(np);
        return;
    }
    t->by_ino = ni;
    t->by_path = np;
    t->size = old * 2;
    t->bytes += arrays_bytes(t->size) - arrays_bytes(old);
    for (size_t i = 0; i < old; i++)
        for (struct node *n = oi[i], *next; n; n = next) {
            next = n->inext;
            link_node(t, n);
        }
    free(oi);
    free(op);
}

static struct node *node_new(struct rtm_inodes *t, const char *path, const struct rtm_fileid *id,
                             const void *aux)
{
    int head = aux != NULL;
    uint64_t ino = free_number(t, path, id, head);
    struct node *n = ino ? calloc(1, sizeof *n) : NULL;
    if (!n || !(n->path = strdup(path))) {
        free(n);
        return NULL;
    }
    n->id = *id;
    n->ino = ino;
    n->head = head;
    if (aux)
        memcpy(n->aux, aux, sizeof n->aux);
    t->bytes += node_bytes(n);
    if (++t->count > t->size)
        grow(t);
    link_node(t, n);
    return n;
}

/* Counts one lookup (or hold) of (path, id); its number, or 0. */
static uint64_t count(struct rtm_inodes *t, const char *path, const struct rtm_fileid *id,
                      int hold, const void *aux)
{
    if (!*path)
        return RTM_INO_ROOT;            /* never counted (inodes.h) */
    pthread_mutex_lock(&t->lock);
    struct node *n = find_key(t, path, id);
    if (!n)
        n = node_new(t, path, id, aux);
    uint64_t ino = 0;
    if (n) {
        *(hold ? &n->holds : &n->nlookup) += 1;
        ino = n->ino;
    }
    pthread_mutex_unlock(&t->lock);
    return ino;
}

uint64_t rtm_inodes_ref(struct rtm_inodes *t, const char *path, const struct rtm_fileid *id)
{
    return count(t, path, id, 0, NULL);
}

uint64_t rtm_inodes_hold(struct rtm_inodes *t, const char *path, const struct rtm_fileid *id)
{
    return count(t, path, id, 1, NULL);
}

uint64_t rtm_inodes_ref_head(struct rtm_inodes *t, const char *path, const struct rtm_fileid *id,
                             const void *aux)
{
    return count(t, path, id, 0, aux);
}

uint64_t rtm_inodes_hold_head(struct rtm_inodes *t, const char *path,
                              const struct rtm_fileid *id, const void *aux)
{
    return count(t, path, id, 1, aux);
}

int rtm_inodes_aux(struct rtm_inodes *t, uint64_t ino, void *aux)
{
    pthread_mutex_lock(&t->lock);
    struct node *n = find_ino(t, rtm_ino_head(ino));
    int rc = n && n->head ? 0 : -ENOENT;
    if (!rc)
        memcpy(aux, n->aux, sizeof n->aux);
    pthread_mutex_unlock(&t->lock);
    return rc;
}

uint64_t rtm_inodes_ref_member(struct rtm_inodes *t, uint64_t head, uint64_t k)
{
    pthread_mutex_lock(&t->lock);
    struct node *n = k < RTM_INO_MEMBERS ? find_ino(t, head) : NULL;
    int ok = n && n->head;
    if (ok)
        n->nlookup++;
    pthread_mutex_unlock(&t->lock);
    return ok ? rtm_ino_in_family(head, k) : 0;
}

static void unlink_node(struct rtm_inodes *t, struct node *n)
{
    struct node **pp = &t->by_ino[ino_slot(t, n->ino)];
    while (*pp != n)
        pp = &(*pp)->inext;
    *pp = n->inext;
    pp = &t->by_path[path_slot(t, n->path)];
    while (*pp != n)
        pp = &(*pp)->pnext;
    *pp = n->pnext;
    t->count--;
    t->bytes -= node_bytes(n);
}

/* Takes back n lookups (or holds) of ino; frees it when none are left.
 * The kernel forgets only numbers it was given, as often as it was given
 * them (a lookup whose reply it did not take is taken back by the glue),
 * and holds are the tree's own, so a number unknown or taken back too often
 * is a miscount of rtmfs's.  That must not end the mount (inodes.h): it is
 * counted and the count stops at 0; at worst the number is freed early,
 * and a later request on it finds it unknown (ENOENT) and looks it up
 * again. */
static void uncount(struct rtm_inodes *t, uint64_t ino, uint64_t n, int hold)
{
    if (ino == RTM_INO_ROOT)
        return;
    pthread_mutex_lock(&t->lock);
    struct node *nd = find_ino(t, rtm_ino_head(ino));
    int known = nd && (nd->ino == ino || nd->head) && !(hold && rtm_ino_member(ino));
    uint64_t *c = !known ? NULL : hold ? &nd->holds : &nd->nlookup;
    if (!c || *c < n)
        t->miscounts++;
    if (c) {
        *c -= n < *c ? n : *c;
        if (nd->nlookup == 0 && nd->holds == 0) {
            unlink_node(t, nd);
            free(nd->path);
            free(nd);
        }
    }
    pthread_mutex_unlock(&t->lock);
}

void rtm_inodes_forget(struct rtm_inodes *t, uint64_t ino, uint64_t nlookup)
{
    uncount(t, ino, nlookup, 0);
}

void rtm_inodes_release(struct rtm_inodes *t, uint64_t ino) { uncount(t, ino, 1, 1); }

uint64_t rtm_inodes_find(struct rtm_inodes *t, const char *path, const struct rtm_fileid *id)
{
    if (!*path)
        return RTM_INO_ROOT;
    pthread_mutex_lock(&t->lock);
    struct node *n = find_key(t, path, id);
    uint64_t ino = n ? n->ino : 0;
    pthread_mutex_unlock(&t->lock);
    return ino;
}

int rtm_inodes_path(struct rtm_inodes *t, uint64_t ino, char *buf, size_t size,
                    struct rtm_fileid *id)
{
    *id = RTM_FILEID_NONE;
    if (ino == RTM_INO_ROOT) {
        buf[0] = 0;
        return 0;
    }
    pthread_mutex_lock(&t->lock);
    struct node *n = find_ino(t, rtm_ino_head(ino));
    if (n && n->ino != ino && !n->head)
        n = NULL;                       /* a member of no family */
    int rc = n && strlen(n->path) < size ? 0 : -ENOENT;
    if (!rc) {
        strcpy(buf, n->path);
        *id = n->id;
    }
    pthread_mutex_unlock(&t->lock);
    return rc;
}

int rtm_inodes_each(struct rtm_inodes *t,
                    void (*fn)(void *arg, uint64_t ino, const char *path,
                               const struct rtm_fileid *id),
                    void *arg)
{
    pthread_mutex_lock(&t->lock);
    size_t count = t->count, k = 0;
    struct node *copy = calloc(count ? count : 1, sizeof *copy);
    for (size_t i = 0; copy && i < t->size; i++)
        for (struct node *n = t->by_ino[i]; n; n = n->inext) {
            copy[k] = *n;
            copy[k++].path = strdup(n->path);
        }
    pthread_mutex_unlock(&t->lock);
    if (!copy)
        return -ENOMEM;
    for (size_t i = 0; i < k; i++) {
        if (copy[i].path)
            fn(arg, copy[i].ino, copy[i].path, &copy[i].id);
        free(copy[i].path);
    }
    free(copy);
    return 0;
}

size_t rtm_inodes_bytes(struct rtm_inodes *t)
{
    pthread_mutex_lock(&t->lock);
    size_t b = t->bytes;
    pthread_mutex_unlock(&t->lock);
    return b;
}

size_t rtm_inodes_count(struct rtm_inodes *t)
{
    pthread_mutex_lock(&t->lock);
    size_t c = t->count;
    pthread_mutex_unlock(&t->lock);
    return c;
}

uint64_t rtm_inodes_miscounts(struct rtm_inodes *t)
{
    pthread_mutex_lock(&t->lock);
    uint64_t m = t->miscounts;
    pthread_mutex_unlock(&t->lock);
    return m;
}
