/* fuzz_model.c — libFuzzer target: a model and its resource files from memory (fuzz_common.h's container),
   loaded for a 16x16 grid (6x6x6 with "#3d"; 10x10 and 4x4x4 for a model that may search) with its lint
   (the warnings read and dropped), with searches
   and wfc attempts capped, run for at most 2000 steps while a trace is recorded in memory,
   the trace read back and checked against the run, then the run reset to another seed and run again. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "smalti.h"
#include "fuzz_common.h"
#include "../../src/nodes/nodes.h"
#include "../../src/trace/trace.h"

#define STEP_LIMIT 2000
/* Steps after the reset: enough to see that the reset run works. */
#define RESET_STEP_LIMIT 500

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const smalti_error *err)
{
    fprintf(stderr, "fuzz_model: %s%s%s\n", what, err ? ": " : "", err ? err->message : "");
    abort();
}

/* The trace of the first run must read back, verify, and end on the run's grid. */
static void check_trace(trace_writer *w, const smalti_run *run)
{
    smalti_error err;
    memset(&err, 0, sizeof err);
    if (!trace_writer_finish(w, &err)) fail("trace_writer_finish", &err);
    size_t len;
    const uint8_t *bytes = trace_writer_bytes(w, &len);
    trace_reader *r = trace_read_memory(bytes, len, "fuzz.trace", &err);
    if (!r) fail("the run's trace does not read back", &err);
    if (!trace_verify(r, &err)) fail("the run's trace does not verify", &err);
    const trace_info *info = trace_reader_info(r);
    if (info->steps != smalti_run_counter(run)) fail("the trace's step count is not the run's", NULL);
    if (!trace_seek(r, info->steps, &err)) fail("cannot seek to the trace's last step", &err);
    int mx, my, mz, tx, ty, tz;
    const unsigned char *g = smalti_run_grid(run, &mx, &my, &mz);
    const uint8_t *t = trace_grid(r, &tx, &ty, &tz);
    if (mx != tx || my != ty || mz != tz || memcmp(g, t, (size_t)mx * my * mz) != 0)
        fail("the trace's last grid is not the run's", NULL);
    /* Back to the middle and forward again. */
    if (!trace_seek(r, info->steps / 2, &err)) fail("cannot seek to the middle", &err);
    trace_step st;
    while (trace_next(r, &st, &err)) {}
    if (err.message[0]) fail("stepping from the middle", &err);
    trace_reader_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in;
    if (!fuzz_split(data, size, &in)) return 0;
    /* Small pictures only: a large sample makes one input slow, not interesting. */
    if (!fuzz_files_small(&in, 48 * 48, 16) || strlen(in.main) > 0x7fffffff) {
        fuzz_input_free(&in);
        return 0;
    }
    char *capped = fuzz_capped_model(in.main);
    if (capped) {
        free(in.main);
        in.main = capped;
    }
    smalti_load_options opt = smalti_load_defaults();
    /* Search is exponential in the grid: models that may search get a smaller one. */
    bool search = strstr(in.main, "search") != NULL;
    if (in.three_d) opt.mx = opt.my = opt.mz = search ? 4 : 6;
    else opt.mx = opt.my = search ? 10 : 16, opt.mz = 1;
    const char *roots[] = {"r"};
    opt.resource_dirs = roots;
    opt.resource_dir_count = 1;
    opt.warn = fuzz_drop_warning; /* not quiet: the lint runs */
    resource_reader reader = {fuzz_read, &in};
    smalti_error err;
    smalti_model *m = model_load_string_from(in.main, "fuzz.xml", &opt, &reader, &err);
    if (m) {
        int count = smalti_model_node_count(m);
        for (int i = 0; i < count; i++) {
            smalti_node_info ni;
            if (!smalti_model_node_info(m, i, &ni) || !ni.kind || !ni.attributes) fail("node info", NULL);
        }
        smalti_run *run = smalti_run_new(m, 1, &err);
        if (run) {
            palette pal;
            palette_default(&pal);
            trace_meta meta = {.model_path = "fuzz.xml", .source = in.main, .source_len = strlen(in.main), .seed = 1,
                               .step_limit = STEP_LIMIT};
            trace_writer *w = trace_writer_new(NULL, run, m, &meta, &pal, NULL, &err);
            if (!w) fail("trace_writer_new", &err);
            smalti_run_set_observer(run, trace_observe, w);
            fuzz_run_bounded(run, STEP_LIMIT);
            smalti_run_error(run, &err);
            check_trace(w, run);
            smalti_run_set_observer(run, NULL, NULL);
            trace_writer_free(w);
            smalti_run_reset(run, 2);
            fuzz_run_bounded(run, RESET_STEP_LIMIT); /* the reset set the counter to 0 */
            int mx, my, mz;
            smalti_run_grid(run, &mx, &my, &mz);
            smalti_run_free(run);
        }
        smalti_model_free(m);
    }
    fuzz_input_free(&in);
    return 0;
}
