/* job.h — one job, from a model to its written outputs: the pipeline that every command runs
   (run, run --seeds, batch, batch PACK, pack check and pack gallery's trial runs, studio). */
#ifndef SMALTI_CLI_JOB_H
#define SMALTI_CLI_JOB_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "smalti.h"
#include "../../io/output.h"
#include "../../nodes/settings.h"
#include "../../pack/pack.h"
#include "../../trace/trace.h"
#include "lint_report.h"
#include "pieces.h"

/* The pixel size of a model and command that name none (as a models.xml entry's pixelsize); the
   other defaults, the sides and the step limit, are smalti.h's SMALTI_DEFAULT_*. */
#define JOB_DEFAULT_PIXEL_SIZE 4

/* Where a job's step limit came from, which says how to raise it. */
typedef enum job_steps_from {
    STEPS_DEFAULT,  /* smalti's default */
    STEPS_COMMAND,  /* --steps, or the studio's step cap */
    STEPS_ENTRY,    /* a models.xml entry's steps (or its gif="True") */
    STEPS_PACK,     /* the model's entry in pack.xml */
    STEPS_MODEL,    /* the model's own <smalti steps="N"> */
    STEPS_PAGE,     /* the studio page's step cap */
} job_steps_from;

/* What a command asks of a job. A zero field (NULL, 0, false; iso -1) takes the model's own
   setting: a pack's entry, a models.xml entry, then the model's <smalti> element, then smalti's default. */
typedef struct job_request {
    const char *model;            /* the model file; with pm, the pack's path (for messages) */
    const pack *pk;               /* a model of an open pack (pm), or NULL */
    const pack_model *pm;
    const char *const *resources; /* --resources: the roots of a model file's resources */
    int resource_count;
    bool allow_any_path;
    grid_request grid;            /* --size, --length, --width, --height, --dim */
    bool size_required;           /* no default sides: a models.xml entry names its size */
    const char *const *params;    /* --set: "name=value" overrides of the model's parameters */
    int param_count;
    const char *entry_where;      /* a models.xml entry, for messages: "list.xml:3" and its name */
    const char *entry_name;
    bool seed_given;
    int32_t seed;
    bool steps_given;
    long steps;
    job_steps_from steps_from;    /* with steps_given: COMMAND (the default) or ENTRY */
    bool has_default_steps;       /* default_steps is the limit when nothing names one (else SMALTI_DEFAULT_STEPS) */
    long default_steps;
    int pixel_size;               /* 0: not given */
    int iso;                      /* 1 or 0 given, -1 not */
    const palette *entry_colors;  /* a models.xml entry's colours (those with has[]), over the model's */
    const char *palette_file;     /* --palette: over everything else */
    const char *tiles_file;       /* --tiles: symbols drawn with the tiles of the user's sheet */
    double timeout;               /* --timeout (0: none): the load and each run get it whole, or, with */
    bool timeout_shared;          /* this, one deadline counted from job_open covers the load and a run */
    size_t max_memory;            /* --max-memory of the load, and of each run (0: none) */
    long long max_work;           /* each run's work budget (0: none) */
    bool quiet;                   /* no warnings, notes or progress */
    bool strict;                  /* --strict: a warning fails the job */
    bool keep_errors;             /* an error is not said but kept (job.error), for the studio's page */
    smalti_warning_fn warn;       /* NULL: said and counted (lint_report), as `run` says them; it also */
    void *warn_userdata;          /* gets the runs' warnings (job_run), on their threads */
} job_request;

typedef struct tile_sheet tile_sheet;

/* An open job: the model loaded and everything its runs need, resolved once. Read-only after
   job_open, so many threads may run it at once (job_run). */
typedef struct job {
    char name[256];               /* {model}: the file's base name, or the pack's model name */
    char label[4200];             /* the model file in messages ("PACK.zip:models/x.xml") */
    smalti_model *model;
    palette pal;
    tile_sheet *tiles;            /* --tiles, or NULL */
    const char *tiles_file;
    int32_t seed;                 /* the default seed */
    long steps;
    job_steps_from steps_from;    /* STEPS_DEFAULT: nothing named the limit */
    job_steps_from raise_at;      /* where the step-limit note says to raise it */
    int pixel_size;
    bool iso;                     /* a 3-D grid's default output is its isometric picture, not a VOX */
    int mx, my, mz;               /* the grid it was loaded for */
    double timeout;
    bool timeout_shared;
    double start;                 /* when job_open began (now_seconds) */
    size_t max_memory;
    long long max_work;
    bool quiet;
    bool strict;                  /* a run's warning fails it (job_run), as a load's fails job_open */
    smalti_warning_fn warn;       /* the request's, for the runs' warnings too (NULL: job_run says them) */
    void *warn_userdata;
    lint_report warnings;
    smalti_error error;           /* why job_open failed (status SMALTI_OK when it did not) */
} job;

/* Settings, palette, tile sheet, load and lint, in that order; EXIT_OK, or an exit code after
   saying why (the job is then closed). The model's values without a colour are warned of. */
int job_open(job *j, const job_request *req);
void job_close(job *j);

/* Observers of one run, all on its one observer slot (fanout.c). */
typedef struct job_observers {
    const char *trace;            /* --trace FILE (or "-") */
    bool trace_in_memory;         /* the trace kept in memory and handed back (job_result.trace) */
    const char *gif, *frames_dir; /* --gif, --frames */
    long every, delay;            /* 0: not given */
    bool watch;                   /* --watch: the run drawn live on the terminal */
    bool no_progress;             /* no progress line (many runs draw their own) */
    smalti_observer_fn extra;     /* one more observer (studio counts the changes), after the others */
    void *extra_userdata;
} job_observers;

/* What to do with one run of a job, and what came of it. */
typedef struct job_run_spec {
    int32_t seed;
    const char *output;           /* the final grid's file by its extension; "-": text on stdout; NULL: none */
    const char *tileset;          /* a generated tileset several maps share (job_write_tileset), or NULL: the map's own */
    const job_observers *observers; /* NULL: none */
    const char *who;              /* the run in messages and its progress line: NULL, the model's */
    bool colours_said;            /* the symbols without a colour were warned of already */
    bool no_note;                 /* the caller says the step limit itself (or counts it) */
    bool keep_errors;             /* the run's own error is not said but handed back (job_result.error) */
    bool seed_in_warnings;        /* its warnings say "seed S: " (one of many runs) */
    /* Errors go here when set (a thread of many runs adds the seed and a lock), else to stderr. */
    void (*report)(void *userdata, const smalti_error *err);
    void *report_userdata;
    /* Called with the run before its first step (studio keeps it, to cancel it from another thread). */
    void (*started)(void *userdata, smalti_run *run);
    void *started_userdata;
} job_run_spec;
typedef struct job_result {
    long steps;
    bool finished;                /* the model ended (not the step limit) */
    bool limited;                 /* stopped at the step limit before the model finished */
    int signal;                   /* --watch: the signal that stopped it, which the caller raises again */
    int mx, my, mz;               /* the final grid */
    int attempts;                 /* the attempts a <require> made the run begin (1: none failed) */
    smalti_error error;           /* with keep_errors: the run's error (status SMALTI_OK when none) */
    int warnings;                 /* the run's warnings (smalti_run_set_warn): a <wfc> that found no solution */
    char warning[1200];           /* the first, "file:line: message" ("" when none) */
    trace_writer *trace;          /* with trace_in_memory: the finished trace, the caller's to free */
} job_result;

/* A job_run_spec report that keeps the error in the smalti_error at userdata (pages and reports say it later). */
void job_keep_error(void *userdata, const smalti_error *err);

/* Run the job once: make *run (or reset it to the seed), observe it, run it to its step limit with
   a progress line, and write the output. EXIT_OK or an exit code; the error said or reported. The
   run's warnings are said as they come ("file:line: warning: ..."; not with quiet unless strict),
   or handed to the request's warn, counted in res, and recorded in the trace; with strict (and no
   request warn) a warning fails the run like an error: EXIT_MODEL, as --strict's load warnings,
   and no output (the trace, a record of the run, is kept as for an error).
   *run stays the caller's, for the next seed (smalti_run_reset) or to free; --watch stopped by a
   signal returns 128 + the signal, which the caller raises again once it has freed what it holds. */
int job_run(const job *j, smalti_run **run, const job_run_spec *spec, job_result *res);

/* "stopped at the step limit (50000 steps) before the model finished; raise it with --steps N, or
   0 for none; the last 4990 steps were all made by <path> at line 12" (then "of FILE" with
   name_file): the one wording of every command, naming where the limit came from. */
void job_step_limit_text(const job *j, const smalti_run *run, bool name_file, char *buf, size_t size);

/* "3 attempts (the requirement at line 31 failed twice)", or "" for a run of one attempt. */
void job_attempts_text(const smalti_run *run, char *buf, size_t size);

/* The final grid's file by its extension (outputs.c). */
bool job_write_output(const job *j, const smalti_run *run, int32_t seed, const char *path, const char *tileset,
                      bool colours_said, smalti_error *err);
/* A generated tileset (one palette colour per symbol of legend) written once at path, for the maps
   of many runs to share (they name it from their folder). */
bool job_write_tileset(const job *j, const smalti_run *run, const char *path, smalti_error *err);
/* The output of a batch entry's run without a template: DIR/NAME_SEED.png for a 2-D grid or an
   iso entry, else .vox (as MarkovJunior's Program.cs). */
void job_default_output(const job *j, const smalti_run *run, const char *dir, int32_t seed, char *buf, size_t size);
#endif
