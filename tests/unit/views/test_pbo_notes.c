/* test_pbo_notes.c - pbo.txt says what an archive's table hid or changed
 * (pbo_each_note(), rtm_view_pbo_info()): one trick an archive, made by the
 * project's writer, and the line pbo.txt gains; a clean archive gains none. */
#include "testutil.h"
#include "pbo_testutil.h"
#include "views.h"

static const uint8_t data[] = "RTM_0101";

/* pbo.txt of an archive of the named entries (NULL-terminated), with nprops
 * properties and extra junk bytes after the trailer. */
static char *info_of(const char *const *names, size_t nprops, size_t junk)
{
    struct pbo_write_entry e[8];
    size_t n = 0;
    for (; names[n]; n++)
        e[n] = (struct pbo_write_entry){ names[n], data, sizeof data - 1, PBO_PACK_STORE, 0 };
    struct pbo_write_prop props[150];
    char keys[150][8];
    for (size_t i = 0; i < nprops; i++) {
        snprintf(keys[i], sizeof keys[i], "k%zu", i);
        props[i] = (struct pbo_write_prop){ keys[i], "v" };
    }
    struct rtm_buf b, out;
    rtm_buf_init(&b);
    rtm_buf_init(&out);
    assert_int_equal(pbo_write(e, n, props, nprops, 0, &b), 0);
    for (size_t i = 0; i < junk; i++)
        rtm_buf_putc(&b, 'J');
    struct pbo *p = parse_full(&b);
    assert_int_equal(rtm_view_pbo_info(p, NULL, 0, &out), 0);
    rtm_buf_putc(&out, 0);
    pbo_free(p);
    rtm_buf_free(&b);
    return out.p;
}

static void expect(const char *const *names, const char *line)
{
    char *t = info_of(names, 0, 0);
    if (!strstr(t, line))
        fail_msg("pbo.txt lacks '%s':\n%s", line, t);
    free(t);
}

static void clean_has_no_notes(void **state)
{
    (void)state;
    const char *const names[] = { "anims\\walk.rtm", "anims\\run.rtm", "config.bin", NULL };
    char *t = info_of(names, 3, 0);
    assert_null(strstr(t, "entry "));
    assert_null(strstr(t, "data after"));
    assert_null(strstr(t, "many properties"));
    free(t);
}

static void duplicate(void **state)
{
    (void)state;
    const char *const same[] = { "a\\walk.rtm", "a\\walk.rtm", NULL };
    expect(same, "entry 2 at byte ");
    expect(same, "'a\\walk.rtm': duplicate: the same path (ignoring case) as entry 1, "
                 "which keeps it, shown as 'a/walk~2.rtm'\n");
    const char *const cased[] = { "a\\walk.rtm", "A\\WALK.rtm", NULL };
    expect(cased, "'A\\WALK.rtm': duplicate: the same path (ignoring case) as entry 1, "
                  "which keeps it, shown as 'A/WALK~2.rtm'\n");
}

static void renamed(void **state)
{
    (void)state;
    const char *const lead[] = { "\\a\\walk.rtm", NULL };
    expect(lead, "'\\a\\walk.rtm': renamed: a leading '\\' dropped, shown as 'a/walk.rtm'\n");
    const char *const dots[] = { "a\\..\\walk.rtm", NULL };
    expect(dots, "renamed: a '..' part dropped, shown as 'a/walk.rtm'\n");
    const char *const empty[] = { "a\\\\walk.rtm", NULL };
    expect(empty, "renamed: an empty part dropped, shown as 'a/walk.rtm'\n");
}

static void odd_names(void **state)
{
    (void)state;
    const char *const dev[] = { "con\\walk.rtm", "a\\LPT1.rtm", NULL };
    expect(dev, "entry 1 at byte ");
    expect(dev, "'con\\walk.rtm': odd name: a Windows device name\n");
    expect(dev, "'a\\LPT1.rtm': odd name: a Windows device name\n");
    const char *const ctrl[] = { "a\\w\x01.rtm", NULL };
    expect(ctrl, "'a\\w\\x01.rtm': odd name: control bytes\n");
    char longname[300];
    memset(longname, 'x', 290);
    memcpy(longname + 290, ".rtm", 5);
    const char *const lng[] = { longname, NULL };
    expect(lng, "renamed: a name part longer than 255 bytes, shown as 'xxxxxxxxxx");
}

static void skipped_and_collision(void **state)
{
    (void)state;
    const char *const sep[] = { "\\..\\", "a.rtm", NULL };
    expect(sep, "'\\..\\': skipped: its name has no part left");
    const char *const both[] = { "anims", "anims\\walk.rtm", NULL };
    expect(both, "'anims': renamed: a folder has its path (entry 2 lies in it), "
                 "shown as 'anims~1'\n");
}

static void trailer_and_props(void **state)
{
    (void)state;
    const char *const one[] = { "a.rtm", NULL };
    char *t = info_of(one, 0, 7);
    assert_non_null(strstr(t, "data after the trailer: 7 bytes\n"));
    free(t);
    t = info_of(one, 101, 0);
    assert_non_null(strstr(t, "many properties: 101\n"));
    free(t);
    t = info_of(one, 100, 0);
    assert_null(strstr(t, "many properties"));
    free(t);
}

/* A table read without its trailer (pbo.h) says "not read", or what the
 * tail given says: the SHA-1 of a whole archive, or an odd last 21 bytes;
 * a trailer known already wins over the tail. */
static void trailer_from_tail(void **state)
{
    (void)state;
    const struct pbo_write_entry e = { "a.rtm", data, sizeof data - 1, PBO_PACK_STORE, 0 };
    struct rtm_buf b, out;
    struct rtm_error err;
    struct pbo *p;
    rtm_buf_init(&b);
    assert_int_equal(pbo_write(&e, 1, NULL, 0, 0, &b), 0);
    const uint8_t *all = (const uint8_t *)b.p;
    assert_int_equal(pbo_read_table(all, b.len - PBO_TAIL_MAX, b.len, &p, &err), 0);
    assert_int_equal(p->trailer, PBO_TRAILER_UNKNOWN);
    const uint8_t *tail = all + p->data_end;
    uint8_t odd[PBO_TAIL_MAX];
    memcpy(odd, tail, sizeof odd);
    odd[0] = 'J';
    char want[64] = "trailer: sha1 ";
    for (int i = 0; i < 20; i++)
        snprintf(want + 14 + 2 * i, 3, "%02x", tail[1 + i]);
    const struct { const uint8_t *tail; size_t len; const char *line; } cases[] = {
        { NULL, 0, "trailer: not read\n" },
        { tail, PBO_TAIL_MAX - 1, "trailer: not read\n" },
        { tail, PBO_TAIL_MAX, want },
        { odd, PBO_TAIL_MAX, "trailer: unexpected (21 bytes after the data)\n" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        rtm_buf_init(&out);
        assert_int_equal(rtm_view_pbo_info(p, cases[i].tail, cases[i].len, &out), 0);
        rtm_buf_putc(&out, 0);
        if (!strstr(out.p, cases[i].line))
            fail_msg("case %zu: pbo.txt lacks '%s':\n%s", i, cases[i].line, out.p);
        rtm_buf_free(&out);
    }
    pbo_set_trailer(p, odd, sizeof odd);
    rtm_buf_init(&out);
    assert_int_equal(rtm_view_pbo_info(p, tail, PBO_TAIL_MAX, &out), 0);
    rtm_buf_putc(&out, 0);
    assert_non_null(strstr(out.p, "trailer: unexpected"));
    rtm_buf_free(&out);
    pbo_free(p);
    rtm_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(clean_has_no_notes),
        cmocka_unit_test(duplicate),
        cmocka_unit_test(renamed),
        cmocka_unit_test(odd_names),
        cmocka_unit_test(skipped_and_collision),
        cmocka_unit_test(trailer_and_props),
        cmocka_unit_test(trailer_from_tail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
