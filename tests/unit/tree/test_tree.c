/* test_tree.c - what the mount shows, without FUSE: lookups, attributes,
 * listings and reads of a temporary SOURCE written by the project's own
 * writers (tree_mount_testutil.h); one classification and one numbering
 * for lookup and readdir (with an injected dirent type and an injected hash
 * collision); what readdirplus gives; the mount point hidden; the open
 * policy; owners and modes; and archives as released and cut short.
 * Changes in SOURCE, timeouts, one file as SOURCE and concurrent use:
 * test_tree_changes. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "testutil.h"
#include "tree_mount_testutil.h"
#include "pbo.h"
#include "pbo_write.h"
#include "tree_int.h"

static void views_read_as_rendered(void **state)
{
    struct env *e = *state;
    static const char *const views[] = { "header.txt", "bones.txt", "plain.rtm", "bmtr.rtm",
                                         "frames/003.csv" };
    for (size_t i = 0; i < sizeof views / sizeof views[0]; i++) {
        char path[64];
        snprintf(path, sizeof path, "walk.rtm/%s", views[i]);
        struct rtm_tree_entry te;
        assert_int_equal(walk(e, path, &te), 0);
        size_t want_len, got_len;
        char *want = render_view(&e->a, views[i], &want_len);
        char *got = read_all(e, te.ino, &got_len);
        assert_int_equal(te.st.st_size, want_len);
        assert_int_equal(got_len, want_len);
        assert_memory_equal(got, want, want_len);
        assert_true(S_ISREG(te.st.st_mode) && !(te.st.st_mode & 0222));
        free(want);
        free(got);
    }
    struct rtm_tree_entry te;
    assert_int_equal(walk(e, "walk.rtm", &te), 0);
    assert_true(S_ISDIR(te.st.st_mode));
    char buf[8];
    assert_int_equal(rtm_tree_read(e->f.t, te.ino, buf, sizeof buf, 0), -EISDIR);
    assert_int_equal(walk(e, "walk.rtm/nope.txt", &te), -ENOENT);
    assert_int_equal(walk(e, "readme.txt", &te), -ENOENT);     /* no show_other */
    /* a broken file is a folder holding error.txt */
    assert_int_equal(walk(e, "broken.rtm/error.txt", &te), 0);
    size_t len;
    char *msg = read_all(e, te.ino, &len);
    assert_int_equal(te.st.st_size, len);
    assert_non_null(strstr(msg, "broken.rtm: "));
    assert_true(len > 0 && msg[len - 1] == '\n');
    free(msg);
}

/* readdirplus's attributes for listing d of folder dir, entries from 2 on
 * (after . and ..): how many came, each checked against getattr (not a
 * lookup: one in a folder of views is what earns attributes). */
static size_t plus_attributes(struct env *e, uint64_t dir, struct rtm_dirlist *d)
{
    struct rtm_tree_entry te[64];
    size_t given = 0;
    assert_true(d->n <= 64);
    rtm_tree_listed_entries(e->f.t, dir, d, 0, d->n, te);
    for (size_t i = 2; i < d->n; i++) {
        struct rtm_tree_entry look;
        if (!te[i].ino)
            continue;
        given++;
        assert_int_equal(te[i].ino, d->e[i].ino);
        assert_int_equal(rtm_tree_getattr(e->f.t, te[i].ino, &look), 0);
        assert_int_equal(te[i].st.st_size, look.st.st_size);
        assert_int_equal(te[i].st.st_mode, look.st.st_mode);
        assert_int_equal(te[i].st.st_mtim.tv_sec, look.st.st_mtim.tv_sec);
        assert_true(te[i].timeout == look.timeout);
        rtm_tree_forget(e->f.t, te[i].ino, 1);
    }
    return given;
}

static size_t plus_count(struct env *e, const char *dir)
{
    uint64_t ino = ino_of(e, dir);
    struct rtm_dirlist *d;
    assert_int_equal(rtm_tree_listing(e->f.t, ino, 0, &d), 0);
    size_t n = plus_attributes(e, ino, d);
    rtm_tree_listing_put(e->f.t, d);
    return n;
}

/* readdirplus gives what is known without parsing: in an animation's
 * folder, its folders, bones.txt (of the shape alone) and the views whose
 * sizes are known; in a folder of views, only while a walker that stats
 * (a lookup in one) is at work; in an archive's folder, its animations'
 * folders (archives_as_released). */
static void readdirplus_gives_what_is_known(void **state)
{
    struct env *e = *state;
    assert_int_equal(plus_count(e, "walk.rtm"), 3);         /* frames/, tracks/, bones.txt */
    ino_of(e, "walk.rtm/header.txt");       /* after bones.txt, a second: every view */
    assert_int_equal(plus_count(e, "walk.rtm"), 12);        /* but preview.svg: */
    ino_of(e, "walk.rtm/preview.svg");  /* its size follows the configs (no state plays it) */
    assert_int_equal(plus_count(e, "walk.rtm"), 13);
    assert_int_equal(plus_count(e, "walk.rtm/frames"), 0);  /* no walker yet */
    assert_int_equal(plus_count(e, "walk.rtm/tracks"), 0);
    ino_of(e, "walk.rtm/tracks/pelvis.csv");                /* ls -l looks one up */
    size_t listed = 0;
    while (plus_count(e, "walk.rtm/frames") == 6)
        listed++;
    assert_int_equal(listed, RTM_TREE_PLUS_CREDIT);         /* then it is spent */
    assert_int_equal(plus_count(e, "walk.rtm/tracks"), 0);
    ino_of(e, "walk.rtm/frames/001.csv");                   /* and earned again */
    assert_int_equal(plus_count(e, "walk.rtm/tracks"), 20);
    assert_int_equal(plus_count(e, "sub"), 0);              /* not an animation's */
    assert_int_equal(plus_count(e, ""), 0);     /* a loose file's: its device decides */
}

static void listings_agree_with_lookups(void **state)
{
    struct env *e = *state;
    check_listing(e, "", 5);        /* walk.rtm broken.rtm sub missing.txt check.txt */
    check_listing(e, "walk.rtm", 14);               /* 11 views, states.txt, frames/, tracks/ */
    check_listing(e, "walk.rtm/frames", 6);
    check_listing(e, "walk.rtm/tracks", 20);         /* a file a bone */
    check_listing(e, "broken.rtm", 1);
    check_listing(e, "sub", 1);
    /* the rest of an enumeration comes from the same listing */
    struct rtm_dirlist *d1, *d2;
    assert_int_equal(rtm_tree_listing(e->f.t, RTM_INO_ROOT, 0, &d1), 0);
    assert_int_equal(rtm_tree_listing(e->f.t, RTM_INO_ROOT, 3, &d2), 0);
    assert_ptr_equal(d1, d2);
    rtm_tree_listing_put(e->f.t, d1);
    rtm_tree_listing_put(e->f.t, d2);
}

static uint64_t same_hash(const char *path, const struct rtm_fileid *id)
{
    (void)path;
    (void)id;
    return 4242;
}

/* With every hash colliding, readdir still gives the numbers lookup gives
 * (it used to give the raw hash while lookup probed past it). */
static void collisions_number_alike(void **state)
{
    struct env *e = *state;
    new_tree(e, same_hash, NULL);
    uint64_t walk = ino_of(e, "walk.rtm"), broken = ino_of(e, "broken.rtm");
    assert_int_equal(walk, RTM_INO_FAMILY | 4242);
    assert_int_equal(broken, walk + 1);   /* the next family */
    assert_int_equal(ino_of(e, "sub"), 4242);
    check_listing(e, "", 5);                        /* and missing.txt, check.txt */
    check_listing(e, "walk.rtm", 14);
    check_listing(e, "walk.rtm/tracks", 20);
}

/* Inside an animation's folder, numbers are its family's members
 * (inodes.h): fixed views, folders and views at the places tree_int.h
 * gives them, read back by number alone; a number that names nothing of
 * this version is stale. */
static void views_are_members_of_their_folder(void **state)
{
    struct env *e = *state;
    uint64_t head = ino_of(e, "walk.rtm");
    assert_true(head & RTM_INO_FAMILY);
    assert_int_equal(rtm_ino_member(head), 0);
    assert_int_equal(ino_of(e, "walk.rtm/header.txt"), rtm_ino_in_family(head, 5));
    assert_int_equal(ino_of(e, "walk.rtm/frames"), rtm_ino_in_family(head, 2));
    assert_int_equal(ino_of(e, "walk.rtm/tracks"), rtm_ino_in_family(head, 4));
    uint64_t f2 = ino_of(e, "walk.rtm/frames/002.csv");
    assert_int_equal(rtm_ino_head(f2), head);
    struct rtm_tree_entry te;
    assert_int_equal(rtm_tree_getattr(e->f.t, f2, &te), 0);
    assert_true(S_ISREG(te.st.st_mode));
    size_t len, want_len;
    char *got = read_all(e, f2, &len), *want = render_view(&e->a, "frames/002.csv", &want_len);
    assert_int_equal(len, want_len);
    assert_int_equal((uint64_t)te.st.st_size, len);
    assert_memory_equal(got, want, len);
    free(got);
    free(want);
    assert_int_equal(rtm_tree_getattr(e->f.t, rtm_ino_in_family(head, 4), &te), 0);
    assert_true(S_ISDIR(te.st.st_mode));
    assert_int_equal(rtm_tree_getattr(e->f.t, rtm_ino_in_family(head, 3), &te), -ESTALE);   /* no joints/ */
    assert_int_equal(rtm_tree_getattr(e->f.t, rtm_ino_in_family(head, 1), &te), -ENOENT);   /* error.txt: not broken */
    assert_int_equal(rtm_tree_getattr(e->f.t, rtm_ino_in_family(head, 100000), &te), -ESTALE);
    assert_int_equal(rtm_tree_lookup(e->f.t, rtm_ino_in_family(head, 5), "x", &te), -ENOTDIR);
    /* a broken animation's one member is its error.txt */
    uint64_t broken = ino_of(e, "broken.rtm");
    assert_int_equal(ino_of(e, "broken.rtm/error.txt"), rtm_ino_in_family(broken, 1));
    /* the others are gone (a view listed before its damage was found) */
    assert_int_equal(rtm_tree_getattr(e->f.t, rtm_ino_in_family(broken, 5), &te), -ENOENT);
}

/* One classification whatever readdir's hint: a symlinked .rtm is an
 * animation (followed), a symlinked folder is hidden (loops). */
static void one_classification_for_every_hint(void **state)
{
    struct env *e = *state;
    assert_int_equal(symlinkat("walk.rtm", e->f.fd, "link.rtm"), 0);
    assert_int_equal(symlinkat("sub", e->f.fd, "linkdir"), 0);
    static const unsigned char hints[] = { DT_UNKNOWN, DT_LNK };
    for (size_t i = 0; i < sizeof hints; i++) {
        struct stat st;
        struct rtm_fileid id;
        assert_int_equal(rtm_tree_classify(e->f.t, e->f.fd, "link.rtm", "link.rtm", hints[i], &st, &id),
                         RTM_SRC_ANIM);
        struct stat real;
        assert_int_equal(fstatat(e->f.fd, "walk.rtm", &real, 0), 0);
        struct rtm_fileid want = rtm_fileid_of(&real);
        assert_true(rtm_fileid_same(&id, &want));
        assert_int_equal(rtm_tree_classify(e->f.t, e->f.fd, "linkdir", "linkdir", hints[i], &st, &id),
                         RTM_SRC_HIDDEN);
    }
    struct stat st;
    struct rtm_fileid id;
    assert_int_equal(rtm_tree_classify(e->f.t, e->f.fd, "sub", "sub", DT_UNKNOWN, &st, &id), RTM_SRC_DIR);
    assert_int_equal(rtm_tree_classify(e->f.t, e->f.fd, "readme.txt", "readme.txt", DT_UNKNOWN, &st, &id),
                     RTM_SRC_HIDDEN);
    assert_int_equal(rtm_tree_classify(e->f.t, e->f.fd, "nope", "nope", DT_UNKNOWN, &st, &id), -ENOENT);
    check_listing(e, "", 6);        /* link.rtm shown, linkdir not; missing.txt, check.txt */
    struct rtm_tree_entry te;
    assert_int_equal(walk(e, "link.rtm/bones.txt", &te), 0);
    assert_int_equal(walk(e, "linkdir", &te), -ENOENT);
}

/* The mount point inside SOURCE is never shown (it would recurse). */
static void the_mount_point_is_hidden(void **state)
{
    struct env *e = *state;
    new_tree(e, NULL, "sub");
    check_listing(e, "", 4);        /* walk.rtm broken.rtm missing.txt check.txt */
    struct rtm_tree_entry te;
    assert_int_equal(walk(e, "sub", &te), -ENOENT);
    assert_int_equal(walk(e, "sub/run.rtm", &te), -ENOENT);
    new_tree(e, NULL, "sub/run.rtm");               /* deeper, and not a prefix match */
    check_listing(e, "sub", 0);
    assert_int_equal(mkdirat(e->f.fd, "subway", 0755), 0);
    check_listing(e, "", 6);
}

static void open_policy_follows_capabilities(void **state)
{
    (void)state;
    struct rtm_open_policy p = rtm_tree_open_policy(0);
    assert_false(p.open_enosys);
    assert_false(p.opendir_enosys);
    p = rtm_tree_open_policy(RTM_CAP_NO_OPEN);
    assert_true(p.open_enosys);
    assert_false(p.opendir_enosys);
    p = rtm_tree_open_policy(RTM_CAP_NO_OPEN | RTM_CAP_NO_OPENDIR);
    assert_true(p.open_enosys);
    assert_true(p.opendir_enosys);
}

/* -o uid=, gid=, dmask=, fmask=: the owner and modes shown. */
static void owner_and_masks(void **state)
{
    struct env *e = *state;
    struct rtm_tree_entry dir, file;
    assert_int_equal(walk(e, "walk.rtm", &dir), 0);
    assert_int_equal(walk(e, "walk.rtm/header.txt", &file), 0);
    assert_int_equal(dir.st.st_mode & 07777, 0555);     /* the source's, read-only */
    assert_int_equal(file.st.st_mode & 07777, 0444);
    struct rtm_tree_attrs a = { RTM_ATTR_UID | RTM_ATTR_GID | RTM_ATTR_DMASK | RTM_ATTR_FMASK,
                                1234, 99, 022, 0133 };
    new_tree_with(e, (struct rtm_tree_config){ .attrs = a });
    static const char *const paths[] = { "", "sub", "walk.rtm", "walk.rtm/frames",
                                         "walk.rtm/header.txt", "broken.rtm/error.txt" };
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        struct rtm_tree_entry te;
        if (*paths[i])
            assert_int_equal(walk(e, paths[i], &te), 0);
        else
            assert_int_equal(rtm_tree_getattr(e->f.t, RTM_INO_ROOT, &te), 0);
        assert_int_equal(te.st.st_uid, 1234);
        assert_int_equal(te.st.st_gid, 99);
        assert_int_equal(te.st.st_mode & 07777, S_ISDIR(te.st.st_mode) ? 0755 : 0644);
    }
    a.set = RTM_ATTR_GID;                   /* the other fields stay the source's */
    new_tree_with(e, (struct rtm_tree_config){ .attrs = a });
    assert_int_equal(walk(e, "walk.rtm/header.txt", &file), 0);
    assert_int_equal(file.st.st_uid, geteuid());
    assert_int_equal(file.st.st_gid, 99);
    assert_int_equal(file.st.st_mode & 07777, 0444);
}

/* An archive as released: entries of their own times, folders without
 * animations, and for the cut tests its bytes. */
static const struct { const char *name; uint32_t stamp; int anim; } released[] = {
    { "anims\\a.rtm", 1000000000, 1 },
    { "anims\\b.rtm", 0, 1 },
    { "texts\\readme.txt", 2000000000, 0 },
    { "data\\deep\\c.rtm", 1500000000, 1 },
    { "core\\init.sqf", 1700000000, 0 },
};
enum { NRELEASED = sizeof released / sizeof released[0] };

static void write_released(struct env *e, const char *name, size_t cut, struct pbo **table)
{
    struct pbo_write_entry w[NRELEASED];
    for (size_t i = 0; i < NRELEASED; i++)
        w[i] = (struct pbo_write_entry){ released[i].name, (const uint8_t *)e->a.p,
                                         released[i].anim ? e->a.len : 40, PBO_PACK_STORE,
                                         released[i].stamp };
    struct rtm_buf b;
    struct rtm_error err;
    rtm_buf_init(&b);
    assert_int_equal(pbo_write(w, NRELEASED, NULL, 0, 0, &b), 0);
    if (table)
        assert_int_equal(pbo_read_table((const uint8_t *)b.p, b.len, b.len, table, &err), 0);
    b.len = cut && cut < b.len ? cut : b.len;
    write_file(e, name, &b);
    rtm_buf_free(&b);
    /* older than every stamp above, so that a folder's time tells */
    struct timespec old[2] = { { 500000000, 0 }, { 500000000, 0 } };
    assert_int_equal(utimensat(e->f.fd, name, old, 0), 0);
}

static time_t mtime_of(struct env *e, const char *path)
{
    struct rtm_tree_entry te;
    assert_int_equal(walk(e, path, &te), 0);
    return te.st.st_mtim.tv_sec;
}

static void archives_as_released(void **state)
{
    struct env *e = *state;
    write_released(e, "mod.pbo", 0, NULL);
    expect_names(e, "mod.pbo", "pbo.txt\nanims\ndata\n");    /* no texts, no core */
    struct rtm_tree_entry te;
    assert_int_equal(walk(e, "mod.pbo/texts", &te), -ENOENT);
    assert_int_equal(walk(e, "mod.pbo/core", &te), -ENOENT);
    /* an entry's views: its own time, or the archive's when it has none */
    assert_int_equal(mtime_of(e, "mod.pbo/anims/a.rtm"), 1000000000);
    assert_int_equal(mtime_of(e, "mod.pbo/anims/a.rtm/header.txt"), 1000000000);
    assert_int_equal(mtime_of(e, "mod.pbo/anims/a.rtm/frames/001.csv"), 1000000000);
    assert_int_equal(mtime_of(e, "mod.pbo/anims/b.rtm/bones.txt"), 500000000);
    assert_int_equal(mtime_of(e, "mod.pbo/pbo.txt"), 500000000);
    /* a folder: the newest shown below it */
    assert_int_equal(mtime_of(e, "mod.pbo/anims"), 1000000000);
    assert_int_equal(mtime_of(e, "mod.pbo/data"), 1500000000);
    assert_int_equal(mtime_of(e, "mod.pbo/data/deep"), 1500000000);
    assert_int_equal(mtime_of(e, "mod.pbo"), 1500000000);
    /* readdirplus gives the animations' folders, as getattr would */
    assert_int_equal(plus_count(e, "mod.pbo/anims"), 2);    /* a.rtm/, b.rtm/ */
    assert_int_equal(plus_count(e, "mod.pbo"), 0);          /* pbo.txt, anims/, data/ */
    /* with show_other, everything shows, and counts */
    new_tree_with(e, (struct rtm_tree_config){ .show_other = 1 });
    expect_names(e, "mod.pbo", "pbo.txt\nanims\ncore\ndata\ntexts\n");
    assert_int_equal(mtime_of(e, "mod.pbo/texts/readme.txt"), 2000000000);
    assert_int_equal(mtime_of(e, "mod.pbo/core"), 1700000000);
    assert_int_equal(mtime_of(e, "mod.pbo"), 2000000000);
}

/* An archive cut short shows its whole entries, exactly, and error.txt
 * saying what the cut took; one cut inside its table only error.txt. */
static void cut_archives(void **state)
{
    struct env *e = *state;
    struct pbo *p;
    write_released(e, "full.pbo", 0, &p);
    size_t want_len;
    char *want = render_view(&e->a, "frames/002.csv", &want_len);
    const struct pbo_entry *en = p->entries;
    size_t cuts[] = { p->table_bytes, en[0].offset + en[0].data_size,
                      en[1].offset + 7, en[3].offset + en[3].data_size - 1,
                      en[4].offset + en[4].data_size };
    for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++) {
        write_released(e, "cut.pbo", cuts[k], NULL);
        size_t whole = 0;
        while (whole < NRELEASED && en[whole].offset + en[whole].data_size <= cuts[k])
            whole++;
        new_tree_with(e, (struct rtm_tree_config){ .show_other = 1 });
        struct rtm_tree_entry te;
        for (size_t i = 0; i < NRELEASED; i++) {
            char path[128];
            snprintf(path, sizeof path, "cut.pbo/%s%s", en[i].path,
                     released[i].anim ? "/frames/002.csv" : "");
            assert_int_equal(walk(e, path, &te), i < whole ? 0 : -ENOENT);
            if (i < whole && released[i].anim) {
                size_t got_len;
                char *got = read_all(e, te.ino, &got_len);
                assert_int_equal(te.st.st_size, want_len);
                assert_memory_equal(got, want, want_len);
                free(got);
            }
        }
        assert_int_equal(walk(e, "cut.pbo/error.txt", &te), whole < NRELEASED ? 0 : -ENOENT);
        if (whole == NRELEASED)
            continue;
        size_t msg_len;
        char *msg = read_all(e, te.ino, &msg_len), line[160], at[32];
        rtm_format_count(cuts[k], at, sizeof at);
        snprintf(line, sizeof line, "cut.pbo: archive cut short at byte %s: %zu of %d "
                 "entries lie past the end\n", at, NRELEASED - whole, NRELEASED);
        assert_string_equal(msg, line);
        free(msg);
        char *list = names(e, ino_of(e, "cut.pbo"));
        assert_non_null(strstr(list, "pbo.txt\nerror.txt\n"));
        free(list);
    }
    write_released(e, "cut.pbo", p->table_bytes - 1, NULL);     /* the table itself */
    rtmc_invalidate(e->f.c, "");
    expect_names(e, "cut.pbo", "error.txt\n");
    free(want);
    pbo_free(p);
}

/* The kind table (tree_kinds.c) has a row for every kind: a kind added
 * without one would be shown with no attributes, listing or bytes. */
static void every_kind_has_a_row(void **state)
{
    (void)state;
    assert_true(tree_kinds_complete());
    assert_true(tree_kind_is_head(TK_ANIM));
    assert_false(tree_kind_is_head(TK_VIEW_FOLDER));
    assert_true(tree_kind_versioned(TK_VIEW));
    assert_false(tree_kind_versioned(TK_DIR));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(views_read_as_rendered, setup, teardown),
        cmocka_unit_test_setup_teardown(listings_agree_with_lookups, setup, teardown),
        cmocka_unit_test_setup_teardown(collisions_number_alike, setup, teardown),
        cmocka_unit_test_setup_teardown(views_are_members_of_their_folder, setup, teardown),
        cmocka_unit_test_setup_teardown(one_classification_for_every_hint, setup, teardown),
        cmocka_unit_test_setup_teardown(the_mount_point_is_hidden, setup, teardown),
        cmocka_unit_test(open_policy_follows_capabilities),
        cmocka_unit_test_setup_teardown(owner_and_masks, setup, teardown),
        cmocka_unit_test_setup_teardown(archives_as_released, setup, teardown),
        cmocka_unit_test_setup_teardown(cut_archives, setup, teardown),
        cmocka_unit_test_setup_teardown(readdirplus_gives_what_is_known, setup, teardown),
        cmocka_unit_test(every_kind_has_a_row),
    };
    return run_test_cases(tests, NULL, NULL);
}
