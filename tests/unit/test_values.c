/* test_values.c — how many values a grid may have: 64 in a model with one of smalti's own nodes, the
   reference's 31 otherwise; waves past bit 31 in rules, unions, fields and requirements. */
#include "unit.h"
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 64 symbols: value v is SYMBOLS[v]. */
static const char SYMBOLS[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789#+";

static bool load_fails(const char *xml, int *line, char *message, size_t size)
{
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = opt.my = 16;
    opt.mz = 1;
    opt.quiet = 1;
    smalti_error err;
    smalti_model *m = smalti_model_load_string(xml, "values.xml", &opt, &err);
    if (m) {
        smalti_model_free(m);
        return false;
    }
    *line = err.line;
    snprintf(message, size, "%s", err.message);
    return true;
}

/* How many cells hold each value after the run. */
static void run_counts(const char *xml, int side, long counts[64])
{
    smalti_model *m = unit_load(xml, "values.xml", side, side, 1, NULL);
    smalti_run *run = smalti_run_new(m, 5, NULL);
    assert_non_null(run);
    smalti_run_to_end(run, 0);
    assert_false(smalti_run_error(run, NULL));
    assert_int_equal(strlen(smalti_run_legend(run)), 64);
    int mx, my, mz;
    const unsigned char *cells = smalti_run_grid(run, &mx, &my, &mz);
    memset(counts, 0, 64 * sizeof *counts);
    for (int i = 0; i < mx * my * mz; i++) {
        assert_true(cells[i] < 64);
        counts[cells[i]]++;
    }
    smalti_run_free(run);
    smalti_model_free(m);
}

/* Forty sites each take one of the top forty values (24 to 63), so every one of them is on the
   grid; then rules act on values past 31: all, one (its general path, the fast one holds 32
   values), prl, and a union of values 52 to 61. */
static void sixty_four_values_paint_and_rewrite(void **state)
{
    (void)state;
    char xml[1024];
    snprintf(xml, sizeof xml,
             "<sequence values=\"%s\">\n"
             "  <union symbol=\"?\" values=\"0123456789\"/>\n"
             "  <voronoi sites=\"40\" values=\"%s\" distinct=\"True\"/>\n"
             "  <all in=\"+\" out=\"#\"/>\n"
             "  <one in=\"x\" out=\"w\"/>\n"
             "  <prl in=\"y\" out=\"v\"/>\n"
             "  <all in=\"?\" out=\"z\"/>\n"
             "</sequence>",
             SYMBOLS, SYMBOLS + 24);
    long counts[64];
    run_counts(xml, 24, counts);
    for (int v = 0; v < 24; v++) assert_int_equal(counts[v], 0);
    const int gone[] = {63, 49, 50, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61}; /* +, x, y, 0..9 */
    for (size_t k = 0; k < sizeof gone / sizeof *gone; k++) assert_int_equal(counts[gone[k]], 0);
    const int kept[] = {24, 31, 32, 40, 47, 48, 51, 62}; /* Y, f, g, o, v, w, z, # */
    for (size_t k = 0; k < sizeof kept / sizeof *kept; k++) assert_true(counts[kept[k]] > 0);

    /* The same without the rules: every one of the forty values has its region. */
    snprintf(xml, sizeof xml, "<sequence values=\"%s\"><voronoi sites=\"40\" values=\"%s\" distinct=\"True\"/></sequence>", SYMBOLS,
             SYMBOLS + 24);
    run_counts(xml, 24, counts);
    for (int v = 24; v < 64; v++) assert_true(counts[v] > 0);
}

/* A field and a requirement over values past 31: the field leads `one` towards value 62 ('#')
   through cells of value 40 ('o'), and the requirement counts values 62 and 63. */
static void fields_and_requirements_see_high_values(void **state)
{
    (void)state;
    char xml[1024];
    snprintf(xml, sizeof xml,
             "<sequence values=\"%s\">\n"
             "  <all in=\"A\" out=\"o\"/>\n"
             "  <one in=\"o\" out=\"#\" steps=\"1\"/>\n"
             "  <one in=\"o\" out=\"+\" steps=\"1\"/>\n"
             "  <one in=\"+o\" out=\"b+\">\n"
             "    <field for=\"+\" to=\"#\" on=\"o\"/>\n"
             "  </one>\n"
             "  <require count=\"#+\" min=\"2\" max=\"2\"/>\n"
             "</sequence>",
             SYMBOLS);
    long counts[64];
    run_counts(xml, 16, counts);
    assert_int_equal(counts[62], 1);
    assert_int_equal(counts[63], 1);
    assert_true(counts[27] > 0); /* the walk's trail, 'b' */
}

/* 65 values are one too many; a model of the reference's nodes keeps its 31. */
static void the_limits_are_errors_at_their_lines(void **state)
{
    (void)state;
    char xml[1024], message[512];
    int line;
    snprintf(xml, sizeof xml, "<sequence values=\"%s\">\n  <voronoi sites=\"3\" values=\"AB\"/>\n</sequence>", SYMBOLS);
    assert_false(load_fails(xml, &line, message, sizeof message));
    snprintf(xml, sizeof xml, "<sequence values=\"%s!\">\n  <voronoi sites=\"3\" values=\"AB\"/>\n</sequence>", SYMBOLS);
    assert_true(load_fails(xml, &line, message, sizeof message));
    assert_int_equal(line, 1);
    assert_string_equal(message, "too many values (at most 64)");

    /* The reference's int waves: 31 values load, 32 do not, whatever the nodes but smalti's. */
    snprintf(xml, sizeof xml, "<sequence values=\"%.31s\">\n  <one in=\"A\" out=\"%c\"/>\n</sequence>", SYMBOLS, SYMBOLS[30]);
    assert_false(load_fails(xml, &line, message, sizeof message));
    snprintf(xml, sizeof xml, "<sequence values=\"%.32s\">\n  <one in=\"A\" out=\"%c\"/>\n</sequence>", SYMBOLS, SYMBOLS[31]);
    assert_true(load_fails(xml, &line, message, sizeof message));
    assert_int_equal(line, 1);
    assert_string_equal(message, "too many values (at most 31, as in MarkovJunior; 64 in a model that uses one of smalti's own nodes)");
    /* A map's grid too, and a smalti node anywhere in the model lifts it for every grid. */
    snprintf(xml, sizeof xml,
             "<sequence values=\"AB\">\n  <map values=\"%.32s\" scale=\"1 1 1\">\n    <rule in=\"A\" out=\"A\"/>\n  </map>\n</sequence>",
             SYMBOLS);
    assert_true(load_fails(xml, &line, message, sizeof message));
    assert_int_equal(line, 2);
    snprintf(xml, sizeof xml,
             "<sequence values=\"AB\">\n  <require count=\"A\" min=\"0\"/>\n  <map values=\"%.40s\" scale=\"1 1 1\">\n"
             "    <rule in=\"A\" out=\"A\"/>\n    <one in=\"A\" out=\"%c\"/>\n  </map>\n</sequence>",
             SYMBOLS, SYMBOLS[39]);
    assert_false(load_fails(xml, &line, message, sizeof message));
}

int run_values_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sixty_four_values_paint_and_rewrite),
        cmocka_unit_test(fields_and_requirements_see_high_values),
        cmocka_unit_test(the_limits_are_errors_at_their_lines),
    };
    return cmocka_run_group_tests_name("values", tests, NULL, NULL);
}
