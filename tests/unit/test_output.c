/* test_output.c — PNG, VOX and text outputs decode back to the grid they were written from; atomic files. */
#define _GNU_SOURCE
#include "unit.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "smalti.h"
#include "../../src/io/output.h"

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wshadow"
#endif
#include <stb/stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

static smalti_run *maze_run(smalti_model **model, int mx, int my, int mz)
{
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = mx; opt.my = my; opt.mz = mz;
    *model = smalti_model_load_string("<markov values=\"BWA\" origin=\"True\"><one in=\"WBB\" out=\"WAW\"/>"
                                  "<one in=\"AW\" out=\"WW\"/></markov>", "maze.xml", &opt, NULL);
    assert_non_null(*model);
    smalti_run *run = smalti_run_new(*model, 9, NULL);
    smalti_run_to_end(run, 0);
    return run;
}

/* Every pixel of the PNG (decoded by stb_image) has its cell's palette colour. */
static void png_decodes_to_palette_colours(void **state)
{
    (void)state;
    smalti_model *m;
    smalti_run *run = maze_run(&m, 13, 7, 1);
    grid_view g;
    g.cells = smalti_run_grid(run, &g.mx, &g.my, &g.mz);
    g.legend = smalti_run_legend(run);
    palette pal;
    palette_default(&pal);
    uint32_t colors[GRID_COLORS_MAX];
    palette_colors(&pal, g.legend, colors, NULL, 0);
    assert_int_equal(colors[0], 0x000000); /* B */
    assert_int_equal(colors[1], 0xFFF1E8); /* W */
    assert_int_equal(colors[2], 0xC2C3C7); /* A */
    const char *path = "build/test_output.png";
    smalti_error err;
    assert_true(save_png(path, &g, colors, 3, NULL, &err));
    int w, h, n;
    unsigned char *px = stbi_load(path, &w, &h, &n, 3);
    assert_non_null(px);
    assert_int_equal(w, 39);
    assert_int_equal(h, 21);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint32_t c = colors[g.cells[x / 3 + (y / 3) * g.mx]];
            const unsigned char *p = px + 3 * (x + y * w);
            assert_int_equal(p[0], (c >> 16) & 0xff);
            assert_int_equal(p[1], (c >> 8) & 0xff);
            assert_int_equal(p[2], c & 0xff);
        }
    stbi_image_free(px);
    remove(path);
    smalti_run_free(run);
    smalti_model_free(m);
}

static uint32_t le32(const unsigned char *p) { return p[0] | p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

/* VOX: SIZE holds the grid size and XYZI lists every non-zero cell with value+1. */
static void vox_lists_every_filled_cell(void **state)
{
    (void)state;
    smalti_model *m;
    smalti_run *run = maze_run(&m, 7, 5, 3);
    grid_view g;
    g.cells = smalti_run_grid(run, &g.mx, &g.my, &g.mz);
    g.legend = smalti_run_legend(run);
    uint32_t colors[3] = {0, 0xffffff, 0x808080};
    const char *path = "build/test_output.vox";
    assert_true(save_vox(path, &g, colors, NULL, NULL));
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    unsigned char buf[8192];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    remove(path);
    assert_memory_equal(buf, "VOX ", 4);
    assert_int_equal(le32(buf + 4), 150);
    unsigned char *size = memmem(buf, len, "SIZE", 4), *xyzi = memmem(buf, len, "XYZI", 4);
    assert_non_null(size);
    assert_non_null(xyzi);
    assert_int_equal(le32(size + 12), 7);
    assert_int_equal(le32(size + 16), 5);
    assert_int_equal(le32(size + 20), 3);
    uint32_t count = le32(xyzi + 12), expected = 0;
    for (int i = 0; i < 7 * 5 * 3; i++) expected += g.cells[i] != 0;
    assert_int_equal(count, expected);
    for (uint32_t k = 0; k < count; k++) {
        const unsigned char *v = xyzi + 16 + 4 * k;
        assert_int_equal(v[3], g.cells[v[0] + v[1] * 7 + v[2] * 35] + 1);
    }
    smalti_run_free(run);
    smalti_model_free(m);
}

/* The built-in palette (rules/palette.xml) gives every symbol of the
   reference's palette.xml the same colour. */
static void default_palette_matches_reference(void **state)
{
    (void)state;
    const char *corpus = getenv("SMALTI_MJ_CORPUS");
    char path[1024];
    snprintf(path, sizeof path, "%s/resources/palette.xml", corpus && *corpus ? corpus : "../shared/mj");
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("skipped: corpus not found (%s)\n", path);
        skip();
    }
    fclose(f);
    palette ours, reference;
    palette_default(&ours);
    memset(&reference, 0, sizeof reference);
    assert_true(palette_load_file(&reference, path, NULL));
    int compared = 0;
    for (int ch = 0; ch < 256; ch++) {
        if (!reference.has[ch]) continue;
        assert_true(ours.has[ch]);
        assert_int_equal(ours.rgb[ch], reference.rgb[ch]);
        compared++;
    }
    assert_true(compared >= 50);
}

/* The compiled-in table (the Makefile makes it from rules/palette.xml) holds exactly what that
   file gives when read as a palette file: the same symbols, the same colours, none more. */
static void default_palette_is_rules_palette_xml(void **state)
{
    (void)state;
    palette ours, file;
    palette_default(&ours);
    memset(&file, 0, sizeof file);
    assert_true(palette_load_file(&file, "rules/palette.xml", NULL));
    int symbols = 0;
    for (int ch = 0; ch < 256; ch++) {
        assert_int_equal(ours.has[ch], file.has[ch]);
        if (file.has[ch]) assert_int_equal(ours.rgb[ch], file.rgb[ch]), symbols++;
    }
    assert_int_equal(symbols, 52);
}

/* What a temp_hook heard: names claimed and released, each released name already gone. */
typedef struct heard {
    int claims, releases;
    char name[4096];
} heard;

static void hear_claim(void *ctx, const char *tmp)
{
    heard *h = ctx;
    h->claims++;
    snprintf(h->name, sizeof h->name, "%s", tmp);
    assert_int_equal(access(tmp, F_OK), -1); /* told before the file is made */
}

static void hear_release(void *ctx, const char *tmp)
{
    heard *h = ctx;
    h->releases++;
    assert_string_equal(tmp, h->name);
    assert_int_equal(access(tmp, F_OK), -1); /* renamed or removed by now */
}

/* An atomic file tells its hook of its temporary name from before the file
   exists until it is renamed or removed; a target that is not a regular file is
   written directly (nothing to tell) or refused, and never replaced. */
static void atomic_files_tell_their_temporary_names(void **state)
{
    (void)state;
    heard h = {0};
    temp_hook hook = {hear_claim, hear_release, &h, NULL};
    atomic_file af;
    smalti_error err;
    const char *path = "build/test_atomic.txt";
    assert_true(atomic_open(&af, path, &hook, &err));
    assert_int_equal(h.claims, 1);
    assert_string_equal(h.name, af.tmp);
    assert_int_equal(access(af.tmp, F_OK), 0);
    fputs("done\n", af.f);
    assert_true(atomic_commit(&af, &err));
    assert_int_equal(h.releases, 1);
    assert_int_equal(access(path, F_OK), 0);
    assert_true(atomic_open(&af, path, &hook, &err));
    atomic_abort(&af);
    assert_int_equal(h.claims, 2);
    assert_int_equal(h.releases, 2);
    remove(path);
    assert_false(atomic_open(&af, "build/no/such/dir/x.txt", &hook, &err));
    assert_int_equal(h.claims, 3);
    assert_int_equal(h.releases, 3);
    assert_true(atomic_open(&af, "/dev/null", &hook, &err));
    assert_string_equal(af.tmp, "");
    fputs("nothing\n", af.f);
    assert_true(atomic_commit(&af, &err));
    struct stat st;
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    assert_false(atomic_open(&af, "build", &hook, &err));
    assert_int_equal(err.status, SMALTI_ERR_IO);
    assert_string_equal(err.file, "build");
    assert_string_equal(err.message, "is a directory");
    assert_int_equal(h.claims, 3);
    assert_int_equal(h.releases, 3);
}

int run_output_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(png_decodes_to_palette_colours),
        cmocka_unit_test(vox_lists_every_filled_cell),
        cmocka_unit_test(default_palette_matches_reference),
        cmocka_unit_test(default_palette_is_rules_palette_xml),
        cmocka_unit_test(atomic_files_tell_their_temporary_names),
    };
    return cmocka_run_group_tests_name("output", tests, NULL, NULL);
}
