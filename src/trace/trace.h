/* trace.h — recording a run into a trace file (docs/trace-format.md) and replaying it to any step. */
#ifndef SMALTI_TRACE_H
#define SMALTI_TRACE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "smalti.h"
#include "../io/output.h"

#define TRACE_VERSION 1

/* ---- Recording ---- */

typedef struct trace_meta {
    const char *model_path;  /* shown by viewers */
    const char *source;      /* the model's XML text, or NULL */
    size_t source_len;
    int32_t seed;
    long step_limit;         /* <= 0: none */
} trace_meta;

typedef struct trace_writer trace_writer;

/* Start recording `run`, which must not have made a step yet, into `path`
   (written under a temporary name, told to `temps`, and renamed by
   trace_writer_finish; "-" is stdout), or into memory when path is NULL.
   Colours come from `pal`. Register the recorder with
   smalti_run_set_observer(run, trace_observe, writer). */
trace_writer *trace_writer_new(const char *path, smalti_run *run, const smalti_model *model, const trace_meta *meta,
                               const palette *pal, const temp_hook *temps, smalti_error *err);
/* Record a run-time warning (smalti_run_set_warn) met while making `step`, at the model's `line`;
   the first TRACE_MAX_WARNINGS are kept (the WARN chunk). */
#define TRACE_MAX_WARNINGS 64
void trace_writer_warn(trace_writer *w, long step, int line, const char *message);
/* The observer (a smalti_observer_fn); userdata is the writer. */
void trace_observe(void *writer, const smalti_step_event *event);
/* Write the end of the trace and its index and put the file in place. False
   (with err) if any write failed during the run or now. */
bool trace_writer_finish(trace_writer *w, smalti_error *err);
/* After finish, in memory mode: the trace's bytes (owned by the writer). */
const uint8_t *trace_writer_bytes(const trace_writer *w, size_t *len);
/* Free the writer; an unfinished file trace is removed. */
void trace_writer_free(trace_writer *w);

/* ---- Reading ---- */

typedef struct trace_node {
    char *kind, *attributes;
    int parent, depth, line;
} trace_node;

/* A run-time warning of the run (the WARN chunk): the step that met it, the model's line, the message. */
typedef struct trace_warning {
    long step;
    int line;
    char *message;
} trace_warning;

/* How the run ended (the ENDS chunk). */
enum { TRACE_END_FINISHED = 0, TRACE_END_LIMIT = 1, TRACE_END_ERROR = 2 };

typedef struct trace_info {
    char *smalti_version, *model_path, *source;
    size_t source_len;
    int32_t seed;
    long step_limit;
    long steps;              /* steps the run made */
    int64_t changes;         /* cell changes recorded over all steps */
    int end;                 /* TRACE_END_* */
    char *end_message;       /* the error for TRACE_END_ERROR, else "" */
    int node_count;
    trace_node *nodes;
    /* The growgrid lattice the run had at its end (the LATT chunk), as smalti_run_geometry gives it:
       lattice_x by lattice_y points, row by row, x then y of each; NULL and 0, 0 when it had none. */
    int lattice_x, lattice_y;
    double *lattice;
    /* The run's run-time warnings (a <wfc> that found no solution), the first TRACE_MAX_WARNINGS
       of them; NULL and 0 when it had none, or the trace is older than the WARN chunk. */
    int warning_count;
    trace_warning *warnings;
} trace_info;

/* One recorded step, as trace_next gives it. */
typedef struct trace_step {
    long step;               /* 1-based */
    int node;                /* the acting node, -1 if none */
    bool new_grid;           /* the step switched to a new grid (a map or wfc node): every cell is new */
    size_t count;            /* cells changed (distinct) */
    const int32_t *cells;    /* their flat indices (NULL when new_grid) */
    const uint8_t *values;   /* their new values */
} trace_step;

typedef struct trace_reader trace_reader;

/* Open a trace; the whole file is checked for framing, and its index read.
   The reader starts at step 0 (the grid before the first step). */
trace_reader *trace_read_file(const char *path, smalti_error *err);
/* The same from bytes in memory (copied). `name` is used in messages. */
trace_reader *trace_read_memory(const uint8_t *data, size_t len, const char *name, smalti_error *err);
void trace_reader_free(trace_reader *r);
const trace_info *trace_reader_info(const trace_reader *r);

/* Put the reader at the grid after `step` (0..steps), starting from the
   nearest keyframe. False (with err) on a corrupt trace or a bad step. */
bool trace_seek(trace_reader *r, long step, smalti_error *err);
/* Make the next step; false at the end or on a corrupt trace (then err is set). */
bool trace_next(trace_reader *r, trace_step *out, smalti_error *err);
/* Replay the whole trace from step 0 and check that it reaches every keyframe
   exactly; leaves the reader at the last step. */
bool trace_verify(trace_reader *r, smalti_error *err);
/* The step the reader stands at, and its grid. */
long trace_position(const trace_reader *r);
const uint8_t *trace_grid(const trace_reader *r, int *mx, int *my, int *mz);
const char *trace_legend(const trace_reader *r);
const uint32_t *trace_colors(const trace_reader *r); /* 0xRRGGBB per legend value */
/* The raw bytes of the trace (for embedding into the viewer). */
const uint8_t *trace_reader_bytes(const trace_reader *r, size_t *len);
#endif
