/* trace_bench.c — what recording a trace costs: run time without and with the
   recorder (best of REPEAT, the trace written to a file and put in place), and
   the trace's size per cell change.
   Usage: trace_bench MODEL.xml MX MY MZ SEED STEP_LIMIT TRACE_PATH [REPEAT]
   Prints: plain_ms traced_ms steps changes bytes */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include "smalti.h"
#include "../src/trace/trace.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* The two measured regions; separate functions so that callgrind can count
   each alone (--toggle-collect=run_plain, --toggle-collect=run_traced). */
__attribute__((noinline)) static long run_plain(const smalti_model *m, int seed, long limit)
{
    smalti_run *run = smalti_run_new(m, seed, NULL);
    long steps = smalti_run_to_end(run, limit);
    smalti_run_free(run);
    return steps;
}

__attribute__((noinline)) static bool run_traced(const smalti_model *m, int seed, long limit, const char *model_path,
                                                  const char *trace_path, const palette *pal)
{
    smalti_error err;
    smalti_run *run = smalti_run_new(m, seed, &err);
    trace_meta meta = {.model_path = model_path, .seed = seed, .step_limit = limit};
    trace_writer *w = trace_writer_new(trace_path, run, m, &meta, pal, NULL, &err);
    bool ok = w != NULL;
    if (w) {
        smalti_run_set_observer(run, trace_observe, w);
        smalti_run_to_end(run, limit);
        ok = trace_writer_finish(w, &err);
        trace_writer_free(w);
    }
    smalti_run_free(run);
    if (!ok) fprintf(stderr, "%s: %s\n", err.file, err.message);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 8) {
        fprintf(stderr, "usage: trace_bench MODEL.xml MX MY MZ SEED STEP_LIMIT TRACE_PATH [REPEAT]\n");
        return 2;
    }
    smalti_load_options opt = smalti_load_defaults();
    opt.mx = atoi(argv[2]);
    opt.my = atoi(argv[3]);
    opt.mz = atoi(argv[4]);
    opt.quiet = 1;
    int seed = atoi(argv[5]);
    long limit = atol(argv[6]);
    const char *trace_path = argv[7];
    int repeat = argc > 8 ? atoi(argv[8]) : 5;
    smalti_error err;
    smalti_model *m = smalti_model_load(argv[1], &opt, &err);
    if (!m) {
        fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.message);
        return 3;
    }
    palette pal;
    palette_default(&pal);
    double best_plain = 1e30, best_traced = 1e30;
    long steps = 0;
    for (int k = 0; k < repeat; k++) {
        double t0 = now_ms();
        steps = run_plain(m, seed, limit);
        double t1 = now_ms();
        if (t1 - t0 < best_plain) best_plain = t1 - t0;
        t0 = now_ms();
        if (!run_traced(m, seed, limit, argv[1], trace_path, &pal)) return 5;
        t1 = now_ms();
        if (t1 - t0 < best_traced) best_traced = t1 - t0;
    }
    trace_reader *r = trace_read_file(trace_path, &err);
    if (!r) {
        fprintf(stderr, "%s: %s\n", err.file, err.message);
        return 5;
    }
    struct stat st;
    stat(trace_path, &st);
    printf("%.2f %.2f %ld %lld %lld\n", best_plain, best_traced, steps, (long long)trace_reader_info(r)->changes,
           (long long)st.st_size);
    trace_reader_free(r);
    smalti_model_free(m);
    return 0;
}
