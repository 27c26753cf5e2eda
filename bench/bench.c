/* bench.c — time one model: load+compile, then the run, with steps and peak memory.
   Usage: bench MODEL.xml MX MY MZ SEED STEP_LIMIT [REPEAT] */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include "smalti.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv)
{
    if (argc < 7) {
        fprintf(stderr, "usage: bench MODEL.xml MX MY MZ SEED STEP_LIMIT [REPEAT]\n");
        return 2;
    }
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = atoi(argv[2]);
    opt.my = atoi(argv[3]);
    opt.mz = atoi(argv[4]);
    opt.quiet = 1;
    int seed = atoi(argv[5]);
    long limit = atol(argv[6]);
    int repeat = argc > 7 ? atoi(argv[7]) : 3;
    double best_load = 1e30, best_run = 1e30;
    long steps = 0;
    for (int k = 0; k < repeat; k++) {
        double t0 = now_ms();
        smalti_error err;
        smalti_model *m = smalti_model_load(argv[1], &opt, &err);
        if (!m) {
            fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.message);
            return 3;
        }
        double t1 = now_ms();
        smalti_run *run = smalti_run_new(m, seed, &err);
        steps = smalti_run_to_end(run, limit);
        double t2 = now_ms();
        if (t1 - t0 < best_load) best_load = t1 - t0;
        if (t2 - t1 < best_run) best_run = t2 - t1;
        smalti_run_free(run);
        smalti_model_free(m);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%.2f %.2f %ld %ld\n", best_load, best_run, steps, ru.ru_maxrss);
    return 0;
}
