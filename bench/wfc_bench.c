/* wfc_bench.c — time classic WFC entries on the `wfc` node's engine: RUNS seeds, one attempt each.
   Usage: wfc_bench SAMPLES_DIR '<overlapping name=... />' RUNS
   Prints: median_ms failures runs load_ms (the median over every run, failed or not);
   with WFC_BENCH_VERBOSE set, the number of patterns, then each seed's outcome, time, observations, backtracks and repairs on stderr. */
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../src/core/xmlutil.h"
#include "../src/wfc/classic.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: wfc_bench SAMPLES_DIR ENTRY_XML RUNS\n");
        return 2;
    }
    int runs = atoi(argv[3]);
    if (runs < 1 || runs > 1000) return 2;
    xmlDoc *doc = xmlReadMemory(argv[2], (int)strlen(argv[2]), "entry.xml", NULL, XML_PARSE_NONET);
    if (!doc) return 3;
    smalti_error err;
    diag d = {.file = "entry", .err = &err};
    wfc_classic_entry e;
    double t0 = now_ms();
    wfc_classic *m = wfc_classic_read_entry(&d, xmlDocGetRootElement(doc), &e) ? wfc_classic_load(&d, argv[1], &e) : NULL;
    double load = now_ms() - t0;
    xmlFreeDoc(doc);
    if (!m) {
        fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.message);
        return 3;
    }
    double *ms = malloc((size_t)runs * sizeof *ms);
    if (!ms) return 4;
    int failures = 0;
    if (getenv("WFC_BENCH_VERBOSE")) fprintf(stderr, "%d patterns, %dx%d cells\n", m->pb.P, m->pb.mx, m->pb.my);
    for (int k = 0; k < runs; k++) {
        double s = now_ms();
        if (wfc_classic_run(m, k + 1, e.limit) == WFC_CONTRADICTION) failures++;
        ms[k] = now_ms() - s;
        if (getenv("WFC_BENCH_VERBOSE")) fprintf(stderr, "seed %d: %s %.1f ms, %ld observations, %ld backtracks, %ld repairs\n", k + 1, m->done ? "done" : "fail", ms[k], m->solver.observations, m->solver.backtracks, m->solver.repairs);
    }
    qsort(ms, (size_t)runs, sizeof *ms, by_value);
    double median = runs % 2 ? ms[runs / 2] : (ms[runs / 2 - 1] + ms[runs / 2]) / 2;
    printf("%.1f %d %d %.1f\n", median, failures, runs, load);
    free(ms);
    wfc_classic_free(m);
    return 0;
}
