/* json_mini.h - a small JSON (RFC 8259) reader for the tests: objects,
 * arrays, strings (with \uXXXX, written out as UTF-8), numbers, null, true,
 * false.  Defined in tests/unit/lib/json_mini.c.
 *
 *   struct jm_value *v = jm_parse(text, len, errbuf, errlen);  NULL on error
 *   jm_get(obj, "key")   member or NULL;  jm_free(v)  releases the tree
 *
 * A number keeps its source text too, so a test can convert it exactly
 * (strtod, then a cast to float for float32 values).
 */
#ifndef RTM_TEST_JSON_MINI_H
#define RTM_TEST_JSON_MINI_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum jm_type { JM_NULL, JM_BOOL, JM_NUM, JM_STR, JM_ARR, JM_OBJ };

struct jm_value {
    enum jm_type type;
    int boolean;
    double num;
    char *text;               /* JM_STR: the decoded bytes; JM_NUM: the source text */
    size_t len;               /* of text */
    size_t n;                 /* JM_ARR, JM_OBJ: element count */
    struct jm_value **items;  /* n elements */
    char **keys;              /* JM_OBJ: n keys */
};

struct jm_parser {
    const char *p, *end;
    char *err;
    size_t errlen;
    int depth;
};

enum { JM_MAX_DEPTH = 64 };

void jm_free(struct jm_value *v);

struct jm_value *jm_parse(const char *text, size_t len, char *err, size_t errlen);

const struct jm_value *jm_get(const struct jm_value *obj, const char *key);

#endif
