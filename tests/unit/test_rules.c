/* test_rules.c — rule parsing, symmetry variants, unions, wildcards and matching. */
#include "unit.h"
#include <libxml/parser.h>
#include <string.h>
#include "../../src/core/rule.h"
#include "../../src/core/xmlutil.h"
#include "../../src/nodes/nodes.h"

typedef struct fixture {
    xmlDoc *doc;
    grid_def grid;
    diag d;
    smalti_error err;
} fixture;

/* Parse `xml`; its root defines the grid and its first child is the rule. */
static rule *load(fixture *f, const char *xml, int mx, int my, int mz)
{
    memset(f, 0, sizeof *f);
    f->d.file = "test.xml";
    f->d.err = &f->err;
    f->d.quiet = 1;
    f->doc = xmlReadMemory(xml, (int)strlen(xml), "test.xml", NULL, XML_PARSE_NONET);
    assert_non_null(f->doc);
    xmlNode *root = xmlDocGetRootElement(f->doc);
    assert_true(grid_load(&f->d, root, mx, my, mz, GRID_REFERENCE_MAX_VALUES, node_holds_unions, &f->grid));
    xmlNode *el = xml_first_child(root);
    while (el && xml_is(el, "union")) el = xml_next(el);
    return rule_load(&f->d, NULL, el, &f->grid, &f->grid);
}

static void done(fixture *f)
{
    grid_free(&f->grid);
    xmlFreeDoc(f->doc);
}

static void parses_rows_and_layers(void **state)
{
    (void)state;
    fixture f;
    rule *r = load(&f, "<sequence values=\"ABCD\"><one in=\"AB/CD\" out=\"BA/DC\"/></sequence>", 8, 8, 1);
    assert_non_null(r);
    assert_int_equal(r->imx, 2);
    assert_int_equal(r->imy, 2);
    assert_int_equal(r->imz, 1);
    const uint32_t in[] = {1, 2, 4, 8};
    const uint8_t out[] = {1, 0, 3, 2};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(r->input[i], in[i]);
        assert_int_equal(r->output[i], out[i]);
    }
    rule_free(r);
    done(&f);

    /* Layers are written top first: "AB CD" puts CD at z = 0. */
    r = load(&f, "<sequence values=\"ABCD\"><one in=\"AB CD\" out=\"AB CD\"/></sequence>", 8, 8, 8);
    assert_non_null(r);
    assert_int_equal(r->imx, 2);
    assert_int_equal(r->imy, 1);
    assert_int_equal(r->imz, 2);
    assert_int_equal(r->input[0], 4);
    assert_int_equal(r->input[1], 8);
    assert_int_equal(r->input[2], 1);
    assert_int_equal(r->input[3], 2);
    rule_free(r);
    done(&f);
}

static void rejects_bad_patterns(void **state)
{
    (void)state;
    fixture f;
    assert_null(load(&f, "<sequence values=\"AB\"><one in=\"AB/A\" out=\"AB/A\"/></sequence>", 8, 8, 1));
    assert_non_null(strstr(f.err.message, "not rectangular"));
    done(&f);
    assert_null(load(&f, "<sequence values=\"AB\"><one in=\"AB\" out=\"A\"/></sequence>", 8, 8, 1));
    assert_non_null(strstr(f.err.message, "non-matching pattern sizes"));
    done(&f);
    assert_null(load(&f, "<sequence values=\"AB\"><one in=\"AX\" out=\"AB\"/></sequence>", 8, 8, 1));
    assert_non_null(strstr(f.err.message, "input symbol 'X' is not in values"));
    done(&f);
    assert_null(load(&f, "<sequence values=\"AB\"><one in=\"AB\" out=\"A?\"/></sequence>", 8, 8, 1));
    assert_non_null(strstr(f.err.message, "output symbol '?' is not in values"));
    done(&f);
}

/* A cell's place in a rule takes 10 bits a coordinate: the longest side loads, with its last
   cell where it is; one more is an error, not a place wrapped round. */
static void rule_sides_are_bounded(void **state)
{
    (void)state;
    char model[2 * (RULE_MAX_SIDE + 1) + 128];
    char row[RULE_MAX_SIDE + 2];
    for (int side = RULE_MAX_SIDE; side <= RULE_MAX_SIDE + 1; side++) {
        memset(row, 'A', (size_t)side);
        row[side - 1] = 'B';
        row[side] = 0;
        snprintf(model, sizeof model, "<sequence values=\"AB\"><one in=\"%s\" out=\"%s\"/></sequence>", row, row);
        fixture f;
        rule *r = load(&f, model, 8, 8, 1);
        if (side == RULE_MAX_SIDE) {
            assert_non_null(r);
            assert_int_equal(r->imx, RULE_MAX_SIDE);
            rule_compile(r, RULE_MAX_SIDE + 5, 8);
            assert_int_equal(r->match_count, RULE_MAX_SIDE);
            assert_int_equal(r->match[RULE_MAX_SIDE - 1].dx, RULE_MAX_SIDE - 1);
            assert_int_equal(r->match[RULE_MAX_SIDE - 1].wave, wave_bit(1));
            assert_int_equal(r->write[RULE_MAX_SIDE - 1].value, 1);
            rule_free(r);
        } else {
            assert_null(r);
            assert_non_null(strstr(f.err.message, "a rule is at most 1023 cells on a side"));
        }
        done(&f);
    }
}

static void unions_and_wildcards(void **state)
{
    (void)state;
    fixture f;
    rule *r = load(&f,
                   "<sequence values=\"BWR\"><union symbol=\"?\" values=\"WR\"/>"
                   "<one in=\"B?*\" out=\"*RB\"/></sequence>", 4, 1, 1);
    assert_non_null(r);
    assert_int_equal(r->input[0], 1);
    assert_int_equal(r->input[1], 6);   /* W or R */
    assert_int_equal(r->input[2], 7);   /* anything */
    assert_int_equal(r->output[0], RULE_KEEP);
    assert_int_equal(r->binput[2], RULE_KEEP);
    assert_true(rule_compile(r, 4, 1));
    uint8_t grid[4] = {0, 1, 2, 0};     /* B W R B */
    assert_true(rule_matches(r, grid, 0));   /* B W R */
    assert_false(rule_matches(r, grid, 1));  /* W R B: first must be B */
    grid[1] = 2;                             /* B R R B */
    assert_true(rule_matches(r, grid, 0));
    grid[1] = 0;                             /* B B R B: B is not in ? */
    assert_false(rule_matches(r, grid, 0));
    /* Shifts: value B is accepted at input x = 0 and x = 2 (the wildcard). */
    assert_int_equal(r->ishift_start[1] - r->ishift_start[0], 2);
    rule_free(r);
    done(&f);
}

static int variants(const char *xml, const char *sym, int mx, int my, int mz)
{
    fixture f;
    rule *r = load(&f, xml, mx, my, mz);
    assert_non_null(r);
    bool d2 = mz == 1;
    symmetry_set set;
    assert_true(symmetry_lookup(d2, sym, &set));
    rule **list = NULL;
    int count = 0;
    assert_true(rule_expand(&f.d, r, d2, set, &list, &count));
    for (int i = 0; i < count; i++) rule_free(list[i]);
    free(list);
    done(&f);
    return count;
}

static void square_group_sizes(void **state)
{
    (void)state;
    const char *asym = "<sequence values=\"ABCDEF\"><one in=\"ABC/DEF\" out=\"ABC/DEF\"/></sequence>";
    assert_int_equal(variants(asym, "()", 8, 8, 1), 1);
    assert_int_equal(variants(asym, "(x)", 8, 8, 1), 2);
    assert_int_equal(variants(asym, "(y)", 8, 8, 1), 2);
    assert_int_equal(variants(asym, "(x)(y)", 8, 8, 1), 4);
    assert_int_equal(variants(asym, "(xy+)", 8, 8, 1), 4);
    assert_int_equal(variants(asym, "(xy)", 8, 8, 1), 8);
    const char *line = "<sequence values=\"AB\"><one in=\"AB\" out=\"BA\"/></sequence>";
    assert_int_equal(variants(line, "(xy)", 8, 8, 1), 4);
    assert_int_equal(variants(line, "(x)", 8, 8, 1), 2);
    const char *dot = "<sequence values=\"AB\"><one in=\"A\" out=\"B\"/></sequence>";
    assert_int_equal(variants(dot, "(xy)", 8, 8, 1), 1);
    symmetry_set s;
    assert_false(symmetry_lookup(true, "(xyz)", &s));
    assert_false(symmetry_lookup(false, "(y)", &s));
}

static void cube_group_sizes(void **state)
{
    (void)state;
    const char *asym = "<sequence values=\"ABCDEFGH\"><one in=\"AB/CD EF/GH\" out=\"AB/CD EF/GH\"/></sequence>";
    assert_int_equal(variants(asym, "()", 8, 8, 8), 1);
    assert_int_equal(variants(asym, "(x)", 8, 8, 8), 2);
    assert_int_equal(variants(asym, "(z)", 8, 8, 8), 2);
    assert_int_equal(variants(asym, "(xy)", 8, 8, 8), 8);
    assert_int_equal(variants(asym, "(xyz+)", 8, 8, 8), 24);
    assert_int_equal(variants(asym, "(xyz)", 8, 8, 8), 48);
    const char *bar = "<sequence values=\"AB\"><one in=\"AB\" out=\"BA\"/></sequence>";
    assert_int_equal(variants(bar, "(xyz)", 8, 8, 8), 6);
}

/* A rotated rule is the original turned: its input read along the new axes. */
static void rotation_moves_cells(void **state)
{
    (void)state;
    fixture f;
    rule *r = load(&f, "<sequence values=\"ABC\"><one in=\"AB*\" out=\"CCC\"/></sequence>", 8, 8, 1);
    assert_non_null(r);
    symmetry_set set;
    assert_true(symmetry_lookup(true, "(xy+)", &set));
    rule **list = NULL;
    int count = 0;
    assert_true(rule_expand(&f.d, r, true, set, &list, &count));
    assert_int_equal(count, 4);
    /* Element 2 of the group (the first rotation) is a vertical 1x3 rule. */
    assert_int_equal(list[1]->imx, 1);
    assert_int_equal(list[1]->imy, 3);
    assert_true(list[0] == r && list[0]->original && !list[1]->original);
    for (int i = 0; i < count; i++) rule_free(list[i]);
    free(list);
    done(&f);
}

int run_rule_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parses_rows_and_layers),
        cmocka_unit_test(rejects_bad_patterns),
        cmocka_unit_test(rule_sides_are_bounded),
        cmocka_unit_test(unions_and_wildcards),
        cmocka_unit_test(square_group_sizes),
        cmocka_unit_test(cube_group_sizes),
        cmocka_unit_test(rotation_moves_cells),
    };
    return cmocka_run_group_tests_name("rules", tests, NULL, NULL);
}
