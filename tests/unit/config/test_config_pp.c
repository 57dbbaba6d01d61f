/* test_config_pp.c - the config preprocessor (cfg_pp.h): directives,
 * macros with # and ##, what is left as written and counted, includes
 * relative, by game path (gamepath.h's projects) and from include/,
 * include loops, every error path with its FILE:LINE; what a result
 * depends on besides its text (lookups, the time); a plain text copied as
 * it is; text and rapified forms agreeing.  The real addon trees are
 * test_config_real.c's, game path forms test_gamepath.c's. */
#include "cfg_testutil.h"

#include <time.h>
#include <unistd.h>

#include "cfg_pp.h"
#include "gamepath.h"

static char *pp_ok(const char *text, const struct cfg_pp_opts *o, struct cfg_pp_counts *counts)
{
    struct cfg_pp_result r;
    struct rtm_error err = { .msg = "" };
    if (cfg_pp_text(text, strlen(text), "t.cpp", NULL, o, &r, &err))
        fail_msg("preprocess: %s", err.msg);
    rtm_buf_putc(&r.text, 0);
    char *s = strdup(r.text.p);
    if (counts)
        *counts = r.counts;
    cfg_pp_free(&r);
    return s;
}

static void pp_bad(const char *text, const struct cfg_pp_opts *o, const char *want)
{
    struct cfg_pp_result r;
    struct rtm_error err = { .msg = "" };
    assert_int_equal(cfg_pp_text(text, strlen(text), "t.cpp", NULL, o, &r, &err), -1);
    if (!strstr(err.msg, want))
        fail_msg("wanted \"%s\", got \"%s\"", want, err.msg);
    assert_null(strchr(err.msg, '\n'));
}

static void test_macros(void **state)
{
    (void)state;
    char *s = pp_ok("#define A 1\n#define F(x, y) x##_##y\n#define Q(x) #x\n"
                    "#define GVAR(v) F(PRE,v)\n#define PRE my \\\n    pre\n"
                    "a = A; b = F(p,q); c = Q(hello world); d = GVAR(z); e = \"A\";\n"
                    "#undef A\nf = A;\n", NULL, NULL);
    assert_non_null(strstr(s, "a = 1; b = p_q; c = \"hello world\"; d = my     pre_z; e = \"A\";"));
    assert_non_null(strstr(s, "f = A;"));
    /* lines stay where they were: a line for each source line */
    int lines = 0;
    for (char *p = s; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 9);
    free(s);
    s = pp_ok("#define S(x) #x\n#define P(v) \\x\\y\\v\n#define QP(x) S(P(x))\nf = QP(a.rtm);\n"
              "#define SELF SELF + 1\ng = SELF;\nh = __LINE__;\n", NULL, NULL);
    assert_non_null(strstr(s, "f = \"\\x\\y\\a.rtm\";"));
    assert_non_null(strstr(s, "g = SELF + 1;"));
    assert_non_null(strstr(s, "h = 7;"));
    free(s);
}

static void test_conditionals(void **state)
{
    (void)state;
    char *s = pp_ok("#define ON\n#ifdef ON\na;\n#ifndef ON\nb;\n#else\nc;\n#endif\n#else\nd;\n"
                    "#endif\n#ifdef OFF\n#define X 1\n#include \"nothing.hpp\"\n#endif\nx = X;\n",
                    NULL, NULL);
    assert_non_null(strstr(s, "a;"));
    assert_null(strstr(s, "b;"));
    assert_non_null(strstr(s, "c;"));
    assert_null(strstr(s, "d;"));
    assert_non_null(strstr(s, "x = X;"));
    free(s);
}

/* rtm(5), Text syntax: "#if and #elif take an integer expression; the
 * first branch whose value is not 0 is kept (#else when none is), and an
 * expression inside a skipped block, or after a branch was taken, is not
 * evaluated."  Operators as C's (||, &&, == !=, < <= > >=, + -, * / %,
 * ! - ~, parentheses); defined(NAME) and defined NAME are 1 or 0. */
static void test_if(void **state)
{
    (void)state;
    char *s = pp_ok("#define A 1\n#define B 2\n#define Y -18\n"
                    "#if B > A\na1;\n#endif\n"
                    "#if 16 < Y\nno1;\n#else\na2;\n#endif\n"
                    "#if 0\nno2;\n#elif A == 2\nno3;\n#elif B == 2 && !(A != 1)\na3;\n#elif 1\nno4;\n"
                    "#else\nno5;\n#endif\n"
                    "#if defined(A) && defined B && !defined(C) || 0\na4;\n#endif\n"
                    "#if (1 + 2 * 3) % 4 == 3 && -1 < 0 && 0x10 == 16 && ~0 == -1\na5;\n#endif\n"
                    "#if 0\n#if NOT_EVALUATED +\nno6;\n#elif ALSO_NOT\nno7;\n#endif\n#endif\n"
                    "#if 1\na6;\n#elif NOT_EVALUATED\nno8;\n#endif\n"
                    "#if __ARMA3__ && __ARMA__ == 1 && defined(__ARMA3__)\na7;\n#endif\n",
                    NULL, NULL);
    for (int i = 1; i <= 7; i++) {
        char w[8];
        snprintf(w, sizeof w, "a%d;", i);
        if (!strstr(s, w))
            fail_msg("%s missing from:\n%s", w, s);
    }
    assert_null(strstr(s, "no"));
    free(s);
    /* rtm(5): "an #if that cannot be evaluated is an error FILE:LINE"; a
     * name left after expansion is one (as HEMTT's test pe8_if_undefined) */
    pp_bad("\n#if arma\n#endif\n", NULL, "t.cpp:2: #if cannot be evaluated: arma is not a defined macro");
    pp_bad("#define A 1\n#if A === 1\n#endif\n", NULL, "t.cpp:2: #if cannot be evaluated: unexpected");
    pp_bad("#define A \"Hello\"\n#if A > 2\n#endif\n", NULL, "a string is not a number");
    pp_bad("#if 1 / 0\n#endif\n", NULL, "division by zero");
    pp_bad("#if 1.5 > 1\n#endif\n", NULL, "only integers");
    pp_bad("#if\n#endif\n", NULL, "t.cpp:1: #if cannot be evaluated: no expression");
    pp_bad("#if (1\n#endif\n", NULL, "'(' without ')'");
    pp_bad("#if defined(\n#endif\n", NULL, "defined without a macro name");
    pp_bad("#if 0\n#elif 9223372036854775808\n#endif\n", NULL, "does not fit 64 bits");
    pp_bad("#if 0\n#else\n#elif 1\n#endif\n", NULL, "t.cpp:3: #elif without #ifdef");
    char deep[300] = "#if ";
    for (int i = 0; i < 70; i++)
        strcat(deep, "(");
    strcat(deep, "1\n#endif\n");
    pp_bad(deep, NULL, "nested deeper than 64");
    /* INT64_MIN / -1 and wrapping arithmetic stay defined */
    pp_bad("#if (-9223372036854775807 - 1) / -1\n#endif\n", NULL, "overflows");
    free(pp_ok("#if 9223372036854775807 + 1 < 0\nwrapped;\n#endif\n", NULL, NULL));
}

/* rtm(5): "__COUNTER__ is 0, 1, 2, ... in the order it is met in a file
 * and the files it includes, #if lines included; __COUNTER_RESET__
 * starts it again at 0 and is itself nothing"; __ARMA__ and __ARMA3__ are 1. */
static void test_builtins(void **state)
{
    (void)state;
    char *s = pp_ok("a = __COUNTER__;\nb = __COUNTER__;\n#if __COUNTER__ == 2\nc = __COUNTER__;\n"
                    "#endif\n__COUNTER_RESET__\nd = __COUNTER__;\ne = __ARMA__ __ARMA3__;\n"
                    "#undef __ARMA3__\n#ifndef __ARMA3__\nf = 1;\n#endif\n",
                    NULL, NULL);
    assert_non_null(strstr(s, "a = 0;\nb = 1;\n\nc = 3;\n\n\nd = 0;\ne = 1 1;\n"));
    assert_non_null(strstr(s, "f = 1;"));
    free(s);
    /* rtm(5): "__TIMESTAMP_UTC__ is the UNIX time, fixed for the run:
     * SOURCE_DATE_EPOCH when set" (the wiki: replaced by the current
     * timestamp as a UNIX timestamp, Arma 3 2.06) */
    setenv("SOURCE_DATE_EPOCH", "1622639059", 1);
    s = pp_ok("t = __TIMESTAMP_UTC__;\n#if __TIMESTAMP_UTC__ > 1600000000\nok;\n#endif\n", NULL, NULL);
    assert_non_null(strstr(s, "t = 1622639059;\n\nok;"));
    free(s);
    unsetenv("SOURCE_DATE_EPOCH");
    long long before = (long long)time(NULL);
    s = pp_ok("t = __TIMESTAMP_UTC__;\n", NULL, NULL);
    long long t = atoll(strstr(s, "t = ") + 4);
    assert_true(t >= before && t <= before + 5);
    free(s);
    /* every file preprocessed starts at 0 */
    s = pp_ok("x = __COUNTER__;\n", NULL, NULL);
    assert_non_null(strstr(s, "x = 0;"));
    free(s);
    /* the wiki's date and time built-ins, by its examples' forms
     * (__DATE_ARR__ 2020,10,28,15,17,42; __DATE_STR__ "2020/10/28,
     * 15:17:42"; __DATE_STR_ISO8601__ "2020-10-28T14:17:42Z"; __TIME__
     * 15:17:42; __TIME_UTC__ 14:17:42), of the run's time (opts.epoch) */
    const char *tz = getenv("TZ");
    char *saved = tz ? strdup(tz) : NULL;
    setenv("TZ", "UTC", 1);
    tzset();
    struct cfg_pp_opts o = { .epoch = 1603898262 };   /* 2020-10-28 15:17:42 UTC */
    s = pp_ok("a = __DATE_ARR__; b = __DATE_STR__; c = __DATE_STR_ISO8601__;\n"
              "d = __TIME__; e = __TIME_UTC__; f = __DAY__ __MONTH__ __YEAR__;\n", &o, NULL);
    assert_non_null(strstr(s, "a = 2020,10,28,15,17,42; b = \"2020/10/28, 15:17:42\"; "
                              "c = \"2020-10-28T15:17:42Z\";\n"));
    assert_non_null(strstr(s, "d = 15:17:42; e = 15:17:42; f = 28 10 2020;"));
    free(s);
    if (saved)
        setenv("TZ", saved, 1);
    else
        unsetenv("TZ");
    free(saved);
    tzset();
}

/* rtm(5): "'single quoted' strings are kept from comment stripping as
 * "double quoted" ones are (an assumption), but macros are expanded inside
 * them, as the game does (HEMTT's test bootstrap/ignore_quoted expands
 * 'PREFIX'; CBA's COMPILE_FILE_SYS relies on it)". */
static void test_single_quotes(void **state)
{
    (void)state;
    char *s = pp_ok("#define X 1\n#define P(v) \\x\\v.sqf\n#define C(v) call 'P(v)'\n"
                    "url = 'https://x/*y*/'; // gone\n"
                    "a = 'X \"X\"'; b = \"X 'X'\"; c = C(f); d = X;\n", NULL, NULL);
    assert_non_null(strstr(s, "url = 'https://x/*y*/';"));
    assert_null(strstr(s, "gone"));
    assert_non_null(strstr(s, "a = '1 \"X\"'; b = \"X 'X'\"; c = call '\\x\\f.sqf'; d = 1;"));
    struct cfg *c = text_ok(s);
    assert_string_equal(c->e[cfg_find(c, "url", NULL)].v.u.s.p, "https://x/*y*/");
    cfg_free(c);
    free(s);
}

/* rtm(5): "a macro's arguments keep their padding (the blanks after a
 * comma or around an argument are part of it)", as HEMTT's tests show the
 * game doing (bootstrap/ignore_quoted, warnings/pw3_padded_arg); "in text
 * that expansion produced, commas inside [...] do not split arguments"
 * (HEMTT's reading never splits an argument's expansion again). */
static void test_arguments(void **state)
{
    (void)state;
    struct cfg_pp_counts k;
    char *s = pp_ok("#define GREET(a, b) Hi a b!\n#define Q(x) #x\n#define CAT(a,b) a##b\n"
                    "g = GREET(Ann, Bo);\nq = Q( x );\nc = CAT(p, q);\n"
                    "#define L [1,2]\n#define PAIR(a,b) a|b\n#define ONE(x) PAIR(x,z)\n"
                    "#define ARR2(a,b) a,b\n#define WRAP(x) Q(x)\n"
                    "o = ONE(L);\nw = WRAP([ARR2(1, [ARR2(2, 3)])]);\n", NULL, &k);
    assert_non_null(strstr(s, "g = Hi Ann  Bo!;\nq = \" x \";\nc = p q;\n"));
    assert_non_null(strstr(s, "o = [1,2]|z;"));
    assert_non_null(strstr(s, "w = \"[1, [2, 3]]\";"));
    assert_int_equal(k.undefined_call, 0);
    free(s);
}

static void test_left_as_written(void **state)
{
    (void)state;
    struct cfg_pp_counts k;
    char *s = pp_ok("a = __EVAL(1 + 2);\nb = __EXEC(x = 1);\nc = UNDEF(x);\n"
                    "#include \"missing.hpp\"\n#pragma once\nd = lower(x);\n", NULL, &k);
    assert_non_null(strstr(s, "a = __EVAL(1 + 2);"));
    assert_non_null(strstr(s, "#include \"missing.hpp\""));
    assert_int_equal(k.eval, 1);
    assert_int_equal(k.exec, 1);
    assert_int_equal(k.undefined_call, 1);
    assert_int_equal(k.missing_include, 1);
    assert_int_equal(k.other, 1);
    struct rtm_buf b;
    rtm_buf_init(&b);
    cfg_pp_note(&k, &b);
    rtm_buf_putc(&b, 0);
    assert_string_equal(b.p, "// rtmfs: left as written: 1 __EVAL, 1 __EXEC, 1 undefined macro call, "
                             "1 missing #include, 1 other directive\n");
    rtm_buf_free(&b);
    /* and the text still parses */
    struct cfg *c = text_ok(s);
    assert_string_equal(c->e[cfg_find(c, "c", NULL)].v.u.s.p, "UNDEF(x)");
    cfg_free(c);
    free(s);
}

static void test_errors(void **state)
{
    (void)state;
    pp_bad("#else\n", NULL, "t.cpp:1: #else without #ifdef");
    pp_bad("\n#endif\n", NULL, "t.cpp:2: #endif without #ifdef");
    pp_bad("#ifdef A\n", NULL, "#ifdef never closed");
    pp_bad("#define\n", NULL, "t.cpp:1: malformed #define");
    pp_bad("#define F(a,\n", NULL, "malformed #define");
    pp_bad("#include nothing\n", NULL, "#include without");
    pp_bad("#define A(x) A(x)A(x)\n#define B(x) A(A(A(A(x))))\nB(B(B(B(1))))\n",
           &(struct cfg_pp_opts){ .max_output = 4096 }, "larger than");
    char deep[8192] = "";
    for (int i = 0; i < 70; i++)
        snprintf(deep + strlen(deep), sizeof deep - strlen(deep), "#define M%d M%d\n", i, i + 1);
    strcat(deep, "x = M0;\n");
    pp_bad(deep, NULL, "nested deeper than 64");
    /* more arguments than a macro may have: left as written (a fuzz find) */
    char many[512] = "#define F(a) a\nx = F(";
    for (int i = 0; i < 70; i++)
        strcat(many, "1,");
    strcat(many, "1);\n");
    free(pp_ok(many, NULL, NULL));
}

/* Runs of blanks as one blank and none at a line's end, in place: for
 * output whose blanks come from continued lines. */
static char *one_blank(char *s)
{
    char *o = s;
    for (const char *p = s; *p; p++) {
        if (*p == '\n')
            while (o > s && o[-1] == ' ')
                o--;
        if (!((*p == ' ' || *p == '\t') && o > s && o[-1] == ' '))
            *o++ = *p == '\t' ? ' ' : *p;
    }
    *o = 0;
    return s;
}

/* rtm(5): "A ## outside a macro's body joins what stands either side of
 * it as well, once their macros are expanded, the blanks around it
 * dropped ...; inside a string, in either quote, it stays as written"
 * (HEMTT's join_digit, join_ignore). */
static void test_join_outside_macro(void **state)
{
    (void)state;
    char *s = pp_ok("#define LEFT 4\n#define RIGHT 7\n"
                    "n = LEFT##RIGHT;\nm = x ## y;\nk = 3##0;\n"
                    "q = \"a##b\"; r = 'c##d'; t = '###';\n", NULL, NULL);
    assert_non_null(strstr(s, "n = 47;\nm = xy;\nk = 30;\n"));
    assert_non_null(strstr(s, "q = \"a##b\"; r = 'c##d'; t = '###';\n"));
    free(s);
}

/* rtm(5): "A line of a macro's body that begins, after its blanks, with
 * #if, #ifdef, #ifndef, #elif, #else or #endif ... is a directive of that
 * body, applied each time the macro expands"; its errors are FILE:LINE of
 * the line where the macro expands (HEMTT's group_unit). */
static void test_if_in_macro_body(void **state)
{
    (void)state;
    char *s = pp_ok("#define SEAT(n) class seat##n { \\\n"
                    "    #if n > 1 \\\n        role = \"cargo\"; \\\n"
                    "    #elif n == 1 \\\n        role = \"gunner\"; \\\n"
                    "    #else \\\n        role = \"driver\"; \\\n    #endif \\\n"
                    "    #ifdef WITH_HATCH \\\n        hatch = 1; \\\n    #endif \\\n    }\n"
                    "SEAT(0);\nSEAT(1);\n#define WITH_HATCH\nSEAT(3);\n"
                    "#define MODE \\\n    #ifndef FAST \\\n    speed = 1; \\\n    #else \\\n"
                    "    speed = 2; \\\n    #endif\n"
                    "a = MODE\n#define FAST\nb = MODE\n", NULL, NULL);
    one_blank(s);
    assert_non_null(strstr(s, "\nclass seat0 { role = \"driver\"; };\n"
                              "class seat1 { role = \"gunner\"; };\n"));
    assert_non_null(strstr(s, "\nclass seat3 { role = \"cargo\"; hatch = 1; };\n"));
    assert_non_null(strstr(s, "\na = speed = 1;\n"));
    assert_non_null(strstr(s, "\nb = speed = 2;\n"));
    /* one output line a source line still */
    int lines = 0;
    for (char *p = s; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 25);
    free(s);
    /* a # that is no conditional stays text; one on the #define line too */
    s = pp_ok("#define Q(x) #if \\\n    #x\nq = Q(y);\n", NULL, NULL);
    assert_non_null(strstr(one_blank(s), "q = #if \"y\";"));
    free(s);
    pp_bad("#define B \\\n  #if NOPE \\\n  x \\\n  #endif\n\nv = B;\n", NULL,
           "t.cpp:6: #if cannot be evaluated: NOPE is not a defined macro");
    pp_bad("#define B \\\n  #if 1 \\\n  x\nv = B;\n", NULL, "t.cpp:4: #if without #endif");
    pp_bad("#define B x \\\n  #endif\nv = B;\n", NULL, "t.cpp:3: #endif without #if");
}

/* rtm(5): "A backslash at a line's end continues the line ..., inside a
 * string or not, but for two backslashes ending a line inside a string";
 * outside one, \\ is a backslash and a continuation (HEMTT's
 * double_escape_newline). */
static void test_string_backslashes(void **state)
{
    (void)state;
    char *s = pp_ok("s = \"a\\\\\nb\";\nt = \"c\\\nd\";\nu = x\\\\\ny;\n"
                    "v = 'p\\\\\nq';\n", NULL, NULL);
    assert_non_null(strstr(s, "s = \"a\\\\\nb\";\nt = \"cd\";\n\nu = x\\y;\n\n"
                              "v = 'p\\\\\nq';\n"));
    free(s);
}

/* rtm(5): "For comment stripping, a string runs to its closing quote, not
 * to its line's end", either quote (HEMTT's comment_in_quote). */
static void test_comment_after_open_string(void **state)
{
    (void)state;
    char *s = pp_ok("a = \"one\n// kept\ntwo\"; // gone\n"
                    "b = 'three\n/* kept too */ four'; /* gone too */\nc = 1; // gone three\n",
                    NULL, NULL);
    assert_non_null(strstr(s, "a = \"one\n// kept\ntwo\"; \n"));
    assert_non_null(strstr(s, "b = 'three\n/* kept too */ four';  \nc = 1; \n"));
    assert_null(strstr(s, "gone"));
    free(s);
}

/* rtm(5): "#pragma hemtt lines ... are instructions to HEMTT ... and give
 * an empty line, uncounted"; #pragma once is left as written and counted
 * (HEMTT's ignore_if_has_include). */
static void test_pragma_hemtt(void **state)
{
    (void)state;
    struct cfg_pp_counts k;
    char *s = pp_ok("#pragma hemtt flag pe23_ignore_has_include\n  #  pragma  hemtt suppress x\n"
                    "a = 1;\n#pragma once\n#pragma hemttx\n", NULL, &k);
    assert_string_equal(s, "\n\na = 1;\n#pragma once\n#pragma hemttx\n");
    assert_int_equal(k.other, 2);
    free(s);
}

/* A scratch tree of files: dir/name with text. */
static void put_file(const char *dir, const char *name, const char *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *slash = strrchr(path, '/');
    *slash = 0;
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", path);
    assert_int_equal(system(cmd), 0);
    *slash = '/';
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_includes(void **state)
{
    (void)state;
    char root[] = "/tmp/rtmfs_cfgpp_XXXXXX", path[4200];
    assert_non_null(mkdtemp(root));
    put_file(root, "addons/main/$PBOPREFIX$", "x\\mod\\addons\\main\n");
    put_file(root, "addons/main/Script_Mod.hpp", "#define MOD mine\n");
    put_file(root, "addons/anims/$PBOPREFIX$", "prefix=x\\mod\\addons\\anims\nversion=1\n");
    put_file(root, "addons/anims/sub/part.hpp", "part = MOD;\n#include \"..\\deeper.hpp\"\n");
    put_file(root, "addons/anims/deeper.hpp", "deeper = CBA;\n");
    put_file(root, "include/x/cba/main.hpp", "#define CBA 3\n");
    put_file(root, "addons/anims/config.cpp",
             "#include \"\\x\\mod\\addons\\main\\script_mod.hpp\"\n#include <\\x\\cba\\main.hpp>\n"
             "class A {\n#include \"sub\\part.hpp\"\n};\nlast = 1;\n");
    put_file(root, "addons/anims/loop_a.hpp", "#include \"loop_b.hpp\"\n");
    put_file(root, "addons/anims/loop_b.hpp", "\n#include \"loop_a.hpp\"\n");
    put_file(root, "addons/anims/bad.hpp", "x = 1;\nclass {\n");
    put_file(root, "addons/anims/uses_bad.cpp", "a = 1;\n#include \"bad.hpp\"\n");
    snprintf(path, sizeof path, "%s/addons/anims/config.cpp", root);

    struct gamepath_project *pr;
    struct cfg_pp_opts o = project_opts(path, &pr);
    struct cfg *c = load_file_ok(path, &o);
    struct rtm_error err = { .msg = "" };
    assert_string_equal(c->e[cfg_find(c, "A/part", NULL)].v.u.s.p, "mine");
    assert_int_equal(c->e[cfg_find(c, "A/deeper", NULL)].v.u.i, 3);
    assert_int_equal(c->e[cfg_find(c, "last", NULL)].v.u.i, 1);
    assert_int_equal(c->pp.missing_include, 0);
    cfg_free(c);

    char gp[4096], rt[4096];
    assert_int_equal(gamepath_loose(path, gp, sizeof gp, rt, sizeof rt), 0);
    assert_string_equal(gp, "x\\mod\\addons\\anims\\config.cpp");

    snprintf(path, sizeof path, "%s/addons/anims/loop_a.hpp", root);
    assert_int_equal(cfg_load_file(path, &o, &c, &err), -1);
    assert_non_null(strstr(err.msg, "loop_b.hpp:2: #include loop"));
    snprintf(path, sizeof path, "%s/addons/anims/uses_bad.cpp", root);
    assert_int_equal(cfg_load_file(path, &o, &c, &err), -1);
    assert_non_null(strstr(err.msg, "bad.hpp:2: expected a class name"));
    /* rtm(5): "__has_include(\"PATH\") is 1 when #include would find PATH
     * (the same places, the same order), else 0" */
    put_file(root, "addons/anims/has.cpp",
             "#if __has_include(\"\\x\\cba\\main.hpp\") && !__has_include(\"nope.hpp\") && "
             "__has_include(<sub\\part.hpp>) && __has_include(\"\\x\\mod\\addons\\main\\script_mod.hpp\")\n"
             "yes = 1;\n#endif\n");
    snprintf(path, sizeof path, "%s/addons/anims/has.cpp", root);
    if (cfg_load_file(path, &o, &c, &err))
        fail_msg("%s", err.msg);
    assert_true(cfg_find(c, "yes", NULL) >= 0);
    cfg_free(c);
    assert_int_equal(cfg_load_file(path, NULL, &c, &err), 0);
    assert_true(cfg_find(c, "yes", NULL) < 0);      /* no resolver: not found */
    cfg_free(c);
    /* rtm(5): "__FILE__ is the file's game path when it is known (given for
     * the file itself, the path an include was found by as a game path or
     * in include/, or relative to a file whose game path is known), else
     * the file's name as it was opened" (an assumption) */
    put_file(root, "addons/anims/file.cpp",
             "a = __FILE__;\n#include \"sub\\fileinc.hpp\"\n#include \"\\x\\cba\\file2.hpp\"\n");
    put_file(root, "addons/anims/sub/fileinc.hpp", "b = __FILE__;\n#include \"..\\.\\up.hpp\"\n");
    put_file(root, "addons/anims/up.hpp", "c = __FILE__;\n");
    put_file(root, "include/x/cba/file2.hpp", "d = __FILE__;\n");
    snprintf(path, sizeof path, "%s/addons/anims/file.cpp", root);
    assert_int_equal(gamepath_loose(path, gp, sizeof gp, NULL, 0), 0);
    o.gamepath = gp;
    if (cfg_load_file(path, &o, &c, &err))
        fail_msg("%s", err.msg);
    o.gamepath = NULL;
    assert_string_equal(c->e[cfg_find(c, "a", NULL)].v.u.s.p, "x\\mod\\addons\\anims\\file.cpp");
    assert_string_equal(c->e[cfg_find(c, "b", NULL)].v.u.s.p, "x\\mod\\addons\\anims\\sub\\fileinc.hpp");
    assert_string_equal(c->e[cfg_find(c, "c", NULL)].v.u.s.p, "x\\mod\\addons\\anims\\up.hpp");
    assert_string_equal(c->e[cfg_find(c, "d", NULL)].v.u.s.p, "x\\cba\\file2.hpp");
    cfg_free(c);
    assert_int_equal(cfg_load_file(path, &o, &c, &err), 0);
    assert_string_equal(c->e[cfg_find(c, "a", NULL)].v.u.s.p, path);
    assert_non_null(strstr(c->e[cfg_find(c, "b", NULL)].v.u.s.p, "/addons/anims/sub/fileinc.hpp"));
    assert_string_equal(c->e[cfg_find(c, "d", NULL)].v.u.s.p, "x\\cba\\file2.hpp");
    cfg_free(c);
    /* without the resolver and include/, those includes are left and counted */
    snprintf(path, sizeof path, "%s/addons/anims/config.cpp", root);
    assert_int_equal(cfg_load_file(path, NULL, &c, &err), 0);
    assert_int_equal(c->pp.missing_include, 2);
    cfg_free(c);
    gamepath_project_free(pr);
    snprintf(path, sizeof path, "rm -rf '%s'", root);
    assert_int_equal(system(path), 0);
}

static int resolve_nothing(void *arg, const char *gp, char *out, size_t n)
{
    (void)arg, (void)gp, (void)out, (void)n;
    return -1;
}

/* What a text's result depends on besides its bytes: each #include and
 * __has_include looked for anywhere on disk (found or not), and the date
 * and time built-ins, which give the run's time. */
static void test_depends_on(void **state)
{
    (void)state;
    static const struct { const char *text; int resolver; size_t lookups; int time_used; } c[] = {
        { "#define A 1\nclass X { a = A; b = __LINE__; c = __COUNTER__; };\n", 1, 0, 0 },
        { "#include \"x.hpp\"\n", 0, 0, 0 },     /* nowhere to look: no lookup */
        { "#include \"x.hpp\"\n", 1, 1, 0 },
        { "#include \"\\a\\x.hpp\"\n#include <y.hpp>\n", 1, 2, 0 },
        { "#if __has_include(\"x.hpp\")\n#endif\n", 1, 1, 0 },
        { "a = __TIMESTAMP_UTC__;\n", 0, 0, 1 },
        { "a = __DATE_STR__;\n", 0, 0, 1 },
        { "#if __YEAR__ > 2000\n#endif\n", 0, 0, 1 },
        { "#define T __TIME__\n", 0, 0, 0 },       /* defined, never expanded */
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        struct cfg_pp_opts o = { .resolve = c[i].resolver ? resolve_nothing : NULL, .epoch = 1 };
        struct cfg_pp_result r;
        struct rtm_error err = { .msg = "" };
        assert_int_equal(cfg_pp_text(c[i].text, strlen(c[i].text), "t.cpp", NULL, &o, &r, &err), 0);
        if (r.lookups != c[i].lookups || r.time_used != c[i].time_used)
            fail_msg("%s: lookups %zu time %d", c[i].text, r.lookups, r.time_used);
        cfg_pp_free(&r);
    }
}

/* A text with no directive or macro is its own output, copied at once:
 * the same bytes as line by line (each line ended by a \n, no \r), the
 * same line numbers after it, with a comment or without. */
static void test_as_is(void **state)
{
    (void)state;
    static const struct { const char *in, *out; } cases[] = {
        { "", "" },
        { "a = 1;", "a = 1;\n" },
        { "a = 1;\n", "a = 1;\n" },
        { "a = 1;\n\nb = 2;", "a = 1;\n\nb = 2;\n" },
        { "a = 1;\r\nb = 2;\r\n", "a = 1;\nb = 2;\n" },
        { "a = \"x/y\"; // gone\nb = 2;", "a = \"x/y\"; \nb = 2;\n" },
        { "a = 1; /* one\ntwo */ b = 2;", "a = 1;  \n b = 2;\n" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *s = pp_ok(cases[i].in, NULL, NULL);
        if (strcmp(s, cases[i].out))
            fail_msg("case %zu: \"%s\"", i, s);
        free(s);
    }
    /* a parse error after such a text says the line it is on */
    char root[] = "/tmp/rtmfs_cfgasis_XXXXXX", path[4200];
    assert_non_null(mkdtemp(root));
    put_file(root, "a.hpp", "x = 1;\ny = 2;\nz = 3;");
    put_file(root, "config.cpp", "#include \"a.hpp\"\nb = 1;\nclass {\n");
    snprintf(path, sizeof path, "%s/config.cpp", root);
    struct cfg_pp_opts o = { 0 };
    struct cfg *c = NULL;
    struct rtm_error err = { .msg = "" };
    assert_int_equal(cfg_load_file(path, &o, &c, &err), -1);
    if (!strstr(err.msg, "config.cpp:3:"))
        fail_msg("%s", err.msg);
    snprintf(path, sizeof path, "rm -rf '%s'", root);
    assert_int_equal(system(path), 0);
}

/* Text and rapified forms agree: a config written as text with macros,
 * an include, #if and #elif, single quotes and joined strings,
 * preprocessed and parsed, reads back as the same tree from the text
 * rtmcat prints (cfg_print_text) and from its rapified bytes (rap_write). */
static void test_forms_agree(void **state)
{
    (void)state;
    char root[] = "/tmp/rtmfs_cfgagree_XXXXXX", path[4200];
    assert_non_null(mkdtemp(root));
    put_file(root, "inc/defs.hpp", "#define SPEED(x) (x * 2)\n#define NAME(a,b) a##_##b\n"
                                    "#define QUOTE(x) #x\n");
    static const char text[] =
        "#include \"inc\\defs.hpp\"\n"
        "#define LEVEL 2\n"
        "class CfgMovesMaleSdr {\n"
        "  class States {\n"
        "    class NAME(walk,fast) {\n"
        "      file = QUOTE(\\x\\a\\walk.rtm);\n"
        "#if LEVEL > 2\n"
        "      speed = 9;\n"
        "#elif defined(LEVEL) && __ARMA3__\n"
        "      speed = SPEED(3);\n"
        "#else\n"
        "      speed = 0;\n"
        "#endif\n"
        "      url = 'https://example.org/a';\n"
        "      text = \"line one\" \\n \"line two\";\n"
        "      list[] = {1, 2.5, \"three\", {4}};\n"
        "    };\n"
        "  };\n"
        "};\n";
    snprintf(path, sizeof path, "%s/config.cpp", root);
    put_file(root, "config.cpp", text);
    struct cfg_pp_opts o = { 0 };
    struct cfg *c = NULL;
    struct rtm_error err = { .msg = "" };
    if (cfg_load_file(path, &o, &c, &err))
        fail_msg("%s", err.msg);
    long cls = cfg_class(c, "CfgMovesMaleSdr/States/walk_fast");
    assert_true(cls >= 0);
    cfg_round_trip(c);
    size_t n;
    char *t = text_of(c, &n);
    assert_non_null(strstr(t, "file = \"\\x\\a\\walk.rtm\";"));
    assert_non_null(strstr(t, "url = \"https://example.org/a\";"));
    assert_non_null(strstr(t, "speed = \"(3 * 2)\";"));      /* the #elif branch */
    assert_non_null(strstr(t, "text = \"line one\nline two\";"));
    free(t);
    cfg_free(c);
    snprintf(path, sizeof path, "rm -rf '%s'", root);
    assert_int_equal(system(path), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_macros),    cmocka_unit_test(test_conditionals),
        cmocka_unit_test(test_if),        cmocka_unit_test(test_builtins),
        cmocka_unit_test(test_single_quotes), cmocka_unit_test(test_arguments),
        cmocka_unit_test(test_left_as_written), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_includes),
        cmocka_unit_test(test_forms_agree),
        cmocka_unit_test(test_join_outside_macro), cmocka_unit_test(test_if_in_macro_body),
        cmocka_unit_test(test_string_backslashes),
        cmocka_unit_test(test_comment_after_open_string), cmocka_unit_test(test_pragma_hemtt),
        cmocka_unit_test(test_depends_on), cmocka_unit_test(test_as_is),
    };
    return run_test_cases(tests, NULL, NULL);
}
