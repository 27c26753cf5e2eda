/* test_wfc_props.c — properties every finished wfc output must have, on the bundled Pipes tileset and Bricks sample. */
#include "unit.h"
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "smalti.h"
#include "../../src/core/diag.h"
#include "../../src/core/resource.h"

#define PIPE_TILE 7

static smalti_model *load_rules_model(const char *xml, int mx, int my)
{
    return unit_load(xml, "props.xml", mx, my, 1, "models/resources");
}

/* Runs to the end and returns the finished grid, failing unless the wfc wrote a grid of the expected size and legend. */
static const unsigned char *finished_grid(smalti_run *run, const char *legend, int mx, int my)
{
    smalti_run_to_end(run, 0);
    assert_true(smalti_run_finished(run));
    int gx, gy, gz;
    const unsigned char *g = smalti_run_grid(run, &gx, &gy, &gz);
    assert_string_equal(smalti_run_legend(run), legend);
    assert_int_equal(gx, mx);
    assert_int_equal(gy, my);
    assert_int_equal(gz, 1);
    return g;
}

/* The Pipes tiles put a pipe end "--p=p--" (ground 0, pipe 1, water 2) in the middle of a side, or only ground. */
static bool side_is_valid(const unsigned char *side)
{
    static const unsigned char pipe_end[PIPE_TILE] = {0, 0, 1, 2, 1, 0, 0};
    bool ground = true;
    for (int k = 0; k < PIPE_TILE; k++) ground = ground && side[k] == 0;
    return ground || memcmp(side, pipe_end, PIPE_TILE) == 0;
}

/* The Pipes tileset lets tiles touch when their touching edges are equal, so in any finished output every
   pipe end meets a pipe end and ground meets ground, across every tile boundary (and around, when periodic). */
static void check_pipes(const unsigned char *g, int tiles_x, int tiles_y, bool periodic)
{
    int W = tiles_x * PIPE_TILE, H = tiles_y * PIPE_TILE;
    int pipe_sides = 0;
    for (int ty = 0; ty < tiles_y; ty++)
        for (int tx = 0; tx < tiles_x; tx++) {
            int x0 = tx * PIPE_TILE, y0 = ty * PIPE_TILE;
            unsigned char right[PIPE_TILE], bottom[PIPE_TILE];
            for (int k = 0; k < PIPE_TILE; k++) {
                right[k] = g[x0 + PIPE_TILE - 1 + (y0 + k) * W];
                bottom[k] = g[x0 + k + (y0 + PIPE_TILE - 1) * W];
            }
            assert_true(side_is_valid(right));
            assert_true(side_is_valid(bottom));
            pipe_sides += right[PIPE_TILE / 2] != 0;
            if (tx + 1 < tiles_x || periodic) {
                int nx = (x0 + PIPE_TILE) % W;
                for (int k = 0; k < PIPE_TILE; k++) assert_int_equal(right[k], g[nx + (y0 + k) * W]);
            }
            if (ty + 1 < tiles_y || periodic) {
                int ny = (y0 + PIPE_TILE) % H;
                for (int k = 0; k < PIPE_TILE; k++) assert_int_equal(bottom[k], g[x0 + k + ny * W]);
            }
        }
    assert_true(pipe_sides > 0); /* not a vacuous pass on empty ground */
}

static void pipe_ends_meet_pipe_ends(void **state)
{
    (void)state;
    static const int sizes[][2] = {{6, 6}, {9, 5}, {12, 12}};
    for (int periodic = 0; periodic <= 1; periodic++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            int tx = sizes[s][0], ty = sizes[s][1];
            smalti_model *m = load_rules_model(periodic ? "<sequence values=\"B\"><wfc tileset=\"Pipes\" values=\"iLUY\" periodic=\"True\"/></sequence>"
                                                    : "<sequence values=\"B\"><wfc tileset=\"Pipes\" values=\"iLUY\"/></sequence>",
                                           tx, ty);
            for (int seed = 1; seed <= 5; seed++) {
                smalti_run *run = smalti_run_new(m, seed, NULL);
                check_pipes(finished_grid(run, "iLUY", tx * PIPE_TILE, ty * PIPE_TILE), tx, ty, periodic);
                smalti_run_free(run);
            }
            smalti_model_free(m);
        }
}

/* backtrack="N" only acts on a contradiction: Pipes never meets one, so the
   grids are those without it, pipe ends meeting pipe ends. */
static void backtracking_leaves_uncontradicted_runs_alone(void **state)
{
    (void)state;
    smalti_model *plain = load_rules_model("<sequence values=\"B\"><wfc tileset=\"Pipes\" values=\"iLUY\" periodic=\"True\"/></sequence>", 8, 6);
    smalti_model *bt = load_rules_model("<sequence values=\"B\"><wfc tileset=\"Pipes\" values=\"iLUY\" periodic=\"True\" backtrack=\"3\"/></sequence>", 8, 6);
    for (int seed = 1; seed <= 4; seed++) {
        smalti_run *a = smalti_run_new(plain, seed, NULL), *b = smalti_run_new(bt, seed, NULL);
        const unsigned char *ga = finished_grid(a, "iLUY", 8 * PIPE_TILE, 6 * PIPE_TILE);
        const unsigned char *gb = finished_grid(b, "iLUY", 8 * PIPE_TILE, 6 * PIPE_TILE);
        check_pipes(gb, 8, 6, true);
        assert_memory_equal(ga, gb, (size_t)8 * 6 * PIPE_TILE * PIPE_TILE);
        smalti_run_free(a);
        smalti_run_free(b);
    }
    smalti_model_free(plain);
    smalti_model_free(bt);
}

/* The bundled pipes model closes every pipe inside the picture: its border tiles are empty ground. */
static void pipes_model_keeps_its_border_empty(void **state)
{
    (void)state;
    smalti_load_options opt = smalti_load_defaults();
    const char *roots[] = {"models/resources"};
    opt.mx = 10; opt.my = 8; opt.mz = 1;
    opt.resource_dirs = roots;
    opt.resource_dir_count = 1;
    opt.quiet = 1;
    smalti_error err;
    smalti_model *m = smalti_model_load("models/pipes.xml", &opt, &err);
    if (!m) fail_msg("%s:%d: %s", err.file, err.line, err.message);
    smalti_run *run = smalti_run_new(m, 3, NULL);
    int W = 10 * PIPE_TILE, H = 8 * PIPE_TILE;
    const unsigned char *g = finished_grid(run, "iLUY", W, H);
    check_pipes(g, 10, 8, false);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            if (x < PIPE_TILE || y < PIPE_TILE || x >= W - PIPE_TILE || y >= H - PIPE_TILE) assert_int_equal(g[x + y * W], 0);
    smalti_run_free(run);
    smalti_model_free(m);
}

/* The Bricks sample as colour numbers in order of first appearance (the overlap model's numbering). */
static unsigned char *load_bricks(int *w, int *h)
{
    diag d = {.file = "test", .quiet = 1};
    uint32_t *argb = image_load_argb(&d, 0, "models/resources/samples/Bricks.png", w, h);
    assert_non_null(argb);
    unsigned char *ords = malloc((size_t)*w * *h);
    uint32_t colours[8];
    int c = 0;
    for (int i = 0; i < *w * *h; i++) {
        int k = 0;
        while (k < c && colours[k] != argb[i]) k++;
        if (k == c) {
            assert_true(c < 8);
            colours[c++] = argb[i];
        }
        ords[i] = (unsigned char)k;
    }
    free(argb);
    assert_int_equal(c, 4);
    return ords;
}

/* The NxN window of a wrapping w x h picture at (x, y), read left to right or mirrored. */
static void window(const unsigned char *p, int w, int h, int x, int y, int n, bool mirrored, unsigned char *out)
{
    for (int dy = 0; dy < n; dy++)
        for (int dx = 0; dx < n; dx++) out[dx + dy * n] = p[(x + (mirrored ? n - 1 - dx : dx)) % w + (y + dy) % h * w];
}

/* A periodic overlap-model output only holds NxN windows (wrapping) that occur in the periodic sample,
   or in its mirror image when the symmetry is (x). */
static void overlap_windows_occur_in_the_sample(void **state)
{
    (void)state;
    enum { N = 3 };
    int sw, sh;
    unsigned char *sample = load_bricks(&sw, &sh);
    static const int sizes[][2] = {{24, 18}, {30, 30}, {17, 12}};
    static const char *const symmetries[] = {"()", "(x)"};
    for (int sym = 0; sym < 2; sym++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            int mx = sizes[s][0], my = sizes[s][1];
            char xml[256];
            snprintf(xml, sizeof xml,
                     "<sequence values=\"B\"><wfc sample=\"Bricks\" values=\"DNna\" n=\"%d\" symmetry=\"%s\" periodic=\"True\"/></sequence>",
                     N, symmetries[sym]);
            smalti_model *m = load_rules_model(xml, mx, my);
            for (int seed = 1; seed <= 3; seed++) {
                smalti_run *run = smalti_run_new(m, seed, NULL);
                const unsigned char *g = finished_grid(run, "DNna", mx, my);
                for (int y = 0; y < my; y++)
                    for (int x = 0; x < mx; x++) {
                        unsigned char got[N * N], seen[N * N];
                        window(g, mx, my, x, y, N, false, got);
                        bool found = false;
                        for (int k = 0; k < sw * sh * (sym + 1) && !found; k++) {
                            window(sample, sw, sh, k % (sw * sh) % sw, k % (sw * sh) / sw, N, k >= sw * sh, seen);
                            found = memcmp(got, seen, sizeof got) == 0;
                        }
                        if (!found) fail_msg("seed %d, %dx%d, symmetry %s: the window at (%d, %d) is not in the sample", seed, mx, my,
                                             symmetries[sym], x, y);
                    }
                smalti_run_free(run);
            }
            smalti_model_free(m);
        }
    free(sample);
}

int run_wfc_prop_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pipe_ends_meet_pipe_ends),
        cmocka_unit_test(pipes_model_keeps_its_border_empty),
        cmocka_unit_test(backtracking_leaves_uncontradicted_runs_alone),
        cmocka_unit_test(overlap_windows_occur_in_the_sample),
    };
    return cmocka_run_group_tests_name("wfc properties", tests, NULL, NULL);
}
