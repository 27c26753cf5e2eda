/* test_escape.c — the one JSON string escaper and the one HTML/XML text escaper (src/io/escape.c):
   each escaped class, a hostile model name in both JSON forms, and the buffer form's refusal when out of room. */
#include "unit.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../src/io/escape.h"

/* A model name that tries to close a <script>, to end a JSON string early and to break a line. */
static const char hostile[] = "a</script>\"b\x01\n";
static const char hostile_json[] = "\"a\\u003c/script\\u003e\\\"b\\u0001\\n\"";

/* What json_write_string writes for the len bytes at s; the caller frees it. */
static char *json_of(const char *s, size_t len)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    assert_non_null(f);
    json_write_string(f, s, len);
    assert_int_equal(fclose(f), 0);
    return text;
}

static char *html_of(const char *s)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    assert_non_null(f);
    html_write_text(f, s);
    assert_int_equal(fclose(f), 0);
    return text;
}

static void json_is(const char *s, size_t len, const char *want)
{
    char *got = json_of(s, len);
    assert_string_equal(got, want);
    free(got);
}

static void json_escapes_each_class(void **state)
{
    (void)state;
    json_is("plain", 5, "\"plain\"");
    json_is("\"\\", 2, "\"\\\"\\\\\"");
    json_is("\n\t\r\b\f", 5, "\"\\n\\t\\r\\b\\f\"");
    json_is("\x01\x1f\x7f", 3, "\"\\u0001\\u001f\\u007f\"");
    json_is("a\0b", 3, "\"a\\u0000b\"");
    json_is("<>&", 3, "\"\\u003c\\u003e\\u0026\"");
    json_is("/ '", 3, "\"/ '\""); /* '/' and '\'' need nothing in JSON */
    json_is("caf\xc3\xa9 \xe2\x80\xa8", 9, "\"caf\xc3\xa9 \xe2\x80\xa8\""); /* UTF-8 passes, U+2028 too */
}

static void json_forms_agree_on_a_hostile_name(void **state)
{
    (void)state;
    json_is(hostile, strlen(hostile), hostile_json);
    char buf[64];
    memset(buf, '#', sizeof buf);
    size_t n = 2;
    assert_true(json_append_string(buf, sizeof buf, &n, hostile));
    assert_int_equal(n, 2 + strlen(hostile_json));
    assert_memory_equal(buf + 2, hostile_json, strlen(hostile_json));
    assert_int_equal(buf[n], 0);
    assert_memory_equal(buf, "##", 2); /* nothing before *n is touched */
}

/* For every size too small by at least one byte: false, *n kept, nothing at or past the end. */
static void json_buffer_refuses_when_out_of_room(void **state)
{
    (void)state;
    const size_t need = strlen(hostile_json) + 1; /* with the NUL */
    for (size_t size = 0; size <= need; size++) {
        char buf[64];
        memset(buf, '#', sizeof buf);
        size_t n = 0;
        bool ok = json_append_string(buf, size, &n, hostile);
        if (size < need) {
            assert_false(ok);
            assert_int_equal(n, 0);
        } else {
            assert_true(ok);
            assert_string_equal(buf, hostile_json);
        }
        for (size_t k = size; k < sizeof buf; k++) assert_int_equal(buf[k], '#');
    }
    /* Appending after text already there: the room counted from *n. */
    char buf[9] = "{\"a\":";
    size_t n = 5;
    assert_false(json_append_string(buf, sizeof buf, &n, "xy"));
    assert_int_equal(n, 5);
    assert_true(json_append_string(buf, sizeof buf, &n, "x"));
    assert_int_equal(n, 8);
    assert_string_equal(buf, "{\"a\":\"x\"");
}

static void html_is(const char *s, const char *want)
{
    char *got = html_of(s);
    assert_string_equal(got, want);
    free(got);
}

static void html_escapes_each_class(void **state)
{
    (void)state;
    html_is("plain text", "plain text");
    html_is("&<>\"'", "&amp;&lt;&gt;&quot;&#39;");
    html_is("a</script>\"b", "a&lt;/script&gt;&quot;b");
    html_is("\t\n\r", "\t\n\r");                             /* allowed in XML 1.0 */
    html_is("a\x01" "b\x1f" "c\x0b", "a\xef\xbf\xbd" "b\xef\xbf\xbd" "c\xef\xbf\xbd"); /* forbidden: U+FFFD */
    html_is("caf\xc3\xa9", "caf\xc3\xa9");
    html_is("&amp;", "&amp;amp;"); /* escaped once more, not taken as already escaped */
    html_is(NULL, "");
}

int run_escape_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_escapes_each_class),
        cmocka_unit_test(json_forms_agree_on_a_hostile_name),
        cmocka_unit_test(json_buffer_refuses_when_out_of_room),
        cmocka_unit_test(html_escapes_each_class),
    };
    return cmocka_run_group_tests_name("escape", tests, NULL, NULL);
}
