/* fuzz_config - libFuzzer target: the config readers.
 *
 * The input is read three ways: as a rapified file (rap_measure and
 * rap_read must agree, the model's text must read back as the same
 * model); as text preprocessed without files on disk, then parsed; and as
 * text without preprocessing, whose model also goes round its text.  Every failure must say why in one
 * line. */
#include <stdint.h>
#include <stdlib.h>

#include "cfg_pp.h"
#include "config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_err(const struct rtm_error *err)
{
    if (!err->msg[0] || strchr(err->msg, '\n'))
        abort();
}

/* text(c) reads back as c (the rapify writer is not in the fuzz build,
 * which holds the core only; test_config's property test covers it). */
static void round_trip(const struct cfg *c)
{
    struct rtm_buf b;
    struct rtm_error err = { .msg = "" };
    struct cfg *back = NULL;
    buf_init(&b);
    cfg_print_text(c, &b);
    if (b.oom || cfg_text_size(c) != b.len)
        abort();
    if (cfg_parse_text(b.p ? b.p : "", b.len, "text", NULL, &back, &err) ||
        !cfg_equal(c, back, NULL, 0))
        abort();
    cfg_free(back);
    buf_free(&b);
}

static void as_rapified(const uint8_t *data, size_t size)
{
    struct rtm_error err = { .msg = "" };
    struct cfg *c = NULL;
    size_t bytes = 0;
    int m = rap_measure(data, size, &bytes, &err);
    int rc = rap_read(data, size, &c, &err);
    if (m != rc || (rc && c))
        abort();
    if (rc) {
        check_err(&err);
        return;
    }
    if (c->mem_bytes > bytes + 65536)
        abort();    /* what it said it would take */
    if (cfg_text_exact(c))
        round_trip(c);
    else
        cfg_text_size(c);   /* still written, as it is */
    cfg_free(c);
}

static int has_nul(const struct cfg *c)
{
    for (uint32_t i = 0; i < c->nv; i++)
        if ((c->v[i].type == CFG_T_STRING) && memchr(c->v[i].u.s.p, 0, c->v[i].u.s.len))
            return 1;
    for (uint32_t i = 0; i < c->ne; i++)
        if (c->e[i].v.type == CFG_T_STRING && c->e[i].kind == CFG_VALUE &&
            memchr(c->e[i].v.u.s.p, 0, c->e[i].v.u.s.len))
            return 1;
    return 0;
}

static void as_text(const uint8_t *data, size_t size)
{
    struct rtm_error err = { .msg = "" };
    struct cfg_pp_result r;
    /* room for the input's own text twice over and 64 KiB of expansion:
     * a macro that multiplies meets the bound as at 1 MiB, without
     * writing a megabyte first (which took most of this target's time) */
    struct cfg_pp_opts o = { .max_output = (1 << 16) + 2 * size };
    struct cfg *c = NULL;
    if (cfg_pp_text((const char *)data, size, "fuzz.cpp", NULL, &o, &r, &err) == 0) {
        if (cfg_parse_text(r.text.p ? r.text.p : "", r.text.len, "fuzz.cpp", &r.map, &c, &err))
            check_err(&err);
        cfg_free(c);
        cfg_pp_free(&r);
    } else {
        check_err(&err);
    }
    c = NULL;
    if (cfg_parse_text((const char *)data, size, "fuzz.cpp", NULL, &c, &err)) {
        check_err(&err);
        return;
    }
    if (!has_nul(c) && cfg_text_exact(c))
        round_trip(c);
    cfg_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    as_rapified(data, size);
    as_text(data, size);
    return 0;
}
