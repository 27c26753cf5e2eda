/* test_wfc_steer.c — a designer's controls over wfc: fixed cells (rules into tiles, single tile variants, overlap
   values) survive into the output, and a density picture shifts tile frequencies the way it is painted. */
#include "unit.h"
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "smalti.h"
#include <libxml/parser.h>
#include "../../src/io/output.h"
#include "../../src/wfc/classic.h"

#define PIPE 7

/* Pipes tiles as drawn in tools/make_wfc_assets.py, with the values of values="iLUY": '-' ground i, 'p' pipe L,
   '=' water U, 'r' rivet Y. The turned caps are drawn here by hand. */
static const char *const cap_up[PIPE] = {"--p=p--", "--p=p--", "--p=p--", "--prp--", "--ppp--", "-------", "-------"};
static const char *const cap_right[PIPE] = {"-------", "-------", "--ppppp", "--pr===", "--ppppp", "-------", "-------"};
static const char *const cap_left[PIPE] = {"-------", "-------", "ppppp--", "===rp--", "ppppp--", "-------", "-------"};
static const char *const cap_down[PIPE] = {"-------", "-------", "--ppp--", "--prp--", "--p=p--", "--p=p--", "--p=p--"};
static const char *const cross[PIPE] = {"--p=p--", "--p=p--", "ppp=ppp", "=======", "ppp=ppp", "--p=p--", "--p=p--"};

static smalti_model *load(const char *xml, int mx, int my, const char *const *roots, int root_count)
{
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = mx;
    opt.my = my;
    opt.mz = 1;
    opt.resource_dirs = roots;
    opt.resource_dir_count = root_count;
    opt.quiet = 1;
    smalti_error err;
    smalti_model *m = smalti_model_load_string(xml, "steer.xml", &opt, &err);
    if (!m) fail_msg("%s:%d: %s", err.file, err.line, err.message);
    return m;
}

static const unsigned char *run_grid(smalti_run *run, int *w, int *h)
{
    smalti_run_to_end(run, 0);
    assert_true(smalti_run_finished(run));
    int d;
    const unsigned char *g = smalti_run_grid(run, w, h, &d);
    assert_int_equal(d, 1);
    return g;
}

/* The 7x7 tile at tile cell (tx, ty) of a Pipes output W pixels wide reads as `art`. */
static bool tile_is(const unsigned char *g, int W, int tx, int ty, const char *const *art)
{
    static const char symbols[] = "-p=r";
    for (int y = 0; y < PIPE; y++)
        for (int x = 0; x < PIPE; x++)
            if (symbols[g[tx * PIPE + x + (ty * PIPE + y) * W]] != art[y][x]) return false;
    return true;
}

/* Cells marked before the wave get exactly the tile their rule names: a whole tile (reference syntax), a turned
   tile ("z Cap", the tileset's own rotation syntax) and a numbered variant ("Cap 2": variants are numbered in the
   order e, b, a, ba, a2, ba2, a3, ba3 with repeats dropped, a the quarter turn and b the left-right mirror; the
   cap is its own mirror image, so its variants are e, a, ba, a2: up, right, left, down). */
static void fixed_tiles_survive(void **state)
{
    (void)state;
    const char *roots[] = {"models/resources"};
    smalti_model *m = load("<sequence values=\"BRLDX\"><wfc tileset=\"Pipes\" values=\"iLUY\">"
                       "<rule in=\"R\" out=\"z Cap\"/><rule in=\"L\" out=\"Cap 2\"/><rule in=\"D\" out=\"Cap 3\"/>"
                       "<rule in=\"X\" out=\"Cross\"/></wfc></sequence>",
                       7, 6, roots, 1);
    static const char picture[] = "BBBBBBB"
                                  "BRBBBLB"
                                  "BBBXBBB"
                                  "BBBBBBB"
                                  "BBDBBBB"
                                  "BBBBBXB";
    static const struct { int x, y; const char *const *art; } fixed[] = {
        {1, 1, cap_right}, {5, 1, cap_left}, {3, 2, cross}, {2, 4, cap_down}, {5, 5, cross}};
    for (int seed = 1; seed <= 6; seed++) {
        smalti_run *run = smalti_run_new(m, seed, NULL);
        unit_lay_picture(run, picture);
        int W, H;
        const unsigned char *g = run_grid(run, &W, &H);
        assert_int_equal(W, 7 * PIPE);
        assert_int_equal(H, 6 * PIPE);
        for (size_t k = 0; k < sizeof fixed / sizeof *fixed; k++)
            if (!tile_is(g, W, fixed[k].x, fixed[k].y, fixed[k].art)) fail_msg("seed %d: tile (%d, %d) is not the fixed one", seed, fixed[k].x, fixed[k].y);
        /* "Cap 2" is "zzz Cap", and the unturned cap differs from every fixed one: the check can fail. */
        assert_false(tile_is(g, W, 1, 1, cap_up));
        smalti_run_free(run);
    }
    smalti_model_free(m);
}

/* The overlap model fixes cells through rules too: a cell marked X may only hold a pattern whose corner (the
   cell itself) is light brick, so the output has light brick there. */
static void fixed_overlap_values_survive(void **state)
{
    (void)state;
    const char *roots[] = {"models/resources"};
    smalti_model *m = load("<sequence values=\"BX\"><wfc sample=\"Bricks\" values=\"DNna\" n=\"3\" periodic=\"True\">"
                       "<rule in=\"X\" out=\"a\"/></wfc></sequence>",
                       24, 18, roots, 1);
    static const int marks[][2] = {{3, 4}, {12, 10}, {20, 11}, {7, 16}};
    char picture[24 * 18 + 1];
    memset(picture, 'B', 24 * 18);
    picture[24 * 18] = 0;
    for (size_t k = 0; k < 4; k++) picture[marks[k][0] + marks[k][1] * 24] = 'X';
    int light_elsewhere = 0;
    for (int seed = 1; seed <= 4; seed++) {
        smalti_run *run = smalti_run_new(m, seed, NULL);
        unit_lay_picture(run, picture);
        int W, H;
        const unsigned char *g = run_grid(run, &W, &H);
        assert_string_equal(smalti_run_legend(run), "DNna");
        for (size_t k = 0; k < 4; k++) assert_int_equal(g[marks[k][0] + marks[k][1] * W], 3);
        for (int i = 0; i < W * H; i++) light_elsewhere += g[i] == 3 && picture[i] == 'B';
        smalti_run_free(run);
    }
    smalti_model_free(m);
    assert_true(light_elsewhere > 0); /* the marks did not just paint everything light */
}

/* A resource root in a fresh temporary folder holding samples/Halves.png: the left half black, the right white. */
static char *halves_root(void)
{
    char *dir = malloc(64);
    assert_non_null(dir);
    snprintf(dir, 64, "/tmp/smalti-steer-XXXXXX");
    assert_non_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/samples", dir);
    assert_int_equal(mkdir(path, 0777), 0);
    snprintf(path, sizeof path, "%s/samples/Halves.png", dir);
    static const uint32_t px[2] = {0x000000, 0xffffff};
    smalti_error err;
    if (!save_png_rgb(path, px, 2, 1, NULL, &err)) fail_msg("%s", err.message);
    return dir;
}

static void remove_root(char *dir)
{
    char path[128];
    /* The tiled case copies a whole tileset folder under tilesets/: remove it with its files. */
    snprintf(path, sizeof path, "rm -rf '%s/tilesets'", dir);
    assert_int_equal(system(path), 0);
    snprintf(path, sizeof path, "%s/samples/Halves.png", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/samples", dir);
    rmdir(path);
    rmdir(dir);
    free(dir);
}

/* Empty Pipes tiles in the left and right halves of a 16x8-tile output, over seeds 1..4. */
static void count_empty(const char *xml, const char *const *roots, int *left, int *right)
{
    static const char *const empty[PIPE] = {"-------", "-------", "-------", "-------", "-------", "-------", "-------"};
    smalti_model *m = load(xml, 16, 8, roots, 2);
    *left = *right = 0;
    for (int seed = 1; seed <= 4; seed++) {
        smalti_run *run = smalti_run_new(m, seed, NULL);
        int W, H;
        const unsigned char *g = run_grid(run, &W, &H);
        for (int ty = 0; ty < 8; ty++)
            for (int tx = 0; tx < 16; tx++)
                if (tile_is(g, W, tx, ty, empty)) (tx < 8 ? left : right)[0]++;
        smalti_run_free(run);
    }
    smalti_model_free(m);
}

/* Empty ground with density 0.9 gathers on the white half, with 0.1 on the black half; without a picture the halves
   are alike. */
static void density_shifts_tiles_where_painted(void **state)
{
    (void)state;
    char *dir = halves_root();
    const char *roots[] = {dir, "models/resources"};
    int left, right;
    count_empty("<sequence values=\"B\"><wfc tileset=\"Pipes\" values=\"iLUY\" density=\"Halves\">"
                "<density tile=\"Empty\" d=\"0.9\"/></wfc></sequence>",
                roots, &left, &right);
    if (!(right > 2 * left + 20)) fail_msg("d=0.9: %d empty tiles on the black half, %d on the white", left, right);
    count_empty("<sequence values=\"B\"><wfc tileset=\"Pipes\" values=\"iLUY\" density=\"Halves\" shannon=\"True\">"
                "<density tile=\"Empty\" d=\"0.1\"/></wfc></sequence>",
                roots, &left, &right);
    if (!(left > 2 * right + 20)) fail_msg("d=0.1: %d empty tiles on the black half, %d on the white", left, right);
    count_empty("<sequence values=\"B\"><wfc tileset=\"Pipes\" values=\"iLUY\"/></sequence>", roots, &left, &right);
    if (!(left < 2 * right && right < 2 * left)) fail_msg("no density: %d empty tiles on the left, %d on the right", left, right);
    remove_root(dir);
}

/* Light bricks (d = 1: every light pixel of a pattern scales its weight) gather on the white half of an overlap
   output, against a few either side without the picture. */
static void density_shifts_overlap_values(void **state)
{
    (void)state;
    char *dir = halves_root();
    const char *roots[] = {dir, "models/resources"};
    smalti_model *m = load("<sequence values=\"B\"><wfc sample=\"Bricks\" values=\"DNna\" n=\"3\" periodic=\"True\" shannon=\"True\" "
                       "density=\"Halves\"><density value=\"a\" d=\"1\"/></wfc></sequence>",
                       32, 24, roots, 2);
    int left = 0, right = 0;
    for (int seed = 1; seed <= 3; seed++) {
        smalti_run *run = smalti_run_new(m, seed, NULL);
        int W, H;
        const unsigned char *g = run_grid(run, &W, &H);
        for (int i = 0; i < W * H; i++)
            if (g[i] == 3) (i % W < W / 2 ? &left : &right)[0]++;
        smalti_run_free(run);
    }
    smalti_model_free(m);
    if (!(right > 3 * left + 60)) fail_msg("%d light brick cells on the black half, %d on the white", left, right);
    remove_root(dir);
}

/* Every tile neutral (d = 0.5, the default) scales no weight, so a density picture changes nothing at all. */
static void neutral_density_changes_nothing(void **state)
{
    (void)state;
    char *dir = halves_root();
    const char *roots[] = {dir, "models/resources"};
    static const char *const pairs[][2] = {
        {"<sequence values=\"B\"><wfc tileset=\"Pipes\" values=\"iLUY\"/></sequence>",
         "<sequence values=\"B\"><wfc tileset=\"Pipes\" values=\"iLUY\" density=\"Halves\" densityPower=\"4\"/></sequence>"},
        {"<sequence values=\"B\"><wfc tileset=\"Pipes\" values=\"iLUY\" shannon=\"True\"/></sequence>",
         "<sequence values=\"B\"><wfc tileset=\"Pipes\" values=\"iLUY\" shannon=\"True\" density=\"Halves\">"
         "<density tile=\"Line|Cross\" d=\"0.5\"/></wfc></sequence>"},
        {"<sequence values=\"B\"><wfc sample=\"Bricks\" values=\"DNna\" n=\"3\" periodic=\"True\" shannon=\"True\"/></sequence>",
         "<sequence values=\"B\"><wfc sample=\"Bricks\" values=\"DNna\" n=\"3\" periodic=\"True\" shannon=\"True\" density=\"Halves\"/></sequence>"},
    };
    for (size_t p = 0; p < sizeof pairs / sizeof *pairs; p++) {
        smalti_model *plain = load(pairs[p][0], 12, 10, roots, 2), *painted = load(pairs[p][1], 12, 10, roots, 2);
        for (int seed = 1; seed <= 3; seed++) {
            smalti_run *a = smalti_run_new(plain, seed, NULL), *b = smalti_run_new(painted, seed, NULL);
            int wa, ha, wb, hb;
            const unsigned char *ga = run_grid(a, &wa, &ha), *gb = run_grid(b, &wb, &hb);
            assert_int_equal(wa, wb);
            assert_int_equal(ha, hb);
            assert_memory_equal(ga, gb, (size_t)wa * ha);
            assert_int_equal(smalti_run_counter(a), smalti_run_counter(b));
            smalti_run_free(a);
            smalti_run_free(b);
        }
        smalti_model_free(plain);
        smalti_model_free(painted);
    }
    remove_root(dir);
}

/* The classic command's samples (tilesets/Knots.xml), or NULL when they are not beside the project. */
static const char *classic_tilesets(void)
{
    static char path[4096];
    if (!realpath("../shared/wfc/tilesets", path)) return NULL;
    return path;
}

/* Load one classic entry from a root; NULL with the error message in err when it does not load. */
static wfc_classic *classic_load(const char *root, const char *entry, smalti_error *err)
{
    xmlDoc *doc = xmlReadMemory(entry, (int)strlen(entry), "samples.xml", NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    diag d = {.file = "samples.xml", .err = err, .quiet = 1};
    wfc_classic_entry e;
    wfc_classic *m = wfc_classic_read_entry(&d, xmlDocGetRootElement(doc), &e) ? wfc_classic_load(&d, root, &e) : NULL;
    xmlFreeDoc(doc);
    return m;
}

/* The tile name ("corner 2") at (x, y) of a finished run's text, in out. */
static void classic_cell(const wfc_classic *m, int x, int y, char *out, size_t size)
{
    char *text = wfc_classic_text(m);
    assert_non_null(text);
    const char *p = text;
    for (int k = 0; k < y; k++) p = strchr(p, '\n') + 1;
    for (int k = 0; k < x; k++) p = strstr(p, ", ") + 2;
    size_t len = strcspn(p, ",");
    snprintf(out, size, "%.*s", (int)len, p);
    free(text);
}

/* The classic command's tiled entries take <fixed x y tile> cells ("name k": one variant, numbered as in the
   tileset's neighbors; "name": any of its variants) and a density picture with the tiles' densities. */
static void classic_fixed_cells_and_density(void **state)
{
    (void)state;
    const char *tilesets = classic_tilesets();
    if (!tilesets) skip();
    char *dir = halves_root();
    /* A copy, not a link: smalti wfc refuses links that lead out of its samples folder. */
    char copy[16384];
    snprintf(copy, sizeof copy, "mkdir '%s/tilesets' && cp -R '%s/Knots' '%s/Knots.xml' '%s/tilesets/'", dir, tilesets, tilesets, dir);
    assert_int_equal(system(copy), 0);
    smalti_error err;
    wfc_classic *m = classic_load(dir,
                                  "<simpletiled name=\"Knots\" subset=\"Standard\" size=\"8\" periodic=\"True\">"
                                  "<fixed x=\"1\" y=\"1\" tile=\"corner 2\"/><fixed x=\"5\" y=\"5\" tile=\"cross\"/>"
                                  "<fixed x=\"3\" y=\"6\" tile=\"line 1\"/><fixed x=\"7\" y=\"0\" tile=\"empty\"/></simpletiled>",
                                  &err);
    if (!m) fail_msg("%s:%d: %s", err.file, err.line, err.message);
    int corner_0 = 0;
    for (int seed = 1; seed <= 5; seed++) {
        assert_int_equal(wfc_classic_run(m, seed, -1), WFC_DONE);
        char cell[160];
        classic_cell(m, 1, 1, cell, sizeof cell);
        assert_string_equal(cell, "corner 2");
        classic_cell(m, 5, 5, cell, sizeof cell);
        assert_true(strncmp(cell, "cross ", 6) == 0);
        classic_cell(m, 3, 6, cell, sizeof cell);
        assert_string_equal(cell, "line 1");
        classic_cell(m, 7, 0, cell, sizeof cell);
        assert_string_equal(cell, "empty 0");
        classic_cell(m, 2, 2, cell, sizeof cell);
        corner_0 += strcmp(cell, "corner 2") != 0; /* an unfixed cell varies */
    }
    assert_true(corner_0 > 0);
    wfc_classic_free(m);

    m = classic_load(dir,
                     "<simpletiled name=\"Knots\" subset=\"Standard\" size=\"16\" periodic=\"True\" density=\"Halves\">"
                     "<density tile=\"empty\" d=\"1\"/></simpletiled>",
                     &err);
    if (!m) fail_msg("%s:%d: %s", err.file, err.line, err.message);
    int left = 0, right = 0;
    for (int seed = 1; seed <= 3; seed++) {
        assert_int_equal(wfc_classic_run(m, seed, -1), WFC_DONE);
        for (int y = 0; y < 16; y++)
            for (int x = 0; x < 16; x++) {
                char cell[160];
                classic_cell(m, x, y, cell, sizeof cell);
                if (strcmp(cell, "empty 0") == 0) (x < 8 ? &left : &right)[0]++;
            }
    }
    wfc_classic_free(m);
    if (!(right > 3 * left + 20)) fail_msg("%d empty tiles on the black half, %d on the white", left, right);

    static const char *const bad[][2] = {
        {"<simpletiled name=\"Knots\" size=\"8\"><fixed x=\"8\" y=\"0\" tile=\"empty\"/></simpletiled>", "is outside the 8x8 output"},
        {"<simpletiled name=\"Knots\" subset=\"Standard\"><fixed x=\"1\" y=\"0\" tile=\"t 1\"/></simpletiled>",
         "tile=\"t 1\" names no tile of this tileset (or of its subset)"},
        {"<simpletiled name=\"Knots\"><density tile=\"empty\" d=\"1\"/></simpletiled>", "<density> needs a density picture"},
        {"<simpletiled name=\"Knots\" density=\"Halves\"><density tile=\"empty\" d=\"2\"/></simpletiled>", "d=\"2\" must be from 0 to 1"},
        {"<simpletiled name=\"Knots\" density=\"Nowhere\"/>", "Nowhere.png"},
        {"<overlapping name=\"Knots\" density=\"Halves\"/>", "density pictures are for <simpletiled> entries"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        memset(&err, 0, sizeof err);
        m = classic_load(dir, bad[k][0], &err);
        if (m || !strstr(err.message, bad[k][1])) fail_msg("%s: got \"%s\"", bad[k][0], m ? "loaded" : err.message);
        assert_int_equal(err.line, 1);
    }
    remove_root(dir);
}

int run_wfc_steer_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fixed_tiles_survive),
        cmocka_unit_test(fixed_overlap_values_survive),
        cmocka_unit_test(density_shifts_tiles_where_painted),
        cmocka_unit_test(density_shifts_overlap_values),
        cmocka_unit_test(neutral_density_changes_nothing),
        cmocka_unit_test(classic_fixed_cells_and_density),
    };
    return cmocka_run_group_tests_name("wfc fixed cells and density", tests, NULL, NULL);
}
