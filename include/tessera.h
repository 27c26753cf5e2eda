/* tessera.h — public C API of tessera, an interpreter for MarkovJunior models.

   USAGE
   -----
   A model is an XML file. Load it once for a grid size; the result is an
   immutable compiled program that many runs (many seeds, many threads) share:

       ts_error err;
       ts_load_options opt = ts_load_defaults();
       opt.mx = 64; opt.my = 64; opt.mz = 1;
       ts_model *model = ts_model_load("models/Maze.xml", &opt, &err);
       if (!model) { fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.message); ... }

       ts_run *run = ts_run_new(model, 42, &err);      // seed 42
       ts_run_to_end(run, 50000);                       // or: while (ts_run_step(run)) ...
       int mx, my, mz;
       const unsigned char *cells = ts_run_grid(run, &mx, &my, &mz);
       const char *legend = ts_run_legend(run);         // legend[cells[i]] is the symbol
       ts_run_reset(run, 43);                           // reuse the buffers for another seed
       ts_run_free(run);
       ts_model_free(model);

   Cell (x, y, z) is cells[x + y*mx + z*mx*my]. Cell values are indices into
   the legend (the model's `values` string).

   THREADS
   A ts_model is never modified after loading: any number of threads may each
   create their own ts_run from one model and step it concurrently. A ts_run
   must be used by one thread at a time. The library keeps no global state;
   libxml2 does, so a program that loads models from several threads calls
   libxml2's xmlInitParser() once before starting them.

   DETERMINISM
   The random stream is .NET's seeded System.Random, drawn in the reference
   interpreter's order, so a seed gives the grid MarkovJunior's C# gives.

   ERRORS
   Functions that can fail take a ts_error* (may be NULL) and fill in the file,
   line (0 when not tied to a line) and message. Warnings during loading (for
   example an unknown attribute) go to opt.warn, or to stderr when it is NULL.

   OBSERVERS
   ts_run_set_observer registers a callback called after every step with the
   acting node and the flat indices of the cells that step changed (an index
   can appear more than once). Traces, progress bars and live views are built
   on it.
*/
#ifndef TESSERA_H
#define TESSERA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TS_VERSION "0.1.0"

/* Error categories; the CLI maps them to its exit codes. */
typedef enum ts_status {
    TS_OK = 0,
    TS_ERR_MODEL = 1,   /* the model file is wrong: XML, node, attribute, rule */
    TS_ERR_IO = 2,      /* a file could not be read or written */
    TS_ERR_RUNTIME = 3, /* a run failed: out of memory, impossible state */
    TS_ERR_USAGE = 4    /* the caller passed bad arguments */
} ts_status;

typedef struct ts_error {
    ts_status status;
    char file[512];
    int line;           /* 1-based; 0 when the error has no line */
    char message[512];
} ts_error;

typedef void (*ts_warning_fn)(void *userdata, const char *file, int line, const char *message);

typedef struct ts_load_options {
    int mx, my, mz;                  /* grid size; mz = 1 for 2-D */
    const char *const *resource_dirs; /* roots searched for rule images etc. */
    int resource_dir_count;          /* 0: "resources" in the working directory,
                                        then "../resources" beside the model file */
    int allow_any_path;              /* nonzero: resource names may use ".." and
                                        absolute paths (the model is trusted) */
    ts_warning_fn warn;              /* NULL: print "file:line: warning: ..." to stderr */
    void *warn_userdata;
    int quiet;                       /* nonzero: drop warnings */
} ts_load_options;

typedef struct ts_model ts_model;
typedef struct ts_run ts_run;

/* What one step did, handed to an observer. */
typedef struct ts_step_event {
    long step;               /* 1-based number of the step just made */
    int node_id;             /* the leaf node that acted, or -1 if none did */
    const int32_t *changed;  /* flat indices of the cells changed by this step */
    size_t changed_count;
    const unsigned char *grid; /* the grid after the step */
} ts_step_event;

typedef void (*ts_observer_fn)(void *userdata, const ts_step_event *event);

/* One node of the compiled tree, for viewers and tooling. */
typedef struct ts_node_info {
    const char *kind;   /* the element name: "one", "all", "prl", "markov", "sequence", ... */
    int line;           /* source line, 0 for the implicit root markov */
    int parent;         /* parent node id, -1 for the root */
    int depth;
    /* The element's attributes and its non-node children (rules, fields) as
       one short line, such as `in="WBB" out="WAW"` or `steps="5"; rule in="B"
       out="W"`; "" when there are none. Lives as long as the model. */
    const char *attributes;
} ts_node_info;

ts_load_options ts_load_defaults(void);

/* Load and compile a model file for the grid size in opt. NULL on error. */
ts_model *ts_model_load(const char *path, const ts_load_options *opt, ts_error *err);
/* The same from an XML string; name is used in messages. */
ts_model *ts_model_load_string(const char *xml, const char *name, const ts_load_options *opt, ts_error *err);
void ts_model_free(ts_model *model);

int ts_model_node_count(const ts_model *model);
int ts_model_node_info(const ts_model *model, int node_id, ts_node_info *info);
const char *ts_model_legend(const ts_model *model);

/* Runs. ts_run_new seeds the run and puts it before its first step. */
ts_run *ts_run_new(const ts_model *model, int32_t seed, ts_error *err);
void ts_run_reset(ts_run *run, int32_t seed);
void ts_run_free(ts_run *run);

/* Make one step. Returns 1 if a step was made, 0 if the run had already ended. */
int ts_run_step(ts_run *run);
/* Step until the model ends or step_limit steps are made (step_limit <= 0:
   no limit). Returns the step counter. */
long ts_run_to_end(ts_run *run, long step_limit);
int ts_run_finished(const ts_run *run);
/* Nonzero when the run stopped because memory ran out. */
int ts_run_out_of_memory(const ts_run *run);
/* Nonzero when the run stopped on an error (out of memory, or a node's limit
   such as an L-system's maxLength); err, if not NULL, gets file:line: message. */
int ts_run_error(const ts_run *run, ts_error *err);
long ts_run_counter(const ts_run *run);

const unsigned char *ts_run_grid(const ts_run *run, int *mx, int *my, int *mz);
const char *ts_run_legend(const ts_run *run);
void ts_run_set_observer(ts_run *run, ts_observer_fn fn, void *userdata);

#ifdef __cplusplus
}
#endif
#endif
