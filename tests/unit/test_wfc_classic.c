/* test_wfc_classic.c — `smalti wfc`'s samples.xml entries on fixture samples: the picture of a finished run. */
#include "unit.h"
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../../src/io/output.h"
#include "../../src/wfc/classic.h"

#define FIXTURES "tests/badinput"

/* Load one entry from a samples root; NULL with the error in err when it does not load. */
static wfc_classic *classic_try(const char *root, const char *entry, smalti_error *err)
{
    xmlDoc *doc = xmlReadMemory(entry, (int)strlen(entry), "samples.xml", NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    memset(err, 0, sizeof *err);
    diag d = {.file = "samples.xml", .err = err, .quiet = 1};
    wfc_classic_entry e;
    wfc_classic *m = wfc_classic_read_entry(&d, xmlDocGetRootElement(doc), &e) ? wfc_classic_load(&d, root, &e) : NULL;
    xmlFreeDoc(doc);
    return m;
}

/* Load one entry with FIXTURES as the samples root; fails the test when it does not load. */
static wfc_classic *classic_load(const char *entry)
{
    smalti_error err;
    wfc_classic *m = classic_try(FIXTURES, entry, &err);
    if (!m) fail_msg("%s:%d: %s", err.file, err.line, err.message);
    return m;
}

/* samples/Stripes.png is one row of 7 colours; read periodically with symmetry 1, its NxN patterns are
   windows of the stripes, so every row of a finished output is 7 stripes read from some column on, and all
   rows are the same. Outputs from N to 2N-3 wide once drew their last columns from origins before the
   output (a heap read before the wave; N=4 at 4 read freed memory); every side from N on must work. */
static void finished_overlapping_output_shows_the_patterns(void **state)
{
    (void)state;
    static const uint32_t stripes[7] = {0xe02020, 0x20e020, 0x2020e0, 0xe0e020, 0x20e0e0, 0xe020e0, 0x808080};
    static const int cases[][2] = {{3, 3}, {3, 4}, {3, 5}, {4, 4}, {4, 5}, {4, 6}, {5, 5}, {5, 7}, {5, 9}, {2, 2}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        int N = cases[c][0], size = cases[c][1];
        char entry[200];
        snprintf(entry, sizeof entry, "<overlapping name=\"Stripes\" N=\"%d\" width=\"%d\" height=\"%d\" symmetry=\"1\"/>", N,
                 size, size + 1);
        wfc_classic *m = classic_load(entry);
        for (int seed = 1; seed <= 3; seed++) {
            assert_int_equal(wfc_classic_run(m, seed, -1), WFC_DONE);
            int w, h;
            uint32_t *px = wfc_classic_render(m, &w, &h);
            assert_non_null(px);
            assert_int_equal(w, size);
            assert_int_equal(h, size + 1);
            int first = 0;
            while (first < 7 && stripes[first] != px[0]) first++;
            if (first == 7) fail_msg("N=%d size %d: pixel (0, 0) is %06x, not a stripe", N, size, px[0]);
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++)
                    if (px[x + y * w] != stripes[(first + x) % 7])
                        fail_msg("N=%d size %dx%d seed %d: pixel (%d, %d) is %06x, expected %06x", N, w, h, seed, x, y,
                                 px[x + y * w], stripes[(first + x) % 7]);
            free(px);
        }
        wfc_classic_free(m);
    }
}

/* root/tilesets/NAME.xml: one tile "a" that neighbours itself, NAME/a.png a side x side picture. */
static void write_tileset(const char *root, const char *name, int side)
{
    char path[256];
    snprintf(path, sizeof path, "%s/tilesets/%s", root, name);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/tilesets/%s.xml", root, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("<set><tiles><tile name=\"a\"/></tiles><neighbors><neighbor left=\"a\" right=\"a\"/></neighbors></set>\n", f);
    assert_int_equal(fclose(f), 0);
    uint32_t *px = calloc((size_t)side * side, sizeof *px);
    assert_non_null(px);
    snprintf(path, sizeof path, "%s/tilesets/%s/a.png", root, name);
    smalti_error err;
    if (!save_png_rgb(path, px, side, side, NULL, &err)) fail_msg("%s", err.message);
    free(px);
}

/* What would not fit is refused with the entry's line before it is allocated: one 4096x4096 tile once made the
   loader ask for 4096 such tiles at once (256 GiB); an output picture of 12288^2 pixels; a wave of 4096^2 cells
   by 7 patterns or by one tile (some 5 and 3 GiB). */
static void oversized_entries_are_refused(void **state)
{
    (void)state;
    char root[64] = "/tmp/smalti-classic-XXXXXX", path[128];
    assert_non_null(mkdtemp(root));
    snprintf(path, sizeof path, "%s/tilesets", root);
    assert_int_equal(mkdir(path, 0700), 0);
    write_tileset(root, "Big", 4096);
    write_tileset(root, "Small", 3);
    write_tileset(root, "Dot", 1);
    /* A copy, not a link: smalti wfc refuses links that lead out of its samples folder. */
    char copy[256];
    snprintf(copy, sizeof copy, "cp -R '%s' '%s/samples'", FIXTURES "/samples", root);
    assert_int_equal(system(copy), 0);
    static const char *const cases[][2] = {
        {"<simpletiled name=\"Big\" size=\"4\"/>", "Big/a.png is 4096x4096; tiles may be at most 256 pixels wide"},
        {"<simpletiled name=\"Small\" size=\"4096\"/>", "the output picture would be 12288x12288 pixels"},
        {"<simpletiled name=\"Dot\" size=\"4096\"/>", "16777216 cells by 1 tile variants would take about"},
        {"<overlapping name=\"Stripes\" N=\"3\" size=\"4096\" symmetry=\"1\"/>", "16777216 cells by 7 patterns would take about"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        smalti_error err;
        wfc_classic *m = classic_try(root, cases[k][0], &err);
        if (m) {
            wfc_classic_free(m);
            fail_msg("%s loaded", cases[k][0]);
        }
        assert_int_equal(err.status, SMALTI_ERR_MODEL);
        assert_int_equal(err.line, 1);
        if (!strstr(err.message, cases[k][1])) fail_msg("\"%s\" does not say \"%s\"", err.message, cases[k][1]);
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
}

/* `smalti wfc` starts no more solvers by default than half the machine's memory holds, by the
   estimate each load checks against its limit, and at least one. */
static void threads_fit_in_half_the_memory(void **state)
{
    (void)state;
    wfc_classic *m = classic_load("<overlapping name=\"Stripes\" N=\"3\" size=\"64\" symmetry=\"1\"/>");
    const int64_t each = wfc_memory_estimate(&m->pb);
    assert_true(each > 64 * 64);
    assert_int_equal(wfc_classic_threads(m, 8, 2 * 8 * each), 8);      /* room for all */
    assert_int_equal(wfc_classic_threads(m, 8, 1 << 30), 8);
    assert_int_equal(wfc_classic_threads(m, 8, 2 * 3 * each), 3);      /* room for three */
    assert_int_equal(wfc_classic_threads(m, 8, 2 * 3 * each + 2 * each - 1), 3);
    assert_int_equal(wfc_classic_threads(m, 8, 2 * 4 * each), 4);
    assert_int_equal(wfc_classic_threads(m, 8, each), 1);              /* not even one: still one */
    assert_int_equal(wfc_classic_threads(m, 8, 0), 8);                 /* memory not known */
    assert_int_equal(wfc_classic_threads(m, 1, 1), 1);
    assert_int_equal(wfc_classic_threads(m, 0, 1 << 30), 1);
    wfc_classic_free(m);
}

int run_wfc_classic_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(finished_overlapping_output_shows_the_patterns),
        cmocka_unit_test(oversized_entries_are_refused),
        cmocka_unit_test(threads_fit_in_half_the_memory),
    };
    return cmocka_run_group_tests_name("wfc classic", tests, NULL, NULL);
}
