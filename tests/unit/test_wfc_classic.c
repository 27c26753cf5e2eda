/* test_wfc_classic.c — `smalti wfc`'s samples.xml entries on fixture samples: the picture of a finished run. */
#include "unit.h"
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../src/wfc/classic.h"

#define FIXTURES "tests/badinput"

/* Load one entry with FIXTURES as the samples root; fails the test when it does not load. */
static wfc_classic *classic_load(const char *entry)
{
    xmlDoc *doc = xmlReadMemory(entry, (int)strlen(entry), "samples.xml", NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    smalti_error err;
    memset(&err, 0, sizeof err);
    diag d = {.file = "samples.xml", .err = &err, .quiet = 1};
    wfc_classic_entry e;
    wfc_classic *m = wfc_classic_read_entry(&d, xmlDocGetRootElement(doc), &e) ? wfc_classic_load(&d, FIXTURES, &e) : NULL;
    xmlFreeDoc(doc);
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

int run_wfc_classic_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(finished_overlapping_output_shows_the_patterns),
    };
    return cmocka_run_group_tests_name("wfc classic", tests, NULL, NULL);
}
