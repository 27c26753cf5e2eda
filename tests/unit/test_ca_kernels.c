/* test_ca_kernels.c — `convolution` kernels against a plain re-count: radius 2 and the cell itself [smalti]. */
#include "unit.h"
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "smalti.h"

enum { MAX_SIDE = 17, MAX_CELLS = MAX_SIDE * MAX_SIDE, RULES = 4 };

/* Values D, A, B; each rule counts values weighted by how often they are listed. */
typedef struct plain_rule {
    char in, out;
    const char *values;
    bool sums[28];
} plain_rule;

typedef struct kernel {
    const char *name;
    int radius;
    bool diamond; /* |dx| + |dy| <= radius, else the whole square */
} kernel;

static const kernel kernels[] = {
    {"VonNeumann", 1, true}, {"Moore", 1, false}, {"VonNeumann2", 2, true}, {"Moore2", 2, false},
};

static uint32_t next_random(uint32_t *seed)
{
    *seed = *seed * 1664525u + 1013904223u;
    return *seed >> 8;
}

/* One generation by the definition: each cell reads the old grid, the first
   rule whose in matches, whose out differs and whose count is in its sums wins. */
static void plain_step(const char *before, char *after, int mx, int my, const kernel *k, bool self, bool periodic,
                       const plain_rule *rules)
{
    for (int y = 0; y < my; y++)
        for (int x = 0; x < mx; x++) {
            char cell = before[x + y * mx];
            after[x + y * mx] = cell;
            for (int r = 0; r < RULES; r++) {
                if (rules[r].in != cell || rules[r].out == cell) continue;
                int sum = 0;
                for (int dy = -k->radius; dy <= k->radius; dy++)
                    for (int dx = -k->radius; dx <= k->radius; dx++) {
                        if (k->diamond && abs(dx) + abs(dy) > k->radius) continue;
                        if (dx == 0 && dy == 0 && !self) continue;
                        int sx = x + dx, sy = y + dy;
                        if (periodic) {
                            sx = ((sx % mx) + mx) % mx;
                            sy = ((sy % my) + my) % my;
                        } else if (sx < 0 || sy < 0 || sx >= mx || sy >= my) continue;
                        for (const char *v = rules[r].values; *v; v++) sum += *v == before[sx + sy * mx];
                    }
                if (sum <= 27 && rules[r].sums[sum]) {
                    after[x + y * mx] = rules[r].out;
                    break;
                }
            }
        }
}

/* A rule's sums as the attribute lists them: "3,5,9". */
static void sums_text(const plain_rule *r, char *out)
{
    const char *start = out;
    *out = 0;
    for (int s = 0; s <= 27; s++)
        if (r->sums[s]) out += sprintf(out, "%s%d", out == start ? "" : ",", s);
}

/* The node's first generation over `picture`. */
static void node_step(const char *picture, char *after, int mx, int my, const kernel *k, bool self, bool periodic,
                      const plain_rule *rules)
{
    char xml[2048], sums[RULES][128];
    for (int r = 0; r < RULES; r++) sums_text(&rules[r], sums[r]);
    snprintf(xml, sizeof xml,
             "<convolution values=\"DAB\" neighborhood=\"%s\" self=\"%s\" periodic=\"%s\" steps=\"1\">"
             "<rule in=\"%c\" out=\"%c\" values=\"%s\" sum=\"%s\"/><rule in=\"%c\" out=\"%c\" values=\"%s\" sum=\"%s\"/>"
             "<rule in=\"%c\" out=\"%c\" values=\"%s\" sum=\"%s\"/><rule in=\"%c\" out=\"%c\" values=\"%s\" sum=\"%s\"/>"
             "</convolution>",
             k->name, self ? "True" : "False", periodic ? "True" : "False", rules[0].in, rules[0].out, rules[0].values,
             sums[0], rules[1].in, rules[1].out, rules[1].values, sums[1], rules[2].in, rules[2].out, rules[2].values,
             sums[2], rules[3].in, rules[3].out, rules[3].values, sums[3]);
    smalti_model *model = unit_load(xml, "kernels", mx, my, 1, NULL);
    smalti_run *run = smalti_run_new(model, 1, NULL);
    assert_non_null(run);
    unit_lay_picture(run, picture);
    smalti_run_step(run);
    int gx, gy, gz;
    const unsigned char *cells = smalti_run_grid(run, &gx, &gy, &gz);
    const char *legend = smalti_run_legend(run);
    for (int i = 0; i < mx * my; i++) after[i] = legend[cells[i]];
    after[mx * my] = 0;
    smalti_run_free(run);
    smalti_model_free(model);
}

/* Random grids and random sums, every kernel, with and without the cell
   itself, wrapping or not, thin grids included (a radius wider than the grid
   wraps onto the same cells again): the node agrees with the plain count. */
static void kernels_match_a_plain_count(void **state)
{
    (void)state;
    static const char *const rule_values[RULES] = {"A", "AB", "BBA", "D"};
    static const char rule_in[RULES] = {'D', 'A', 'B', 'A'}, rule_out[RULES] = {'A', 'B', 'D', 'D'};
    const int shapes[][2] = {{1, 1}, {3, 2}, {2, 7}, {5, 5}, {9, 6}, {17, 13}};
    uint32_t seed = 36;
    long changed = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++)
            for (int flags = 0; flags < 4; flags++)
                for (int trial = 0; trial < 3; trial++) {
                    const int mx = shapes[s][0], my = shapes[s][1];
                    const bool self = flags & 1, periodic = flags & 2;
                    char picture[MAX_CELLS + 1], expected[MAX_CELLS + 1], got[MAX_CELLS + 1];
                    for (int i = 0; i < mx * my; i++) picture[i] = "DAB"[next_random(&seed) % 3];
                    picture[mx * my] = 0;
                    plain_rule rules[RULES];
                    for (int r = 0; r < RULES; r++) {
                        rules[r] = (plain_rule){.in = rule_in[r], .out = rule_out[r], .values = rule_values[r]};
                        for (int v = 0; v <= 27; v++) rules[r].sums[v] = next_random(&seed) % 3 == 0;
                        rules[r].sums[next_random(&seed) % 28] = true; /* never empty */
                    }
                    plain_step(picture, expected, mx, my, &kernels[k], self, periodic, rules);
                    expected[mx * my] = 0;
                    node_step(picture, got, mx, my, &kernels[k], self, periodic, rules);
                    if (strcmp(expected, got) != 0)
                        fail_msg("%s self=%d periodic=%d %dx%d\npicture  %s\nexpected %s\ngot      %s", kernels[k].name,
                                 self, periodic, mx, my, picture, expected, got);
                    changed += strcmp(picture, expected) != 0;
                }
    assert_true(changed > 100); /* the rules did fire: the comparison saw real generations */
}

/* One A in the middle of a 7x7 grid of D, rule D -> A at count 1: the cells
   that see it are exactly the kernel's cells around it (and with self, the
   count-1 rule for A keeps A as it is, since an A counts itself). */
static void kernel_shapes(void **state)
{
    (void)state;
    const char *dot = "DDDDDDD" "DDDDDDD" "DDDDDDD" "DDDADDD" "DDDDDDD" "DDDDDDD" "DDDDDDD";
    const char *moore2 = "DDDDDDD" "DAAAAAD" "DAAAAAD" "DAAAAAD" "DAAAAAD" "DAAAAAD" "DDDDDDD";
    const char *diamond2 = "DDDDDDD" "DDDADDD" "DDAAADD" "DAAAAAD" "DDAAADD" "DDDADDD" "DDDDDDD";
    const char *const names[] = {"Moore2", "VonNeumann2"}, *const shapes[] = {moore2, diamond2};
    for (int k = 0; k < 2; k++) {
        char xml[512];
        snprintf(xml, sizeof xml,
                 "<convolution values=\"DA\" neighborhood=\"%s\" steps=\"1\"><rule in=\"D\" out=\"A\" values=\"A\" sum=\"1\"/></convolution>",
                 names[k]);
        char *grid = unit_run_picture(xml, "shape", 7, 7, 1, dot, 1, NULL);
        assert_string_equal(grid, shapes[k]);
        free(grid);
    }
    /* VONNEUMANN5 of the thesis: a lone A counts 1 (itself) and dies at sum 1. */
    char *grid = unit_run_picture("<convolution values=\"DA\" neighborhood=\"VonNeumann\" self=\"True\" steps=\"1\">"
                                  "<rule in=\"A\" out=\"D\" values=\"A\" sum=\"1\"/></convolution>",
                                  "self", 7, 7, 1, dot, 1, NULL);
    assert_null(strchr(grid, 'A'));
    free(grid);
}

static void load_fails(const char *xml, int mz, int line, const char *message)
{
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = opt.my = 8;
    opt.mz = mz;
    opt.quiet = 1;
    smalti_error err;
    smalti_model *m = smalti_model_load_string(xml, "bad.xml", &opt, &err);
    assert_null(m);
    assert_int_equal(err.line, line);
    if (!strstr(err.message, message)) fail_msg("\"%s\" does not say \"%s\"", err.message, message);
}

/* Radius 2 is 2-D only; a bad self is a load error; the thesis's names point to self. */
static void kernel_load_errors(void **state)
{
    (void)state;
    load_fails("<sequence values=\"DA\">\n<convolution neighborhood=\"Moore2\" in=\"D\" out=\"A\" values=\"A\" sum=\"1\"/></sequence>",
               3, 2, "it is a 2-D neighborhood");
    load_fails("<sequence values=\"DA\">\n<convolution neighborhood=\"Moore\" self=\"yes\" in=\"D\" out=\"A\" values=\"A\" sum=\"1\"/></sequence>",
               1, 2, "self");
    load_fails("<sequence values=\"DA\">\n<convolution neighborhood=\"Moore9\" in=\"D\" out=\"A\" values=\"A\" sum=\"1\"/></sequence>",
               1, 2, "neighborhood=\"Moore\" self=\"True\"");
    load_fails("<sequence values=\"DA\">\n<convolution neighborhood=\"VonNeumann5\" in=\"D\" out=\"A\" values=\"A\" sum=\"1\"/></sequence>",
               1, 2, "neighborhood=\"VonNeumann\" self=\"True\"");
}

int run_ca_kernel_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernels_match_a_plain_count),
        cmocka_unit_test(kernel_shapes),
        cmocka_unit_test(kernel_load_errors),
    };
    return cmocka_run_group_tests_name("cellular automaton kernels", tests, NULL, NULL);
}
