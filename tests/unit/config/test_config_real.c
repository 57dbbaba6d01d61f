/* test_config_real.c - the config reader on real files: the 57 rapified
 * files in ../shared/configs against their expected trees (as read, and
 * as their text reads back), truncation at every byte and flipped bytes of
 * a few of them, the speed-independent bits of the rapify writer on real
 * models (rapify, read back, same model), and the text configs and
 * model.cfg of the two addon trees of ../shared/addons, preprocessed with
 * their includes.  Skips without ../shared. */
#include "cfg_testutil.h"

#include <unistd.h>

#include "cfg_pp.h"
#include "gamepath.h"

static void test_shared_configs(void **state)
{
    (void)state;
    char dir[4096], path[8400], why[512];
    char **names = NULL;
    int n = shared_configs(dir, &names);
    if (n < 0)
        skip_because("no ../shared");
    assert_int_equal(n, 57);
    for (int i = 0; i < n; i++) {
        uint8_t *data, *json;
        size_t len, jlen;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        assert_int_equal(rtm_slurp(path, &data, &len), 0);
        snprintf(path, sizeof path, "%s/expected/%s.json", dir, names[i]);
        assert_int_equal(rtm_slurp(path, &json, &jlen), 0);
        struct jm_value *j = jm_parse((const char *)json, jlen, why, sizeof why);
        assert_non_null(j);
        struct cfg *c = rap_ok(data, len);
        if (!json_entry_eq(c, 0, j, why, sizeof why))
            fail_msg("%s as read: %s", names[i], why);
        size_t tn;
        char *t = text_of(c, &tn);
        struct cfg *back = NULL;
        struct rtm_error err = { .msg = "" };
        if (cfg_parse_text(t, tn, names[i], NULL, &back, &err))
            fail_msg("%s: text does not read back: %s", names[i], err.msg);
        if (!json_entry_eq(back, 0, j, why, sizeof why))
            fail_msg("%s from its text: %s", names[i], why);
        cfg_round_trip(c);
        cfg_free(back);
        cfg_free(c);
        free(t);
        jm_free(j);
        free(json);
        free(data);
    }
    free_names(names, n);
}

/* Every prefix of a few real files is an error, never a crash. */
static void test_truncation(void **state)
{
    (void)state;
    char dir[4096], path[8400];
    char **names = NULL;
    int n = shared_configs(dir, &names);
    if (n < 0)
        skip_because("no ../shared");
    for (int i = 0; i < n; i += 14) {
        uint8_t *data;
        size_t len;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        assert_int_equal(rtm_slurp(path, &data, &len), 0);
        for (size_t cut = 0; cut < len; cut++) {
            struct cfg *c = NULL;
            struct rtm_error err;
            if (rap_try(data, cut, &c, &err) == 0)
                fail_msg("%s cut at %zu reads", names[i], cut);
        }
        free(data);
    }
    free_names(names, n);
}

/* Flipped bytes: a clean error or a model whose text reads back. */
static void test_flips(void **state)
{
    (void)state;
    char dir[4096], path[8400];
    char **names = NULL;
    int n = shared_configs(dir, &names);
    if (n < 0)
        skip_because("no ../shared");
    uint64_t seed = 27;
    int read = 0, failed = 0;
    for (int i = 0; i < n; i += 7) {
        uint8_t *data;
        size_t len;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        assert_int_equal(rtm_slurp(path, &data, &len), 0);
        for (int k = 0; k < 300; k++) {
            uint8_t *m = malloc(len);
            assert_non_null(m);
            memcpy(m, data, len);
            for (int f = 0; f < 1 + k % 4; f++) {
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                m[(seed >> 33) % len] ^= (uint8_t)(1u << ((seed >> 20) & 7));
            }
            struct cfg *c = NULL;
            struct rtm_error err;
            if (rap_try(m, len, &c, &err) == 0) {
                size_t tn;
                char *t = text_of(c, &tn);
                free(t);
                cfg_free(c);
                read++;
            } else {
                failed++;
            }
            free(m);
        }
        free(data);
    }
    printf("# flips: %d read, %d refused\n", read, failed);
    free_names(names, n);
}

/* The two addon trees of ../shared/addons: configs and model.cfg read. */
static void test_shared_addons(void **state)
{
    (void)state;
    const char *sh = getenv("RTMFS_SHARED");
    char path[4096];
    static const char *files[] = {
        "aur/addons/AUR_AdvancedUrbanRappelling/config.cpp",
        "grad_captive/addons/functions/config.cpp",
        "grad_captive/addons/main/config.cpp",
        "grad_captive/addons/functions/rtms/model.cfg",
    };
    snprintf(path, sizeof path, "%s/addons/README.md", sh ? sh : "../shared");
    if (access(path, R_OK) != 0)
        skip_because("no ../shared");
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/addons/%s", sh ? sh : "../shared", files[i]);
        struct gamepath_project *pr;
        struct cfg_pp_opts o = project_opts(path, &pr);
        struct cfg *c = load_file_ok(path, &o);
        assert_int_equal(c->pp.missing_include, 0);
        cfg_round_trip(c);
        long k;
        if (i == 0) {
            k = cfg_find(c, "CfgMovesMaleSdr/States/AUR_01_Aim_Idling/speed", NULL);
            assert_true(k >= 0 && c->e[k].v.type == CFG_T_INT && c->e[k].v.u.i == -8);
        } else if (i == 1) {
            k = cfg_find(c, "CfgGesturesMale/States/AnimCableStandLoop/speed", NULL);
            assert_true(k >= 0 && c->e[k].v.u.f == 0.06f);
            k = cfg_find(c, "CfgGesturesMale/States/AnimCableStandEnd/file", NULL);
            assert_true(k >= 0);
            assert_string_equal(c->e[k].v.u.s.p,
                "\\x\\grad_captiveWalking\\addons\\functions\\rtms\\anim_cable_stand_end.rtm");
            k = cfg_find(c, "CfgGesturesMale/States/AnimCableStandEnd/looped", NULL);
            assert_true(k >= 0 && c->e[k].v.u.i == 0);   /* from its parent */
            /* macros inside 'single quotes' are expanded (CBA's COMPILE_FILE_SYS) */
            k = cfg_find(c, "Extended_PreStart_EventHandlers/grad_captiveWalking_functions/init", NULL);
            assert_true(k >= 0);
            assert_string_equal(c->e[k].v.u.s.p, "call compile preprocessFileLineNumbers "
                                "'\\x\\grad_captiveWalking\\addons\\functions\\XEH_preStart.sqf'");
        } else if (i == 3) {
            assert_true(cfg_class(c, "CfgSkeletons/OFP2_ManSkeleton") >= 0);
        }
        printf("# %s: %u entries, %u undefined macro calls\n", files[i], c->ne,
               c->pp.undefined_call);
        cfg_free(c);
        gamepath_project_free(pr);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_configs),
        cmocka_unit_test(test_truncation),
        cmocka_unit_test(test_flips),
        cmocka_unit_test(test_shared_addons),
    };
    return run_test_cases(tests, NULL, NULL);
}
