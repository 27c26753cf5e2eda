/* test_convchain.c — the convchain node on tiny samples where the outcome is forced. */
#include "unit.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "smalti.h"
#include "../../src/io/output.h"

typedef struct sample_dir {
    char root[64], samples[96];
} sample_dir;

/* A 2x2 sample with `white_pixels` opaque white pixels, the rest black. */
static void write_sample(const sample_dir *sd, const char *name, int white_pixels)
{
    unsigned char cells[4];
    for (int i = 0; i < 4; i++) cells[i] = i < white_pixels;
    grid_view g = {.cells = cells, .mx = 2, .my = 2, .mz = 1, .legend = "BW"};
    const uint32_t colors[2] = {0x000000, 0xFFFFFF};
    char path[160];
    snprintf(path, sizeof path, "%s/%s.png", sd->samples, name);
    smalti_error err;
    if (!save_png(path, &g, colors, 1, NULL, &err)) fail_msg("%s", err.message);
}

static int setup(void **state)
{
    sample_dir *sd = calloc(1, sizeof *sd);
    snprintf(sd->root, sizeof sd->root, "/tmp/smalti-convchain-XXXXXX");
    if (!mkdtemp(sd->root)) return -1;
    snprintf(sd->samples, sizeof sd->samples, "%s/samples", sd->root);
    if (mkdir(sd->samples, 0700) != 0) return -1;
    write_sample(sd, "MostlyWhite", 3);
    write_sample(sd, "MostlyBlack", 1);
    *state = sd;
    return 0;
}

static int teardown(void **state)
{
    sample_dir *sd = *state;
    char path[160];
    snprintf(path, sizeof path, "%s/MostlyWhite.png", sd->samples);
    unlink(path);
    snprintf(path, sizeof path, "%s/MostlyBlack.png", sd->samples);
    unlink(path);
    rmdir(sd->samples);
    rmdir(sd->root);
    free(sd);
    return 0;
}

/* With n=1 a cell's ratio is weight(other colour) / weight(its colour), and
   temperature 0 turns every ratio below 1 into a refusal: each visited `on`
   cell takes the sample's majority colour and keeps it. Cells that were not
   `on` when the node started are never touched. */
static void run_forced(const sample_dir *sd, const char *sample, char majority)
{
    char xml[512];
    snprintf(xml, sizeof xml,
             "<sequence values=\"BDAX\"><one in=\"B\" out=\"X\" steps=\"3\"/>"
             "<convchain sample=\"%s\" on=\"B\" black=\"D\" white=\"A\" n=\"1\" temperature=\"0\" steps=\"40\"/>"
             "</sequence>", sample);
    smalti_model *m = unit_load(xml, "chain.xml", 6, 5, 1, sd->root);
    for (int seed = 1; seed <= 5; seed++) {
        smalti_run *run = smalti_run_new(m, seed, NULL);
        /* 3 `one` steps; the 4th step fills the `on` cells; 39 sampling
           steps; the 44th finds the node exhausted and ends the sequence. */
        assert_int_equal(smalti_run_to_end(run, 0), 44);
        const unsigned char *g = smalti_run_grid(run, NULL, NULL, NULL);
        int counts[4] = {0};
        for (int i = 0; i < 30; i++) counts[g[i]]++;
        assert_int_equal(counts[3], 3);
        assert_int_equal(counts[majority == 'A' ? 2 : 1], 27);
        smalti_run_free(run);
    }
    smalti_model_free(m);
}

static void white_pixels_are_the_white_value(void **state)
{
    run_forced(*state, "MostlyWhite", 'A');
}

static void black_pixels_are_the_black_value(void **state)
{
    run_forced(*state, "MostlyBlack", 'D');
}

/* With no `on` cell the first call fails, so a sequence moves on at once. */
static void nothing_to_sample_ends_at_once(void **state)
{
    const sample_dir *sd = *state;
    smalti_model *m = unit_load("<sequence values=\"BDA\"><all in=\"B\" out=\"A\"/>"
                            "<convchain sample=\"MostlyWhite\" on=\"B\" black=\"D\" white=\"A\" n=\"2\"/>"
                            "</sequence>", "empty.xml", 4, 4, 1, sd->root);
    smalti_run *run = smalti_run_new(m, 1, NULL);
    assert_int_equal(smalti_run_to_end(run, 0), 2);
    smalti_run_free(run);
    smalti_model_free(m);
}

int run_convchain_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(white_pixels_are_the_white_value),
        cmocka_unit_test(black_pixels_are_the_black_value),
        cmocka_unit_test(nothing_to_sample_ends_at_once),
    };
    return cmocka_run_group_tests_name("convchain", tests, setup, teardown);
}
