/* bench.c — time one model: load+compile, then the run, with steps and peak memory.
   Usage: bench MODEL.xml MX MY MZ SEED STEP_LIMIT [REPEAT]
   Prints "LOAD_MS RUN_MS STEPS PEAK_KIB MEDIAN_RUN_MS MEDIAN_RUN_CPU_MS": the best load and run of
   REPEAT, then the median run's wall and CPU time (bench/mjr.sh's side: the first run is cold,
   which a median over 3 or more runs shrugs off). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include "smalti.h"

static double clock_ms(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static double now_ms(void) { return clock_ms(CLOCK_MONOTONIC); }

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of n values (sorted in place). */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define MAX_REPEAT 1000

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
    if (repeat < 1 || repeat > MAX_REPEAT) {
        fprintf(stderr, "bench: REPEAT must be 1 to %d\n", MAX_REPEAT);
        return 2;
    }
    double best_load = 1e30, best_run = 1e30;
    static double runs[MAX_REPEAT], cpus[MAX_REPEAT];
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
        double c1 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
        smalti_run *run = smalti_run_new(m, seed, &err);
        steps = smalti_run_to_end(run, limit);
        double t2 = now_ms(), c2 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
        if (t1 - t0 < best_load) best_load = t1 - t0;
        if (t2 - t1 < best_run) best_run = t2 - t1;
        runs[k] = t2 - t1;
        cpus[k] = c2 - c1;
        smalti_run_free(run);
        smalti_model_free(m);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%.2f %.2f %ld %ld %.2f %.2f\n", best_load, best_run, steps, ru.ru_maxrss, median(runs, repeat), median(cpus, repeat));
    return 0;
}
