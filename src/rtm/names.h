/* names.h - bone names made safe and unique where names have rules: the
 * file names of tracks/ and the joint names of anim.bvh.
 *
 * Contract:
 *  - rtm_names_make() gives each of n names a form under a rule: bytes the
 *    rule forbids written \xNN (as bones.txt writes them: every byte
 *    outside printable ASCII and the backslash, plus the rule's own), the
 *    empty name written \x00 (its terminating byte: no name holds a NUL);
 *    a form longer than rule->max cut (never inside an escape) and given a
 *    ~N suffix; and in file order, a form equal to an earlier one (with
 *    rule->fold, equal ignoring ASCII case) or to rule->reserved given the
 *    first free ~2, ~3, ...  Forms are then unique, and names that need no
 *    change keep their bytes.  Linear time, whatever the names.
 *  - The result owns all its memory; rtm_names_free() releases it.  NULL
 *    when out of memory.  It is immutable, so threads may share it.
 *  - rtm_names_find() finds a form: exactly, or with rule->fold ignoring
 *    ASCII case (forms are unique that way too).  Constant time expected:
 *    the forms are hashed, the table at most half full.
 */
#ifndef RTM_NAMES_H
#define RTM_NAMES_H

#include <stddef.h>
#include <stdint.h>

struct rtm_str;

struct rtm_name_rule {
    const char *escape;     /* printable bytes escaped as well ("/", " ") */
    int escape_lead_dot;    /* a leading '.' too (hidden files, "." and "..") */
    int fold;               /* unique ignoring ASCII case */
    size_t max;             /* the most bytes a form may have (>= 16) */
    const char *reserved;   /* a form no name may take, or NULL */
};

/* tracks/NAME.csv: file names a case-folding file system (Samba, a copy to
 * vfat) keeps apart; 251 bytes leave room for ".csv" in NAME_MAX. */
extern const struct rtm_name_rule RTM_NAMES_FILE;

struct rtm_names {
    uint32_t n;
    const char **form;      /* n NUL-terminated forms, in the names' order */
    uint32_t *len;          /* their lengths */
    uint32_t *slots;        /* index + 1 of the form hashed there, 0 (free)
                               or UINT32_MAX (taken by no form) */
    size_t mask;            /* slots has mask + 1 entries, a power of 2 */
    int fold;
    char *block;            /* the bytes of every form */
};

/* The most bytes rtm_names_make() can hold for n names of name_bytes bytes
 * in all: for a caller's memory budget. */
uint64_t rtm_names_bytes_max(uint32_t n, uint64_t name_bytes);

struct rtm_names *rtm_names_make(const struct rtm_str *names, uint32_t n,
                                 const struct rtm_name_rule *rule);
void rtm_names_free(struct rtm_names *names);
/* Memory the names hold (NULL: 0), for a cache's budget. */
size_t rtm_names_mem_bytes(const struct rtm_names *names);
/* The index of the form s (len bytes), or -1. */
int64_t rtm_names_find(const struct rtm_names *names, const char *s, size_t len);

#endif
