/* tree_dirlist.c - a folder's listing (struct rtm_dirlist): its names,
 * the numbers it holds, its references, and the last listings kept for
 * enumerations in progress.  Tier 1 of the tree (tree_int.h): it knows
 * nothing of what a folder shows. */
#include "tree_target.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"

/* A listing: its public part (tree.h) first, then what only this file
 * touches. */
struct tree_listing {
    struct rtm_dirlist pub;
    size_t cap;
    int refs;
    int unsure;                   /* an entry could not be told (a read of
                                     SOURCE failed) and is left out: the kernel
                                     is told not to keep this listing */
    struct tree_names *names;     /* where the names live */
};

static struct tree_listing *inside(struct rtm_dirlist *d)
{
    return (struct tree_listing *)d;    /* pub is the first member */
}

struct rtm_dirlist *tree_listing_new(void)
{
    struct tree_listing *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->refs = 1;
    return &l->pub;
}

void tree_listing_set_unsure(struct rtm_dirlist *d)
{
    inside(d)->unsure = 1;
}

int tree_listing_unsure(struct rtm_dirlist *d)
{
    return inside(d)->unsure;
}

/* A listing's names, packed in blocks that never move: one allocation for
 * many names (a folder of views lists thousands, built again for every
 * enumeration). */
struct tree_names {
    struct tree_names *next;
    size_t used, cap;
    char s[];
};

enum { NAMES_BLOCK = 4000 };

static char *dl_name(struct rtm_dirlist *d, const char *name)
{
    size_t n = strlen(name) + 1;
    struct tree_names *b = inside(d)->names;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > NAMES_BLOCK ? n : NAMES_BLOCK;
        if (!(b = malloc(sizeof *b + cap)))
            return NULL;
        *b = (struct tree_names){ .next = inside(d)->names, .cap = cap };
        inside(d)->names = b;
    }
    char *p = memcpy(b->s + b->used, name, n);
    b->used += n;
    return p;
}

static void dl_free(struct rtm_tree *t, struct rtm_dirlist *d)
{
    for (size_t i = 0; i < d->n; i++)
        if (d->e[i].ino != RTM_INO_ROOT && !rtm_ino_member(d->e[i].ino))
            rtm_inodes_release(t->nodes, d->e[i].ino);   /* members are not held */
    for (struct tree_names *b = inside(d)->names, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(d->e);
    free(inside(d));
}

void tree_listings_free(struct rtm_tree *t)
{
    for (size_t i = 0; i < NLISTINGS; i++)
        if (t->listing[i].d)
            dl_free(t, t->listing[i].d);
}

/* Appends name with number ino, which the listing owns from now on (a hold
 * it releases, unless ino is the root's or a member's). */
int tree_list_put(struct rtm_tree *t, struct rtm_dirlist *d, const char *name, mode_t type,
                  uint64_t ino)
{
    char *copy = NULL;
    void *e = d->e;
    if (!rtm_array_grow(&e, &inside(d)->cap, d->n + 1, sizeof *d->e, 64))
        d->e = e;
    if (d->n < inside(d)->cap)
        copy = dl_name(d, name);
    if (!copy) {
        if (ino != RTM_INO_ROOT && !rtm_ino_member(ino))
            rtm_inodes_release(t->nodes, ino);
        return -ENOMEM;
    }
    d->e[d->n++] = (struct rtm_dirent){ .name = copy, .ino = ino, .type = type };
    return 0;
}

/* Appends name, an entry of folder dir of version id, holding its number:
 * a family's head (inodes.h) keeping head when it is not NULL. */
int tree_list_add(struct rtm_tree *t, struct rtm_dirlist *d, const char *dir,
                  const char *name, mode_t type, const struct rtm_fileid *id,
                  const struct tree_head *head)
{
    char path[PATH_MAX];
    if (rtm_path_join(path, PATH_MAX, dir, name))
        return -ENAMETOOLONG;
    uint64_t ino = head ? rtm_inodes_hold_head(t->nodes, path, id, head)
                        : rtm_inodes_hold(t->nodes, path, id);
    return ino ? tree_list_put(t, d, name, type, ino) : -ENOMEM;
}

void rtm_tree_listing_put(struct rtm_tree *t, struct rtm_dirlist *d)
{
    if (!d)
        return;
    pthread_mutex_lock(&t->llock);
    int last = --inside(d)->refs == 0;
    pthread_mutex_unlock(&t->llock);
    if (last) {
        dl_free(t, d);
        tree_account(t);
    }
}

void tree_listing_ref(struct rtm_tree *t, struct rtm_dirlist *d)
{
    pthread_mutex_lock(&t->llock);
    inside(d)->refs++;
    pthread_mutex_unlock(&t->llock);
}

/* The kept listing of ino (a reference for the caller), or NULL. */
struct rtm_dirlist *tree_listing_find(struct rtm_tree *t, uint64_t ino)
{
    struct rtm_dirlist *d = NULL;
    pthread_mutex_lock(&t->llock);
    for (size_t i = 0; i < NLISTINGS; i++)
        if (t->listing[i].d && t->listing[i].ino == ino) {
            d = t->listing[i].d;
            inside(d)->refs++;
        }
    pthread_mutex_unlock(&t->llock);
    return d;
}

/* Keeps d (which holds one reference for the caller) as ino's listing. */
void tree_listing_keep(struct rtm_tree *t, uint64_t ino, struct rtm_dirlist *d)
{
    size_t slot = NLISTINGS;
    pthread_mutex_lock(&t->llock);
    for (size_t i = 0; i < NLISTINGS; i++)
        if (t->listing[i].d && t->listing[i].ino == ino)
            slot = i;
    if (slot == NLISTINGS)
        slot = t->lnext++ % NLISTINGS;
    struct rtm_dirlist *old = t->listing[slot].d;
    t->listing[slot].ino = ino;
    t->listing[slot].d = d;
    inside(d)->refs++;
    pthread_mutex_unlock(&t->llock);
    rtm_tree_listing_put(t, old);
}

