/* job_run.c — one run of an open job: the run made or reset with the job's budgets, its observers
   (trace, GIF or frames, the live view), the steps with a progress line, the step-limit note and
   the written output. */
#include "job.h"
#include "../common/cli.h"
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "../../trace/anim.h"

static const char *raise_hint(job_steps_from from)
{
    switch (from) {
    case STEPS_ENTRY: return "raise the entry's steps, or set steps=\"0\" for none";
    case STEPS_PACK: return "raise the steps of the model's entry in pack.xml, or --steps N (0 for none)";
    case STEPS_MODEL: return "raise the model's <smalti steps=\"N\">, or --steps N (0 for none)";
    case STEPS_PAGE: return "raise the step cap";
    case STEPS_COMMAND:
    case STEPS_DEFAULT: break;
    }
    return "raise it with --steps N, or 0 for none";
}

void job_step_limit_text(const job *j, const smalti_run *run, bool name_file, char *buf, size_t size)
{
    char actor[1200 + sizeof j->label];
    step_limit_actor(j->model, run, name_file ? j->label : NULL, actor, sizeof actor);
    snprintf(buf, size, "stopped at the step limit (%ld %s) before the model finished; %s%s", j->steps,
             plural(j->steps, "step", "steps"), raise_hint(j->raise_at), actor);
}

void job_keep_error(void *userdata, const smalti_error *err) { *(smalti_error *)userdata = *err; }

static const char *times(int n, char *buf, size_t size)
{
    if (n == 1) return "once";
    if (n == 2) return "twice";
    snprintf(buf, size, "%d times", n);
    return buf;
}

void job_attempts_text(const smalti_run *run, char *buf, size_t size)
{
    const int attempts = smalti_run_attempts(run);
    buf[0] = 0;
    if (attempts <= 1) return;
    size_t n = (size_t)snprintf(buf, size, "%d attempts (", attempts);
    int line, failures;
    char count[32];
    for (int i = 0; n < size && smalti_run_requirement(run, i, &line, &failures, NULL); i++)
        n += (size_t)snprintf(buf + n, size - n, "%sthe requirement at line %d failed %s", i ? ", " : "", line,
                              times(failures, count, sizeof count));
    if (n < size) snprintf(buf + n, size - n, ")");
}

static void report(const job_run_spec *spec, const smalti_error *err)
{
    if (spec->report) spec->report(spec->report_userdata, err);
    else print_error(err);
}

/* The run's warnings as they come: counted, the first kept, recorded in the trace, and said. */
typedef struct run_warnings {
    const job *j;
    const job_run_spec *spec;
    smalti_run *run;
    trace_writer *tracer;
    job_result *res;
} run_warnings;

static void run_warned(void *userdata, const char *file, int line, const char *message)
{
    run_warnings *rw = userdata;
    const job *j = rw->j;
    if (rw->res->warnings++ == 0) snprintf(rw->res->warning, sizeof rw->res->warning, "%s:%d: %s", file, line, message);
    if (rw->tracer) trace_writer_warn(rw->tracer, smalti_run_counter(rw->run) + 1, line, message); /* the step being made */
    if (j->warn) j->warn(j->warn_userdata, file, line, message);
    else if (!j->quiet || j->strict) {
        if (rw->spec->seed_in_warnings) fprintf(stderr, "%s:%d: warning: seed %d: %s\n", file, line, (int)rw->spec->seed, message);
        else fprintf(stderr, "%s:%d: warning: %s\n", file, line, message);
    }
}

/* With --strict, a run that warned fails as an error does: EXIT_MODEL after saying why, else EXIT_OK. */
static int strict_verdict(const job *j, const job_run_spec *spec, const job_result *res)
{
    if (!j->strict || j->warn || res->warnings == 0) return EXIT_OK;
    smalti_error err = {.status = SMALTI_ERR_MODEL};
    snprintf(err.file, sizeof err.file, "%.*s", (int)sizeof err.file - 1, j->label);
    snprintf(err.message, sizeof err.message, "the run had %d warning%s, and --strict makes warnings errors: nothing written",
             res->warnings, res->warnings == 1 ? "" : "s");
    report(spec, &err);
    return EXIT_MODEL;
}

/* The run's observers on its one slot; false after reporting why one could not start. */
typedef struct job_watchers {
    observer_fanout fan;
    trace_writer *tracer;
    anim_recorder *recorder;
    term_watch *watch;
} job_watchers;

static bool observe(const job *j, smalti_run *run, const job_run_spec *spec, job_watchers *w, smalti_error *err)
{
    const job_observers *o = spec->observers;
    if (!o) return true;
    if (o->trace || o->trace_in_memory) {
        w->tracer = trace_record_start(o->trace, j->label, run, j->model, spec->seed, j->steps, &j->pal, err);
        if (!w->tracer) return false;
        fanout_add(&w->fan, trace_observe, w->tracer);
    }
    if (o->gif || o->frames_dir) {
        anim_options ao = {.gif_path = o->gif, .frames_dir = o->frames_dir, .every = o->every > 0 ? o->every : 1,
                           .pixel_size = j->pixel_size, .delay_cs = o->delay > 0 ? (int)o->delay : ANIM_DEFAULT_DELAY,
                           .step_limit = j->steps, .pal = &j->pal, .temps = temp_files_hook()};
        if (!(w->recorder = anim_start(&ao, run, err))) return false;
        fanout_add(&w->fan, anim_observe, w->recorder);
    }
    if (o->watch && (w->watch = watch_start(run, j->model, &j->pal, j->name))) fanout_add(&w->fan, watch_observe, w->watch);
    if (o->extra) fanout_add(&w->fan, o->extra, o->extra_userdata);
    fanout_attach(&w->fan, run);
    return true;
}

/* The run made, or reset to the seed, with the job's budgets. */
static smalti_run *make_run(const job *j, smalti_run **run, int32_t seed, smalti_error *err)
{
    if (*run) {
        smalti_run_reset(*run, seed); /* the budgets' counts start again: each run gets the whole of them */
        return *run;
    }
    smalti_run_options ro = smalti_run_defaults();
    ro.timeout_seconds = j->timeout_shared ? deadline_left(j->timeout, j->start) : j->timeout;
    ro.max_memory = j->max_memory;
    ro.max_work = j->max_work;
    return *run = smalti_run_new_with(j->model, seed, &ro, err);
}

/* Steps to the end or the limit; false when Ctrl-C stopped the live view (res->signal). */
static bool steps(const job *j, smalti_run *run, const job_run_spec *spec, job_watchers *w, job_result *res)
{
    if (w->watch) {
        watch_run(w->watch, run, j->steps);
        res->signal = watch_end(w->watch);
        return res->signal == 0;
    }
    const char *label = spec->who ? spec->who : j->name;
    run_with_progress(run, j->steps, label, j->quiet || (spec->observers && spec->observers->no_progress));
    return true;
}

int job_run(const job *j, smalti_run **run, const job_run_spec *spec, job_result *res)
{
    memset(res, 0, sizeof *res);
    smalti_error err;
    if (!make_run(j, run, spec->seed, &err)) {
        report(spec, &err);
        return exit_code_for(err.status);
    }
    job_watchers w = {0};
    int rc = EXIT_OK;
    if (!observe(j, *run, spec, &w, &err)) {
        report(spec, &err);
        rc = exit_code_for(err.status);
    } else if (spec->started) {
        spec->started(spec->started_userdata, *run);
    }
    run_warnings rw = {j, spec, *run, w.tracer, res};
    smalti_run_set_warn(*run, run_warned, &rw);
    const bool stepped = rc == EXIT_OK && steps(j, *run, spec, &w, res);
    smalti_run_set_observer(*run, NULL, NULL);
    smalti_run_set_warn(*run, NULL, NULL);
    res->steps = smalti_run_counter(*run);
    res->finished = smalti_run_finished(*run);
    res->limited = !res->finished && j->steps > 0 && res->steps >= j->steps;
    res->attempts = smalti_run_attempts(*run);
    smalti_run_grid(*run, &res->mx, &res->my, &res->mz);
    /* The trace is kept even when the run failed: it shows how it got there. A memory trace is the caller's. */
    if (w.tracer && stepped && !trace_writer_finish(w.tracer, &err)) {
        report(spec, &err);
        rc = exit_code_for(err.status);
    }
    if (w.tracer && spec->observers->trace_in_memory && stepped && rc == EXIT_OK) res->trace = w.tracer;
    else trace_writer_free(w.tracer);
    if (rc != EXIT_OK || !stepped) {
        anim_abort(w.recorder); /* Ctrl-C: no output from a run cut short */
        return rc != EXIT_OK ? rc : 128 + res->signal;
    }
    if (smalti_run_error(*run, &err)) {
        if (err.status == SMALTI_ERR_TIMEOUT && !j->max_work) say_timeout(&err, res->steps, j->timeout); /* the deadline's */
        anim_abort(w.recorder);
        if (!spec->keep_errors) report(spec, &err);
        res->error = err;
        return exit_code_for(err.status);
    }
    char attempts[400];
    job_attempts_text(*run, attempts, sizeof attempts);
    if (attempts[0] && !j->quiet && !spec->no_note) fprintf(stderr, "%s: seed %d: %s\n", spec->who ? spec->who : j->label,
                                                            (int)spec->seed, attempts);
    if (res->limited && !j->quiet && !spec->no_note) {
        char note[1600 + sizeof j->label];
        job_step_limit_text(j, *run, spec->who != NULL, note, sizeof note);
        if (spec->who) fprintf(stderr, "%s %s\n", spec->who, note); /* "list.xml:3: maze_7 stopped at ..." */
        else fprintf(stderr, "%s: %s\n", j->label, note);
    }
    if ((rc = strict_verdict(j, spec, res)) != EXIT_OK) {
        anim_abort(w.recorder); /* an output is complete or absent */
        return rc;
    }
    if (w.recorder && !anim_finish(w.recorder, &err)) {
        report(spec, &err);
        return exit_code_for(err.status);
    }
    if (spec->output && !job_write_output(j, *run, spec->seed, spec->output, spec->tileset, spec->colours_said, &err)) {
        if (!temp_files_ending()) report(spec, &err);
        return exit_code_for(err.status); /* the caller's memory_verdict says when --max-memory was the cause */
    }
    return EXIT_OK;
}
