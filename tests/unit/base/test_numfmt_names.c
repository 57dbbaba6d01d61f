/* test_numfmt_names.c - name escaping (numfmt.h): printable ASCII as is,
 * other bytes and the backslash as \xNN, and the token, CSV and JSON
 * variants.  Numbers: test_numfmt. */
#include "testutil.h"

#include "numfmt.h"

static char *take_str(struct rtm_buf *b)
{
    rtm_buf_putc(b, 0);
    assert_false(b->oom);
    return rtm_buf_take(b, NULL);
}

static char *name_with(void (*put)(struct rtm_buf *, struct rtm_str), const char *s, size_t n)
{
    struct rtm_buf b;
    rtm_buf_init(&b);
    put(&b, (struct rtm_str){ s, (uint32_t)n });
    return take_str(&b);
}

#define NAME(put, lit) name_with(put, lit, sizeof(lit) - 1)

/* What put makes of string literal lit is want. */
#define EXPECT_NAME(put, lit, want)                                                         \
    do {                                                                                    \
        char *got_ = NAME(put, lit);                                                        \
        assert_string_equal(got_, want);                                                    \
        free(got_);                                                                         \
    } while (0)

/* The escaping rule byte by byte, as numfmt.h states it: the reference
 * for the word-at-a-time escaper. */
static char *escaped_bytewise(const char *s, size_t n, int space)
{
    char *out = malloc(4 * n + 1), *o = out;
    assert_non_null(out);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '\\' && !(space && c == ' '))
            *o++ = (char)c;
        else
            o += sprintf(o, "\\x%02x", c);
    }
    *o = 0;
    return out;
}

/* Names of every length to 40 whose bytes are mostly plain, with one to
 * three bytes of any value anywhere: each escape at each place of a word,
 * and words with none. */
static void put_name_as_bytewise(void **state)
{
    (void)state;
    lcg_state = 11;
    for (int t = 0; t < 200000; t++) {
        char raw[40];
        size_t n = lcg_next() % (sizeof raw + 1);
        for (size_t k = 0; k < n; k++)
            raw[k] = (char)(0x20 + lcg_next() % 0x5f);
        for (unsigned e = lcg_next() % 4; n && e > 0; e--)
            raw[lcg_next() % n] = (char)lcg_next();
        for (int space = 0; space < 2; space++) {
            char *got = name_with(space ? rtm_put_token : rtm_put_name, raw, n);
            char *want = escaped_bytewise(raw, n, space);
            assert_string_equal(got, want);
            free(got);
            free(want);
        }
    }
}

static void put_name_escapes(void **state)
{
    (void)state;
    EXPECT_NAME(rtm_put_name, "Pelvis", "Pelvis");
    /* printable ASCII including space and ~ stays; backslash, control bytes,
     * DEL and bytes > 127 become \xNN (lower-case hex) */
    EXPECT_NAME(rtm_put_name, " a~\\b\x01\x1f\x7f\x80\xff\t",
                " a~\\x5cb\\x01\\x1f\\x7f\\x80\\xff\\x09");
    /* an embedded NUL (MDAT strings may hold one) is escaped, not a stop */
    EXPECT_NAME(rtm_put_name, "a\0b", "a\\x00b");
    EXPECT_NAME(rtm_put_name, "", "");
    /* quotes and commas are plain for the plain escaper */
    EXPECT_NAME(rtm_put_name, "a,\"b\"", "a,\"b\"");
    /* a token (moving.txt's first field) escapes the space too */
    EXPECT_NAME(rtm_put_token, "left hand\\x", "left\\x20hand\\x5cx");
}

static void put_csv_name_quotes_only_when_needed(void **state)
{
    (void)state;
    EXPECT_NAME(rtm_put_csv_name, "LeftHand", "LeftHand");
    /* escaped bytes alone need no quoting */
    EXPECT_NAME(rtm_put_csv_name, "a b\n\\", "a b\\x0a\\x5c");
    EXPECT_NAME(rtm_put_csv_name, "a,b", "\"a,b\"");
    EXPECT_NAME(rtm_put_csv_name, "say \"hi\"", "\"say \"\"hi\"\"\"");
    EXPECT_NAME(rtm_put_csv_name, "\"", "\"\"\"\"");
    /* quoting and escaping together */
    EXPECT_NAME(rtm_put_csv_name, ",\x01\xe9", "\",\\x01\\xe9\"");
    /* a comma after a NUL byte still counts */
    EXPECT_NAME(rtm_put_csv_name, "a\0,", "\"a\\x00,\"");
}

/* Decodes one RFC 8259 string literal that must span all of s; returns the
 * decoded text (ASCII only: \u escapes above 0x7f are refused) or NULL. */
static char *json_string_decode(const char *s)
{
    size_t n = strlen(s);
    if (n < 2 || s[0] != '"' || s[n - 1] != '"')
        return NULL;
    char *out = malloc(n);
    assert_non_null(out);
    size_t o = 0;
    for (size_t i = 1; i < n - 1; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == '"' || c >= 0x80) /* must be escaped (or UTF-8: we send none) */
            goto bad;
        if (c != '\\') {
            out[o++] = (char)c;
            continue;
        }
        if (++i >= n - 1)
            goto bad;
        switch (s[i]) {
        case '"': out[o++] = '"'; break;
        case '\\': out[o++] = '\\'; break;
        case '/': out[o++] = '/'; break;
        case 'b': out[o++] = '\b'; break;
        case 'f': out[o++] = '\f'; break;
        case 'n': out[o++] = '\n'; break;
        case 'r': out[o++] = '\r'; break;
        case 't': out[o++] = '\t'; break;
        case 'u': {
            if (i + 4 >= n - 1)
                goto bad;
            unsigned v = 0;
            for (int k = 1; k <= 4; k++) {
                char h = s[i + k];
                v = v * 16 + (unsigned)(h >= '0' && h <= '9' ? h - '0'
                                        : h >= 'a' && h <= 'f' ? h - 'a' + 10
                                        : h >= 'A' && h <= 'F' ? h - 'A' + 10 : 99);
                if (v >= 0x10000)
                    goto bad;
            }
            if (v >= 0x80)
                goto bad;
            out[o++] = (char)v;
            i += 4;
            break;
        }
        default:
            goto bad;
        }
    }
    out[o] = 0;
    return out;
bad:
    free(out);
    return NULL;
}

/* The JSON form is a valid string literal whose decoded text is the plain
 * escaped name, except that a quote stays a quote. */
static void put_json_name_is_valid_json(void **state)
{
    (void)state;
    EXPECT_NAME(rtm_put_json_name, "Step", "\"Step\"");
    EXPECT_NAME(rtm_put_json_name, "", "\"\"");
    EXPECT_NAME(rtm_put_json_name, "a\"b\\c\x01", "\"a\\\"b\\\\x5cc\\\\x01\"");

    /* every single byte, and random byte strings */
    lcg_state = 5;
    for (int i = 0; i < 256 + 2000; i++) {
        char raw[40];
        size_t n;
        if (i < 256) {
            raw[0] = (char)i;
            n = 1;
        } else {
            n = lcg_next() % sizeof raw;
            for (size_t k = 0; k < n; k++)
                raw[k] = (char)lcg_next();
        }
        char *j = name_with(rtm_put_json_name, raw, n);
        char *dec = json_string_decode(j);
        if (!dec)
            fail_msg("not a valid JSON string: %s", j);
        char *plain = name_with(rtm_put_name, raw, n);
        assert_string_equal(dec, plain);
        free(plain);
        free(dec);
        free(j);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(put_name_escapes),
        cmocka_unit_test(put_name_as_bytewise),
        cmocka_unit_test(put_csv_name_quotes_only_when_needed),
        cmocka_unit_test(put_json_name_is_valid_json),
    };
    return run_test_cases(tests, NULL, NULL);
}
