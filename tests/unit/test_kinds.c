/* test_kinds.c — the facts in the node-kind tables: they agree with each other, and the loader, grid and lint act on them. */
#include "unit.h"
#include <stdio.h>
#include <string.h>
#include "../../src/nodes/nodes.h"

/* Each kind's fields make sense together; a kind added with a slip in its table fails here. */
static void every_kind_table_is_consistent(void **state)
{
    (void)state;
    size_t count = 0;
    for (const node_kind *k; (k = node_kind_at(count)); count++) {
        assert_non_null(k->name);
        assert_ptr_equal(node_kind_find(k->name), k); /* one kind per name */
        assert_non_null(k->load);
        if (k->makes_grid || k->ends_run || k->holds_unions || k->own_children) assert_true(k->is_branch);
        if (k->is_rule_node) assert_false(k->is_branch);
        /* A branch loads every child it does not read itself as a node: its own children are not nodes. */
        for (const char *const *c = k->own_children; c && *c; c++) {
            if (node_kind_find(*c)) fail_msg("<%s> lists <%s>, a node kind, among its own children", k->name, *c);
            assert_true(node_kind_reads_child(k, *c));
        }
        assert_false(node_kind_reads_child(k, "one"));
    }
    assert_true(count >= 17);
    assert_null(node_kind_at(count));
    assert_true(node_kind_find("map")->makes_grid && node_kind_reads_child(node_kind_find("map"), "rule"));
    assert_true(node_kind_reads_child(node_kind_find("wfc"), "density"));
    assert_false(node_kind_reads_child(node_kind_find("map"), "density"));
    assert_true(node_kind_find("prl")->is_rule_node && !node_kind_find("path")->is_rule_node);
}

typedef struct collected {
    int count;
    char text[2048];
} collected;

static void collect(void *userdata, const char *file, int line, const char *message)
{
    (void)file;
    collected *c = userdata;
    c->count++;
    size_t len = strlen(c->text);
    snprintf(c->text + len, sizeof c->text - len, "%d: %s\n", line, message);
}

static collected warnings_of(const char *xml)
{
    collected c = {0};
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = opt.my = 8;
    opt.warn = collect;
    opt.warn_userdata = &c;
    smalti_error err;
    smalti_model *m = smalti_model_load_string(xml, "kinds.xml", &opt, &err);
    if (!m) fail_msg("did not load: %s", err.message);
    smalti_model_free(m);
    return c;
}

/* ignored_attrs: the reference's extras pass silently on their own kinds only, and are never suggested. */
static void ignored_attributes_are_the_kinds_own(void **state)
{
    (void)state;
    collected c = warnings_of("<sequence values=\"BW\" periodic=\"True\"><union symbol=\"?\" values=\"BW\" color=\"F00\"/>"
                              "<markov periodic=\"True\"><one in=\"B\" out=\"W\" periodic=\"True\" steps=\"1\"/></markov>"
                              "<all in=\"B\" out=\"W\" periodic=\"True\" steps=\"1\"/>"
                              "<prl in=\"?\" out=\"W\" periodic=\"True\" d=\"2\"/></sequence>");
    if (c.count) fail_msg("warned: %s", c.text);
    c = warnings_of("<sequence values=\"BW\"><one in=\"B\" out=\"W\" d=\"2\" steps=\"1\"/>"
                    "<path from=\"B\" to=\"W\" on=\"B\" color=\"W\" periodic=\"True\"/></sequence>");
    assert_int_equal(c.count, 2);
    assert_non_null(strstr(c.text, "unknown attribute \"d\" on <one> is ignored"));
    assert_non_null(strstr(c.text, "unknown attribute \"periodic\" on <path> is ignored"));
    c = warnings_of("<sequence values=\"BW\"><one in=\"B\" out=\"W\" periodc=\"True\"/></sequence>");
    assert_int_equal(c.count, 1);
    assert_null(strstr(c.text, "did you mean 'periodic'"));
}

/* holds_unions: the grid reads unions of markov and sequence children, and no rule node's. */
static void unions_are_read_where_the_kinds_hold_them(void **state)
{
    (void)state;
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = opt.my = 8;
    opt.quiet = 1;
    smalti_error err;
    const char *read = "<sequence values=\"BWR\"><markov><union symbol=\"?\" values=\"BR\"/>"
                       "<one in=\"?\" out=\"W\" steps=\"1\"/></markov></sequence>";
    smalti_model *m = smalti_model_load_string(read, "kinds.xml", &opt, &err);
    if (!m) fail_msg("did not load: %s", err.message);
    smalti_model_free(m);
    const char *unread = "<sequence values=\"BWR\"><one in=\"B\" out=\"W\" steps=\"1\"><union symbol=\"?\" values=\"BR\"/></one>"
                         "<one in=\"?\" out=\"W\" steps=\"1\"/></sequence>";
    assert_null(smalti_model_load_string(unread, "kinds.xml", &opt, &err));
    assert_non_null(strstr(err.message, "input symbol '?' is not in"));
}

int run_kinds_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_kind_table_is_consistent),
        cmocka_unit_test(ignored_attributes_are_the_kinds_own),
        cmocka_unit_test(unions_are_read_where_the_kinds_hold_them),
    };
    return cmocka_run_group_tests_name("kinds", tests, NULL, NULL);
}
