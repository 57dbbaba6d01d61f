/* fuzz_config - libFuzzer target: the config readers.
 *
 * The input is read three ways: as a rapified file (rap_measure and
 * rap_read must agree, the model's text must read back as the same
 * model); as text preprocessed without files on disk, then parsed; and as
 * text without preprocessing, whose model also goes round its text and
 * then through a table of states (states.h): its lines, the root
 * check.txt (states_check.h, every file given a few bones) and the
 * check's bytes packed and read back to the same text.  The
 * preprocessor runs twice, on the input alone and after a prelude of
 * nested macros, so that #if and #elif expressions in the input meet
 * macros to expand; the input's first line is also evaluated as an #if
 * expression by itself (cfg_expr.h).  Work per input is bounded: at most
 * 64 KiB of input is preprocessed, and the output (and with it all
 * expansion, cfg_macro.h) stops at 256 KiB.  Every failure must say why in
 * one line. */
#include <stdint.h>
#include <stdlib.h>

#include "cfg_expr.h"
#include "cfg_pp.h"
#include "config.h"
#include "states_check.h"

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
    rtm_buf_init(&b);
    cfg_print_text(c, &b);
    if (b.oom || cfg_text_size(c) != b.len)
        abort();
    if (cfg_parse_text(b.p ? b.p : "", b.len, "text", NULL, &back, &err) ||
        !cfg_equal(c, back, NULL, 0))
        abort();
    cfg_free(back);
    rtm_buf_free(&b);
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

enum { PP_INPUT_MAX = 64 << 10, PP_OUTPUT_MAX = 256 << 10 };

/* Preprocessed, then parsed: both fail with one line, or not at all. */
static void preprocessed(const char *text, size_t size)
{
    struct rtm_error err = { .msg = "" };
    struct cfg_pp_result r;
    /* room for the input's own text twice over and 64 KiB of expansion,
     * within the bound per input: a macro that multiplies meets the bound
     * without writing much first (which took most of this target's time) */
    size_t room = (1 << 16) + 2 * size;
    struct cfg_pp_opts o = { .max_output = room < PP_OUTPUT_MAX ? room : PP_OUTPUT_MAX };
    struct cfg *c = NULL;
    if (cfg_pp_text(text, size, "fuzz.cpp", NULL, &o, &r, &err) == 0) {
        if (r.text.len > PP_OUTPUT_MAX)
            abort();
        if (cfg_parse_text(r.text.p ? r.text.p : "", r.text.len, "fuzz.cpp", &r.map, &c, &err))
            check_err(&err);
        cfg_free(c);
        cfg_pp_free(&r);
    } else {
        check_err(&err);
    }
}

/* Macros that call each other, for the input's #if lines and text. */
static const char prelude[] =
    "#define A 1\n#define B(x) (x + A)\n#define C(x, y) B(x) * y\n#define D(x) C(x, x)\n"
    "#define L [1,2]\n#define Q(x) #x\n#define P(a,b) a##b\n#define E D(D(D(A)))\n";

static const struct rtm_str BONES[] = { { "pelvis", 6 }, { "spine", 5 }, { "jaw", 3 } };

static int bones_of(void *ctx, const char *key, rtm_states_bones_visit *visit, void *vctx)
{
    (void)ctx;
    if (key[0] == 'x')
        return -1;                      /* a file not there */
    visit(vctx, BONES, 3);
    return 0;
}

static void check_text(const struct rtm_states *s, struct rtm_buf *b)
{
    rtm_buf_init(b);
    rtm_states_check_render(s, bones_of, NULL, b);
    if (b->oom)
        abort();
}

/* Model c (owned from here) as a table of states: the check's text, and
 * the same from its packed bytes (and never read past cut ones). */
static void as_states(struct cfg *c)
{
    struct rtm_states *s = rtm_states_new(), *back = rtm_states_new();
    struct rtm_buf b, again, packed;
    if (!s || !back || rtm_states_add(s, c, "fuzz.cpp") || rtm_states_finish(s))
        abort();
    check_text(s, &b);
    rtm_buf_init(&packed);
    if (rtm_states_check_pack(s, &packed) || rtm_states_add(back, NULL, "fuzz.cpp") ||
        rtm_states_check_unpack(back, (const uint8_t *)packed.p, packed.len) ||
        rtm_states_finish(back))
        abort();
    check_text(back, &again);
    if (b.len != again.len || (b.len && memcmp(b.p, again.p, b.len)))
        abort();
    struct rtm_states *cut = rtm_states_new();
    if (!cut || rtm_states_add(cut, NULL, "fuzz.cpp") ||
        (packed.len && !rtm_states_check_unpack(cut, (const uint8_t *)packed.p, packed.len - 1)))
        abort();
    rtm_states_free(cut);
    rtm_buf_free(&b);
    rtm_buf_free(&again);
    rtm_buf_free(&packed);
    rtm_states_free(back);
    rtm_states_free(s);
}

static void as_text(const uint8_t *data, size_t size)
{
    struct rtm_error err = { .msg = "" };
    struct cfg *c = NULL;
    if (size <= PP_INPUT_MAX) {
        preprocessed((const char *)data, size);
        char *both = malloc(sizeof prelude - 1 + size);
        if (!both)
            abort();
        memcpy(both, prelude, sizeof prelude - 1);
        memcpy(both + sizeof prelude - 1, data, size);
        preprocessed(both, sizeof prelude - 1 + size);
        free(both);
        /* the first line as an expression: a value or one short line of why */
        const uint8_t *nl = memchr(data, '\n', size);
        size_t n = nl ? (size_t)(nl - data) : size;
        int64_t v = 0, w = 1;
        char why[160];
        int rc = cfg_expr_eval((const char *)data, n, &v, why, sizeof why);
        if (rc != cfg_expr_eval((const char *)data, n, &w, NULL, 0) || (rc && !why[0]) ||
            (rc == 0 && v != w))
            abort();    /* deterministic, and a failure says why */
    }
    if (cfg_parse_text((const char *)data, size, "fuzz.cpp", NULL, &c, &err)) {
        check_err(&err);
        return;
    }
    if (!has_nul(c) && cfg_text_exact(c))
        round_trip(c);
    as_states(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    as_rapified(data, size);
    as_text(data, size);
    return 0;
}
