/* cfg_testutil.c - what cfg_testutil.h declares, compiled once into librtmtest.a. */
#include "cfg_testutil.h"


struct cfg *text_ok(const char *s)
{
    struct cfg *c = NULL;
    struct rtm_error err = { .msg = "" };
    if (cfg_parse_text(s, strlen(s), "test.cpp", NULL, &c, &err))
        fail_msg("parse failed: %s", err.msg);
    return c;
}

/* The error message of text that must not parse. */
const char *text_err(const char *s, struct rtm_error *err)
{
    struct cfg *c = (struct cfg *)1;
    memset(err, 0, sizeof *err);
    assert_int_equal(cfg_parse_text(s, strlen(s), "bad.cpp", NULL, &c, err), -1);
    assert_null(c);
    assert_true(err->msg[0] != 0);
    assert_null(strchr(err->msg, '\n'));
    return err->msg;
}

/* Reads bytes (a private heap copy of exactly len, so ASan sees an
 * over-read) as rapified: 0 or -1; *out as rap_read() leaves it. */
int rap_try(const void *data, size_t len, struct cfg **out, struct rtm_error *err)
{
    uint8_t *copy = malloc(len ? len : 1);
    assert_non_null(copy);
    memcpy(copy, data, len);
    size_t bytes = 0;
    int m = rap_measure(copy, len, &bytes, err);
    int rc = rap_read(copy, len, out, err);
    assert_int_equal(m, rc);
    if (rc == 0)
        assert_true((*out)->mem_bytes <= bytes + 65536);
    else
        assert_true(err->msg[0] && !strchr(err->msg, '\n'));
    free(copy);
    return rc;
}

struct cfg *rap_ok(const void *data, size_t len)
{
    struct cfg *c = NULL;
    struct rtm_error err = { .msg = "" };
    if (rap_try(data, len, &c, &err))
        fail_msg("rap_read: %s (at byte %llu)", err.msg, (unsigned long long)err.offset);
    return c;
}

char *text_of(const struct cfg *c, size_t *len)
{
    struct rtm_buf b;
    rtm_buf_init(&b);
    cfg_print_text(c, &b);
    assert_false(b.oom);
    assert_int_equal(cfg_text_size(c), b.len);
    rtm_buf_putc(&b, 0);
    if (len)
        *len = b.len - 1;
    return rtm_buf_take(&b, NULL);
}

/* Asserts c == text(c) read back, and c == rapify(c) read back; checks
 * the text has no trailing spaces. */
void cfg_round_trip(const struct cfg *c)
{
    size_t n;
    char *t = text_of(c, &n), why[512] = "";
    assert_null(strstr(t, " \n"));
    assert_null(strstr(t, "\t\n"));
    struct cfg *back = NULL;
    struct rtm_error err = { .msg = "" };
    if (cfg_parse_text(t, n, "written.cpp", NULL, &back, &err))
        fail_msg("text does not read back: %s\n%s", err.msg, t);
    if (!cfg_equal(c, back, why, sizeof why))
        fail_msg("text reads back as another model: %s", why);
    cfg_free(back);
    struct rtm_buf b;
    rtm_buf_init(&b);
    assert_int_equal(rap_write(c, &b), 0);
    back = rap_ok(b.p, b.len);
    if (!cfg_equal(c, back, why, sizeof why))
        fail_msg("rapified reads back as another model: %s", why);
    cfg_free(back);
    rtm_buf_free(&b);
    free(t);
}

/* Whether JSON string j (UTF-8 of Latin-1 code points) is bytes s. */
static int latin1_eq(const struct jm_value *j, struct cfg_str s)
{
    if (!j || j->type != JM_STR)
        return 0;
    size_t k = 0;
    for (uint32_t i = 0; i < s.len; i++) {
        unsigned char ch = (unsigned char)s.p[i];
        if (ch < 0x80) {
            if (k >= j->len || (unsigned char)j->text[k++] != ch)
                return 0;
        } else {
            if (k + 1 >= j->len || (unsigned char)j->text[k] != (0xC0 | ch >> 6) ||
                (unsigned char)j->text[k + 1] != (0x80 | (ch & 0x3F)))
                return 0;
            k += 2;
        }
    }
    return k == j->len;
}

static int jnum_eq(const struct jm_value *j, int64_t v)
{
    return j && j->type == JM_NUM && strtoll(j->text, NULL, 10) == v;
}

static int json_value_eq(const struct cfg *c, const struct cfg_value *v,
                         const struct jm_value *kind, const struct jm_value *val)
{
    if (!kind || kind->type != JM_STR)
        return 0;
    if (v->type == CFG_T_STRING)
        return !strcmp(kind->text, "string") && latin1_eq(val, v->u.s);
    if (v->type == CFG_T_INT || v->type == CFG_T_INT64)
        return !strcmp(kind->text, "int") && jnum_eq(val, v->u.i);
    if (v->type == CFG_T_FLOAT) {
        uint32_t bits;
        memcpy(&bits, &v->u.f, 4);
        return !strcmp(kind->text, "float") && jnum_eq(val, bits);
    }
    if (v->type != CFG_T_ARRAY || strcmp(kind->text, "array") || !val ||
        val->type != JM_ARR || val->n != v->n)
        return 0;
    for (uint32_t i = 0; i < v->n; i++) {
        const struct jm_value *el = val->items[i];
        if (el->type != JM_ARR || el->n != 2 ||
            !json_value_eq(c, &c->v[v->u.first + i], el->items[0], el->items[1]))
            return 0;
    }
    return 1;
}

/* Whether entry i is the JSON node j; *why names the first difference. */
int json_entry_eq(const struct cfg *c, uint32_t i, const struct jm_value *j,
                  char *why, size_t n)
{
    const struct cfg_entry *e = &c->e[i];
    static const char *kinds[] = { "class", "extern", "delete", "value", "array" };
    if (!j || j->type != JM_ARR || j->n < 2 || j->items[0]->type != JM_STR ||
        strcmp(j->items[0]->text, kinds[e->kind]) || !latin1_eq(j->items[1], e->name)) {
        snprintf(why, n, "entry %s: kind or name differs", e->name.p);
        return 0;
    }
    int ok = 1;
    if (e->kind == CFG_CLASS) {
        const struct jm_value *par = j->items[2], *mem = j->items[3];
        ok = j->n == 4 && (e->has_parent ? latin1_eq(par, e->parent) : par->type == JM_NULL) &&
             mem->type == JM_ARR && mem->n == e->n;
        for (uint32_t k = 0; ok && k < e->n; k++)
            if (!json_entry_eq(c, e->first + k, mem->items[k], why, n))
                return 0;
    } else if (e->kind == CFG_VALUE) {
        ok = j->n == 4 && json_value_eq(c, &e->v, j->items[2], j->items[3]);
    } else if (e->kind == CFG_ARRAY) {
        const struct jm_value *app = j->items[2];
        ok = j->n == 4 && app->type == JM_BOOL && app->boolean == e->append;
        struct jm_value kind = { .type = JM_STR, .text = (char *)"array", .len = 5 };
        ok = ok && json_value_eq(c, &e->v, &kind, j->items[3]);
    }
    if (!ok)
        snprintf(why, n, "entry %s differs", e->name.p);
    return ok;
}

/* The shared configs (sorted names) into names; their count, or -1
 * without ../shared/configs. */
int shared_configs(char dir[4096], char ***names)
{
    const char *sh = getenv("RTMFS_SHARED");
    snprintf(dir, 4096, "%s/configs", sh ? sh : "../shared");
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    *names = calloc(256, sizeof **names);
    for (struct dirent *de; (de = readdir(d)) && n < 256;) {
        size_t l = strlen(de->d_name);
        if ((l > 4 && !strcmp(de->d_name + l - 4, ".bin")) ||
            (l > 6 && !strcmp(de->d_name + l - 6, ".rvmat")))
            (*names)[n++] = strdup(de->d_name);
    }
    closedir(d);
    qsort(*names, (size_t)n, sizeof **names, corpus_cmp);
    return n;
}

void free_names(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

struct cfg_pp_opts project_opts(const char *path, struct gamepath_project **pr)
{
    *pr = NULL;
    assert_int_equal(gamepath_project_open(path, pr), 0);
    return (struct cfg_pp_opts){ .resolve = gamepath_project_resolve, .arg = *pr,
                                 .include_dir = gamepath_project_include(*pr) };
}

struct cfg *load_file_ok(const char *path, const struct cfg_pp_opts *o)
{
    struct cfg *c = NULL;
    struct rtm_error err = { .msg = "" };
    if (cfg_load_file(path, o, &c, &err))
        fail_msg("%s: %s", path, err.msg);
    return c;
}
