/* fuzz_gamepath - libFuzzer target: an archive's prefix read from the
 * first bytes of its header (gamepath_head_prefix), which -o gamepaths
 * lists the game's root by, against the table reader's pbo_prop().
 *
 * The input is a whole archive.  Whenever the table reader takes it, the
 * head reader must give the same first "prefix" property (or none); on
 * every cut of the input it must give that answer or ask for more, never
 * another.  Either way it must not read past the bytes given (ASan). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gamepath.h"
#include "pbo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *v;
    size_t vl;
    uint8_t *copy = malloc(size ? size : 1);   /* exactly size bytes: an over-read shows */
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    int whole = gamepath_head_prefix(copy, size, &v, &vl);
    struct pbo *p;
    struct rtm_error err;
    if (pbo_read_table(copy, size, size, &p, &err) == 0) {
        const char *prop = pbo_prop(p, "prefix");
        if (whole != (prop != NULL) || (prop && (strlen(prop) != vl || memcmp(prop, v, vl))))
            abort();
        pbo_free(p);
    }
    for (size_t cut = 0; cut < size && cut < 4096; cut += 1 + cut / 8) {
        int r = gamepath_head_prefix(copy, cut, &v, &vl);
        if (r != -1 && r != whole)
            abort();
    }
    free(copy);
    return 0;
}
