/* pieces.h — the parts a job is made of (progress.c, record.c, fanout.c, watch.c), for job_run.c
   and for the few commands that use one alone (studio keeps its trace in memory). */
#ifndef SMALTI_CLI_JOB_PIECES_H
#define SMALTI_CLI_JOB_PIECES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "smalti.h"
#include "../../io/output.h"
#include "../../trace/trace.h"

/* Run to the end (or the limit), with a progress line on a terminal after a second. */
long run_with_progress(smalti_run *run, long step_limit, const char *label, bool quiet);
/* The end of a step-limit note, naming what made the last steps: "; the last 4990 steps were all
   made by <path> at line 12" (then " of FILE" when file is not NULL), "; no node acted in the
   last 30 steps", or "" when there is nothing to say. */
void step_limit_actor(const smalti_model *model, const smalti_run *run, const char *file, char *buf, size_t size);
/* Recording for run --trace: a writer for `run` (before its first step) with
   the model's source text, or NULL with err set. */
trace_writer *trace_record_start(const char *trace_path, const char *model_path, smalti_run *run, const smalti_model *model,
                                 int32_t seed, long step_limit, const palette *pal, smalti_error *err);

/* Observer fan-out (fanout.c): the one observer slot of a run, shared. The
   fan-out must outlive the run's steps; observers are called in the order added. */
#define FANOUT_MAX 8
typedef struct observer_fanout {
    int count;
    struct { smalti_observer_fn fn; void *userdata; } to[FANOUT_MAX];
} observer_fanout;
bool fanout_add(observer_fanout *f, smalti_observer_fn fn, void *userdata); /* false when full */
void fanout_attach(observer_fanout *f, smalti_run *run);                    /* after the last fanout_add */
/* The live terminal view of --watch (watch.c). watch_start blocks SIGINT and
   SIGTERM and draws the start; watch_run steps the run, drawing at most 30
   times a second, and returns false when Ctrl-C stopped it; watch_end draws
   the last state, restores the terminal and returns the signal that stopped
   the run (0 if none), which the caller raises again after dropping partial
   outputs. stdout must be a terminal. */
typedef struct term_watch term_watch;
term_watch *watch_start(const smalti_run *run, const smalti_model *model, const palette *pal, const char *label);
void watch_observe(void *watch, const smalti_step_event *event);
bool watch_run(term_watch *w, smalti_run *run, long step_limit);
int watch_end(term_watch *w);
#endif
