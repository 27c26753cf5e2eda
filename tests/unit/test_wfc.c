/* test_wfc.c — the wfc node on tiny samples and tilesets whose outcome is forced. */
#include "unit.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "smalti.h"
#include "../../src/io/output.h"

typedef struct res_dir {
    char root[64], samples[96], tilesets[96], tiles[128], huge[128];
} res_dir;

static void put_u32(FILE *f, uint32_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
    fwrite(b, 1, 4, f);
}

/* A VOX tile of mx x my x mz voxels with `count` voxels (x, y, z, colour); the others empty. */
static void write_tile(const char *path, uint32_t mx, uint32_t my, uint32_t mz, const unsigned char (*voxels)[4], uint32_t count)
{
    FILE *f = fopen(path, "wb");
    if (!f) fail_msg("cannot write %s", path);
    fwrite("VOX ", 1, 4, f);
    put_u32(f, 150);
    fwrite("MAIN", 1, 4, f);
    put_u32(f, 0);
    put_u32(f, 24 + 12 + 4 + 4 * count);
    fwrite("SIZE", 1, 4, f);
    put_u32(f, 12);
    put_u32(f, 0);
    put_u32(f, mx); put_u32(f, my); put_u32(f, mz);
    fwrite("XYZI", 1, 4, f);
    put_u32(f, 4 + 4 * count);
    put_u32(f, 0);
    put_u32(f, count);
    if (count) fwrite(voxels, 4, count, f);
    fclose(f);
}

/* A 2x2x1 VOX tile: palette colour 1 at (0,0), colour 2 on the other three voxels. */
static void write_corner_tile(const char *path)
{
    static const unsigned char voxels[4][4] = {{0, 0, 0, 1}, {1, 0, 0, 2}, {0, 1, 0, 2}, {1, 1, 0, 2}};
    write_tile(path, 2, 2, 1, voxels, 4);
}

static int setup(void **state)
{
    res_dir *rd = calloc(1, sizeof *rd);
    snprintf(rd->root, sizeof rd->root, "/tmp/smalti-wfc-XXXXXX");
    if (!mkdtemp(rd->root)) return -1;
    snprintf(rd->samples, sizeof rd->samples, "%s/samples", rd->root);
    snprintf(rd->tilesets, sizeof rd->tilesets, "%s/tilesets", rd->root);
    snprintf(rd->tiles, sizeof rd->tiles, "%s/tilesets/One", rd->root);
    snprintf(rd->huge, sizeof rd->huge, "%s/tilesets/Huge", rd->root);
    if (mkdir(rd->samples, 0700) != 0 || mkdir(rd->tilesets, 0700) != 0 || mkdir(rd->tiles, 0700) != 0 ||
        mkdir(rd->huge, 0700) != 0)
        return -1;
    /* Stripes: a 2x1 sample of two colours, so its 2x2 patterns are the two phases of vertical stripes. */
    unsigned char cells[2] = {0, 1};
    grid_view g = {.cells = cells, .mx = 2, .my = 1, .mz = 1, .legend = "BW"};
    const uint32_t colors[2] = {0x000000, 0xFFFFFF};
    char path[192];
    snprintf(path, sizeof path, "%s/Stripes.png", rd->samples);
    smalti_error err;
    if (!save_png(path, &g, colors, 1, NULL, &err)) fail_msg("%s", err.message);
    /* Noise: 64x64 pixels of 16 colours drawn at random, so that nearly every 2x2 window is a pattern of its own. */
    static unsigned char noise[64 * 64];
    uint32_t seed = 12345, palette16[16];
    for (int i = 0; i < 16; i++) palette16[i] = (uint32_t)i * 0x0f0f0f;
    for (int i = 0; i < 64 * 64; i++) noise[i] = (unsigned char)((seed = seed * 1103515245u + 12345u) >> 16) % 16;
    grid_view gn = {.cells = noise, .mx = 64, .my = 64, .mz = 1, .legend = "ABCDEFGHIJKLMNOP"};
    snprintf(path, sizeof path, "%s/Noise.png", rd->samples);
    if (!save_png(path, &gn, palette16, 1, NULL, &err)) fail_msg("%s", err.message);
    snprintf(path, sizeof path, "%s/Corner.vox", rd->tiles);
    write_corner_tile(path);
    snprintf(path, sizeof path, "%s/One.xml", rd->tilesets);
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs("<tileset><tiles><tile name=\"Corner\"/></tiles><neighbors>"
          "<neighbor left=\"Corner\" right=\"Corner\"/><neighbor left=\"z Corner\" right=\"z Corner\"/>"
          "</neighbors></tileset>\n", f);
    fclose(f);
    /* Huge: one 128x128x32 tile. */
    snprintf(path, sizeof path, "%s/Block.vox", rd->huge);
    write_tile(path, 128, 128, 32, NULL, 0);
    snprintf(path, sizeof path, "%s/Huge.xml", rd->tilesets);
    if (!(f = fopen(path, "w"))) return -1;
    fputs("<tileset><tiles><tile name=\"Block\"/></tiles><neighbors><neighbor left=\"Block\" right=\"Block\"/>"
          "</neighbors></tileset>\n", f);
    fclose(f);
    *state = rd;
    return 0;
}

static int teardown(void **state)
{
    res_dir *rd = *state;
    char path[192];
    snprintf(path, sizeof path, "%s/Stripes.png", rd->samples);
    unlink(path);
    snprintf(path, sizeof path, "%s/Noise.png", rd->samples);
    unlink(path);
    snprintf(path, sizeof path, "%s/Corner.vox", rd->tiles);
    unlink(path);
    snprintf(path, sizeof path, "%s/One.xml", rd->tilesets);
    unlink(path);
    snprintf(path, sizeof path, "%s/Block.vox", rd->huge);
    unlink(path);
    snprintf(path, sizeof path, "%s/Huge.xml", rd->tilesets);
    unlink(path);
    rmdir(rd->huge);
    rmdir(rd->tiles);
    rmdir(rd->tilesets);
    rmdir(rd->samples);
    rmdir(rd->root);
    free(rd);
    return 0;
}

static smalti_model *load(const res_dir *rd, const char *xml, int mx, int my)
{
    return unit_load(xml, "wfc.xml", mx, my, 1, rd->root);
}

/* One observation fixes the stripes' phase and propagation decides every
   other cell: steps are the setup, that observation, writing the new grid,
   and the branch ending (which ends the run). */
static void stripes_collapse_in_one_observation(void **state)
{
    smalti_model *m = load(*state, "<sequence values=\"BW\"><wfc sample=\"Stripes\" values=\"AC\" n=\"2\" symmetry=\"()\"/></sequence>", 4, 4);
    for (int seed = 1; seed <= 4; seed++) {
        smalti_run *run = smalti_run_new(m, seed, NULL);
        assert_int_equal(smalti_run_to_end(run, 0), 4);
        assert_true(smalti_run_finished(run));
        int mx, my, mz;
        const unsigned char *g = smalti_run_grid(run, &mx, &my, &mz);
        assert_string_equal(smalti_run_legend(run), "AC");
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 4; x++) {
                assert_int_not_equal(g[x + y * 4], g[(x + 1) % 4 + y * 4]);
                assert_int_equal(g[x + y * 4], g[x + (y + 1) % 4 * 4]);
            }
        smalti_run_free(run);
    }
    smalti_model_free(m);
}

/* The children act on the new grid, one step each, after it is written. */
static void children_run_on_the_new_grid(void **state)
{
    smalti_model *m = load(*state, "<sequence values=\"BW\"><wfc sample=\"Stripes\" values=\"AC\" n=\"2\" symmetry=\"()\">"
                               "<one in=\"A\" out=\"C\"/></wfc></sequence>", 4, 4);
    smalti_run *run = smalti_run_new(m, 7, NULL);
    assert_int_equal(smalti_run_to_end(run, 0), 3 + 8 + 1);
    const unsigned char *g = smalti_run_grid(run, NULL, NULL, NULL);
    for (int i = 0; i < 16; i++) assert_int_equal(g[i], 1);
    smalti_run_free(run);
    smalti_model_free(m);
}

/* Every cell must start with colour A, but A's right neighbour starts with C:
   the wfc fails on its first step and keeps failing while it stays the
   current branch (as in the reference), so only the step limit ends the run. */
static void contradictive_start_fails_every_step(void **state)
{
    smalti_model *m = load(*state, "<sequence values=\"BW\"><wfc sample=\"Stripes\" values=\"AC\" n=\"2\" symmetry=\"()\">"
                               "<rule in=\"B\" out=\"A\"/></wfc><one in=\"B\" out=\"W\"/></sequence>", 4, 4);
    smalti_run *run = smalti_run_new(m, 1, NULL);
    assert_int_equal(smalti_run_to_end(run, 10), 10);
    assert_false(smalti_run_finished(run));
    int mx, my, mz;
    const unsigned char *g = smalti_run_grid(run, &mx, &my, &mz);
    assert_int_equal(mx * my * mz, 16);
    int white = 0;
    for (int i = 0; i < 16; i++) white += g[i] == 1;
    assert_int_equal(white, 1);
    smalti_run_free(run);
    smalti_model_free(m);
}

/* Tiles are placed every S - overlap cells: overlap -1 leaves a gap line of value 0 after each 2x2 tile. */
static void tiles_are_placed_with_their_overlap(void **state)
{
    smalti_model *m = load(*state, "<sequence values=\"BW\"><wfc tileset=\"One\" values=\"XYZ\" overlap=\"-1\"/></sequence>", 3, 2);
    smalti_run *run = smalti_run_new(m, 3, NULL);
    smalti_run_to_end(run, 0);
    int mx, my, mz;
    const unsigned char *g = smalti_run_grid(run, &mx, &my, &mz);
    assert_int_equal(mx, 3 * 3 - 1);
    assert_int_equal(my, 3 * 2 - 1);
    assert_int_equal(mz, 1);
    for (int y = 0; y < my; y++)
        for (int x = 0; x < mx; x++) {
            int u = x % 3, v = y % 3;
            /* The only tile has four rotations, each with one voxel of value 0 and three of value 1. */
            if (u < 2 && v < 2) {
                int corner = g[x - u + (y - v) * mx] + g[x - u + 1 + (y - v) * mx] + g[x - u + (y - v + 1) * mx] +
                             g[x - u + 1 + (y - v + 1) * mx];
                assert_int_equal(corner, 3);
            } else
                assert_int_equal(g[x + y * mx], 0);
        }
    smalti_run_free(run);
    smalti_model_free(m);
}

/* A problem too large to solve is refused when the model loads, before the propagator or a wave is
   allocated (a run once asked for them all at its start): a wave of 256^2 cells by some 4000 patterns (about
   7 GiB), and tiles of 128x128x32 voxels (their votes alone take voxels x values counters). */
static void oversized_problems_are_refused_at_load(void **state)
{
    const res_dir *rd = *state;
    static const struct { const char *xml; int mx, my, mz; const char *message; } cases[] = {
        {"<sequence values=\"BW\"><wfc sample=\"Noise\" values=\"ABCDEFGHIJKLMNOP\" n=\"2\" symmetry=\"()\"/></sequence>", 256,
         256, 1, "65536 cells by 3981 patterns would take about"},
        {"<sequence values=\"BW\"><wfc tileset=\"Huge\" values=\"AC\"/></sequence>", 1, 1, 1,
         "tiles of 128x128x32 voxels are too large: at most 262144 voxels"},
    };
    const char *roots[] = {rd->root};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        smalti_load_options opt = smalti_load_defaults();
        opt.mx = cases[k].mx;
        opt.my = cases[k].my;
        opt.mz = cases[k].mz;
        opt.resource_dirs = roots;
        opt.resource_dir_count = 1;
        opt.quiet = 1;
        smalti_error err;
        memset(&err, 0, sizeof err);
        smalti_model *m = smalti_model_load_string(cases[k].xml, "big.xml", &opt, &err);
        if (m) {
            smalti_model_free(m);
            fail_msg("case %zu loaded", k);
        }
        assert_int_equal(err.status, SMALTI_ERR_MODEL);
        assert_int_equal(err.line, 1);
        if (!strstr(err.message, cases[k].message)) fail_msg("\"%s\" does not say \"%s\"", err.message, cases[k].message);
    }
}

int run_wfc_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stripes_collapse_in_one_observation),
        cmocka_unit_test(children_run_on_the_new_grid),
        cmocka_unit_test(contradictive_start_fails_every_step),
        cmocka_unit_test(tiles_are_placed_with_their_overlap),
        cmocka_unit_test(oversized_problems_are_refused_at_load),
    };
    return cmocka_run_group_tests_name("wfc", tests, setup, teardown);
}
